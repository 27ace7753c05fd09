import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// `server seed` for AutoDetail Hub: the first start (§8) when this database has not had one, then the demo data
/// whatever `SEED_DEMO_DATA` said at that first start. Idempotent: existing rows are kept, a demo service is added
/// only when no active service has its name, and an organisation key only when no live one exists.
enum AutoDetailDemoSeed {
    /// Returns the one-time lines to print (the admin password and a new key; empty when nothing secret was made).
    static func run(_ app: Application) async throws -> [String] {
        var lines = try await AutoDetailFirstStart.run(app) ?? []
        let now = WireTime.truncated(app.core.clock.now())
        let orgKey = Secrets.newAPIKey(kind: .org, now: now)
        let createdKey = try await app.db.writeTransaction { db -> Bool in
            for (name, description, price, duration) in AutoDetailFirstStart.demoServices {
                // ON CONFLICT without a target also covers the partial unique index on active names (both engines).
                try await db.sql.raw("""
                    INSERT INTO ad_services (id, name, name_normalized, description, price_rub, duration_minutes, image_url,
                        active, created_at, updated_at)
                    VALUES (\(bind: UUID()), \(bind: name), \(bind: ServiceRow.normalizedName(name)), \(bind: description),
                        \(bind: price), \(bind: duration), NULL, \(bind: true), \(bind: now), \(bind: now))
                    ON CONFLICT DO NOTHING
                    """).run()
            }
            let live = try await db.sql.raw(
                "SELECT id FROM ad_api_keys WHERE kind = 'org' AND revoked = \(bind: false) LIMIT 1").first()
            guard live == nil else { return false }
            try await db.sql.raw("""
                INSERT INTO ad_api_keys (id, kind, name, key_prefix, key_hash, full_access, created_at, request_count, revoked)
                VALUES (\(bind: UUID()), 'org', 'Default integration key', \(bind: Secrets.keyPrefix(orgKey)),
                    \(bind: Secrets.hash(orgKey)), \(bind: false), \(bind: now), 0, \(bind: false))
                """).run()
            return true
        }
        if createdKey { lines.append("AutoDetail Hub demo seed: organisation API key \(orgKey) (shown once)") }
        return lines
    }
}
