import Fluent
import Vapor

/// The stores of a request, on the request's database: HelpPet's half of the one way both products reach their
/// tables (AutoDetail's is `AutoDetailAPI/HTTP/Request+Stores.swift`). Inside a transaction a store is made on the
/// transaction's database instead: `VisitStore(db: tx)`.
extension Request {
    var appointments: AppointmentStore { AppointmentStore(db: db) }
    var appointmentConsole: AppointmentConsoleStore { AppointmentConsoleStore(db: db) }
    var boards: BoardStore { BoardStore(db: db) }
    var consoleSessions: ConsoleSessionStore { ConsoleSessionStore(db: db) }
    var deviceTokens: DeviceTokenStore { DeviceTokenStore(db: db) }
    var medicalRecords: MedicalRecordStore { MedicalRecordStore(db: db) }
    var noteTemplates: NoteTemplateStore { NoteTemplateStore(db: db) }
    var notificationOutbox: NotificationOutboxStore { NotificationOutboxStore(db: db) }
    var ownerDirectory: OwnerDirectoryStore { OwnerDirectoryStore(db: db) }
    var petOwners: PetOwnerStore { PetOwnerStore(db: db) }
    var pets: PetStore { PetStore(db: db) }
    var practiceInvites: PracticeInviteStore { PracticeInviteStore(db: db) }
    var practices: PracticeStore { PracticeStore(db: db) }
    var practiceVocabulary: PracticeVocabularyStore { PracticeVocabularyStore(db: db) }
    var transcripts: TranscriptStore { TranscriptStore(db: db) }
    var uploadIntents: UploadIntentStore { UploadIntentStore(db: db) }
    var users: UserStore { UserStore(db: db) }
    var visibility: VisibilityStore { VisibilityStore(db: db) }
    var visitAddenda: VisitAddendumStore { VisitAddendumStore(db: db) }
    var visitConsole: VisitConsoleStore { VisitConsoleStore(db: db) }
    var visits: VisitStore { VisitStore(db: db) }
}
