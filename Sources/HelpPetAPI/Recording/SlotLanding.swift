import AppCore
import Fluent
import Foundation
import ObjectStorage

/// Looks for objects under every key a visit's slot still waits on (not only its current key): a client may
/// upload with any URL it was given, for example the first one after re-initiating with another content type.
/// The HEAD requests happen here, outside any transaction; `RecordingCompletion.settle` applies the result.
enum SlotLanding {
    /// An object found under an issued key.
    struct Landed: Sendable {
        let intent: UploadIntent
        let object: ObjectInfo
    }

    /// The landed objects among `intents` (each one HEAD request).
    static func heads(_ intents: [UploadIntent], storage: RecordingStorage) async throws -> [Landed] {
        var landed: [Landed] = []
        for intent in intents {
            if let object = try await storage.head(intent.storageKey) { landed.append(Landed(intent: intent, object: object)) }
        }
        return landed
    }

    /// The landed objects under the unsettled intents of a visit.
    static func find(visitID: UUID, storage: RecordingStorage, on db: any Database) async throws -> [Landed] {
        try await heads(try await UploadIntentStore(db: db).unsettled(visitID: visitID), storage: storage)
    }
}
