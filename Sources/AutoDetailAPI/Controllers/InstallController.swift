import AppCore
import Foundation
import Vapor

/// The app installation's own profile and messages (contract §4.6); install keys only.
struct InstallController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("ios", "profile", use: profile)
        routes.jsonRoute(.POST, "ios", "profile", use: replaceProfile)
        routes.get("ios", "messages", use: messages)
        routes.on(.POST, "ios", "messages", ":messageId", "read", use: markRead)
    }

    static func install(_ req: Request) async throws -> InstallRecord {
        guard let installID = try req.keyCaller.installID, let install = try await req.installs.profile(installID)
        else { throw APIError.invalidAPIKey }
        return install
    }

    @Sendable func profile(req: Request) async throws -> Response {
        let install = try await Self.install(req)
        return try JSONResponse.make(
            InstallProfileResponse(install, unreadMessages: try await req.messages.unreadCount(of: install.id!)))
    }

    /// Creates or replaces the profile: optional fields absent or blank become `null`.
    @Sendable func replaceProfile(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        try body.requireAll(["name", "carMake", "carPlate"])
        let name = try body.string("name", min: 2, max: 100)
        let carMake = try body.string("carMake", min: 2, max: 50)
        let carPlate = try body.normalized("carPlate", ContactNormalization.plate, length: 2...20)
        let phone = try body.normalized("phone", ContactNormalization.phone)
        let telegram = try body.normalized("telegram", ContactNormalization.telegram)
        let photo = try body.normalized("profilePhotoUrl", ContactNormalization.profilePhoto)
        let install = try await Self.install(req)
        install.name = name
        install.carMake = carMake
        install.carPlate = carPlate
        install.phone = phone
        install.telegram = telegram
        install.profilePhotoURL = photo
        try await req.installs.saveProfile(install, now: req.now)
        return try JSONResponse.make(
            InstallProfileResponse(install, unreadMessages: try await req.messages.unreadCount(of: install.id!)))
    }

    /// Newest first; `X-Total-Count` counts the messages matching `unreadOnly`, `unreadCount` all unread ones.
    @Sendable func messages(req: Request) async throws -> Response {
        let query = req.autodetailQuery
        let unreadOnly = try query.optionalBool("unreadOnly") ?? false
        let page = try query.pagination()
        let install = try await Self.install(req)
        let result = try await req.messages.page(of: install.id!, unreadOnly: unreadOnly, page)
        let unread = try await req.messages.unreadCount(of: install.id!)
        return try JSONResponse.make(
            MessageListResponse(messages: result.items.map(AppMessageResponse.init), unreadCount: unread),
            headers: ["X-Total-Count": String(result.total)])
    }

    /// Idempotent: `readAt` is set by the first call only.
    @Sendable func markRead(req: Request) async throws -> Response {
        let notFound = APIError.notFound("Message not found")
        let messageID = try req.pathID("messageId", malformed: notFound)
        let install = try await Self.install(req)
        guard let message = try await req.messages.markRead(messageID, of: install.id!, now: req.now) else {
            throw notFound
        }
        return try JSONResponse.make(AppMessageResponse(message))
    }
}
