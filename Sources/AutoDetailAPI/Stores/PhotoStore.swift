import AppCore
import Fluent
import Foundation
import SQLKit

/// Every statement on `ad_uploads` and `ad_photos` (contract §3.4, §4.5, §7), on both engines.
struct PhotoStore: Sendable {
    let db: any Database

    private static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// An upload row as the link step needs it.
    struct UploadRow: Decodable, Sendable {
        let id: UUID
        let appointmentId: UUID
        let kind: String
        let objectKey: String
        let contentType: String
        let urlExpiresAt: Date
        let photoId: UUID?
    }

    /// A ref that passed the checks before the link transaction, with what HEAD found.
    struct LinkCandidate: Sendable {
        let uploadID: UUID
        let objectKey: String
        let contentType: String
        let urlExpiresAt: Date
        let etag: String
        let size: Int64
    }

    /// What a deleted photo leaves to clean up.
    struct DeletedPhoto: Decodable, Sendable {
        let objectKey: String
        let uploadUrlExpiresAt: Date
    }

    func linkedCount(appointmentID: UUID, kind: PhotoKind) async throws -> Int {
        try await db.sql.raw("""
            SELECT COUNT(*) AS linked, COALESCE(MAX(position), 0) AS last FROM ad_photos
            WHERE appointment_id = \(bind: appointmentID) AND kind = \(bind: kind.rawValue)
            """).first(decoding: LinkStats.self, with: Self.rowDecoding)?.linked ?? 0
    }

    /// True when a PUT to `key` is still expected: its upload row exists, is not linked to a photo yet and its URL
    /// has not expired (the embedded store's PhotoUploadAdmission).
    func isUploadExpected(key: String, now: Date) async throws -> Bool {
        try await db.sql.raw("""
            SELECT id FROM ad_uploads WHERE object_key = \(bind: key) AND photo_id IS NULL AND url_expires_at > \(bind: now)
            """).first() != nil
    }

    /// Records a presigned upload (one per presign call).
    func insertUpload(
        id: UUID, appointmentID: UUID, kind: PhotoKind, objectKey: String, contentType: String, filename: String,
        size: Int64?, now: Date, expiresAt: Date
    ) async throws {
        try await db.sql.raw("""
            INSERT INTO ad_uploads (id, appointment_id, kind, object_key, content_type, filename, size_bytes, created_at,
                url_expires_at)
            VALUES (\(bind: id), \(bind: appointmentID), \(bind: kind.rawValue), \(bind: objectKey), \(bind: contentType),
                \(bind: filename), \(bind: size), \(bind: now), \(bind: expiresAt))
            """).run()
    }

    func uploads(objectKeys: [String]) async throws -> [UploadRow] {
        guard !objectKeys.isEmpty else { return [] }
        return try await db.sql.raw("""
            SELECT id, appointment_id, kind, object_key, content_type, url_expires_at, photo_id FROM ad_uploads
            WHERE object_key IN (\(objectKeys.map { "\(bind: $0)" as SQLQueryString }.joined(separator: ", ")))
            """).all(decoding: UploadRow.self, with: Self.rowDecoding)
    }

    /// The link transaction: locks the appointment row (PostgreSQL `FOR UPDATE`; SQLite `BEGIN IMMEDIATE`), re-checks
    /// status, already-linked refs and the limit, then appends the photos in request order and bumps `updatedAt`.
    func link(_ candidates: [LinkCandidate], appointmentID: UUID, kind: PhotoKind, maxPerKind: Int, now: Date)
        async throws
    {
        try await db.writeTransaction { db in
            let bookings = BookingStore(db: db)
            guard let status = try await bookings.lockedStatus(appointmentID) else { throw APIError.appointmentNotFound }
            if status == .cancelled { throw APIError.cancelledPhotos }
            var fresh: [LinkCandidate] = []
            for candidate in candidates {
                guard let upload = try await db.sql.raw(
                    "SELECT photo_id FROM ad_uploads WHERE id = \(bind: candidate.uploadID)"
                ).first(decoding: UploadLink.self, with: Self.rowDecoding)
                else {
                    throw APIError.badRequest(
                        "Invalid photo reference: \(PhotoReference.ref(forKey: candidate.objectKey).prefix(200))")
                }
                if upload.photoId == nil { fresh.append(candidate) }
            }
            guard !fresh.isEmpty else { return }
            let stats = try await db.sql.raw("""
                SELECT COUNT(*) AS linked, COALESCE(MAX(position), 0) AS last FROM ad_photos
                WHERE appointment_id = \(bind: appointmentID) AND kind = \(bind: kind.rawValue)
                """).first(decoding: LinkStats.self, with: Self.rowDecoding)
            let linked = stats?.linked ?? 0
            var position = stats?.last ?? 0
            if linked + fresh.count > maxPerKind { throw APIError.photoLimit }
            for candidate in fresh {
                position += 1
                let photoID = UUID()
                let inserted = try await db.sql.raw("""
                    INSERT INTO ad_photos (id, appointment_id, kind, object_key, content_type, etag, size_bytes,
                        upload_url_expires_at, verified_at, mismatch, position, created_at)
                    VALUES (\(bind: photoID), \(bind: appointmentID), \(bind: kind.rawValue), \(bind: candidate.objectKey),
                        \(bind: candidate.contentType), \(bind: candidate.etag), \(bind: candidate.size),
                        \(bind: candidate.urlExpiresAt), \(bind: now), \(bind: false), \(bind: position), \(bind: now))
                    ON CONFLICT DO NOTHING RETURNING id
                    """).all()
                if inserted.isEmpty { continue }
                try await db.sql.raw(
                    "UPDATE ad_uploads SET photo_id = \(bind: photoID) WHERE id = \(bind: candidate.uploadID)").run()
            }
            try await bookings.touch(appointmentID, now: now)
        }
    }

    /// Removes a photo and its upload row (so the ref cannot be linked again), schedules the object's purge and
    /// bumps the appointment's `updatedAt`, in one write transaction. Nil when no such photo on that appointment.
    func delete(_ photoID: UUID, appointmentID: UUID, now: Date) async throws -> DeletedPhoto? {
        try await db.writeTransaction { db in
            guard let row = try await db.sql.raw("""
                DELETE FROM ad_photos WHERE id = \(bind: photoID) AND appointment_id = \(bind: appointmentID)
                RETURNING object_key, upload_url_expires_at
                """).first(decoding: DeletedPhoto.self, with: Self.rowDecoding)
            else { return nil }
            // Without its upload row the embedded store refuses the photo's URL; on S3 the key is removed once more
            // after that URL has expired.
            try await db.sql.raw("DELETE FROM ad_uploads WHERE photo_id = \(bind: photoID)").run()
            try await ObjectPurges.schedule(key: row.objectKey, urlExpiresAt: row.uploadUrlExpiresAt, now: now, on: db)
            try await BookingStore(db: db).touch(appointmentID, now: now)
            return row
        }
    }

    /// Stores the result of a §7.5 integrity check (only while the photo is not already marked).
    func markVerified(_ photoID: UUID, intact: Bool, at now: Date) async throws {
        try await db.sql.raw("""
            UPDATE ad_photos SET verified_at = \(bind: now), mismatch = \(bind: !intact)
            WHERE id = \(bind: photoID) AND mismatch = \(bind: false)
            """).run()
    }

    private struct LinkStats: Decodable {
        let linked: Int
        let last: Int
    }

    private struct UploadLink: Decodable { let photoId: UUID? }
}
