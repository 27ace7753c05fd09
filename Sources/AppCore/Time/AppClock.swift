import Foundation
import NIOConcurrencyHelpers

/// The server's notion of "now", behind a protocol so tests can move time (day boundaries, expiry).
public protocol AppClock: Sendable {
    func now() -> Date
}

public struct SystemClock: AppClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock tests can set and advance.
public final class ManualClock: AppClock {
    private let current: NIOLockedValueBox<Date>
    public init(_ start: Date) { current = NIOLockedValueBox(start) }
    public func now() -> Date { current.withLockedValue { $0 } }
    public func set(_ date: Date) { current.withLockedValue { $0 = date } }
    public func advance(by seconds: TimeInterval) { current.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
}
