import Foundation
import Testing
import Vapor
import VaporTesting
@testable import ObjectStorage

/// An embedded store in a temporary directory with its routes mounted in a testing application.
/// Credentials are the botocore vectors' (so their requests replay unchanged) and the clock is a `TestClock`.
struct StorageTestContext {
    let app: Application
    let store: LocalObjectStore
    let clock: TestClock
    let directory: TemporaryDirectory

    static let helppetBucket = "helppetai-visit-recordings"
    static let autodetailBucket = "autodetail"
    static let host = "localhost:8080"

    /// Upload files under `.tmp` (none should remain after a finished request; the running store's lock file
    /// is not an upload).
    var temporaryFiles: [String] { directory.uploadFiles() }

    /// Every stored object file, `bucket/key` (metadata and temp files excluded).
    var objectFiles: [String] { directory.files().filter { !$0.hasPrefix(".") } }
}

func withStorageApp(
    region: String = "us-east-1", at start: Date = AmzDate.parseISO8601("2025-01-15T17:12:04Z")!,
    autodetailLimit: Int64 = 15_728_640, maxPostRequestBytes: Int64 = 105_906_176,
    _ body: (StorageTestContext) async throws -> Void
) async throws {
    let directory = TemporaryDirectory("storage-http")
    let clock = TestClock(start)
    let vectors = BotocoreVectors.shared
    let configuration = LocalObjectStoreConfiguration(
        rootDirectory: directory.url.appendingPathComponent("objects"),
        credentials: vectors.credentials(), region: region,
        buckets: [
            LocalBucket(name: StorageTestContext.helppetBucket),
            LocalBucket(name: StorageTestContext.autodetailBucket, maxObjectBytes: autodetailLimit),
        ],
        maxPostRequestBytes: maxPostRequestBytes, now: clock.now)
    let store = try await LocalObjectStore.open(configuration)
    let app = try await Application.make(.testing)
    let directoryForFiles = TemporaryDirectory(directory: directory.url.appendingPathComponent("objects"))
    do {
        try app.register(collection: StorageRoutes(store: store, requestID: { _ in "test-request-id" }))
        try await body(StorageTestContext(app: app, store: store, clock: clock, directory: directoryForFiles))
    } catch {
        try? await app.asyncShutdown()
        await store.shutdown()
        directory.remove()
        throw error
    }
    try await app.asyncShutdown()
    await store.shutdown()
    directory.remove()
}

extension TemporaryDirectory {
    /// Wraps an existing directory (not removed by the wrapper's owner).
    init(directory: URL) { self.url = directory }
}

/// Headers every storage request in the tests carries: the signed host.
func storageHeaders(_ extra: [(String, String)] = []) -> HTTPHeaders {
    var headers = HTTPHeaders([("Host", StorageTestContext.host)])
    for (name, value) in extra { headers.add(name: name, value: value) }
    return headers
}

extension TestingHTTPResponse {
    /// The `<Code>` of an S3 XML error body.
    var s3ErrorCode: String? {
        let text = body.string
        guard let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>") else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}

/// The path plus query of a URL string (what the in-memory tester sends).
func pathAndQuery(_ url: String) -> String {
    let components = URLComponents(string: url)!
    return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
}

extension StorageTestContext {
    /// Sends a request exactly as given (the in-memory tester always rewrites `Content-Length` to the body size,
    /// which hides the declared-length rules).
    func rawRequest(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders, body: ByteBuffer?) async throws -> RawResponse {
        let request = Request(
            application: app, method: method, url: URI(string: path), headersNoUpdate: headers,
            collectedBody: body, remoteAddress: nil, logger: app.logger, on: app.eventLoopGroup.next())
        let response = try await app.responder.respond(to: request).get()
        let collected = try await response.body.collect(on: request.eventLoop).get()
        return RawResponse(status: response.status, headers: response.headers, body: collected ?? ByteBuffer())
    }
}

/// A response from `rawRequest`.
struct RawResponse {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: ByteBuffer

    var s3ErrorCode: String? {
        let text = body.string
        guard let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>") else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
