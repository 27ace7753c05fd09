import ClientCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Progress of one file transfer.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes of the file sent (uploads) or received (downloads) so far.
    public var bytesTransferred: Int64
    /// Size of the file, if known.
    public var totalBytes: Int64?
    /// Attempt number of the transfer (1 unless retried).
    public var attempt: Int

    public init(bytesTransferred: Int64, totalBytes: Int64?, attempt: Int) {
        self.bytesTransferred = bytesTransferred
        self.totalBytes = totalBytes
        self.attempt = attempt
    }

    /// 0…1, or nil when the size is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesTransferred) / Double(totalBytes))
    }
}

/// How an upload to storage ended.
public enum StorageUploadOutcome: Sendable, Hashable {
    /// Storage accepted the file (204).
    case uploaded
    /// A retry was refused because the object already exists (write-once store): an earlier attempt landed, so the
    /// next step is `complete` (contract §9.6).
    case alreadyStored
}

/// The largest recording the server accepts (100 MiB).
public let maximumRecordingSize: Int64 = 104_857_600

extension HelpPetClient {
    // MARK: Recording flow v2 (initiate → upload → complete → playback)

    /// Reserves the visit of **one pet** and returns where to upload its recording
    /// (`POST /api/v1/visit-transcripts/audio/upload/initiate`). Calling it again while nothing was uploaded returns
    /// the same visit with a fresh upload form, which is why it is retried after transport failures and 5xx.
    ///
    /// - Throws: ``HelpPetError/duplicateRecording(existingVisitId:)`` when the pet already has a recording for the
    ///   slot (pass `replaceExisting: true` to replace it), ``HelpPetError/petNotInAppointment(detail:)``,
    ///   ``HelpPetError/invalid(detail:)`` (also from ``AudioUploadRequest/validate()``, checked first).
    public func initiateAudioUpload(_ body: AudioUploadRequest) async throws(HelpPetError) -> AudioUploadResponse {
        try body.validate()
        let request: Request<AudioUploadResponse>
        do {
            // Retried like a GET: while nothing is uploaded, initiating again returns the same visit (contract R5),
            // so a proxy's 502 from a node that died mid-request costs a retry, not the recording.
            request = try Request(
                method: .post, path: "/api/v1/visit-transcripts/audio/upload/initiate", json: body, isRetryable: true)
        } catch {
            throw .invalid(detail: "cannot encode the request: \(error)")
        }
        let response = try await send(request)
        try response.validate()
        return response
    }

