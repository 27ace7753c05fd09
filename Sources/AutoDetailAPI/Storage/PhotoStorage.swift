import AppCore
import Foundation
import ObjectStorage
import Vapor

/// AutoDetail Hub's view of object storage (contract §7): its bucket, presigned PUT uploads (900 s) and GET downloads
/// (3600 s), HEAD checks and deletes. URLs are built per response from stored keys, never stored.
struct PhotoStorage: Sendable {
    static let maxObjectBytes: Int64 = StorageSettings.autodetailMaxObjectBytes
    static let uploadURLLifetime = 900
    static let downloadURLLifetime = 3600

    let store: any ObjectStore
    let bucket: String
    let publicBaseURL: String?
    let clientAddress: ClientAddress

    /// `PUBLIC_BASE_URL`, or the scheme and Host of the request being answered.
    func baseURL(for req: Request) -> String {
        if let publicBaseURL { return publicBaseURL }
        let host = req.headers.first(name: .host) ?? "127.0.0.1"
        return "\(clientAddress.scheme(of: req))://\(host)"
    }

    func presignUpload(key: String, contentType: String, contentLength: Int64?, for req: Request) -> PresignedRequest {
        store.presignPut(
            bucket: bucket, key: key, contentType: contentType, contentLength: contentLength,
            expiresIn: Self.uploadURLLifetime, requestBaseURL: baseURL(for: req))
    }

    func presignDownload(key: String, for req: Request) -> String {
        store.presignGet(
            bucket: bucket, key: key, expiresIn: Self.downloadURLLifetime, overrides: ResponseOverrides(),
            requestBaseURL: baseURL(for: req)
        ).url
    }

    func head(_ key: String) async throws -> ObjectInfo? { try await store.head(bucket: bucket, key: key) }

    func delete(_ key: String) async throws { try await store.delete(bucket: bucket, key: key) }
}

extension Application {
    private struct PhotoStorageKey: StorageKey { typealias Value = PhotoStorage }

    var photoStorage: PhotoStorage {
        get {
            guard let value = storage[PhotoStorageKey.self] else {
                fatalError("AutoDetailModule.configure must run before photos are used")
            }
            return value
        }
        set { storage[PhotoStorageKey.self] = newValue }
    }
}

extension Request {
    var photoStorage: PhotoStorage { application.photoStorage }
}
