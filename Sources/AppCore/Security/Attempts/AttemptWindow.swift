import Foundation

/// What the ledger knows of one key at the moment of a reservation, and the rule's verdict on it. Both ledgers (in
/// memory, PostgreSQL) load this and let it decide, so the two cannot disagree.
struct AttemptWindow: Sendable {
    /// Times of the counted attempts that are still inside the window.
    var counted: [Date] = []
    /// Attempts reserved and not yet settled (a password being verified), still younger than `pendingLifetime`.
    var pending: Int = 0
    var blockedUntil: Date?

    /// A reservation whose process died before settling stops holding its key after this long.
    static let pendingLifetime: TimeInterval = 120

    /// nil when one more attempt may be reserved, else the seconds to wait.
    func retryAfter(_ rule: AttemptRule, now: Date) -> Int? {
        if let blockedUntil, blockedUntil > now { return Self.seconds(until: blockedUntil, from: now) }
        let live = counted.filter { now.timeIntervalSince($0) < rule.window }
        if live.count >= rule.limit, rule.lockout == nil, let oldest = live.min() {
            return Self.seconds(until: oldest.addingTimeInterval(rule.window), from: now)
        }
        // Attempts in flight hold their places: they settle within a password verification.
        if live.count + pending >= rule.limit { return 1 }
        return nil
    }

    /// After an attempt was counted: the block a lockout rule starts, if the count reached the limit.
    func lockoutReached(_ rule: AttemptRule, now: Date) -> Date? {
        guard let lockout = rule.lockout else { return nil }
        let live = counted.filter { now.timeIntervalSince($0) < rule.window }
        return live.count >= rule.limit ? now.addingTimeInterval(lockout) : nil
    }

    static func seconds(until end: Date, from now: Date) -> Int {
        max(1, Int(end.timeIntervalSince(now).rounded(.up)))
    }
}
