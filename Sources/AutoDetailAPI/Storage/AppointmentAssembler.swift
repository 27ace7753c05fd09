import AppCore
import Foundation
import Vapor

/// Builds Appointment responses from appointments read with their photos (`BookingStore`): the integrity check of
/// §7.5 for photos whose upload URL has expired since they were linked, and freshly signed URLs.
enum AppointmentAssembler {
    static func response(_ item: AppointmentWithPhotos, admin: Bool, req: Request) async -> AppointmentResponse {
        await responses([item], admin: admin, req: req)[0]
    }

    /// A just-created appointment: it has no photos yet, so nothing is read or checked.
    static func response(created row: AppointmentRow, admin: Bool) -> AppointmentResponse {
        AppointmentResponse(row, workPhotos: [], defectPhotos: [], admin: admin)
    }

    static func responses(_ items: [AppointmentWithPhotos], admin: Bool, req: Request) async -> [AppointmentResponse] {
        let storage = req.photoStorage
        var result: [AppointmentResponse] = []
        result.reserveCapacity(items.count)
        for item in items {
            let photos = await verifyExpired(item.photos, req: req)
            var work: [PhotoResponse] = [], defect: [PhotoResponse] = []
            for photo in photos {
                if photo.mismatch && !admin { continue }
                let response = PhotoResponse(
                    id: photo.id.lowercased, url: storage.presignDownload(key: photo.objectKey, for: req),
                    createdAt: photo.createdAt, mismatch: admin ? photo.mismatch : nil)
                if photo.kind == PhotoKind.work.rawValue { work.append(response) } else { defect.append(response) }
            }
            result.append(AppointmentResponse(item.appointment, workPhotos: work, defectPhotos: defect, admin: admin))
        }
        return result
    }

    /// §7.5: a photo linked while its upload URL was still valid is HEAD-checked once, the first time a response
    /// includes it after that URL expired; a missing or different object marks it `mismatch`. Storage calls happen
    /// outside any transaction; a storage failure leaves the photo unchecked for the next response.
    static func verifyExpired(_ photos: [PhotoRow], req: Request) async -> [PhotoRow] {
        let now = req.now
        var result = photos
        for index in result.indices {
            let photo = result[index]
            guard !photo.mismatch && now > photo.uploadUrlExpiresAt
                && (photo.verifiedAt.map { $0 <= photo.uploadUrlExpiresAt } ?? true)
            else { continue }
            let info: ObjectInfoSummary?
            do {
                info = try await req.photoStorage.head(photo.objectKey).map { ObjectInfoSummary(size: $0.size, etag: $0.etag) }
            } catch {
                req.logger.warning("photo integrity check skipped: storage unavailable")
                continue
            }
            let intact = info?.size == photo.sizeBytes && info?.etag == photo.etag
            do {
                try await req.photos.markVerified(photo.id, intact: intact, at: now)
                result[index].verifiedAt = now
                result[index].mismatch = !intact
            } catch {
                req.logger.warning("photo integrity result could not be stored")
            }
            if !intact {
                req.logger.warning("photo object changed after linking; hidden from clients", metadata: [
                    "photo": .string(photo.id.lowercased), "appointment": .string(photo.appointmentId.lowercased),
                ])
            }
        }
        return result
    }

    struct ObjectInfoSummary {
        let size: Int64
        let etag: String
    }
}
