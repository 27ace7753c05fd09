import AppCore
import Fluent
import Foundation
import NIOCore
import Vapor

/// The read path's process-local caches (docs/read-path.md).
///
/// - `identities`: what a bearer token is checked against (token version, role, practice, active, linked owner),
///   so a request needs no query to authenticate. A change made through this process is seen by its next request
///   (`invalidate`); one made through another node within `lifetime`: a revoked token (password, role or
///   activation change) stops working within one second on every node.
/// - `practiceZones`: each practice's time zone, which every day window needs; same bound.
final class ReadPathCaches: Sendable {
    static let lifetime: TimeAmount = .seconds(1)

    let identities = ExpiringCache<UUID, CallerIdentityRow>(lifetime: lifetime)
    let practiceZones = ExpiringCache<UUID, PracticeZone>(lifetime: lifetime)
    /// The day boards' stamps (BoardStore.version) by practice and days shown, for a quarter of a second: every open
    /// board polls, and most polls are answered 304 from the stamp alone, so one statement serves all the polls of
    /// that moment. Any write through this process drops them all (`BoardStampInvalidation`); a write through the
    /// worker or another node shows within their lifetime.
    let boardStamps: ExpiringCache<String, String>

    init(boardStampLifetime: TimeAmount = .milliseconds(250)) {
        boardStamps = ExpiringCache(lifetime: boardStampLifetime, maxEntries: 1_000)
    }

    func identity(of userID: UUID, on db: any Database) async throws -> CallerIdentityRow? {
        try await identities.value(for: userID) { try await UserStore(db: db).callerIdentity(userID) }
    }

    /// The practice's zone; nil when no such practice exists.
    func zone(of practiceID: UUID, on db: any Database) async throws -> PracticeZone? {
        try await practiceZones.value(for: practiceID) { try await PracticeStore(db: db).zone(of: practiceID) }
    }
}

extension Application {
    private struct ReadPathCachesKey: StorageKey { typealias Value = ReadPathCaches }

    /// Created by `HelpPetModule.configure`; one per process.
    var readPathCaches: ReadPathCaches {
        get {
            guard let caches = storage[ReadPathCachesKey.self] else {
                fatalError("HelpPetModule.configure must run before the read-path caches are used")
            }
            return caches
        }
        set { storage[ReadPathCachesKey.self] = newValue }
    }
}

extension Request {
    var readPathCaches: ReadPathCaches { application.readPathCaches }
}
