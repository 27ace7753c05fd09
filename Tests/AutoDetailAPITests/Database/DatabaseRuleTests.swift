import AppCore
import Foundation
import SQLKit
import Testing

/// Contract §3.9: every rule the database enforces, checked by running the violating SQL directly against the migrated
/// schema (SQLite by default, PostgreSQL with `DATABASE_URL`). Each violation follows a control statement of the same
/// shape that must succeed.
@Suite struct DatabaseRuleTests {
    /// Rows to build violations on.
    struct Rows {
        let sql: RawSQL
        let now = Date()

        func service(_ id: UUID = UUID(), name: String, active: Bool = true, price: Int = 100, duration: Int = 60) -> SQLQueryString {
            """
            INSERT INTO ad_services (id, name, name_normalized, description, price_rub, duration_minutes, active, created_at,
                updated_at)
            VALUES (\(bind: id), \(bind: name), \(bind: name.lowercased()), '', \(bind: price), \(bind: duration), \(bind: active),
                \(bind: now), \(bind: now))
            """
        }

        func key(_ id: UUID = UUID(), hash: String, kind: String = "org", fullAccess: Bool = false) -> SQLQueryString {
            """
            INSERT INTO ad_api_keys (id, kind, name, key_prefix, key_hash, full_access, created_at, request_count, revoked)
            VALUES (\(bind: id), \(bind: kind), 'k', 'org_1741597200_0000', \(bind: hash), \(bind: fullAccess), \(bind: now),
                0, \(bind: false))
            """
        }

        func install(_ id: UUID = UUID(), key: UUID, priority: String = "normal") -> SQLQueryString {
            """
            INSERT INTO ad_install_profiles (id, api_key_id, priority, search_text, created_at, updated_at)
            VALUES (\(bind: id), \(bind: key), \(bind: priority), '', \(bind: now), \(bind: now))
            """
        }

        func appointment(
            _ id: UUID = UUID(), service: UUID, key: UUID?, source: String = "api", status: String = "new",
            length: TimeInterval = 3600, price: Int = 100, install: UUID? = nil
        ) -> SQLQueryString {
            """
            INSERT INTO ad_appointments (id, source, status, start_at, end_at, client_name, service_id, service_name,
                price_rub, install_id, created_by_key_id, search_text, created_at, updated_at)
            VALUES (\(bind: id), \(bind: source), \(bind: status), \(bind: now), \(bind: now.addingTimeInterval(length)), 'C',
                \(bind: service), 'S', \(bind: price), \(bind: install), \(bind: key), '', \(bind: now), \(bind: now))
            """
        }

        func upload(_ id: UUID = UUID(), appointment: UUID, key: String, kind: String = "work", type: String = "image/jpeg")
            -> SQLQueryString
        {
            """
            INSERT INTO ad_uploads (id, appointment_id, kind, object_key, content_type, filename, created_at, url_expires_at)
            VALUES (\(bind: id), \(bind: appointment), \(bind: kind), \(bind: key), \(bind: type), 'a.jpg', \(bind: now),
                \(bind: now))
            """
        }

        func photo(appointment: UUID, key: String, kind: String = "work", position: Int) -> SQLQueryString {
            """
            INSERT INTO ad_photos (id, appointment_id, kind, object_key, content_type, etag, size_bytes,
                upload_url_expires_at, mismatch, position, created_at)
            VALUES (\(bind: UUID()), \(bind: appointment), \(bind: kind), \(bind: key), 'image/jpeg', 'e', 10, \(bind: now),
                \(bind: false), \(bind: position), \(bind: now))
            """
        }
    }

    static func hash(_ c: Character) -> String { String(repeating: c, count: 64) }

