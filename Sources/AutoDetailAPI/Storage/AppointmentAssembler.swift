import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Builds Appointment responses: the photos of every appointment in one query (no N+1), the integrity check of
/// §7.5 for photos whose upload URL has expired since they were linked, and freshly signed URLs.
enum AppointmentAssembler {
    static func response(_ appointment: AppointmentRecord, admin: Bool, req: Request) async throws -> AppointmentResponse {
        try await responses([appointment], admin: admin, req: req)[0]
    }

    static func responses(_ appointments: [AppointmentRecord], admin: Bool, req: Request) async throws
        -> [AppointmentResponse]
    {
        let ids = appointments.compactMap(\.id)
        var photos: [PhotoRecord] = []
        if !ids.isEmpty {
            photos = try await PhotoRecord.query(on: req.db).filter(\.$appointmentID ~~ ids)
                .sort(\.$position).sort(\.$id).all()
        }
        await verifyExpired(photos, req: req)
        let storage = req.photoStorage
        var byAppointment: [UUID: (work: [PhotoResponse], defect: [PhotoResponse])] = [:]
        for photo in photos {
            if photo.mismatch && !admin { continue }
            let item = PhotoResponse(
                id: photo.id!.lowercased, url: storage.presignDownload(key: photo.objectKey, for: req),
                createdAt: photo.createdAt, mismatch: admin ? photo.mismatch : nil)
            if photo.kind == PhotoKind.work.rawValue {
                byAppointment[photo.appointmentID, default: ([], [])].work.append(item)
            } else {
                byAppointment[photo.appointmentID, default: ([], [])].defect.append(item)
            }
        }
        return appointments.map { a in
            let lists = byAppointment[a.id!] ?? ([], [])
            return AppointmentResponse(a, workPhotos: lists.work, defectPhotos: lists.defect, admin: admin)
        }
    }

    /// §7.5: a photo linked while its upload URL was still valid is HEAD-checked once, the first time a response
    /// includes it after that URL expired; a missing or different object marks it `mismatch`. Storage calls happen
    /// outside any transaction; a storage failure leaves the photo unchecked for the next response.
    static func verifyExpired(_ photos: [PhotoRecord], req: Request) async {
        let now = req.now
        for photo in photos where !photo.mismatch && now > photo.uploadURLExpiresAt
            && (photo.verifiedAt.map { $0 <= photo.uploadURLExpiresAt } ?? true)
        {
            let info: ObjectInfoSummary?
            do {
                info = try await req.photoStorage.head(photo.objectKey).map { ObjectInfoSummary(size: $0.size, etag: $0.etag) }
            } catch {
                req.logger.warning("photo integrity check skipped: storage unavailable")
                continue
            }
            let intact = info?.size == photo.sizeBytes && info?.etag == photo.etag
            do {
                try await req.db.sql.raw("""
                    UPDATE ad_photos SET verified_at = \(bind: now), mismatch = \(bind: !intact)
                    WHERE id = \(bind: photo.id!) AND mismatch = \(bind: false)
                    """).run()
                photo.verifiedAt = now
                photo.mismatch = !intact
            } catch {
                req.logger.warning("photo integrity result could not be stored")
            }
            if !intact {
                req.logger.warning("photo object changed after linking; hidden from clients", metadata: [
                    "photo": .string(photo.id!.lowercased), "appointment": .string(photo.appointmentID.lowercased),
                ])
            }
        }
    }

    struct ObjectInfoSummary {
        let size: Int64
        let etag: String
    }
}
