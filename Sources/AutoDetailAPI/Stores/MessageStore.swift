import AppCore
import Fluent
import Foundation
import SQLKit

/// Messages from the studio to an app installation (`ad_messages`, contract §3.7, §4.6.3, §4.7.5).
struct MessageStore: Sendable {
    let db: any Database

    private static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// Newest first, then id descending; with the number matching `unreadOnly` before paging.
    func page(of installID: UUID, unreadOnly: Bool, _ page: Pagination) async throws
        -> (items: [MessageRecord], total: Int)
    {
        let filtered = { () -> QueryBuilder<MessageRecord> in
            let q = MessageRecord.query(on: db).filter(\.$installID == installID)
            if unreadOnly { q.filter(\.$readAt == nil) }
            return q
        }
        let total = try await filtered().count()
        let rows = try await filtered().sort(\.$createdAt, .descending).sort(\.$id, .descending)
            .range(page.range).all()
        return (rows, total)
    }

    /// The latest `limit` messages (console detail).
    func latest(of installID: UUID, limit: Int) async throws -> [MessageRecord] {
        try await MessageRecord.query(on: db).filter(\.$installID == installID)
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).limit(limit).all()
    }

    func unreadCount(of installID: UUID) async throws -> Int {
        try await MessageRecord.query(on: db).filter(\.$installID == installID).filter(\.$readAt == nil).count()
    }

    func create(for installID: UUID, text: String, now: Date) async throws -> MessageRecord {
        let message = MessageRecord()
        message.id = UUID()
        message.installID = installID
        message.text = text
        message.createdAt = now
        message.readAt = nil
        try await message.create(on: db)
        return message
    }

    /// Marks one of the install's messages read; `readAt` is set by the first call only. Nil when the message does
    /// not exist or belongs to another install.
    func markRead(_ messageID: UUID, of installID: UUID, now: Date) async throws -> MessageRecord? {
        try await db.sql.raw("""
            UPDATE ad_messages SET read_at = \(bind: now)
            WHERE id = \(bind: messageID) AND install_id = \(bind: installID) AND read_at IS NULL
            """).run()
        guard let message = try await MessageRecord.find(messageID, on: db), message.installID == installID else {
            return nil
        }
        return message
    }

    func deleteAll(of installID: UUID) async throws {
        try await db.sql.raw("DELETE FROM ad_messages WHERE install_id = \(bind: installID)").run()
    }
}