    @Test("unique: key hash, install per key, object keys, admin username, session token, idempotency")
    func uniqueness() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let rows = Rows(sql: sql)
            let keyID = UUID(), otherKey = UUID(), service = UUID(), appointment = UUID()
            try await sql.run(rows.key(keyID, hash: Self.hash("a")))
            await sql.expectRejected(.unique, rows.key(hash: Self.hash("a")))
            try await sql.run(rows.key(otherKey, hash: Self.hash("b"), kind: "ios"))
            try await sql.run(rows.install(key: otherKey))
            await sql.expectRejected(.unique, rows.install(key: otherKey))
            try await sql.run(rows.service(service, name: "Unique test"))
            try await sql.run(rows.appointment(appointment, service: service, key: keyID))
            try await sql.run(rows.upload(appointment: appointment, key: "appointments/a/work/1.jpg"))
            await sql.expectRejected(.unique, rows.upload(appointment: appointment, key: "appointments/a/work/1.jpg"))
            try await sql.run(rows.photo(appointment: appointment, key: "appointments/a/work/1.jpg", position: 1))
            await sql.expectRejected(.unique, rows.photo(appointment: appointment, key: "appointments/a/work/1.jpg", position: 2))
            await sql.expectRejected(.unique, rows.photo(appointment: appointment, key: "appointments/a/work/2.jpg", position: 1))
            let user = UUID()
            try await sql.run("""
                INSERT INTO ad_admin_users (id, username, password_hash, created_at, password_changed_at)
                VALUES (\(bind: user), 'second', 'x', \(bind: rows.now), \(bind: rows.now))
                """)
            await sql.expectRejected(.unique, """
                INSERT INTO ad_admin_users (id, username, password_hash, created_at, password_changed_at)
                VALUES (\(bind: UUID()), 'admin', 'x', \(bind: rows.now), \(bind: rows.now))
                """)
            await sql.expectRejected(.check, """
                INSERT INTO ad_admin_users (id, username, password_hash, created_at, password_changed_at)
                VALUES (\(bind: UUID()), 'Third', 'x', \(bind: rows.now), \(bind: rows.now))
                """)
            let session: (String) -> SQLQueryString = { hash in
                """
                INSERT INTO ad_admin_sessions (id, admin_user_id, token_hash, created_at, expires_at)
                VALUES (\(bind: UUID()), \(bind: user), \(bind: hash), \(bind: rows.now), \(bind: rows.now))
                """
            }
            try await sql.run(session(Self.hash("c")))
            await sql.expectRejected(.unique, session(Self.hash("c")))
            let record: (String) -> SQLQueryString = { key in
                """
                INSERT INTO ad_idempotency_records (credential_id, idempotency_key, request_hash, appointment_id, created_at)
                VALUES (\(bind: keyID), \(bind: key), 'h', \(bind: appointment), \(bind: rows.now))
                """
            }
            try await sql.run(record("k1"))
            await sql.expectRejected(.unique, record("k1"))
        }
    }

    @Test("unique active service names (partial index on the normalised name)")
    func serviceNames() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let rows = Rows(sql: sql)
            await sql.expectRejected(.unique, rows.service(name: "Car Washing"))
            try await sql.run(rows.service(name: "Car Washing", active: false))
            try await sql.run(rows.service(name: "Car Washing", active: false))
        }
    }

    @Test("checks: enums, intervals, prices, durations, settings ranges, install keys without full access")
    func checks() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let rows = Rows(sql: sql)
            let key = UUID(), service = UUID()
            try await sql.run(rows.key(key, hash: Self.hash("d")))
            await sql.expectRejected(.check, rows.key(hash: Self.hash("e"), kind: "partner"))
            await sql.expectRejected(.check, rows.key(hash: Self.hash("f"), kind: "ios", fullAccess: true))
            await sql.expectRejected(.check, rows.key(hash: "short"))
            try await sql.run(rows.key(hash: Self.hash("g"), kind: "org", fullAccess: true))
            await sql.expectRejected(.check, rows.service(name: "Negative", price: -1))
            await sql.expectRejected(.check, rows.service(name: "Too short", duration: 10))
            await sql.expectRejected(.check, rows.service(name: "Too long", duration: 725))
            await sql.expectRejected(.check, rows.service(name: "Odd", duration: 47))
            try await sql.run(rows.service(service, name: "Checks"))
            try await sql.run(rows.appointment(service: service, key: key))
            await sql.expectRejected(.check, rows.appointment(service: service, key: key, status: "waiting"))
            await sql.expectRejected(.check, rows.appointment(service: service, key: key, source: "web"))
            await sql.expectRejected(.check, rows.appointment(service: service, key: key, length: 0))
            await sql.expectRejected(.check, rows.appointment(service: service, key: key, length: -60))
            await sql.expectRejected(.check, rows.appointment(service: service, key: key, price: -5))
            await sql.expectRejected(.check, rows.appointment(service: service, key: nil, source: "api"))
            await sql.expectRejected(.check, rows.appointment(service: service, key: key, source: "admin"))
            try await sql.run(rows.appointment(service: service, key: nil, source: "admin"))
            let install = UUID(), installKey = UUID()
            try await sql.run(rows.key(installKey, hash: Self.hash("h"), kind: "ios"))
            await sql.expectRejected(.check, rows.install(key: installKey, priority: "vip"))
            try await sql.run(rows.install(install, key: installKey))
            let appointment = UUID()
            try await sql.run(rows.appointment(appointment, service: service, key: key))
            await sql.expectRejected(.check, rows.upload(appointment: appointment, key: "k1", kind: "before"))
            await sql.expectRejected(.check, rows.upload(appointment: appointment, key: "k2", type: "image/gif"))
            await sql.expectRejected(.check, rows.photo(appointment: appointment, key: "k3", kind: "after", position: 1))
            for (column, value) in [("capacity", 0), ("slot_step_minutes", 7), ("booking_window_days", 0), ("lead_time_minutes", -1)] {
                await sql.expectRejected(.check, "UPDATE ad_studio_settings SET \(unsafeRaw: column) = \(bind: value) WHERE id = 1")
            }
            try await sql.run("UPDATE ad_studio_settings SET capacity = 3 WHERE id = 1")
        }
    }

    @Test("settings: exactly one row")
    func oneSettingsRow() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let now = Date()
            let rowsBefore = try await app.count("SELECT COUNT(*) AS n FROM ad_studio_settings")
            #expect(rowsBefore == 1)
            let insert: (Int) -> SQLQueryString = { id in
                """
                INSERT INTO ad_studio_settings (id, studio_name, timezone, working_hours, slot_step_minutes, capacity,
                    booking_window_days, lead_time_minutes, updated_at)
                VALUES (\(bind: id), 'S', 'UTC', '{}', 30, 2, 30, 60, \(bind: now))
                """
            }
            await sql.expectRejected(.unique, insert(1))
            await sql.expectRejected(.check, insert(2))
            await sql.expectRejected(.trigger, "DELETE FROM ad_studio_settings")
            let rowsAfter = try await app.count("SELECT COUNT(*) AS n FROM ad_studio_settings")
            #expect(rowsAfter == 1)
        }
    }

    @Test("foreign keys: restrict, cascade and set null")
    func foreignKeys() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let rows = Rows(sql: sql)
            let key = UUID(), service = UUID(), appointment = UUID(), installKey = UUID(), install = UUID()
            try await sql.run(rows.key(key, hash: Self.hash("i")))
            await sql.expectRejected(.foreignKey, rows.appointment(service: UUID(), key: key))
            try await sql.run(rows.service(service, name: "FK"))
            await sql.expectRejected(.foreignKey, rows.appointment(service: service, key: UUID()))
            try await sql.run(rows.key(installKey, hash: Self.hash("j"), kind: "ios"))
            try await sql.run(rows.install(install, key: installKey))
            try await sql.run(rows.appointment(appointment, service: service, key: installKey, source: "ios", install: install))
            await sql.expectRejected(.foreignKey, rows.upload(appointment: UUID(), key: "fk1"))
            await sql.expectRejected(.foreignKey, rows.photo(appointment: UUID(), key: "fk2", position: 1))
            try await sql.run(rows.upload(appointment: appointment, key: "fk3"))
            // Services and appointments with photos/uploads cannot be deleted; keys with installs neither.
            await sql.expectRejected(.foreignKey, "DELETE FROM ad_services WHERE id = \(bind: service)")
            await sql.expectRejected(.foreignKey, "DELETE FROM ad_appointments WHERE id = \(bind: appointment)")
            await sql.expectRejected(.foreignKey, "DELETE FROM ad_api_keys WHERE id = \(bind: installKey)")
            await sql.expectRejected(.foreignKey, """
                INSERT INTO ad_messages (id, install_id, text, created_at) VALUES (\(bind: UUID()), \(bind: UUID()), 't', \(bind: rows.now))
                """)
            try await sql.run("""
                INSERT INTO ad_messages (id, install_id, text, created_at) VALUES (\(bind: UUID()), \(bind: install), 't', \(bind: rows.now))
                """)
            // Deleting an install cascades to its messages and clears the appointments' install.
            try await sql.run("DELETE FROM ad_install_profiles WHERE id = \(bind: install)")
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_messages") == 0)
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_appointments WHERE install_id IS NULL AND id = \(bind: appointment)") == 1)
        }
    }
}
