import AsyncHTTPClient
import Foundation
import NIOCore
import Vapor

/// Amazon S3 or an S3-compatible service, over AsyncHTTPClient with SigV4 header signing. Uploads are one
/// streamed PUT signed with `UNSIGNED-PAYLOAD` (never multipart: objects are at most 100 MiB). With this backend
/// the embedded store's routes are not mounted.
///
/// The `HTTPClient` belongs to the caller (use the application's shared one); `shutdown()` stops only the
/// thread pool this store uses to read files for uploads.
public final class S3ObjectStore: ObjectStore, Sendable {
    public let configuration: S3Configuration
    public let addressing: S3Addressing
    private let httpClient: HTTPClient
    private let io: StorageFileIO
    private let logger: Logger

    public init(configuration: S3Configuration, httpClient: HTTPClient, logger: Logger = Logger(label: "object-storage.s3")) throws {
        var endpoint: URLOrigin?
        if let text = configuration.endpoint, !text.isEmpty {
            guard let parsed = URLOrigin(text) else {
                throw S3ConfigurationError(message: "S3_ENDPOINT must be an http(s) URL, got '\(text)'.")
            }
            endpoint = parsed
        }
        guard !configuration.credentials.accessKeyID.isEmpty, !configuration.credentials.secretAccessKey.isEmpty else {
            throw S3ConfigurationError(message: "The S3 backend needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.")
        }
        self.configuration = configuration
        self.addressing = S3Addressing(region: configuration.region, endpoint: endpoint, forcePathStyle: configuration.forcePathStyle)
        self.httpClient = httpClient
        self.io = StorageFileIO(threads: 1)
        self.logger = logger
    }

    public func shutdown() async { await io.shutdown() }

    // MARK: Presigning (local computation)

    public func presignPost(
        bucket: String, key: String, contentType: String, contentLength: ClosedRange<Int64>, expiresIn: Int,
        requestBaseURL: String
    ) -> PresignedPost {
        PostPolicySigner(credentials: configuration.credentials, region: configuration.region)
            .presign(url: addressing.uploadURL(bucket: bucket), bucket: bucket, key: key, contentType: contentType,
                     contentLength: contentLength, expiresIn: expiresIn, date: configuration.now())
    }

    public func presignGet(
        bucket: String, key: String, expiresIn: Int, overrides: ResponseOverrides, requestBaseURL: String
    ) -> PresignedRequest {
        presign(method: "GET", bucket: bucket, key: key, parameters: overrides.queryParameters, headers: [], expiresIn: expiresIn)
    }

    public func presignPut(
        bucket: String, key: String, contentType: String, contentLength: Int64?, expiresIn: Int, requestBaseURL: String
    ) -> PresignedRequest {
        var headers: [(name: String, value: String)] = [("content-type", contentType)]
        if let contentLength { headers.insert(("content-length", String(contentLength)), at: 0) }
        return presign(method: "PUT", bucket: bucket, key: key, parameters: [], headers: headers, expiresIn: expiresIn)
    }

    public func objectURL(bucket: String, key: String, requestBaseURL: String) -> String {
        addressing.objectURL(bucket: bucket, key: key)
    }

    private func presign(
        method: String, bucket: String, key: String, parameters: [(name: String, value: String)],
        headers: [(name: String, value: String)], expiresIn: Int
    ) -> PresignedRequest {
        let origin = addressing.origin(bucket: bucket)
        return PresignedURLSigner(credentials: configuration.credentials, region: configuration.region)
            .presign(method: method, scheme: origin.scheme, host: origin.host,
                     path: addressing.objectPath(bucket: bucket, key: key), parameters: parameters,
                     signedHeaders: headers, expiresIn: expiresIn, date: configuration.now())
            .request
    }

    // MARK: Requests

    public func head(bucket: String, key: String) async throws -> ObjectInfo? {
        let response = try await send(.HEAD, bucket: bucket, key: key)
        if response.status == .notFound { return nil }
        guard response.status == .ok else { throw await failure(response, method: .HEAD) }
        return Self.objectInfo(response.headers, size: response.headers.first(name: "content-length").flatMap { Int64($0) })
    }

