import Foundation

/// One limit on attempts (contract HelpPet §2.3, AutoDetail §2.7): at most `limit` counted attempts per key within
/// `window`. With a `lockout`, reaching the limit blocks the key for that long from the attempt that reached it and
/// starts its count afresh; without one, the window slides and a refused caller waits until the oldest counted
/// attempt leaves it.
public struct AttemptRule: Sendable, Hashable {
    /// Namespaces the keys in the shared ledger (`helppet.login.pair`, `autodetail.ios_init`…).
    public let name: String
    public let limit: Int
    public let window: TimeInterval
    public let lockout: TimeInterval?

    public init(name: String, limit: Int, window: TimeInterval, lockout: TimeInterval? = nil) {
        precondition(limit > 0 && window > 0, "an attempt rule needs a positive limit and window")
        self.name = name
        self.limit = limit
        self.window = window
        self.lockout = lockout
    }

    public func key(_ value: String) -> AttemptKey { AttemptKey(rule: self, value: value) }
}

/// A rule applied to one caller (an IP, a username, a (username, IP) pair).
public struct AttemptKey: Sendable, Hashable, Comparable {
    public let rule: AttemptRule
    public let value: String

    /// Keys are locked in this order, so two reservations of overlapping keys never deadlock.
    public static func < (a: AttemptKey, b: AttemptKey) -> Bool { (a.rule.name, a.value) < (b.rule.name, b.value) }
}

/// A granted reservation: one attempt held against each of its keys until it is settled.
public struct AttemptTicket: Sendable {
    public let id: UUID
    public let keys: [AttemptKey]
}

public enum AttemptDecision: Sendable {
    case granted(AttemptTicket)
    /// Seconds until an attempt can be granted again (at least 1).
    case refused(retryAfter: Int)
}
