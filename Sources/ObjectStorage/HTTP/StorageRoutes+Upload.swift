import Vapor

extension StorageRoutes {
    /// Presigned PUT (AutoDetail §7.4 rows 10–13): `Content-Length` required and within the bucket's limit before
    /// the body is read, write-once, body streamed to a temporary file and published atomically.
    func upload(_ request: Request) async throws -> Response {
        let bucket: LocalBucket, key: String
        switch authorizeObjectRequest(request) {
        case let .failure(error): return errorResponse(error, request)
        case let .success(resolved): (bucket, key, _) = resolved
        }
        let chunked = request.headers[.transferEncoding].contains { $0.lowercased().contains("chunked") }
        guard !chunked, let declaredText = request.headers.first(name: .contentLength),
              let declared = Int64(declaredText), declared >= 0
        else { return errorResponse(.missingContentLength, request) }
        guard declared <= bucket.maxObjectBytes else { return errorResponse(.requestTooLarge, request) }

        let upload: PendingUpload
        do {
            if try await store.objectExists(bucket: bucket.name, key: key) { return errorResponse(.objectExists, request) }
            if let refusal = await admissionRefusal(bucket: bucket.name, key: key) {
                return errorResponse(refusal, request)
            }
            upload = try await store.beginUpload()
        } catch {
            return errorResponse(PostFormUpload.storageError(error, store: store), request)
        }

        do {
            var tooLong = false
            for try await chunk in request.body {
                if tooLong { continue }
                if upload.writer.byteCount + Int64(chunk.readableBytes) > declared {
                    tooLong = true
                    continue
                }
                try await upload.writer.append(chunk)
            }
            let (size, md5) = try await upload.writer.finish()
            guard !tooLong, size == declared else {
                await upload.writer.discard()
                return errorResponse(.incompleteBody, request)
            }
            // Asked again now that the body is here: the record may have been deleted while it streamed in.
            if let refusal = await admissionRefusal(bucket: bucket.name, key: key) {
                await upload.writer.discard()
                return errorResponse(refusal, request)
            }
            let contentType = request.headers.first(name: .contentType) ?? "binary/octet-stream"
            let info = try await store.publish(
                upload, bucket: bucket.name, key: key, contentType: contentType, size: size, md5: md5)
            var headers = HTTPHeaders()
            headers.add(name: .eTag, value: info.quotedETag)
            return Response(status: .ok, headers: headers, body: .empty)
        } catch let error as StorageError {
            await upload.writer.discard()
            return errorResponse(error, request)
        } catch let failure as FileSystemFailure {
            await upload.writer.discard()
            return errorResponse(PostFormUpload.storageError(failure, store: store), request)
        } catch {
            // The body stream failed: the client disconnected or sent fewer bytes than declared.
            await upload.writer.discard()
            return errorResponse(.incompleteBody, request)
        }
    }

    /// Presigned POST form upload (contract §7.3); 204 with `ETag` and `Location`.
    func postForm(_ request: Request) async throws -> Response {
        let bucket: LocalBucket
        switch resolveBucket(request) {
        case let .failure(error): return errorResponse(error, request)
        case let .success((resolved, target)):
            guard target.key == nil else { return errorResponse(.methodNotAllowed, request) }
            bucket = resolved
        }
        // Checked before a byte of the body is read: the declared size, then the media type.
        if let declared = request.headers.first(name: .contentLength).flatMap({ Int64($0) }),
           declared > store.configuration.maxPostRequestBytes {
            return errorResponse(.requestTooLarge, request)
        }
        guard let boundary = MultipartScanner.boundary(contentType: request.headers.contentType) else {
            return errorResponse(.invalidArgument("Bucket POST must be of the enclosure-type multipart/form-data"), request)
        }
        let admission: @Sendable (String) async -> StorageError? = { [self] key in
            await admissionRefusal(bucket: bucket.name, key: key)
        }
        switch await PostFormUpload(store: store, bucket: bucket, boundary: boundary, admission: admission)
            .receive(request.body)
        {
        case let .failure(error):
            return errorResponse(error, request)
        case let .success(stored):
            var headers = HTTPHeaders()
            headers.add(name: .eTag, value: stored.info.quotedETag)
            headers.add(name: .location, value: store.objectURL(
                bucket: bucket.name, key: stored.key, requestBaseURL: requestBaseURL(request)))
            return Response(status: .noContent, headers: headers)
        }
    }

    /// The bucket's `UploadAdmission` verdict for `key` (nil: go ahead).
    func admissionRefusal(bucket: String, key: String) async -> StorageError? {
        await store.uploadAdmissions.refusal(bucket: bucket, key: key, logger: store.logger)
    }
}
