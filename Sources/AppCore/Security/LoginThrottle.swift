import Fluent
import Foundation

/// Failed-login throttling, shared by HelpPet's login (§2.3) and AutoDetail's admin login (§2.7).
///
/// An attempt is reserved on every limit before its password is verified, so parallel guesses hold places and
/// cannot exceed a limit: a burst of 120 wrong passwords gets at most the limit verified, the rest 429 (and a correct
/// password inside the burst is refused like the others). A failure counts against every failure limit; a success
/// counts against the success limits only and clears the (username, IP) failure limits. The ledger keeps the count
/// per process on SQLite and in the database on PostgreSQL, so N API nodes share one limit.
public struct LoginThrottle: Sendable {
    /// Which part of an attempt a limit is kept per.
    public enum Scope: Sendable {
        case usernameAndIP, username, ip
    }

    /// Which outcomes a limit counts. Failures are what guessing produces; a success limit only bounds how often one
    /// account may sign in from one address (each success costs a password hash and a new session).
    public enum Counted: Sendable {
        case failures, successes
    }

    public struct Limit: Sendable {
        public let rule: AttemptRule
        public let scope: Scope
        public let counted: Counted
        public init(_ rule: AttemptRule, per scope: Scope, counting counted: Counted = .failures) {
            self.rule = rule
            self.scope = scope
            self.counted = counted
        }
    }

    public enum Outcome<Account: Sendable>: Sendable {
        /// Not verified: a limit is reached (or held by attempts in flight).
        case refused(retryAfter: Int)
        case failed
        case succeeded(Account)
    }

    let limits: [Limit]
    let ledger: any AttemptLedger
    let clock: any AppClock

    public init(limits: [Limit], ledger: any AttemptLedger, clock: any AppClock) {
        self.limits = limits
        self.ledger = ledger
        self.clock = clock
    }

    /// Reserves the attempt, runs `verify` (nil: wrong credentials) and settles the reservation with its outcome.
    /// An error thrown by `verify` releases the reservation and is rethrown.
    public func attempt<Account: Sendable>(
        username: String, ip: String, on db: any Database, verify: () async throws -> Account?
    ) async throws -> Outcome<Account> {
        let user = username.lowercased()
        let keys = limits.map { limit in
            switch limit.scope {
            case .usernameAndIP: limit.rule.key(user + "\u{1}" + ip)
            case .username: limit.rule.key(user)
            case .ip: limit.rule.key(ip)
            }
        }
        let ticket: AttemptTicket
        switch try await ledger.reserve(keys, hold: true, now: clock.now(), on: db) {
        case .refused(let wait): return .refused(retryAfter: wait)
        case .granted(let granted): ticket = granted
        }
        let account: Account?
        do {
            account = try await verify()
        } catch {
            try? await ledger.release(ticket, now: clock.now(), on: db)
            throw error
        }
        let failureKeys = zip(limits, keys).filter { $0.0.counted == .failures }
        guard let account else {
            try await ledger.settle(ticket, counting: failureKeys.map(\.1), clearing: [], now: clock.now(), on: db)
            return .failed
        }
        let successKeys = zip(limits, keys).filter { $0.0.counted == .successes }.map(\.1)
        let pairFailureKeys = failureKeys.filter { $0.0.scope == .usernameAndIP }.map(\.1)
        try await ledger.settle(ticket, counting: successKeys, clearing: pairFailureKeys, now: clock.now(), on: db)
        return .succeeded(account)
    }
}
