import AppCore

/// HelpPet's answers that more than one place gives, written once (the contract's wording: helppet-api.md). A message
/// used in one place stays beside its rule.
extension APIError {
    static let visitNotFound = APIError.notFound("Visit not found")
    static let practiceNotFound = APIError.notFound("Practice not found")
    static let petNotFound = APIError.notFound("Pet not found")
    static let petOwnerNotFound = APIError.notFound("Pet owner not found")
    static let appointmentNotFound = APIError.notFound("Appointment not found")
    static let medicalRecordNotFound = APIError.notFound("Medical record not found")
    static let vetNotFound = APIError.notFound("Vet not found")
    static let userNotFound = APIError.notFound("User not found")
    static let inviteNotFound = APIError.notFound("Invitation not found")
    static let nothingToUpdate = APIError.badRequest("At least one updatable field is required")
    static let notAuthenticated = APIError.unauthorized("Not authenticated")
    static let invalidCredentials = APIError.unauthorized("Could not validate credentials")
    static let usernameTaken = APIError.conflict("Username already registered")
    static let emailTaken = APIError.conflict("Email already registered")
    static let transcriptionInProgress = APIError.conflict("Transcription in progress")
    static let administratorRequired = APIError.forbidden("Administrator access required")
    static let audioNotUploaded = APIError.conflict("Audio file has not been uploaded yet")
    static let recordingCancelledAppointment = APIError.conflict("Cannot record audio for a cancelled appointment")
    static let ownerLinkedToUser = APIError.conflict("Pet owner is already linked to a user")
    static let notAClientOfPractice = APIError.badRequest("Pet owner is not a client of this practice")
}
