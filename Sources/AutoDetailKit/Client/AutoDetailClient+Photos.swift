import ClientCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Progress of one photo upload: bytes sent of the file's size, and the attempt (retries start at 2).
public struct UploadProgress: Sendable, Hashable {
    public let bytesSent: Int64
    public let totalBytes: Int64
    public let attempt: Int

    /// 0…1.
    public var fractionCompleted: Double { totalBytes > 0 ? min(1, Double(bytesSent) / Double(totalBytes)) : 1 }
}

extension AutoDetailClient {
    /// The largest photo the server accepts (15 MiB).
    public static let maxPhotoBytes: Int64 = 15_728_640

    /// The content type the server accepts for a file name: `image/jpeg` (`.jpg`, `.jpeg`), `image/png`, `image/heic`;
    /// nil for anything else.
    public nonisolated static func photoContentType(forFileName name: String) -> String? {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "heic": return "image/heic"
        default: return nil
        }
    }

    /// Asks for a presigned upload URL (`POST /api/uploads/presign`, the seed's call). Only for appointments the
    /// key may see; a wrong `kind` or content type throws ``AutoDetailError/invalid(message:)``.
    public func presign(_ body: PresignRequest) async throws(AutoDetailError) -> PresignResponse {
        try await send(Request(method: .post, path: "/api/uploads/presign", json: body, authentication: .apiKey))
    }

    /// Links uploaded photos (`POST /api/client/appointments/{id}/photos`, the seed's call); all or nothing.
    public func linkPhotos(appointmentId: String, kind: PhotoKind, refs: [String]) async throws(AutoDetailError)
        -> Appointment
    {
        try await send(
            Request(
                method: .post, path: "/api/client/appointments/\(Self.segment(appointmentId))/photos",
                json: LinkPhotosRequest(kind: kind, photoUrls: refs), authentication: .apiKey))
    }

    /// Presigns and PUTs one photo from disk (streamed, with progress); returns the `ref` to link.
    ///
    /// The PUT is retried after transport failures and 5xx. The store is write-once: if an earlier attempt stored the
    /// object but its answer was lost, the retry is refused with 403 `AccessDenied`; the ref is then returned
    /// anyway, because linking checks that the object exists and answers `Photo has not been uploaded` otherwise.
    public func uploadPhotoFile(
        appointmentId: String, kind: PhotoKind, file: URL, contentType: String? = nil,
        progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws(AutoDetailError) -> String {
        let size = try Self.photoSize(file)
        guard let contentType = contentType ?? Self.photoContentType(forFileName: file.lastPathComponent) else {
            throw .invalid(message: "\(file.lastPathComponent): unknown photo type (use .jpg, .jpeg, .png or .heic)")
        }
        let presigned = try await presign(
            PresignRequest(
                appointmentId: appointmentId, kind: kind, filename: file.lastPathComponent, contentType: contentType,
                sizeBytes: size))
        guard presigned.method.uppercased() == "PUT", let uploadURL = URL(string: presigned.uploadUrl) else {
            throw .decoding("presign answered method \(presigned.method) and URL \(presigned.uploadUrl)")
        }
        var request = URLRequest(url: uploadURL)
        request.httpMethod = "PUT"
        request.timeoutInterval = configuration.uploadTimeout
        for (name, value) in presigned.headers { request.setValue(value, forHTTPHeaderField: name) }
        // The store refuses uploads without Content-Length (no chunked bodies), whatever was signed.
        request.setValue(String(size), forHTTPHeaderField: "Content-Length")

        return try await configuration.retryPolicy.run { attempt in
            progress?(UploadProgress(bytesSent: 0, totalBytes: size, attempt: attempt))
            let result: TransferResult
            do {
                result = try await FileTransfer.run(
                    request, mode: .upload(fromFile: file), timeout: configuration.uploadTimeout,
                    maxBufferedBody: 65_536  // only small S3 XML error bodies are expected
                ) { sent, _ in
                    progress?(UploadProgress(bytesSent: min(sent, size), totalBytes: size, attempt: attempt))
                }
            } catch {
                return .retryable(AutoDetailError.fromTransport(error), retryAfter: nil)
            }
            let status = result.response.statusCode
            if (200..<300).contains(status) {
                progress?(UploadProgress(bytesSent: size, totalBytes: size, attempt: attempt))
                return .success(presigned.ref)
            }
            let error = AutoDetailError.fromStorageResponse(status: status, body: result.body)
            if attempt > 1, case .storage(403, "AccessDenied", _) = error { return .success(presigned.ref) }
            let retryAfter = result.response.value(forHTTPHeaderField: "Retry-After").flatMap(TimeInterval.init)
            return .retryable(error, retryAfter: retryAfter)
        }
    }

    /// The seed's whole photo flow for one file: presign → PUT the file → link. Returns the updated appointment.
    @discardableResult
    public func addPhoto(
        appointmentId: String, kind: PhotoKind, file: URL, contentType: String? = nil,
        progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws(AutoDetailError) -> Appointment {
        let ref = try await uploadPhotoFile(
            appointmentId: appointmentId, kind: kind, file: file, contentType: contentType, progress: progress)
        return try await linkPhotos(appointmentId: appointmentId, kind: kind, refs: [ref])
    }

    /// Downloads a photo's signed `url` into memory (photos are at most 15 MiB). Retried like a GET.
    public func downloadPhoto(_ photo: Photo) async throws(AutoDetailError) -> Data {
        guard let url = URL(string: photo.url) else { throw .decoding("photo URL \(photo.url)") }
        return try await configuration.retryPolicy.run { _ in
            do {
                var request = URLRequest(url: url)
                request.timeoutInterval = configuration.uploadTimeout
                let (data, response) = try await URLSession.shared.data(for: request)
                guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
                if http.statusCode == 200 { return .success(data) }
                return .retryable(AutoDetailError.fromStorageResponse(status: http.statusCode, body: data), retryAfter: nil)
            } catch {
                return .retryable(AutoDetailError.fromTransport(error), retryAfter: nil)
            }
        }
    }

    /// The size of a photo file; throws for a missing or unreadable file, a folder, an empty file or one over 15 MiB.
    static func photoSize(_ file: URL) throws(AutoDetailError) -> Int64 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            throw .file(path: file.path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .file(path: file.path, reason: "is a folder") }
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw .file(path: file.path, reason: "not readable") }
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        guard let size = (attributes?[.size] as? NSNumber)?.int64Value else {
            throw .file(path: file.path, reason: "cannot read its size")
        }
        guard size > 0 else { throw .file(path: file.path, reason: "is empty") }
        guard size <= maxPhotoBytes else { throw .invalid(message: "\(file.lastPathComponent): File too large (max 15 MiB)") }
        return size
    }
}
