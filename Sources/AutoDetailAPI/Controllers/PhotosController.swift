import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Photos (contract §4.5, §4.7.4, §7): presign → PUT to the presigned URL → link. Refs are bound to the appointment
/// and kind they were issued for; objects are checked with HEAD before the link transaction.
struct PhotosController {
    static let maxPerKind = 30
    static let maxRefsPerLink = 10

    func boot(keys: any RoutesBuilder, admin: any RoutesBuilder) {
        keys.jsonRoute(.POST, "uploads", "presign") { try await Self.presign($0, admin: false) }
        keys.jsonRoute(.POST, "client", "appointments", ":appointmentId", "photos") { try await Self.link($0, admin: false) }
        admin.jsonRoute(.POST, "uploads", "presign") { try await Self.presign($0, admin: true) }
        admin.jsonRoute(.POST, "appointments", ":appointmentId", "photos") { try await Self.link($0, admin: true) }
        admin.on(.DELETE, "appointments", ":appointmentId", "photos", ":photoId", use: Self.deletePhoto)
    }

    // MARK: Presign

    static func presign(_ req: Request, admin: Bool) async throws -> Response {
        let body = try req.autodetailBody()
        try body.requireAll(["appointmentId", "kind", "filename", "contentType"])
        let appointmentID = try body.uuid("appointmentId")!
        let kind = PhotoKind(rawValue: try body.oneOf("kind", PhotoKind.allCases.map(\.rawValue))!)!
        let filename = try body.string("filename", min: 1, max: 255)!
        let type = PhotoContentType(rawValue: try body.oneOf(
            "contentType", PhotoContentType.allCases.map(\.rawValue), caseInsensitive: true)!)!
        var size: Int64?
        if body.has("sizeBytes"), !(body.object["sizeBytes"]?.isNull ?? true) {
            let declared = try body.integer("sizeBytes")!
            if declared < 1 { throw APIError.invalidField("sizeBytes", "must be between 1 and \(PhotoStorage.maxObjectBytes)") }
            if Int64(declared) > PhotoStorage.maxObjectBytes { throw APIError.fileTooLarge }
            size = Int64(declared)
        }
        let appointment = try await Self.appointment(appointmentID, admin: admin, req: req)
        if appointment.statusValue == .cancelled { throw APIError.cancelledPhotos }
        let linked = try await PhotoRecord.query(on: req.db)
            .filter(\.$appointmentID == appointmentID).filter(\.$kind == kind.rawValue).count()
        if linked >= maxPerKind { throw APIError.photoLimit }

        let now = req.now
        let uploadID = UUID()
        let key = PhotoReference.objectKey(appointmentID: appointmentID, kind: kind, uploadID: uploadID, type: type)
        let expiresAt = now.addingTimeInterval(TimeInterval(PhotoStorage.uploadURLLifetime))
        // Presigning is local computation; it happens first so a failure leaves no row behind.
        let presigned = req.photoStorage.presignUpload(key: key, contentType: type.rawValue, contentLength: size, for: req)
        try await req.db.sql.raw("""
            INSERT INTO ad_uploads (id, appointment_id, kind, object_key, content_type, filename, size_bytes, created_at,
                url_expires_at)
            VALUES (\(bind: uploadID), \(bind: appointmentID), \(bind: kind.rawValue), \(bind: key), \(bind: type.rawValue),
                \(bind: filename), \(bind: size), \(bind: now), \(bind: expiresAt))
            """).run()
        var headers = ["Content-Type": type.rawValue]
        if let size { headers["Content-Length"] = String(size) }
        return try JSONResponse.make(PresignResponse(
            uploadUrl: presigned.url, method: "PUT", headers: headers, ref: PhotoReference.ref(forKey: key),
            expiresIn: PhotoStorage.uploadURLLifetime, expiresAt: expiresAt))
    }

    // MARK: Link

    /// A ref that passed the checks before the transaction, with what HEAD found.
    struct Candidate: Sendable {
        let uploadID: UUID
        let objectKey: String
        let contentType: String
        let urlExpiresAt: Date
        let etag: String
        let size: Int64
    }

