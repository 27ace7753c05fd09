import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// App installations in the console (contract §4.7.5): list with search, stats, details with messages, priority
/// (blocking), messages, delete (revokes the key).
struct AdminInstallsController {
    static let notFound = APIError.notFound("iOS user not found")

    func boot(admin: any RoutesBuilder) {
        admin.get("ios-users", use: list)
        admin.get("ios-users", "stats", use: stats)
        admin.get("ios-users", ":installId", use: show)
        admin.on(.DELETE, "ios-users", ":installId", use: delete)
        admin.jsonRoute(.PUT, "ios-users", ":installId", "priority", use: setPriority)
        admin.jsonRoute(.POST, "ios-users", ":installId", "message", use: sendMessage)
    }

    /// Sorted by `lastSeenAt` descending (nulls last), then `createdAt` descending, then `id`.
    @Sendable func list(req: Request) async throws -> Response {
        let query = QueryReader(req)
        let search = try query.search("search")
        let priority = try query.oneOf("priority", InstallPriority.allCases.map(\.rawValue))
        let page = try query.pagination()
        var conditions: [SQLQueryString] = []
        if let search {
            let function = req.db.engine == .postgres ? "strpos" : "instr"
            conditions.append("\(unsafeRaw: function)(p.search_text, \(bind: search)) > 0")
        }
        if let priority { conditions.append("p.priority = \(bind: priority)") }
        var whereClause: SQLQueryString = ""
        if !conditions.isEmpty { whereClause = " WHERE " + conditions.joined(separator: " AND ") }
        let countRow = try await req.db.sql.raw("SELECT COUNT(*) AS total FROM ad_install_profiles p\(whereClause)").first()
        let total = try countRow?.decode(column: "total", as: Int.self) ?? 0
        let rows = try await Self.select(
            whereClause + """
                 ORDER BY CASE WHEN p.last_seen_at IS NULL THEN 1 ELSE 0 END, p.last_seen_at DESC, p.created_at DESC, p.id
                 LIMIT \(bind: page.limit) OFFSET \(bind: page.offset)
                """, on: req.db)
        return try JSONResponse.page(rows, total: total)
    }

    @Sendable func stats(req: Request) async throws -> Response {
        let since = req.now.addingTimeInterval(-30 * 86_400)
        guard let row = try await req.db.sql.raw("""
            SELECT COUNT(*) AS total,
                COALESCE(SUM(CASE WHEN last_seen_at >= \(bind: since) THEN 1 ELSE 0 END), 0) AS active,
                COALESCE(SUM(CASE WHEN priority = 'high' THEN 1 ELSE 0 END), 0) AS high,
                COALESCE(SUM(CASE WHEN priority = 'blocked' THEN 1 ELSE 0 END), 0) AS blocked
            FROM ad_install_profiles
            """).first()
        else { throw APIError(.internalServerError, "Internal server error") }
        return try JSONResponse.make(InstallStatsResponse(
            total: try row.decode(column: "total", as: Int.self), active30d: try row.decode(column: "active", as: Int.self),
            highPriority: try row.decode(column: "high", as: Int.self), blocked: try row.decode(column: "blocked", as: Int.self)))
    }

    /// The install plus its latest 100 messages (admin representation), newest first.
    @Sendable func show(req: Request) async throws -> Response {
        let installID = try req.pathID("installId", notFound: Self.notFound)
        return try JSONResponse.make(try await Self.iosUser(installID, withMessages: true, on: req.db))
    }

    @Sendable func setPriority(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        let installID = try await Self.existingInstall(req)
        try body.requireAll(["priority"])
        let priority = try body.oneOf("priority", InstallPriority.allCases.map(\.rawValue))!
        try await req.db.sql.raw("""
            UPDATE ad_install_profiles SET priority = \(bind: priority), updated_at = \(bind: req.now)
            WHERE id = \(bind: installID) AND priority <> \(bind: priority)
            """).run()
        return try JSONResponse.make(try await Self.iosUser(installID, withMessages: false, on: req.db))
    }

    @Sendable func sendMessage(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        let installID = try await Self.existingInstall(req)
        try body.requireAll(["text"])
        let text = try body.string("text", min: 1, max: 2000, lines: .multi)!
        let message = MessageRecord()
        message.id = UUID()
        message.installID = installID
        message.text = text
        message.createdAt = req.now
        message.readAt = nil
        try await message.create(on: req.db)
        return try JSONResponse.make(
            AdminMessageResponse(message), status: .created,
            headers: ["Location": "/api/admin/ios-users/\(installID.lowercased)"])
    }

