import Vapor

/// Receives one presigned POST form (contract §7.3) from a streamed request body.
///
/// Text fields are collected (at most `maxFormFieldBytes`); when the `file` part begins, the form is verified
/// (signature, policy, write-once) before a single file byte is written; the file then streams into a temporary
/// file with the size limit enforced as bytes arrive, and is published when its part ends. Parts after `file`
/// are ignored. After a failure the rest of the body is read and discarded, so the client receives the error
/// instead of a reset connection; the declared size was already capped, and undeclared (chunked) bodies stop
/// being read at the same cap.
final class PostFormUpload {
    struct Success {
        var key: String
        var info: ObjectInfo
    }

    private enum Part {
        case none
        case field(name: String, value: ByteBuffer)
        case file(upload: PendingUpload, grant: PostUploadGrant, maxBytes: Int64)
        /// The file was handled (stored or refused); everything after it is ignored.
        case done
    }

    private let store: LocalObjectStore
    private let bucket: LocalBucket
    /// The bucket's `UploadAdmission` for a key: nil to go ahead, else the refusal.
    private let admission: @Sendable (String) async -> StorageError?
    private var scanner: MultipartScanner
    private var fields = PostFormFields()
    private var part = Part.none
    private var preFileBytes = 0
    private var failure: StorageError?
    private var success: Success?

    init(
        store: LocalObjectStore, bucket: LocalBucket, boundary: String,
        admission: @escaping @Sendable (String) async -> StorageError?
    ) {
        self.store = store
        self.bucket = bucket
        self.admission = admission
        self.scanner = MultipartScanner(boundary: boundary)
    }

    func receive(_ body: Request.Body) async -> Result<Success, StorageError> {
        var received: Int64 = 0
        do {
            for try await chunk in body {
                received += Int64(chunk.readableBytes)
                if received > store.configuration.maxPostRequestBytes {
                    // Only reachable without a declared length (chunked); stop reading altogether.
                    await fail(.requestTooLarge)
                    break
                }
                if failure != nil || success != nil || scanner.isFinished { continue }
                let events: [MultipartScanner.Event]
                do {
                    events = try scanner.feed(chunk)
                } catch MultipartScanner.Failure.headersTooLarge {
                    await fail(.formFieldsTooLarge)
                    continue
                } catch {
                    await fail(.malformedPOSTRequest)
                    continue
                }
                for event in events {
                    await handle(event)
                    if failure != nil || success != nil { break }
                }
            }
        } catch {
            // The client went away or the connection broke mid-body.
            await fail(.incompleteBody)
        }
        if let failure { return .failure(failure) }
        if let success { return .success(success) }
        if case .file = part {
            await fail(.incompleteBody)
            return .failure(.incompleteBody)
        }
        // The body ended without a file part: report missing fields first, as the contract's order says.
        for name in SigV4Verifier.requiredPostFields where fields.value(of: name) == nil {
            return .failure(.invalidArgument("Bucket POST must contain a field named '\(name)'."))
        }
        return .failure(.invalidArgument("POST requires exactly one file upload per request."))
    }

    private func handle(_ event: MultipartScanner.Event) async {
        switch event {
        case let .partHeaders(headers):
            await beginPart(headers)
        case let .bodyChunk(chunk):
            await partData(chunk)
        case .partEnd:
            await endPart()
        case .end:
            break
        }
    }

    private func beginPart(_ headers: [(name: String, value: String)]) async {
        if case .done = part { return }
        preFileBytes += headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        guard preFileBytes <= store.configuration.maxFormFieldBytes else { return await fail(.formFieldsTooLarge) }
        guard let disposition = headers.first(where: { $0.name == "content-disposition" })?.value,
              let name = FormDataDisposition.parse(disposition).name, !name.isEmpty
        else { return await fail(.malformedPOSTRequest) }

        guard name.lowercased() == "file" else {
            part = .field(name: name, value: ByteBuffer())
            return
        }
        do {
            let grant = try store.verifier.verifyPostForm(bucket: bucket.name, fields: fields)
            guard store.layout.dataPath(bucket: bucket.name, key: grant.key) != nil else {
                return await fail(.invalidArgument("The object key is not allowed."))
            }
            if try await store.objectExists(bucket: bucket.name, key: grant.key) { return await fail(.objectExists) }
            if let refusal = await admission(grant.key) { return await fail(refusal) }
            let upload = try await store.beginUpload()
            let maxBytes = min(grant.contentLength?.upperBound ?? bucket.maxObjectBytes, bucket.maxObjectBytes)
            part = .file(upload: upload, grant: grant, maxBytes: maxBytes)
        } catch let error as StorageError {
            await fail(error)
        } catch {
            await fail(Self.storageError(error, store: store))
        }
    }

    private func partData(_ chunk: ByteBuffer) async {
        switch part {
        case .none, .done:
            break
        case .field(let name, var value):
            preFileBytes += chunk.readableBytes
            guard preFileBytes <= store.configuration.maxFormFieldBytes else { return await fail(.formFieldsTooLarge) }
            var chunk = chunk
            value.writeBuffer(&chunk)
            part = .field(name: name, value: value)
        case let .file(upload, _, maxBytes):
            guard upload.writer.byteCount + Int64(chunk.readableBytes) <= maxBytes else {
                return await fail(.fileTooLarge)
            }
            do {
                try await upload.writer.append(chunk)
            } catch {
                await fail(Self.storageError(error, store: store))
            }
        }
    }

    private func endPart() async {
        switch part {
        case .none, .done:
            break
        case let .field(name, value):
            part = .none
            guard let text = value.getString(at: value.readerIndex, length: value.readableBytes, encoding: .utf8) else {
                return await fail(.invalidArgument("Form field '\(name)' is not valid UTF-8."))
            }
            guard fields.append(name: name, value: text) else {
                return await fail(.invalidArgument("Form field '\(name)' was sent more than once."))
            }
        case let .file(upload, grant, _):
            part = .done
            do {
                let (size, md5) = try await upload.writer.finish()
                if let range = grant.contentLength, size < range.lowerBound {
                    await upload.writer.discard()
                    return await fail(.fileTooSmall)
                }
                // Asked again now that the file is here: the record may have been deleted while it streamed in.
                if let refusal = await admission(grant.key) {
                    await upload.writer.discard()
                    return await fail(refusal)
                }
                let info = try await store.publish(
                    upload, bucket: bucket.name, key: grant.key,
                    contentType: grant.contentType ?? "binary/octet-stream", size: size, md5: md5)
                success = Success(key: grant.key, info: info)
            } catch let error as StorageError {
                await upload.writer.discard()
                await fail(error)
            } catch {
                await upload.writer.discard()
                await fail(Self.storageError(error, store: store))
            }
        }
    }

    /// Records the first failure and removes a half-written file.
    private func fail(_ error: StorageError) async {
        if failure == nil { failure = error }
        if case let .file(upload, _, _) = part { await upload.writer.discard() }
        part = .done
    }

    static func storageError(_ error: any Error, store: LocalObjectStore) -> StorageError {
        if let failure = error as? FileSystemFailure {
            store.logger.error("embedded store file operation failed: \(failure)")
            return failure.storageError
        }
        store.logger.error("embedded store upload failed: \(String(reflecting: error))")
        return .internalError
    }
}