    /// Uploads the recording at `fileURL` to the presigned form of `ticket`: a `multipart/form-data` POST of every
    /// `upload_fields` entry, then the `file` part. The body is streamed from disk into a temporary file and sent
    /// from that file (never loaded into memory), and re-sent on transport failures and 5xx with backoff.
    ///
    /// - Returns: ``StorageUploadOutcome/alreadyStored`` when a retry finds the object already written (an earlier
    ///   attempt landed).
    /// - Throws: ``HelpPetError/uploadURLExpired`` when the form has expired (initiate again: same visit),
    ///   ``HelpPetError/storage(status:code:message:)`` for other refusals, ``HelpPetError/invalid(detail:)`` for an
    ///   empty or too large file.
    @discardableResult
    public func uploadRecording(
        fileAt fileURL: URL, using ticket: AudioUploadResponse,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(HelpPetError) -> StorageUploadOutcome {
        try ticket.validate()
        let size = try Self.recordingSize(fileURL)
        guard let uploadURL = URL(string: ticket.uploadUrl) else { throw .decoding("upload_url is not a URL") }
        var fields = ticket.uploadFields.sorted { $0.key < $1.key }
        if let keyIndex = fields.firstIndex(where: { $0.key.lowercased() == "key" }) {
            fields.insert(fields.remove(at: keyIndex), at: 0)
        }
        let contentType = ticket.uploadFields.first { $0.key.lowercased() == "content-type" }?.value
            ?? "application/octet-stream"
        let body = try MultipartBodyFile.make(
            fields: fields.map { ($0.key, $0.value) }, fileField: "file", fileName: fileURL.lastPathComponent,
            fileContentType: contentType, source: fileURL, directory: configuration.temporaryDirectory)
        defer { body.remove() }
        guard body.contentLength == size else {
            throw .file(path: fileURL.path, reason: "changed while it was being read")
        }

        var request = URLRequest(url: uploadURL)
        request.httpMethod = "POST"
        request.setValue(body.contentTypeHeader, forHTTPHeaderField: "Content-Type")
        request.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        request.timeoutInterval = configuration.transferTimeout

        return try await configuration.retryPolicy.run(willPause: storagePauseHook(.storageUpload)) { attempt in
            var attemptRequest = request
            do {
                try await delegateWillSend(&attemptRequest, kind: .storageUpload, attempt: attempt)
                progress?(TransferProgress(bytesTransferred: 0, totalBytes: size, attempt: attempt))
                let result = try await FileTransfer.run(
                    attemptRequest, mode: .upload(fromFile: body.url), timeout: configuration.transferTimeout
                ) { sent, _ in
                    progress?(
                        TransferProgress(
                            bytesTransferred: body.contentBytes(forBodyBytes: sent), totalBytes: size, attempt: attempt))
                }
                let status = result.response.statusCode
                if (200..<300).contains(status) {
                    progress?(TransferProgress(bytesTransferred: size, totalBytes: size, attempt: attempt))
                    return .success(.uploaded)
                }
                let error = HelpPetError.fromStorageResponse(status: status, body: result.body)
                // Write-once store: on a retry, AccessDenied means an earlier attempt's object is already there.
                if attempt > 1, case let .storage(403, code, _) = error, code == "AccessDenied" { return .success(.alreadyStored) }
                return .retryable(error, retryAfter: nil)
            } catch {
                return .retryable(HelpPetError.fromTransport(error), retryAfter: nil)
            }
        }
    }

    /// Tells the server the upload is finished (`POST /api/v1/visit-transcripts/audio/upload/complete/{id}`): the
    /// server checks the object in storage, records its real size, and queues transcription. Idempotent, so it is
    /// retried after transport failures and 5xx.
    ///
    /// - Throws: ``HelpPetError/conflict(detail:)`` `Audio file has not been uploaded yet` when storage has no object.
    public func completeAudioUpload(visitId: String, _ body: AudioUploadCompleteRequest = AudioUploadCompleteRequest())
        async throws(HelpPetError) -> VisitTranscript
    {
        let request: Request<VisitTranscript>
        do {
            request = try Request(
                method: .post, path: "/api/v1/visit-transcripts/audio/upload/complete/\(Self.segment(visitId))",
                json: body, isRetryable: true)
        } catch {
            throw .invalid(detail: "cannot encode the request: \(error)")
        }
        return try await send(request)
    }

    /// A presigned URL to play the visit's recording, valid 15 minutes
    /// (`GET /api/v1/visit-transcripts/audio/playback/{id}`).
    public func audioPlaybackURL(visitId: String) async throws(HelpPetError) -> AudioPlaybackResponse {
        try await send(Request(path: "/api/v1/visit-transcripts/audio/playback/\(Self.segment(visitId))"))
    }

    /// Downloads the visit's recording to `destination` (streamed to disk; replaced if it exists), through a fresh
    /// playback URL. Retried after transport failures and 5xx.
    /// - Returns: the playback answer (file name, …).
    @discardableResult
    public func downloadRecording(
        visitId: String, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(HelpPetError) -> AudioPlaybackResponse {
        let playback = try await audioPlaybackURL(visitId: visitId)
        try await downloadRecording(from: playback, to: destination, progress: progress)
        return playback
    }

    /// Downloads the recording a playback answer points to (valid 15 minutes) to `destination`, streamed to disk.
    public func downloadRecording(
        from playback: AudioPlaybackResponse, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(HelpPetError) {
        guard let url = URL(string: playback.presignedUrl) else { throw .decoding("presigned_url is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        request.timeoutInterval = configuration.transferTimeout
        try await configuration.retryPolicy.run(willPause: storagePauseHook(.storageDownload)) { attempt in
            var attemptRequest = request
            do {
                try await delegateWillSend(&attemptRequest, kind: .storageDownload, attempt: attempt)
                let result = try await FileTransfer.run(
                    attemptRequest, mode: .download(toFile: destination), timeout: configuration.transferTimeout
                ) { received, expected in
                    progress?(
                        TransferProgress(bytesTransferred: received, totalBytes: expected > 0 ? expected : nil, attempt: attempt))
                }
                let status = result.response.statusCode
                if (200..<300).contains(status) { return .success(()) }
                return .retryable(HelpPetError.fromStorageResponse(status: status, body: result.body), retryAfter: nil)
            } catch {
                return .retryable(HelpPetError.fromTransport(error), retryAfter: nil)
            }
        }
    }

    /// The retry hook of storage transfers: tells the delegate about the pause.
    private func storagePauseHook(_ kind: RequestKind) -> (HelpPetError, Int, TimeInterval) async -> Void {
        { error, attempt, delay in await self.delegateWillRetry(kind, after: error, attempt: attempt, delay: delay) }
    }

    // MARK: Legacy multipart upload (seed 000)

    /// Uploads a recording through the server in one request (`POST /api/v1/upload/audio`, seed 000): the server
    /// checks the slot first, stores the file and completes the visit. The multipart body is streamed from disk.
    /// Not retried (it is not idempotent); prefer the presigned flow (``PetRecordingSession``) in apps.
    ///
    /// - Throws: ``HelpPetError/duplicateRecording(existingVisitId:)``, ``HelpPetError/uploadInProgress(existingVisitId:)``,
    ///   ``HelpPetError/petNotInAppointment(detail:)``, ``HelpPetError/invalid(detail:)``.
    public func legacyUploadAudio(
        fileAt fileURL: URL, appointmentId: String, petId: String, contentType: String? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(HelpPetError) -> LegacyAudioUploadResponse {
        let size = try Self.recordingSize(fileURL)
        let type = contentType ?? AudioContentType.forFile(fileURL) ?? "audio/m4a"
        let body = try MultipartBodyFile.make(
            fields: [("appointment_id", appointmentId), ("pet_id", petId)], fileField: "audio",
            fileName: fileURL.lastPathComponent, fileContentType: type, source: fileURL,
            directory: configuration.temporaryDirectory)
        defer { body.remove() }
        var request = URLRequest(url: try url(path: "/api/v1/upload/audio"))
        request.httpMethod = "POST"
        request.setValue(body.contentTypeHeader, forHTTPHeaderField: "Content-Type")
        request.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("Bearer \(try await bearerToken())", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = configuration.transferTimeout
        try await delegateWillSend(&request, kind: .api, attempt: 1)
        let result: TransferResult
        do {
            result = try await FileTransfer.run(request, mode: .upload(fromFile: body.url), timeout: configuration.transferTimeout) {
                sent, _ in
                progress?(TransferProgress(bytesTransferred: body.contentBytes(forBodyBytes: sent), totalBytes: size, attempt: 1))
            }
        } catch {
            throw HelpPetError.fromTransport(error)
        }
        let status = result.response.statusCode
        guard (200..<300).contains(status) else {
            throw HelpPetError.fromAPIResponse(status: status, body: result.body, headers: result.response)
        }
        do {
            return try HelpPetCoding.makeDecoder().decode(LegacyAudioUploadResponse.self, from: result.body)
        } catch {
            throw .decoding("LegacyAudioUploadResponse: \(error)")
        }
    }

    // MARK: Helpers

    func delegateWillSend(_ request: inout URLRequest, kind: RequestKind, attempt: Int) async throws(HelpPetError) {
        guard let delegate else { return }
        do {
            try await delegate.client(self, willSend: &request, kind: kind, attempt: attempt)
        } catch {
            throw HelpPetError.fromTransport(error)
        }
    }

    /// The size of a recording file, checked against the server's limits (1 byte to 100 MiB).
    static func recordingSize(_ fileURL: URL) throws(HelpPetError) -> Int64 {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
        } catch {
            throw .file(path: fileURL.path, reason: "no such file")
        }
        if let type = attributes[.type] as? FileAttributeType, type == .typeDirectory {
            throw .file(path: fileURL.path, reason: "is a directory")
        }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        guard size > 0 else { throw .invalid(detail: "Audio file is empty") }
        guard size <= maximumRecordingSize else { throw .invalid(detail: "File size too large. Maximum 100MB allowed.") }
        return size
    }
}