    /// Revokes the key (401 from the next request), deletes the profile and its messages; appointments stay with
    /// `installId = null`.
    @Sendable func delete(req: Request) async throws -> Response {
        let installID = try await Self.existingInstall(req)
        let now = req.now
        try await req.db.writeTransaction { db in
            guard let row = try await db.sql.raw(
                "SELECT api_key_id FROM ad_install_profiles WHERE id = \(bind: installID)").first()
            else { throw Self.notFound }
            let keyID = try row.decode(column: "api_key_id", as: UUID.self)
            try await db.sql.raw("""
                UPDATE ad_api_keys SET revoked = \(bind: true), revoked_at = \(bind: now)
                WHERE id = \(bind: keyID) AND revoked = \(bind: false)
                """).run()
            try await db.sql.raw("UPDATE ad_appointments SET install_id = NULL WHERE install_id = \(bind: installID)").run()
            try await db.sql.raw("DELETE FROM ad_messages WHERE install_id = \(bind: installID)").run()
            try await db.sql.raw("DELETE FROM ad_install_profiles WHERE id = \(bind: installID)").run()
        }
        return Response(status: .noContent)
    }

    // MARK: Helpers

    static func existingInstall(_ req: Request) async throws -> UUID {
        let installID = try req.pathID("installId", notFound: notFound)
        guard try await InstallRecord.find(installID, on: req.db) != nil else { throw notFound }
        return installID
    }

    static func iosUser(_ installID: UUID, withMessages: Bool, on db: any Database) async throws -> IosUserResponse {
        guard let user = try await select(" WHERE p.id = \(bind: installID)", on: db).first else { throw notFound }
        guard withMessages else { return user }
        let messages = try await MessageRecord.query(on: db).filter(\.$installID == installID)
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).limit(100).all()
        return IosUserResponse(
            id: user.id, keyPrefix: user.keyPrefix, name: user.name, carMake: user.carMake, carPlate: user.carPlate,
            phone: user.phone, telegram: user.telegram, profilePhotoUrl: user.profilePhotoUrl, priority: user.priority,
            createdAt: user.createdAt, updatedAt: user.updatedAt, lastSeenAt: user.lastSeenAt,
            lastActivityPath: user.lastActivityPath, requestCount: user.requestCount,
            appointmentCount: user.appointmentCount, unreadMessages: user.unreadMessages,
            messages: messages.map(AdminMessageResponse.init))
    }

    /// Installs with their key's prefix and request count and their counts, in one query (no N+1).
    static func select(_ tail: SQLQueryString, on db: any Database) async throws -> [IosUserResponse] {
        let rows = try await db.sql.raw("""
            SELECT p.id, p.name, p.car_make, p.car_plate, p.phone, p.telegram, p.profile_photo_url, p.priority,
                p.created_at, p.updated_at, p.last_seen_at, p.last_activity_path, k.key_prefix, k.request_count,
                (SELECT COUNT(*) FROM ad_appointments a WHERE a.install_id = p.id) AS appointment_count,
                (SELECT COUNT(*) FROM ad_messages m WHERE m.install_id = p.id AND m.read_at IS NULL) AS unread_count
            FROM ad_install_profiles p JOIN ad_api_keys k ON k.id = p.api_key_id
            """ + tail).all()
        return try rows.map { row in
            IosUserResponse(
                id: try row.decode(column: "id", as: UUID.self).lowercased,
                keyPrefix: try row.decode(column: "key_prefix", as: String.self),
                name: try row.decode(column: "name", as: String?.self),
                carMake: try row.decode(column: "car_make", as: String?.self),
                carPlate: try row.decode(column: "car_plate", as: String?.self),
                phone: try row.decode(column: "phone", as: String?.self),
                telegram: try row.decode(column: "telegram", as: String?.self),
                profilePhotoUrl: try row.decode(column: "profile_photo_url", as: String?.self),
                priority: try row.decode(column: "priority", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Date.self),
                updatedAt: try row.decode(column: "updated_at", as: Date.self),
                lastSeenAt: try row.decode(column: "last_seen_at", as: Date?.self),
                lastActivityPath: try row.decode(column: "last_activity_path", as: String?.self),
                requestCount: try row.decode(column: "request_count", as: Int.self),
                appointmentCount: try row.decode(column: "appointment_count", as: Int.self),
                unreadMessages: try row.decode(column: "unread_count", as: Int.self),
                messages: nil)
        }
    }
}
