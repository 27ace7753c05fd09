import _NIOFileSystem
import Vapor

extension StorageRoutes {
    /// Presigned GET and HEAD (contract §7.4): the stored bytes, whole or one range, streamed from disk.
    func download(_ request: Request) async throws -> Response {
        let bucket: LocalBucket, key: String, dataPath: String
        switch authorizeObjectRequest(request) {
        case let .failure(error): return errorResponse(error, request)
        case let .success(resolved): (bucket, key, dataPath) = resolved
        }
        let info: ObjectInfo
        do {
            guard let found = try await store.info(dataPath: dataPath, metaPath: store.layout.metaPath(bucket: bucket.name, key: key))
            else { return errorResponse(.noSuchKey, request) }
            info = found
        } catch {
            return errorResponse(PostFormUpload.storageError(error, store: store), request)
        }

        let range = ByteRangeRequest.resolve(header: request.headers.first(name: .range), size: info.size)
        if range == .unsatisfiable {
            var headers = HTTPHeaders()
            headers.add(name: .contentRange, value: "bytes */\(info.size)")
            return errorResponse(.invalidRange, request, headers: headers)
        }

        var headers = responseHeaders(info, query: QueryAuthRequest.parseQuery(request.url.query) ?? [])
        let status: HTTPResponseStatus
        let offset: Int64, length: Int64
        if case let .partial(bytes) = range {
            status = .partialContent
            offset = bytes.lowerBound
            length = bytes.upperBound - bytes.lowerBound + 1
            headers.add(name: .contentRange, value: "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(info.size)")
        } else {
            status = .ok
            offset = 0
            length = info.size
        }
        headers.replaceOrAdd(name: .contentLength, value: String(length))

        if request.method == .HEAD || length == 0 {
            return Response(status: status, version: request.version, headersNoUpdate: headers, body: .empty)
        }
        // Streamed from the file, one 64 KiB chunk at a time, through a handle this scope closes. Vapor's
        // `fileio.readFile` left its handle open when a client went away mid-body (a browser's <audio> dropping a
        // range request as the page reloads), and NIO's file system stops the process on a leaked handle: found
        // by the clinic note browser test, which crashed the server that way.
        let body = Response.Body(managedAsyncStream: { writer in
            try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(dataPath)) { file in
                for try await chunk in file.readChunks(in: offset..<(offset + length), chunkLength: .kibibytes(64)) {
                    try await writer.writeBuffer(chunk)
                }
            }
        }, count: Int(length))
        let response = Response(status: status, version: request.version, headersNoUpdate: headers, body: body)
        return response
    }

    /// The object's headers, with the overrides a presigned URL signed (`response-content-type`,
    /// `response-content-disposition`, and S3's other `response-*` parameters) replacing the stored values.
    func responseHeaders(_ info: ObjectInfo, query: [(name: String, value: String)]) -> HTTPHeaders {
        func override(_ name: String) -> String? { query.first { $0.name == name }?.value }
        var headers = HTTPHeaders()
        headers.add(name: .acceptRanges, value: "bytes")
        // Browsers must render the stored bytes as the stored type, never sniff an upload into HTML or script.
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: .contentType, value: override("response-content-type") ?? info.contentType)
        if let disposition = override("response-content-disposition") {
            // Signed, but still chosen by whoever presigned it: no bidirectional or control characters reach a browser.
            headers.add(name: .contentDisposition, value: DisplaySafeText.stripped(disposition))
        }
        if let language = override("response-content-language") { headers.add(name: .contentLanguage, value: language) }
        if let encoding = override("response-content-encoding") { headers.add(name: .contentEncoding, value: encoding) }
        if let expires = override("response-expires") { headers.add(name: .expires, value: expires) }
        headers.add(name: .eTag, value: info.quotedETag)
        headers.add(name: .lastModified, value: HTTPDate.format(info.lastModified))
        headers.add(name: .cacheControl, value: override("response-cache-control") ?? "private, max-age=3600")
        return headers
    }
}