    static func link(_ req: Request, admin: Bool) async throws -> Response {
        let body = try req.autodetailBody()
        let appointment = try await Self.pathAppointment(req, admin: admin)
        try body.requireAll(["kind", "photoUrls"])
        let kind = PhotoKind(rawValue: try body.oneOf("kind", PhotoKind.allCases.map(\.rawValue))!)!
        let refs = try Self.refs(body)
        if appointment.statusValue == .cancelled { throw APIError.cancelledPhotos }

        // Each ref in request order; the first failure decides and nothing is linked. HEAD happens here, outside
        // any transaction.
        let keys = refs.compactMap(PhotoReference.objectKey(fromRef:))
        let uploads = keys.isEmpty ? [] : try await UploadRecord.query(on: req.db).filter(\.$objectKey ~~ keys).all()
        let uploadsByKey = Dictionary(uploads.map { ($0.objectKey, $0) }, uniquingKeysWith: { a, _ in a })
        var candidates: [Candidate] = []
        for ref in refs {
            let shown = String(ref.prefix(200))
            guard let key = PhotoReference.objectKey(fromRef: ref), let upload = uploadsByKey[key] else {
                throw APIError.badRequest("Invalid photo reference: \(shown)")
            }
            guard upload.appointmentID == appointment.id!, upload.kind == kind.rawValue else {
                throw APIError.badRequest("Photo reference does not belong to this appointment and kind: \(shown)")
            }
            if upload.photoID != nil { continue }  // already linked to this appointment: skipped silently
            guard let object = try await req.photoStorage.head(key) else {
                throw APIError.badRequest("Photo has not been uploaded: \(shown)")
            }
            if object.size > PhotoStorage.maxObjectBytes {
                do { try await req.photoStorage.delete(key) } catch { req.logger.warning("oversized photo not deleted") }
                throw APIError.fileTooLarge
            }
            candidates.append(Candidate(
                uploadID: upload.id!, objectKey: key, contentType: upload.contentType, urlExpiresAt: upload.urlExpiresAt,
                etag: object.etag, size: object.size))
        }
        if !candidates.isEmpty {
            let linked = try await PhotoRecord.query(on: req.db)
                .filter(\.$appointmentID == appointment.id!).filter(\.$kind == kind.rawValue).count()
            if linked + candidates.count > maxPerKind { throw APIError.photoLimit }
            try await Self.insertPhotos(candidates, appointmentID: appointment.id!, kind: kind, now: req.now, on: req.db)
        }
        guard let current = try await AppointmentRecord.find(appointment.id!, on: req.db) else {
            throw APIError.appointmentNotFound
        }
        return try JSONResponse.make(try await AppointmentAssembler.response(current, admin: admin, req: req))
    }

