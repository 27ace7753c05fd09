import AppCore
import Vapor

/// The services of a request, built from values (its database, storage, mail sender, metrics, URL base), so the code
/// below the controllers never sees the request itself.
extension Request {
    var recordingStorage: RecordingStorage { application.recordingStorage }

    /// The base of the recording URLs in this answer: `PUBLIC_BASE_URL`, or the scheme and Host of this request
    /// (contract §7.6). Read here, so the recording code below the controllers never sees the request.
    var recordingBaseURL: String {
        let storage = recordingStorage
        if let publicBaseURL = storage.publicBaseURL { return publicBaseURL }
        let host = headers.first(name: .host) ?? "127.0.0.1"
        return "\(storage.clientAddress.scheme(of: self))://\(host)"
    }

    /// The recording service, on this request's database and URL base.
    var recordingSlots: RecordingSlots {
        RecordingSlots(db: db, storage: recordingStorage, metrics: core.metrics, baseURL: recordingBaseURL)
    }
}

extension Request {
    /// Transcribing again and deleting a visit's recordings, on this request's database.
    var visitRecordingAdmin: VisitRecordingAdmin {
        VisitRecordingAdmin(db: db, storage: recordingStorage, metrics: core.metrics)
    }

    /// Staff edits of transcripts and drafted notes, on this request's database.
    var transcriptEdits: TranscriptEdits {
        TranscriptEdits(db: db, mailFrom: application.core.config.mail.from, metrics: core.metrics)
    }
}

extension Request {
    /// Booking and changing appointments, on this request's database.
    var appointmentBooking: AppointmentBooking {
        AppointmentBooking(db: db, mailFrom: application.core.config.mail.from, metrics: core.metrics)
    }

    /// The vets' availability windows, on this request's database.
    var vetAvailability: VetAvailabilityWindows { VetAvailabilityWindows(db: db) }
}
