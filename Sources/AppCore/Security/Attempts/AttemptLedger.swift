import Fluent
import Foundation

/// Where attempts against `AttemptRule`s are counted. A reservation is taken before the work it guards (a password
/// verification, a rate-limited request), atomically for all its keys, so parallel requests cannot get past a limit;
/// it is settled afterwards as counted or released.
///
/// The ledger is per process in memory for the single-process SQLite default, and a table on PostgreSQL, where N
/// stateless API nodes share one database and so one count (`docs/scaling.md`).
public protocol AttemptLedger: Sendable {
    /// Reserves one attempt on every key, or none. `hold: false` counts the attempts at once (a request limit);
    /// `hold: true` keeps them pending until `settle` (a failure limit, whose outcome is not yet known).
    func reserve(_ keys: [AttemptKey], hold: Bool, now: Date, on db: any Database) async throws -> AttemptDecision

    /// Settles a ticket: its attempts on `counting` keys are counted (starting a lockout where one is reached), its
    /// other attempts are dropped, and every counted attempt and block of the `clearing` keys is removed.
    func settle(
        _ ticket: AttemptTicket, counting: [AttemptKey], clearing: [AttemptKey], now: Date, on db: any Database
    ) async throws
}

extension AttemptLedger {
    /// Takes a reservation back entirely (the request was refused by a later check; refused requests do not count).
    public func release(_ ticket: AttemptTicket, now: Date, on db: any Database) async throws {
        try await settle(ticket, counting: [], clearing: [], now: now, on: db)
    }
}

/// `DISABLE_RATE_LIMITS=true` (tests only): every attempt is granted and nothing is counted.
public struct UnlimitedAttemptLedger: AttemptLedger {
    public init() {}

    public func reserve(_ keys: [AttemptKey], hold: Bool, now: Date, on db: any Database) async throws -> AttemptDecision {
        .granted(AttemptTicket(id: UUID(), keys: []))
    }

    public func settle(
        _ ticket: AttemptTicket, counting: [AttemptKey], clearing: [AttemptKey], now: Date, on db: any Database
    ) async throws {}
}
