import AppCore
import Vapor

/// The `{"error": ...}` answers of this contract (§1.5), built on the shared `APIError` (the error middleware
/// renders `/api/**` paths outside `/api/v1` in this format).
extension APIError {
    // The wording lives in `RequestMessages.autoDetail`, which AppCore's readers use too.
    static func missingFields(_ names: [String]) -> APIError {
        .badRequest(RequestMessages.autoDetail.missingFields(names))
    }

    static func invalidField(_ name: String, _ reason: String) -> APIError {
        .badRequest(RequestMessages.autoDetail.invalidField(name, reason))
    }

    static func missingParameters(_ names: [String]) -> APIError {
        .badRequest(RequestMessages.autoDetail.missingParameters(names))
    }

    static func invalidParameter(_ name: String, _ reason: String) -> APIError {
        .badRequest(RequestMessages.autoDetail.invalidParameter(name, reason))
    }

    static let invalidJSONBody = APIError.badRequest(RequestMessages.autoDetail.invalidJSONBody)
    static let nothingToUpdate = APIError.badRequest("Nothing to update")
    static let unsupportedMediaType = APIError(.unsupportedMediaType, "Content-Type must be application/json")
    static let invalidTimeSlot = APIError.badRequest("Invalid time slot")
    static let slotFull = APIError.conflict("Time slot is no longer available")
    static let appointmentNotFound = APIError.notFound("Appointment not found")
    static let serviceNotFound = APIError.notFound("Service not found")
    static let fileTooLarge = APIError(.payloadTooLarge, "File too large (max 15 MiB)")
    static let cancelledPhotos = APIError.conflict("Cannot add photos to a cancelled appointment")
    static let photoLimit = APIError.conflict("Photo limit reached (30 per kind)")
    static let missingAPIKey = APIError(.unauthorized, "Missing API key")
    static let invalidAPIKey = APIError(.unauthorized, "Invalid API key")
    static let blockedInstall = APIError.forbidden("This app installation has been blocked")
    static let installKeyRequired = APIError.forbidden("This endpoint requires an app installation key")
    static let missingAdminToken = APIError(.unauthorized, "Missing admin token")
    static let invalidAdminToken = APIError(.unauthorized, "Invalid or expired admin token")
    static func tooManyRequests(_ retryAfter: Int) -> APIError {
        APIError(.tooManyRequests, "Too many requests", headers: ["Retry-After": String(max(1, retryAfter))])
    }
}