    public func get(bucket: String, key: String, range: ClosedRange<Int64>?, maxBytes: Int) async throws -> ObjectContents? {
        var headers: [(name: String, value: String)] = []
        if let range { headers.append(("range", "bytes=\(range.lowerBound)-\(range.upperBound)")) }
        let response = try await send(.GET, bucket: bucket, key: key, headers: headers)
        if response.status == .notFound {
            if let error = await failureOrNil(response) { throw error }
            return nil
        }
        guard response.status == .ok || response.status == .partialContent else {
            throw await failure(response, method: .GET)
        }
        var bytes = ByteBuffer()
        do {
            for try await chunk in response.body {
                guard bytes.readableBytes + chunk.readableBytes <= maxBytes else { throw StorageError.requestTooLarge }
                var chunk = chunk
                bytes.writeBuffer(&chunk)
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw S3ErrorDocument.unreachable
        }
        var returned: ClosedRange<Int64>?
        var size = Int64(bytes.readableBytes)
        if response.status == .partialContent, let contentRange = response.headers.first(name: "content-range") {
            // "bytes a-b/size"
            let spec = contentRange.split(separator: " ").last ?? ""
            let parts = spec.split(separator: "/")
            let bounds = parts.first?.split(separator: "-").compactMap { Int64($0) } ?? []
            if bounds.count == 2 { returned = bounds[0]...bounds[1] }
            if parts.count == 2, let total = Int64(parts[1]) { size = total }
        }
        return ObjectContents(info: Self.objectInfo(response.headers, size: size), range: returned, bytes: bytes)
    }

    public func download(bucket: String, key: String, to destination: URL) async throws -> ObjectInfo? {
        let response = try await send(.GET, bucket: bucket, key: key, timeout: .minutes(30))
        if response.status == .notFound { return nil }
        guard response.status == .ok else { throw await failure(response, method: .GET) }
        let writer = try await StreamedFileWriter.create(at: destination.path, io: io)
        do {
            for try await chunk in response.body { try await writer.append(chunk) }
            let (size, _) = try await writer.finish()
            return Self.objectInfo(response.headers, size: size)
        } catch {
            await writer.discard()
            if error is FileSystemFailure { throw error }
            throw S3ErrorDocument.unreachable
        }
    }

    public func put(bucket: String, key: String, file: URL, size: Int64, contentType: String) async throws -> ObjectInfo {
        // Allow 60 s plus 4 s per MiB (≥ 256 KiB/s) for the bytes.
        let timeout = TimeAmount.seconds(60 + size / 262_144)
        let body = HTTPClientRequest.Body.stream(FileChunkSequence(path: file.path, io: io), length: .known(size))
        let response = try await send(
            .PUT, bucket: bucket, key: key, headers: [("content-type", contentType)], body: body, timeout: timeout)
        guard response.status == .ok else { throw await failure(response, method: .PUT) }
        let etag = (response.headers.first(name: "etag") ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return ObjectInfo(size: size, contentType: contentType, etag: etag, lastModified: configuration.now())
    }

    public func delete(bucket: String, key: String) async throws {
        let response = try await send(.DELETE, bucket: bucket, key: key)
        // S3 answers 204 whether or not the key existed; some compatible services answer 404 for a missing key.
        guard response.status == .noContent || response.status == .ok || response.status == .notFound else {
            throw await failure(response, method: .DELETE)
        }
        _ = try? await response.body.collect(upTo: 64 * 1024)
    }

    public func bucketReachable(bucket: String) async -> Bool {
        do {
            let response = try await send(.HEAD, bucket: bucket, key: nil)
            return response.status == .ok
        } catch {
            return false
        }
    }

    // MARK: Plumbing

    /// Signs and sends one request. `key == nil` addresses the bucket itself.
    private func send(
        _ method: HTTPMethod, bucket: String, key: String?, headers: [(name: String, value: String)] = [],
        body: HTTPClientRequest.Body? = nil, timeout: TimeAmount? = nil
    ) async throws -> HTTPClientResponse {
        let origin = addressing.origin(bucket: bucket)
        let path = key.map { addressing.objectPath(bucket: bucket, key: $0) } ?? addressing.bucketPath(bucket: bucket)
        // HeadBucket on a virtual host is "/"; path style is "/bucket" (no trailing slash), as SDKs send it.
        let requestPath = key == nil && addressing.forcePathStyle ? String(path.dropLast()) : path
        let signed = RequestHeaderSigner(credentials: configuration.credentials, region: configuration.region)
            .sign(method: method.rawValue, host: origin.host, path: requestPath, headers: headers,
                  payloadHash: SigV4.unsignedPayload, date: configuration.now())
        var request = HTTPClientRequest(url: "\(origin.scheme)://\(origin.host)\(AWSURIEncoding.encodePath(requestPath))")
        request.method = method
        for header in headers + signed.addedHeaders { request.headers.add(name: header.name, value: header.value) }
        if let body { request.body = body }
        do {
            return try await httpClient.execute(
                request, timeout: timeout ?? .milliseconds(Int64(configuration.requestTimeout * 1000)), logger: logger)
        } catch {
            logger.warning("S3 request failed", metadata: ["method": "\(method.rawValue)", "error": "\(error)"])
            throw S3ErrorDocument.unreachable
        }
    }

    private func failure(_ response: HTTPClientResponse, method: HTTPMethod) async -> StorageError {
        let body = method == .HEAD ? nil : try? await response.body.collect(upTo: 64 * 1024)
        let error = S3ErrorDocument.storageError(status: response.status, body: body.map { String(buffer: $0) })
        logger.warning("S3 refused a request", metadata: ["method": "\(method.rawValue)", "error": "\(error)"])
        return error
    }

    /// A 404 GET says whether the key or the bucket is missing; only a missing key means "no object".
    private func failureOrNil(_ response: HTTPClientResponse) async -> StorageError? {
        let error = await failure(response, method: .GET)
        return error.code == "NoSuchKey" || error.code == "NotFound" ? nil : error
    }

    private static func objectInfo(_ headers: HTTPHeaders, size: Int64?) -> ObjectInfo {
        ObjectInfo(
            size: size ?? 0,
            contentType: headers.first(name: "content-type") ?? "binary/octet-stream",
            etag: (headers.first(name: "etag") ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\"")),
            lastModified: headers.first(name: "last-modified").flatMap(HTTPDate.parse) ?? Date(timeIntervalSince1970: 0))
    }
}
