import AppCore
import Fluent
import Foundation
import SQLKit

/// The studio's customers: app installations (`ad_install_profiles`, contract §3.6, §4.6, §4.7.5), each identified
/// by its install key. Writes that change what the key check answers (priority, delete) clear this process's
/// `KeyCallerCache` after they are done.
struct InstallStore: Sendable {
    let db: any Database
    let cache: KeyCallerCache

    private static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// `POST /api/ios/init`: a new install key (value `key`) and an empty profile with priority `normal`, in one
    /// write transaction. Returns the install id.
    func register(key: String, now: Date) async throws -> UUID {
        let installID = UUID()
        let cache = self.cache
        try await db.writeTransaction { db in
            let keyRow = try await ApiKeyStore(db: db, cache: cache)
                .insert(kind: .ios, name: "iOS install", key: key, fullAccess: false, now: now)
            try await db.sql.raw("""
                INSERT INTO ad_install_profiles (id, api_key_id, priority, search_text, created_at, updated_at)
                VALUES (\(bind: installID), \(bind: keyRow.id), 'normal',
                    \(bind: InstallRecord.searchText(name: nil, carPlate: nil, phone: nil, keyPrefix: keyRow.keyPrefix)),
                    \(bind: now), \(bind: now))
                """).run()
        }
        return installID
    }

    /// A page of installs: `lastSeenAt` descending (nulls last), then `createdAt` descending, then id; with the
    /// number matching the filters.
    func page(search: String?, priority: String?, limit: Int, offset: Int) async throws
        -> (items: [IosUserRow], total: Int)
    {
        var conditions: [SQLQueryString] = []
        if let search {
            let function = db.engine == .postgres ? "strpos" : "instr"
            conditions.append("\(unsafeRaw: function)(p.search_text, \(bind: search)) > 0")
        }
        if let priority { conditions.append("p.priority = \(bind: priority)") }
        var whereClause: SQLQueryString = ""
        if !conditions.isEmpty { whereClause = " WHERE " + conditions.joined(separator: " AND ") }
        let total = try await db.sql.raw("SELECT COUNT(*) AS total FROM ad_install_profiles p\(whereClause)")
            .first(decoding: InstallTotal.self, with: Self.rowDecoding)?.total ?? 0
        let rows = try await select(whereClause + """
             ORDER BY CASE WHEN p.last_seen_at IS NULL THEN 1 ELSE 0 END, p.last_seen_at DESC, p.created_at DESC, p.id
             LIMIT \(bind: limit) OFFSET \(bind: offset)
            """)
        return (rows, total)
    }

    func iosUser(_ installID: UUID) async throws -> IosUserRow? {
        try await select(" WHERE p.id = \(bind: installID)").first
    }

    /// Totals for the console: all installs, seen since `activeSince`, high priority, blocked.
    func stats(activeSince: Date) async throws -> InstallStatsRow {
        guard let row = try await db.sql.raw("""
            SELECT COUNT(*) AS total,
                COALESCE(SUM(CASE WHEN last_seen_at >= \(bind: activeSince) THEN 1 ELSE 0 END), 0) AS active,
                COALESCE(SUM(CASE WHEN priority = 'high' THEN 1 ELSE 0 END), 0) AS high,
                COALESCE(SUM(CASE WHEN priority = 'blocked' THEN 1 ELSE 0 END), 0) AS blocked
            FROM ad_install_profiles
            """).first(decoding: InstallStatsRow.self, with: Self.rowDecoding)
        else { throw APIError(.internalServerError, "Internal server error") }
        return row
    }

    func exists(_ installID: UUID) async throws -> Bool {
        try await db.sql.raw("SELECT COUNT(*) AS total FROM ad_install_profiles WHERE id = \(bind: installID)")
            .first(decoding: InstallTotal.self, with: Self.rowDecoding).map { $0.total > 0 } ?? false
    }

    /// The install's profile (the app's own view) with its key prefix; nil when deleted.
    func profile(_ installID: UUID) async throws -> InstallRecord? {
        try await InstallRecord.find(installID, on: db)
    }

    /// Replaces the app's profile fields (and the console's search text, which includes the key prefix).
    func saveProfile(_ install: InstallRecord, now: Date) async throws {
        let prefix = try await db.sql.raw("SELECT key_prefix FROM ad_api_keys WHERE id = \(bind: install.apiKeyID)")
            .first(decoding: KeyPrefix.self, with: Self.rowDecoding)?.keyPrefix ?? ""
        install.searchText = InstallRecord.searchText(
            name: install.name, carPlate: install.carPlate, phone: install.phone, keyPrefix: prefix)
        install.updatedAt = now
        try await install.update(on: db)
    }

    /// `blocked` makes the install key answer 403 from this process's next request; `normal`/`high` lifts it.
    func setPriority(_ installID: UUID, _ priority: String, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE ad_install_profiles SET priority = \(bind: priority), updated_at = \(bind: now)
            WHERE id = \(bind: installID) AND priority <> \(bind: priority)
            """).run()
        cache.invalidateAll()
    }

    /// Revokes the key, detaches the install's appointments, deletes its messages and the profile, in one write
    /// transaction; false when the install did not exist.
    func delete(_ installID: UUID, now: Date) async throws -> Bool {
        let cache = self.cache
        let deleted = try await db.writeTransaction { db -> Bool in
            guard let key = try await db.sql.raw("SELECT api_key_id FROM ad_install_profiles WHERE id = \(bind: installID)")
                .first(decoding: InstallKey.self, with: Self.rowDecoding)
            else { return false }
            try await ApiKeyStore(db: db, cache: cache).revoke(key.apiKeyId, now: now)
            try await BookingStore(db: db).detachInstall(installID)
            try await MessageStore(db: db).deleteAll(of: installID)
            try await db.sql.raw("DELETE FROM ad_install_profiles WHERE id = \(bind: installID)").run()
            return true
        }
        cache.invalidateAll()
        return deleted
    }

    /// Installs with their key's prefix and request count and their counts, in one query (no N+1).
    private func select(_ tail: SQLQueryString) async throws -> [IosUserRow] {
        try await db.sql.raw("""
            SELECT p.id, p.name, p.car_make, p.car_plate, p.phone, p.telegram, p.profile_photo_url, p.priority,
                p.created_at, p.updated_at, p.last_seen_at, p.last_activity_path, k.key_prefix, k.request_count,
                (SELECT COUNT(*) FROM ad_appointments a WHERE a.install_id = p.id) AS appointment_count,
                (SELECT COUNT(*) FROM ad_messages m WHERE m.install_id = p.id AND m.read_at IS NULL) AS unread_count
            FROM ad_install_profiles p JOIN ad_api_keys k ON k.id = p.api_key_id
            """ + tail).all(decoding: IosUserRow.self, with: Self.rowDecoding)
    }

    private struct InstallTotal: Decodable { let total: Int }
    private struct InstallKey: Decodable { let apiKeyId: UUID }
    private struct KeyPrefix: Decodable { let keyPrefix: String }
}
