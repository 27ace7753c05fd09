import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The first start of AutoDetail Hub on a database (contract §8). One process wins the `bootstrap_markers` row
/// (`INSERT … ON CONFLICT DO NOTHING RETURNING`) and, in the same transaction, creates the admin user and — with
/// `SEED_DEMO_DATA` — the demo services and one organisation key. The StudioSettings row with the defaults of §3.2
/// already exists (migration M0202). Later starts never repeat any step, even if rows were deleted.
enum AutoDetailFirstStart {
    static let adminUsername = "admin"

    /// The demo services of §8 (name, description, priceRub, durationMinutes).
    static let demoServices: [(String, String, Int, Int)] = [
        ("Car Washing", "Two-phase contact wash, wheels and arches, hand drying, quick interior vacuum.", 1500, 60),
        ("Interior Detailing", "Deep cleaning of seats, carpets and headliner; plastics cleaned and protected.", 7500, 180),
        ("Machine Polishing", "Two-step paint correction that removes swirls and light scratches, finished with wax.", 12000, 240),
        ("Ceramic Coating", "Decontamination and paint preparation followed by a two-layer ceramic coating.", 35000, 480),
        ("Headlight Restoration", "Sanding, polishing and UV-protective sealing of both headlights.", 3000, 90),
        ("Engine Bay Cleaning", "Careful degreasing and low-pressure rinse of the engine bay, plastics dressed.", 2500, 60),
    ]

    /// Runs the first start if this database has none yet; returns the one-time lines to print (nil when another
    /// start already happened).
    static func run(_ app: Application) async throws -> [String]? {
        let db = app.db
        let marker = try await db.sql.raw(
            "SELECT product FROM bootstrap_markers WHERE product = \(bind: "autodetail")").first()
        if marker != nil { return nil }

        let config = app.core.config
        let now = WireTime.truncated(app.core.clock.now())
        let generated = config.autodetail.adminPassword == nil
        let password = config.autodetail.adminPassword ?? Secrets.newPassword()
        // bcrypt runs before the transaction (never inside one).
        let hash = try await app.core.passwordHasher.hash(password)
        let seed = config.seedDemoData
        let orgKey = Secrets.newAPIKey(kind: .org, now: now)

        let won = try await db.writeTransaction { db -> Bool in
            guard try await BootstrapMarker.claimFirstStart(product: "autodetail", now: now, on: db) else { return false }
            try await db.sql.raw("""
                INSERT INTO ad_admin_users (id, username, password_hash, created_at, password_changed_at)
                VALUES (\(bind: UUID()), \(bind: adminUsername), \(bind: hash), \(bind: now), \(bind: now))
                ON CONFLICT DO NOTHING
                """).run()
            guard seed else { return true }
            for (name, description, price, duration) in demoServices {
                try await db.sql.raw("""
                    INSERT INTO ad_services (id, name, name_normalized, description, price_rub, duration_minutes, image_url,
                        active, created_at, updated_at)
                    VALUES (\(bind: UUID()), \(bind: name), \(bind: ServiceRow.normalizedName(name)), \(bind: description),
                        \(bind: price), \(bind: duration), NULL, \(bind: true), \(bind: now), \(bind: now))
                    ON CONFLICT DO NOTHING
                    """).run()
            }
            try await db.sql.raw("""
                INSERT INTO ad_api_keys (id, kind, name, key_prefix, key_hash, full_access, created_at, request_count, revoked)
                VALUES (\(bind: UUID()), 'org', 'Default integration key', \(bind: Secrets.keyPrefix(orgKey)),
                    \(bind: Secrets.hash(orgKey)), \(bind: false), \(bind: now), 0, \(bind: false))
                """).run()
            return true
        }
        guard won else { return nil }
        var lines: [String] = []
        if generated {
            lines.append(
                "AutoDetail Hub first start: admin username=admin password=\(password) (shown once; change it with POST /api/admin/password)")
        }
        if seed { lines.append("AutoDetail Hub first start: organisation API key \(orgKey) (shown once)") }
        return lines
    }
}
