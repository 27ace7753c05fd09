import Foundation

/// A validated booking, ready for the capacity check (contract §4.4.1, §4.7.4).
struct BookingDraft: Sendable {
    let start: ParsedInstant
    let clientName: String
    let phone: String?
    let telegram: String?
    let carMake: String?
    let carPlate: String?
    let notes: String?
    let serviceID: UUID
    let serviceName: String
    let priceRub: Int
    let durationMinutes: Int
    let source: AppointmentSource
    let status: AppointmentStatus
    let installID: UUID?
    let createdByKeyID: UUID?
    let idempotency: IdempotencyClaim?
}

/// `Idempotency-Key` of a create: the credential, the key and the SHA-256 of the raw body.
struct IdempotencyClaim: Sendable {
    static let lifetime: TimeInterval = 86_400

    let credentialID: UUID
    let key: String
    let requestHash: String
}

enum BookingOutcome: Sendable {
    /// The stored row, returned by the insert: the response needs no further read.
    case created(AppointmentRow)
    /// An earlier request with the same idempotency key and body created this appointment.
    case replayed(UUID)
}
