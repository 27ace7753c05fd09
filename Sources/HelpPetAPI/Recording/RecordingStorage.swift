import AppCore
import Foundation
import ObjectStorage
import Vapor

/// HelpPet's view of object storage: its bucket, the upload size rule and URLs built per response from keys
/// (nothing stores a URL derived from a request's Host).
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
