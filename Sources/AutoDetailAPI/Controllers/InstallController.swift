import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The app installation's own profile and messages (contract §4.6); install keys only.
struct InstallController {
    func boot(installs: any RoutesBuilder) {
        installs.get("ios", "profile", use: profile)
        installs.jsonRoute(.POST, "ios", "profile", use: replaceProfile)
        installs.get("ios", "messages", use: messages)
        installs.on(.POST, "ios", "messages", ":messageId", "read", use: markRead)
    }

    static func install(_ req: Request) async throws -> InstallRecord {
        guard let installID = try req.keyCaller.installID, let install = try await InstallRecord.find(installID, on: req.db)
        else { throw APIError.invalidAPIKey }
        return install
    }

    static func unreadCount(_ installID: UUID, on db: any Database) async throws -> Int {
        try await MessageRecord.query(on: db).filter(\.$installID == installID).filter(\.$readAt == nil).count()
    }

    @Sendable func profile(req: Request) async throws -> Response {
        let install = try await Self.install(req)
        return try JSONResponse.make(
            InstallProfileResponse(install, unreadMessages: try await Self.unreadCount(install.id!, on: req.db)))
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
        let key = try await APIKeyRecord.find(install.apiKeyID, on: req.db)
        install.name = name
        install.carMake = carMake
        install.carPlate = carPlate
        install.phone = phone
        install.telegram = telegram
        install.profilePhotoURL = photo
        install.searchText = InstallRecord.searchText(
            name: name, carPlate: carPlate, phone: phone, keyPrefix: key?.keyPrefix ?? "")
        install.updatedAt = req.now
        try await install.update(on: req.db)
        return try JSONResponse.make(
            InstallProfileResponse(install, unreadMessages: try await Self.unreadCount(install.id!, on: req.db)))
    }

    /// Newest first; `X-Total-Count` counts the messages matching `unreadOnly`, `unreadCount` all unread ones.
    @Sendable func messages(req: Request) async throws -> Response {
        let query = QueryReader(req)
        let unreadOnly = try query.bool("unreadOnly") ?? false
        let page = try query.pagination()
        let install = try await Self.install(req)
        let filtered = { () -> QueryBuilder<MessageRecord> in
            let q = MessageRecord.query(on: req.db).filter(\.$installID == install.id!)
            if unreadOnly { q.filter(\.$readAt == nil) }
            return q
        }
        let total = try await filtered().count()
        let rows = try await filtered().sort(\.$createdAt, .descending).sort(\.$id, .descending)
            .range(page.range).all()
        let unread = try await Self.unreadCount(install.id!, on: req.db)
        return try JSONResponse.make(
            MessageListResponse(messages: rows.map(AppMessageResponse.init), unreadCount: unread),
            headers: ["X-Total-Count": String(total)])
    }

    /// Idempotent: `readAt` is set by the first call only.
    @Sendable func markRead(req: Request) async throws -> Response {
        let notFound = APIError.notFound("Message not found")
        let messageID = try req.pathID("messageId", notFound: notFound)
        let install = try await Self.install(req)
        guard let message = try await MessageRecord.find(messageID, on: req.db), message.installID == install.id! else {
            throw notFound
        }
        if message.readAt == nil {
            try await req.db.sql.raw("""
                UPDATE ad_messages SET read_at = \(bind: req.now) WHERE id = \(bind: messageID) AND read_at IS NULL
                """).run()
        }
        guard let current = try await MessageRecord.find(messageID, on: req.db) else { throw notFound }
        return try JSONResponse.make(AppMessageResponse(current))
    }
}
