import Foundation

/// A clock tests can set and move; the store and verifier read it through `now`.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: @Sendable () -> Date { { [self] in lock.withLock { current } } }

    func set(_ date: Date) { lock.withLock { current = date } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}
