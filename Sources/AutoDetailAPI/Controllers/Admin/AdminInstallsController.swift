import AppCore
import Foundation
import Vapor

/// App installations in the console (contract §4.7.5): list with search, stats, details with messages, priority
/// (blocking), messages, delete (revokes the key).
struct AdminInstallsController: RouteCollection {
    static let notFound = APIError.notFound("iOS user not found")

    func boot(routes: any RoutesBuilder) throws {
        routes.get("ios-users", use: list)
        routes.get("ios-users", "stats", use: stats)
        routes.get("ios-users", ":installId", use: show)
        routes.on(.DELETE, "ios-users", ":installId", use: delete)
        routes.jsonRoute(.PUT, "ios-users", ":installId", "priority", use: setPriority)
        routes.jsonRoute(.POST, "ios-users", ":installId", "message", use: sendMessage)
    }

    /// Sorted by `lastSeenAt` descending (nulls last), then `createdAt` descending, then `id`.
    @Sendable func list(req: Request) async throws -> Response {
        let query = req.autodetailQuery
        let search = try query.search("search")
        let priority = try query.oneOf("priority", InstallPriority.allCases.map(\.rawValue))
        let page = try query.pagination()
        let result = try await req.installs.page(search: search, priority: priority, limit: page.limit, offset: page.offset)
        return try JSONResponse.page(result.items.map { $0.response() }, total: result.total)
    }

    @Sendable func stats(req: Request) async throws -> Response {
        let row = try await req.installs.stats(activeSince: req.now.addingTimeInterval(-30 * 86_400))
        return try JSONResponse.make(InstallStatsResponse(
            total: row.total, active30d: row.active, highPriority: row.high, blocked: row.blocked))
    }

    /// The install plus its latest 100 messages (admin representation), newest first.
    @Sendable func show(req: Request) async throws -> Response {
        let installID = try req.pathID("installId", malformed: Self.notFound)
        guard let user = try await req.installs.iosUser(installID) else { throw Self.notFound }
        let messages = try await req.messages.latest(of: installID, limit: 100)
        return try JSONResponse.make(user.response(messages: messages.map(AdminMessageResponse.init)))
    }

    @Sendable func setPriority(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        let installID = try await Self.existingInstall(req)
        try body.requireAll(["priority"])
        let priority = try body.oneOf("priority", InstallPriority.allCases.map(\.rawValue))!
        try await req.installs.setPriority(installID, priority, now: req.now)
        guard let user = try await req.installs.iosUser(installID) else { throw Self.notFound }
        return try JSONResponse.make(user.response())
    }

    @Sendable func sendMessage(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        let installID = try await Self.existingInstall(req)
        try body.requireAll(["text"])
        let text = try body.string("text", min: 1, max: 2000, lines: .multi)!
        let message = try await req.messages.create(for: installID, text: text, now: req.now)
        return try JSONResponse.make(
            AdminMessageResponse(message), status: .created,
            headers: ["Location": "/api/admin/ios-users/\(installID.lowercased)"])
    }

    /// Revokes the key (401 from the next request), deletes the profile and its messages; appointments stay with
    /// `installId = null`.
    @Sendable func delete(req: Request) async throws -> Response {
        let installID = try await Self.existingInstall(req)
        guard try await req.installs.delete(installID, now: req.now) else { throw Self.notFound }
        return Response(status: .noContent)
    }

    static func existingInstall(_ req: Request) async throws -> UUID {
        let installID = try req.pathID("installId", malformed: notFound)
        guard try await req.installs.exists(installID) else { throw notFound }
        return installID
    }
}