    /// `photoUrls`: an array of 1–10 strings; duplicates collapsed, order kept.
    static func refs(_ body: BodyFields) throws -> [String] {
        guard case .array(let items)? = body.object["photoUrls"] else {
            throw APIError.invalidField("photoUrls", "must be an array of strings")
        }
        var refs: [String] = []
        for item in items {
            guard case .string(let s) = item else { throw APIError.invalidField("photoUrls", "must be an array of strings") }
            refs.append(s.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard (1...maxRefsPerLink).contains(refs.count) else {
            throw APIError.invalidField("photoUrls", "must contain 1-\(maxRefsPerLink) items")
        }
        var seen = Set<String>()
        return refs.filter { seen.insert($0).inserted }
    }

    /// The link transaction: locks the appointment row (PostgreSQL `FOR UPDATE`; SQLite `BEGIN IMMEDIATE`), re-checks
    /// status, already-linked refs and the limit, then appends the photos in request order and bumps `updatedAt`.
    static func insertPhotos(
        _ candidates: [Candidate], appointmentID: UUID, kind: PhotoKind, now: Date, on db: any Database
    ) async throws {
        try await db.writeTransaction { db in
            let lock = db.engine == .postgres ? " FOR UPDATE" : ""
            guard let row = try await db.sql.raw(
                "SELECT status FROM ad_appointments WHERE id = \(bind: appointmentID)\(unsafeRaw: lock)").first()
            else { throw APIError.appointmentNotFound }
            if try row.decode(column: "status", as: String.self) == AppointmentStatus.cancelled.rawValue {
                throw APIError.cancelledPhotos
            }
            var fresh: [Candidate] = []
            for candidate in candidates {
                guard let upload = try await db.sql.raw(
                    "SELECT photo_id FROM ad_uploads WHERE id = \(bind: candidate.uploadID)").first()
                else { throw APIError.badRequest("Invalid photo reference: \(PhotoReference.ref(forKey: candidate.objectKey).prefix(200))") }
                if try upload.decode(column: "photo_id", as: UUID?.self) == nil { fresh.append(candidate) }
            }
            guard !fresh.isEmpty else { return }
            let stats = try await db.sql.raw("""
                SELECT COUNT(*) AS linked, COALESCE(MAX(position), 0) AS last FROM ad_photos
                WHERE appointment_id = \(bind: appointmentID) AND kind = \(bind: kind.rawValue)
                """).first()
            let linked = try stats?.decode(column: "linked", as: Int.self) ?? 0
            var position = try stats?.decode(column: "last", as: Int.self) ?? 0
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
            try await db.sql.raw(
                "UPDATE ad_appointments SET updated_at = \(bind: now) WHERE id = \(bind: appointmentID)").run()
        }
    }

    // MARK: Admin delete

    /// `DELETE /api/admin/appointments/{id}/photos/{photoId}`: removes the photo (and its upload row, so the ref cannot
    /// be linked again); the object is deleted after the transaction has committed.
    @Sendable static func deletePhoto(req: Request) async throws -> Response {
        let appointmentID = try req.pathID("appointmentId", notFound: .appointmentNotFound)
        guard try await AppointmentRecord.find(appointmentID, on: req.db) != nil else { throw APIError.appointmentNotFound }
        let photoNotFound = APIError.notFound("Photo not found")
        let photoID = try req.pathID("photoId", notFound: photoNotFound)
        let now = req.now
        let key: String = try await req.db.writeTransaction { db in
            let rows = try await db.sql.raw("""
                DELETE FROM ad_photos WHERE id = \(bind: photoID) AND appointment_id = \(bind: appointmentID)
                RETURNING object_key, upload_url_expires_at
                """).all()
            guard let row = rows.first else { throw photoNotFound }
            // Without its upload row the embedded store refuses the photo's URL; on S3 the key is removed once more
            // after that URL has expired.
            try await db.sql.raw("DELETE FROM ad_uploads WHERE photo_id = \(bind: photoID)").run()
            try await ObjectPurges.schedule(
                key: try row.decode(column: "object_key", as: String.self),
                urlExpiresAt: try row.decode(column: "upload_url_expires_at", as: Date.self), now: now, on: db)
            try await db.sql.raw(
                "UPDATE ad_appointments SET updated_at = \(bind: now) WHERE id = \(bind: appointmentID)").run()
            return try row.decode(column: "object_key", as: String.self)
        }
        do {
            try await req.photoStorage.delete(key)
        } catch {
            req.logger.warning("deleted photo's object could not be removed", metadata: ["photo": .string(photoID.lowercased)])
        }
        return Response(status: .noContent)
    }

    // MARK: Helpers

    /// The appointment named in a body: visible to the key (client) or existing (admin); `404` otherwise.
    static func appointment(_ id: UUID, admin: Bool, req: Request) async throws -> AppointmentRecord {
        guard let appointment = try await AppointmentRecord.find(id, on: req.db) else { throw APIError.appointmentNotFound }
        if !admin, !(try req.keyCaller.canSee(appointment)) { throw APIError.appointmentNotFound }
        return appointment
    }

    static func pathAppointment(_ req: Request, admin: Bool) async throws -> AppointmentRecord {
        let id = try req.pathID("appointmentId", notFound: .appointmentNotFound)
        return try await appointment(id, admin: admin, req: req)
    }
}
