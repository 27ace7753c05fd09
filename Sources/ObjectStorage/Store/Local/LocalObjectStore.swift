import Foundation
import Vapor

/// The embedded object store: objects as files under one root, served at `/storage/{bucket}/{key}` by
/// `StorageRoutes` with S3's presigned POST/PUT/GET protocol. Objects are write-once.
///
/// Create it with `open(_:)` (which prepares the directories and cleans up after a crash) and call
/// `shutdown()` when the application stops (it owns the thread pool for its file I/O).
public final class LocalObjectStore: ObjectStore, Sendable {
    public let configuration: LocalObjectStoreConfiguration
    /// Verifies presigned requests with the store's key, region and clock.
    public let verifier: SigV4Verifier
    let layout: LocalObjectLayout
    let io: StorageFileIO
    let logger: Logger
    private let bucketsByName: [String: LocalBucket]
    /// Per-bucket rules of the products: which keys may still be uploaded (checked after the signature, the
    /// policy and write-once, before a byte is stored, and again just before the object is published).
    public let uploadAdmissions = UploadAdmissions()

    /// This process's claim on its temporary directory (see `StoreInstanceLease`).
    let instance: StoreInstanceLease

    private init(configuration: LocalObjectStoreConfiguration, logger: Logger, io: StorageFileIO, instance: StoreInstanceLease) {
        self.configuration = configuration
        self.verifier = SigV4Verifier(
            credentials: configuration.credentials, region: configuration.region,
            maxClockSkew: configuration.maxClockSkew, now: configuration.now)
        self.layout = LocalObjectLayout(rootDirectory: configuration.rootDirectory)
        self.io = io
        self.logger = logger
        self.instance = instance
        self.bucketsByName = Dictionary(configuration.buckets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Validates the configuration, creates the directories, finishes publishes a crash interrupted, removes the
    /// temporary files of store instances that are no longer running, and claims a temporary directory.
    public static func open(
        _ configuration: LocalObjectStoreConfiguration, logger: Logger = Logger(label: "object-storage.local")
    ) async throws -> LocalObjectStore {
        for bucket in configuration.buckets where !LocalBucket.isValidName(bucket.name) {
            throw LocalStoreConfigurationError(message: "Invalid bucket name '\(bucket.name)' (S3 naming rules apply).")
        }
        guard !configuration.credentials.accessKeyID.isEmpty, !configuration.credentials.secretAccessKey.isEmpty else {
            throw LocalStoreConfigurationError(message: "The embedded store needs an access key id and a secret.")
        }
        let io = StorageFileIO()
        let layout = LocalObjectLayout(rootDirectory: configuration.rootDirectory)
        do {
            try await recoverAndCleanUp(layout: layout, buckets: configuration.buckets.map(\.name), io: io, logger: logger)
            let instance = try await io.run { try StoreInstanceLease.acquire(layout: layout) }
            return LocalObjectStore(configuration: configuration, logger: logger, io: io, instance: instance)
        } catch {
            await io.shutdown()
            throw error
        }
    }

    /// Releases the temporary directory and stops the file I/O threads. Call once, when the application stops.
    public func shutdown() async {
        let layout = self.layout, instance = self.instance
        _ = try? await io.run { instance.release(layout: layout) }
        await io.shutdown()
    }

    public func bucket(named name: String) -> LocalBucket? { bucketsByName[name] }

    // MARK: URLs

    /// `PUBLIC_BASE_URL` when configured, else the request's own base.
    func origin(requestBaseURL: String) -> URLOrigin {
        if let configured = configuration.publicBaseURL, let origin = URLOrigin(configured) { return origin }
        return URLOrigin(requestBaseURL) ?? URLOrigin(scheme: "http", hostname: "localhost", port: nil)
    }

    func objectPath(origin: URLOrigin, bucket: String, key: String) -> String {
        "\(origin.pathPrefix)/storage/\(bucket)/\(key)"
    }

    public func objectURL(bucket: String, key: String, requestBaseURL: String) -> String {
        let origin = origin(requestBaseURL: requestBaseURL)
        return "\(origin.scheme)://\(origin.host)\(AWSURIEncoding.encodePath(objectPath(origin: origin, bucket: bucket, key: key)))"
    }

    public func presignPost(
        bucket: String, key: String, contentType: String, contentLength: ClosedRange<Int64>, expiresIn: Int,
        requestBaseURL: String
    ) -> PresignedPost {
        let origin = origin(requestBaseURL: requestBaseURL)
        let url = "\(origin.base)/storage/\(bucket)/"
        return PostPolicySigner(credentials: configuration.credentials, region: configuration.region)
            .presign(url: url, bucket: bucket, key: key, contentType: contentType, contentLength: contentLength,
                     expiresIn: expiresIn, date: configuration.now())
    }

    public func presignGet(
        bucket: String, key: String, expiresIn: Int, overrides: ResponseOverrides, requestBaseURL: String
    ) -> PresignedRequest {
        presign(method: "GET", bucket: bucket, key: key, parameters: overrides.queryParameters, headers: [],
                expiresIn: expiresIn, requestBaseURL: requestBaseURL)
    }

    /// A presigned HEAD (headers only), for clients that want size and type without the bytes.
    public func presignHead(bucket: String, key: String, expiresIn: Int, requestBaseURL: String) -> PresignedRequest {
        presign(method: "HEAD", bucket: bucket, key: key, parameters: [], headers: [], expiresIn: expiresIn,
                requestBaseURL: requestBaseURL)
    }

    public func presignPut(
        bucket: String, key: String, contentType: String, contentLength: Int64?, expiresIn: Int, requestBaseURL: String
    ) -> PresignedRequest {
        var headers: [(name: String, value: String)] = [("content-type", contentType)]
        if let contentLength { headers.insert(("content-length", String(contentLength)), at: 0) }
        return presign(method: "PUT", bucket: bucket, key: key, parameters: [], headers: headers, expiresIn: expiresIn,
                       requestBaseURL: requestBaseURL)
    }

    private func presign(
        method: String, bucket: String, key: String, parameters: [(name: String, value: String)],
        headers: [(name: String, value: String)], expiresIn: Int, requestBaseURL: String
    ) -> PresignedRequest {
        let origin = origin(requestBaseURL: requestBaseURL)
        return PresignedURLSigner(credentials: configuration.credentials, region: configuration.region)
            .presign(method: method, scheme: origin.scheme, host: origin.host,
                     path: objectPath(origin: origin, bucket: bucket, key: key), parameters: parameters,
                     signedHeaders: headers, expiresIn: expiresIn, date: configuration.now())
            .request
    }

    // MARK: Reading

    public func head(bucket: String, key: String) async throws -> ObjectInfo? {
        guard bucketsByName[bucket] != nil else { throw StorageError.noSuchBucket }
        guard let dataPath = layout.dataPath(bucket: bucket, key: key) else { return nil }
        return try await info(dataPath: dataPath, metaPath: layout.metaPath(bucket: bucket, key: key))
    }

    /// Size and time come from the data file itself; type and ETag from the sidecar. The sidecar is renamed into
    /// place a moment after the data is linked, so a reader that arrives in between waits briefly; if it never
    /// appears (it should not), the ETag is recomputed and the type falls back to S3's default.
    func info(dataPath: String, metaPath: String) async throws -> ObjectInfo? {
        for attempt in 0..<6 {
            let found = try await io.run { () throws -> (POSIXFile.Status, ObjectMetadata?)? in
                guard let status = try POSIXFile.status(dataPath), status.isRegularFile else { return nil }
                let meta = FileManager.default.contents(atPath: metaPath).flatMap(ObjectMetadata.decode)
                return (status, meta)
            }
            guard let (status, meta) = found else { return nil }
            if let meta, meta.size == status.size {
                return ObjectInfo(size: status.size, contentType: meta.contentType, etag: meta.etag, lastModified: status.modified)
            }
            if attempt < 5 { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        logger.warning("object metadata missing; recomputing", metadata: ["path": .string(dataPath)])
        let md5 = try await io.run { try FileHashing.md5Hex(path: dataPath) }
        guard let status = try await io.run({ try POSIXFile.status(dataPath) }) else { return nil }
        return ObjectInfo(size: status.size, contentType: "binary/octet-stream", etag: md5, lastModified: status.modified)
    }

    public func get(bucket: String, key: String, range: ClosedRange<Int64>?, maxBytes: Int) async throws -> ObjectContents? {
        guard let info = try await head(bucket: bucket, key: key), let path = layout.dataPath(bucket: bucket, key: key) else {
            return nil
        }
        let wanted: ClosedRange<Int64>?
        if let range {
            guard range.lowerBound >= 0, range.lowerBound < info.size else { throw StorageError.invalidRange }
            wanted = range.lowerBound...min(range.upperBound, info.size - 1)
        } else {
            wanted = nil
        }
        let offset = wanted?.lowerBound ?? 0
        let length = wanted.map { $0.upperBound - $0.lowerBound + 1 } ?? info.size
        guard length <= Int64(maxBytes) else { throw StorageError.requestTooLarge }
        let bytes = try await io.run {
            let fd = try POSIXFile.openForReading(path)
            defer { POSIXFile.closeFile(fd) }
            return try POSIXFile.read(fd, offset: offset, count: Int(length), path: path)
        }
        return ObjectContents(info: info, range: wanted, bytes: bytes)
    }

    public func download(bucket: String, key: String, to destination: URL) async throws -> ObjectInfo? {
        guard let info = try await head(bucket: bucket, key: key), let path = layout.dataPath(bucket: bucket, key: key) else {
            return nil
        }
        let writer = try await StreamedFileWriter.create(at: destination.path, io: io)
        do {
            for try await chunk in FileChunkSequence(path: path, io: io) { try await writer.append(chunk) }
            _ = try await writer.finish()
        } catch {
            await writer.discard()
            throw error
        }
        return info
    }

    // MARK: Writing

    public func put(bucket: String, key: String, file: URL, size: Int64, contentType: String) async throws -> ObjectInfo {
        guard let bucketConfig = bucketsByName[bucket] else { throw StorageError.noSuchBucket }
        if let problem = ObjectKeyRules.validate(key) { throw problem }
        guard size <= bucketConfig.maxObjectBytes else { throw StorageError.requestTooLarge }
        if try await objectExists(bucket: bucket, key: key) { throw StorageError.objectExists }
        let upload = try await beginUpload()
        do {
            for try await chunk in FileChunkSequence(path: file.path, io: io) { try await upload.writer.append(chunk) }
            let (written, md5) = try await upload.writer.finish()
            guard written == size else { throw StorageError.incompleteBody }
            return try await publish(upload, bucket: bucket, key: key, contentType: contentType, size: written, md5: md5)
        } catch {
            await upload.writer.discard()
            throw error
        }
    }

    public func delete(bucket: String, key: String) async throws {
        guard bucketsByName[bucket] != nil else { throw StorageError.noSuchBucket }
        guard let dataPath = layout.dataPath(bucket: bucket, key: key) else {
            throw ObjectKeyRules.validate(key) ?? StorageError.invalidArgument("Unsafe object key.")
        }
        let metaPath = layout.metaPath(bucket: bucket, key: key)
        // Data first: a reader then sees either the whole object or none, never bytes without metadata.
        try await io.run {
            try POSIXFile.removeFile(dataPath)
            try POSIXFile.removeFile(metaPath)
        }
    }

    public func bucketReachable(bucket: String) async -> Bool {
        guard bucketsByName[bucket] != nil else { return false }
        let directory = layout.bucketDirectory(bucket)
        let temp = layout.tempDirectory
        return (try? await io.run { access(directory, W_OK) == 0 && access(temp, W_OK) == 0 }) ?? false
    }

    func objectExists(bucket: String, key: String) async throws -> Bool {
        guard let path = layout.dataPath(bucket: bucket, key: key) else { return false }
        return try await io.run { try POSIXFile.status(path) != nil }
    }
}

/// A configuration the embedded store cannot start with.
public struct LocalStoreConfigurationError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
