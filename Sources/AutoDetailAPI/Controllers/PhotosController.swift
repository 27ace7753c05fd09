import AppCore
import Foundation
import Vapor

/// Photos (contract §4.5, §4.7.4, §7): presign → PUT to the presigned URL → link. Refs are bound to the appointment
/// and kind they were issued for; objects are checked with HEAD before the link transaction.
struct PhotosController: RouteCollection {
    static let maxPerKind = 30
    static let maxRefsPerLink = 10

    /// The app's side (any key); the console's side is `AdminPhotosController`, over the same handlers.
    func boot(routes: any RoutesBuilder) throws {
        routes.jsonRoute(.POST, "uploads", "presign") { try await Self.presign($0, admin: false) }
        routes.jsonRoute(.POST, "client", "appointments", ":appointmentId", "photos") { try await Self.link($0, admin: false) }
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
        if body.contains("sizeBytes"), !(body.object["sizeBytes"]?.isNull ?? true) {
            let declared = try body.integer("sizeBytes")!
            if declared < 1 { throw APIError.invalidField("sizeBytes", "must be between 1 and \(PhotoStorage.maxObjectBytes)") }
            if Int64(declared) > PhotoStorage.maxObjectBytes { throw APIError.fileTooLarge }
            size = Int64(declared)
        }
        let appointment = try await Self.appointment(appointmentID, admin: admin, req: req)
        if appointment.statusValue == .cancelled { throw APIError.cancelledPhotos }
        if try await req.photos.linkedCount(appointmentID: appointmentID, kind: kind) >= maxPerKind {
            throw APIError.photoLimit
        }

        let now = req.now
        let uploadID = UUID()
        let key = PhotoReference.objectKey(appointmentID: appointmentID, kind: kind, uploadID: uploadID, type: type)
        let expiresAt = now.addingTimeInterval(TimeInterval(PhotoStorage.uploadURLLifetime))
        // Presigning is local computation; it happens first so a failure leaves no row behind.
        let presigned = req.photoStorage.presignUpload(key: key, contentType: type.rawValue, contentLength: size, for: req)
        try await req.photos.insertUpload(
            id: uploadID, appointmentID: appointmentID, kind: kind, objectKey: key, contentType: type.rawValue,
            filename: filename, size: size, now: now, expiresAt: expiresAt)
        var headers = ["Content-Type": type.rawValue]
        if let size { headers["Content-Length"] = String(size) }
        return try JSONResponse.make(PresignResponse(
            uploadUrl: presigned.url, method: "PUT", headers: headers, ref: PhotoReference.ref(forKey: key),
            expiresIn: PhotoStorage.uploadURLLifetime, expiresAt: expiresAt))
    }

    // MARK: Link

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
        let uploads = try await req.photos.uploads(objectKeys: keys)
        let uploadsByKey = Dictionary(uploads.map { ($0.objectKey, $0) }, uniquingKeysWith: { a, _ in a })
        var candidates: [PhotoStore.LinkCandidate] = []
        for ref in refs {
            let shown = String(ref.prefix(200))
            guard let key = PhotoReference.objectKey(fromRef: ref), let upload = uploadsByKey[key] else {
                throw APIError.badRequest("Invalid photo reference: \(shown)")
            }
            guard upload.appointmentId == appointment.id, upload.kind == kind.rawValue else {
                throw APIError.badRequest("Photo reference does not belong to this appointment and kind: \(shown)")
            }
            if upload.photoId != nil { continue }  // already linked to this appointment: skipped silently
            guard let object = try await req.photoStorage.head(key) else {
                throw APIError.badRequest("Photo has not been uploaded: \(shown)")
            }
            if object.size > PhotoStorage.maxObjectBytes {
                do { try await req.photoStorage.delete(key) } catch { req.logger.warning("oversized photo not deleted") }
                throw APIError.fileTooLarge
            }
            candidates.append(PhotoStore.LinkCandidate(
                uploadID: upload.id, objectKey: key, contentType: upload.contentType, urlExpiresAt: upload.urlExpiresAt,
                etag: object.etag, size: object.size))
        }
        if !candidates.isEmpty {
            let linked = try await req.photos.linkedCount(appointmentID: appointment.id, kind: kind)
            if linked + candidates.count > maxPerKind { throw APIError.photoLimit }
            try await req.photos.link(
                candidates, appointmentID: appointment.id, kind: kind, maxPerKind: maxPerKind, now: req.now)
        }
        let scope: AppointmentScope = try admin ? .everything : req.keyCaller.scope
        guard let current = try await req.bookings.appointment(appointment.id, scope: scope) else {
            throw APIError.appointmentNotFound
        }
        return try JSONResponse.make(await AppointmentAssembler.response(current, admin: admin, req: req))
    }

    /// `photoUrls`: an array of 1–10 strings; duplicates collapsed, order kept.
    static func refs(_ body: FieldReader) throws -> [String] {
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

    // MARK: Admin delete

    /// `DELETE /api/admin/appointments/{id}/photos/{photoId}`: removes the photo (and its upload row, so the ref cannot
    /// be linked again); the object is deleted after the transaction has committed.
    @Sendable static func deletePhoto(req: Request) async throws -> Response {
        let appointmentID = try req.pathID("appointmentId", malformed: .appointmentNotFound)
        guard try await req.bookings.exists(appointmentID) else { throw APIError.appointmentNotFound }
        let photoNotFound = APIError.notFound("Photo not found")
        let photoID = try req.pathID("photoId", malformed: photoNotFound)
        guard let deleted = try await req.photos.delete(photoID, appointmentID: appointmentID, now: req.now) else {
            throw photoNotFound
        }
        do {
            try await req.photoStorage.delete(deleted.objectKey)
        } catch {
            req.logger.warning("deleted photo's object could not be removed", metadata: ["photo": .string(photoID.lowercased)])
        }
        return Response(status: .noContent)
    }

    // MARK: Helpers

    /// The appointment named in a body: visible to the key (client) or existing (admin); `404` otherwise.
    static func appointment(_ id: UUID, admin: Bool, req: Request) async throws -> AppointmentRow {
        let scope: AppointmentScope = try admin ? .everything : req.keyCaller.scope
        guard let item = try await req.bookings.appointment(id, scope: scope) else { throw APIError.appointmentNotFound }
        return item.appointment
    }

    static func pathAppointment(_ req: Request, admin: Bool) async throws -> AppointmentRow {
        let id = try req.pathID("appointmentId", malformed: .appointmentNotFound)
        return try await appointment(id, admin: admin, req: req)
    }
}
