import AppCore
import Foundation
import ObjectStorage
import Vapor

/// HelpPet's view of object storage: its bucket, the upload size rule, the recordings' keys (`RecordingKey`) and file
/// names, and URLs built per response from keys (nothing stores a URL derived from a request's Host).
struct RecordingStorage: Sendable {
    static let maxFileBytes: Int64 = 104_857_600
    static let uploadURLLifetime = 3600
    static let playbackURLLifetime = 900

    let store: any ObjectStore
    let bucket: String
    let publicBaseURL: String?
    let clientAddress: ClientAddress

    /// URLs are built on `baseURL`: `PUBLIC_BASE_URL`, or the scheme and Host of the request being answered
    /// (contract §7.6; the controllers' `Request.recordingBaseURL`).
    func presignUpload(key: String, contentType: String, baseURL: String) -> PresignedPost {
        store.presignPost(
            bucket: bucket, key: key, contentType: contentType, contentLength: 1...Self.maxFileBytes,
            expiresIn: Self.uploadURLLifetime, requestBaseURL: baseURL)
    }

    func objectURL(key: String, baseURL: String) -> String {
        store.objectURL(bucket: bucket, key: key, requestBaseURL: baseURL)
    }

    func presignPlayback(key: String, filename: String, type: AudioContentType, baseURL: String) -> PresignedRequest {
        store.presignGet(
            bucket: bucket, key: key, expiresIn: Self.playbackURLLifetime,
            overrides: ResponseOverrides(contentType: type.playbackType, contentDisposition: Self.inlineDisposition(filename)),
            requestBaseURL: baseURL)
    }

    func head(_ key: String) async throws -> ObjectInfo? { try await store.head(bucket: bucket, key: key) }

    /// `inline; filename="…"`, plus `filename*=UTF-8''…` for non-ASCII names (contract §7.4).
    static func inlineDisposition(_ filename: String) -> String {
        let ascii = String(filename.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        var value = "inline; filename=\"\(ascii)\""
        if !filename.unicodeScalars.allSatisfy(\.isASCII) {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "!#$&+-.^_`|~")
            value += "; filename*=UTF-8''" + (filename.addingPercentEncoding(withAllowedCharacters: allowed) ?? ascii)
        }
        return value
    }
}

/// Storage keys of recordings (contract §7.2):
/// `visit-recordings/{YYYY}/{MM}/{DD}/pet-{pet_id}/{visit_id}-{attempt}.{ext}`, dated by the UTC day of issue.
package enum RecordingKey {
    package static func make(issuedAt: Date, petID: UUID, visitID: UUID, attempt: Int, fileExtension: String) -> String {
        let day = CalendarDay(daysSince1970: Int64((issuedAt.timeIntervalSince1970 / 86_400).rounded(.down)))
        let parts = day.description.split(separator: "-")
        return "visit-recordings/\(parts[0])/\(parts[1])/\(parts[2])/pet-\(petID.lowercased)/\(visitID.lowercased)-\(attempt).\(fileExtension)"
    }

    /// The same key with another extension (re-initiate with a different content type, same attempt).
    static func replacingExtension(of key: String, with fileExtension: String) -> String {
        guard let dot = key.lastIndex(of: "."), let slash = key.lastIndex(of: "/"), dot > slash else {
            return key + "." + fileExtension
        }
        return String(key[..<dot]) + "." + fileExtension
    }

    static func fileExtension(of key: String?) -> String? {
        guard let key, let dot = key.lastIndex(of: "."), let slash = key.lastIndex(of: "/"), dot > slash else { return nil }
        return String(key[key.index(after: dot)...])
    }
}

/// File names from clients: `/`, `\`, `"` and control characters become `_` (seed 002 builds names from pet names);
/// bidirectional controls are removed (`DisplaySafeText`), so a name cannot display as another one.
enum RecordingFilename {
    static func sanitized(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { !DisplaySafeText.isBidiControl($0) }.map { scalar -> Unicode.Scalar in
            switch scalar.value {
            case 0x2F, 0x5C, 0x22, 0x00...0x1F, 0x7F...0x9F: return "_"
            default: return scalar
            }
        }))
    }
}

extension Application {
    private struct RecordingStorageKey: StorageKey { typealias Value = RecordingStorage }

    var recordingStorage: RecordingStorage {
        get {
            guard let value = storage[RecordingStorageKey.self] else {
                fatalError("HelpPetModule.configure must run before recordings are used")
            }
            return value
        }
        set { storage[RecordingStorageKey.self] = newValue }
    }
}
