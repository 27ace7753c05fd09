import Foundation
import NIOConcurrencyHelpers

/// Failed-login throttling per (username, IP), per username and per IP, kept in memory per instance
/// (HelpPet contract §2.3). Thread-safe; time is injectable for tests.
public final class LoginThrottle: Sendable {
    public struct Settings: Sendable {
        public var maxPerKey: Int, maxPerUser: Int, maxPerIP: Int
        public var window: TimeInterval, lockout: TimeInterval
        public init(maxPerKey: Int, maxPerUser: Int, maxPerIP: Int, window: TimeInterval, lockout: TimeInterval) {
            self.maxPerKey = maxPerKey; self.maxPerUser = maxPerUser; self.maxPerIP = maxPerIP
            self.window = window; self.lockout = lockout
        }
    }

    private struct Bucket {
        var failures: [Date] = []
        var blockedUntil: Date?
    }

    private struct State {
        var byKey: [String: Bucket] = [:]
        var byUser: [String: Bucket] = [:]
        var byIP: [String: Bucket] = [:]
    }

    private let settings: Settings
    private let enabled: Bool
    private let state = NIOLockedValueBox(State())

    public init(settings: Settings, enabled: Bool = true) {
        self.settings = settings
        self.enabled = enabled
    }

    /// Seconds the caller must still wait, or nil when the attempt may proceed.
    public func retryAfter(username: String, ip: String, now: Date = Date()) -> Int? {
        guard enabled else { return nil }
        let user = username.lowercased()
        return state.withLockedValue { s in
            let until = [s.byKey[user + "\u{1}" + ip]?.blockedUntil, s.byUser[user]?.blockedUntil, s.byIP[ip]?.blockedUntil]
                .compactMap { $0 }.filter { $0 > now }.max()
            guard let until else { return nil }
            return max(1, Int((until.timeIntervalSince(now)).rounded(.up)))
        }
    }

    public func recordFailure(username: String, ip: String, now: Date = Date()) {
        guard enabled else { return }
        let user = username.lowercased()
        let s = settings
        state.withLockedValue { st in
            Self.add(&st.byKey[user + "\u{1}" + ip, default: Bucket()], now: now, limit: s.maxPerKey, s)
            Self.add(&st.byUser[user, default: Bucket()], now: now, limit: s.maxPerUser, s)
            Self.add(&st.byIP[ip, default: Bucket()], now: now, limit: s.maxPerIP, s)
            if st.byKey.count > 100_000 { Self.prune(&st, now: now, window: s.window) }
        }
    }

    /// A success clears its (username, IP) key only; the per-user and per-IP counts expire with their window.
    public func recordSuccess(username: String, ip: String) {
        let key = username.lowercased() + "\u{1}" + ip
        state.withLockedValue { _ = $0.byKey.removeValue(forKey: key) }
    }

    private static func add(_ bucket: inout Bucket, now: Date, limit: Int, _ s: Settings) {
        bucket.failures = bucket.failures.filter { now.timeIntervalSince($0) < s.window }
        bucket.failures.append(now)
        if bucket.failures.count >= limit { bucket.blockedUntil = now.addingTimeInterval(s.lockout) }
    }

    private static func prune(_ st: inout State, now: Date, window: TimeInterval) {
        func stale(_ b: Bucket) -> Bool {
            (b.blockedUntil ?? .distantPast) < now && (b.failures.last.map { now.timeIntervalSince($0) >= window } ?? true)
        }
        st.byKey = st.byKey.filter { !stale($0.value) }
        st.byUser = st.byUser.filter { !stale($0.value) }
        st.byIP = st.byIP.filter { !stale($0.value) }
    }
}
