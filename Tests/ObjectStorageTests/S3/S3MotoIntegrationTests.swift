import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import Vapor
@testable import ObjectStorage

/// The S3 backend against a local moto server: put, head, get, range get, download, delete, bucket check, and
/// presigned URLs fetched with plain HTTP.
@Suite(.enabled(if: MotoServer.isInstalled, "moto is unavailable (pip install 'moto[server]', or MOTO_AVAILABLE=0 was set); .ci/run installs it"), .serialized)
struct S3MotoIntegrationTests {
    static let bucket = "helppet-moto-test"

    @Test func objectLifecycleAgainstMoto() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let directory = TemporaryDirectory("moto")
        var server: MotoServer?
        var store: S3ObjectStore?
        do {
            let moto = try await MotoServer.start(client: client)
            server = moto
            let configuration = S3Configuration(
                credentials: SigV4Credentials(accessKeyID: "testing", secretAccessKey: "testing"),
                region: "us-east-1", endpoint: moto.endpoint, forcePathStyle: true)
            let s3 = try S3ObjectStore(configuration: configuration, httpClient: client)
            store = s3
            try await exercise(s3, client: client, configuration: configuration, directory: directory)
        } catch {
            Issue.record(error)
        }
        await store?.shutdown()
        server?.stop()
        directory.remove()
        try await client.shutdown()
    }

    func exercise(_ store: S3ObjectStore, client: HTTPClient, configuration: S3Configuration, directory: TemporaryDirectory) async throws {
        #expect(await !store.bucketReachable(bucket: Self.bucket))
        try await createBucket(client: client, configuration: configuration)
        #expect(await store.bucketReachable(bucket: Self.bucket))

        let bytes = testBytes(700_000)
        let source = directory.url.appendingPathComponent("source.m4a")
        try bytes.write(to: source)
        let key = "visit-recordings/2025/01/15/pet-1/a b+c.m4a"
        let put = try await store.put(bucket: Self.bucket, key: key, file: source, size: Int64(bytes.count), contentType: "audio/m4a")
        #expect(put.etag == md5Hex(bytes))

        let head = try #require(try await store.head(bucket: Self.bucket, key: key))
        #expect(head.size == Int64(bytes.count))
        #expect(head.contentType == "audio/m4a")
        #expect(head.etag == md5Hex(bytes))
        #expect(try await store.head(bucket: Self.bucket, key: "missing.m4a") == nil)

        let whole = try #require(try await store.get(bucket: Self.bucket, key: key, range: nil, maxBytes: 1_000_000))
        #expect(Data(whole.bytes.readableBytesView) == bytes)
        let range = try #require(try await store.get(bucket: Self.bucket, key: key, range: 100...199, maxBytes: 1000))
        #expect(Data(range.bytes.readableBytesView) == bytes[100..<200])
        #expect(range.range == 100...199)
        #expect(range.info.size == Int64(bytes.count))
        #expect(try await store.get(bucket: Self.bucket, key: "missing.m4a", range: nil, maxBytes: 10) == nil)

        let destination = directory.url.appendingPathComponent("downloaded.m4a")
        #expect(try await store.download(bucket: Self.bucket, key: key, to: destination)?.size == Int64(bytes.count))
        #expect(try Data(contentsOf: destination) == bytes)

        // A presigned GET, fetched with plain HTTP (no signing on the client).
        let presigned = store.presignGet(
            bucket: Self.bucket, key: key, expiresIn: 900,
            overrides: ResponseOverrides(contentType: "audio/mp4", contentDisposition: "inline; filename=\"a.m4a\""),
            requestBaseURL: "http://ignored")
        #expect(presigned.url.hasPrefix("\(configuration.endpoint!)/\(Self.bucket)/visit-recordings/2025/01/15/pet-1/a%20b%2Bc.m4a?"))
        let fetched = try await client.execute(HTTPClientRequest(url: presigned.url), timeout: .seconds(10))
        #expect(fetched.status == .ok)
        // (moto ignores response-content-type; the override's signing is proven by the botocore vectors.)
        #expect(presigned.url.contains("response-content-type=audio%2Fmp4"))
        #expect(Data(try await fetched.body.collect(upTo: 1_000_000).readableBytesView) == bytes)

        // A presigned PUT with its signed Content-Type, sent with plain HTTP.
        let putURL = store.presignPut(bucket: Self.bucket, key: "photos/p.jpg", contentType: "image/jpeg", contentLength: 5,
                                      expiresIn: 900, requestBaseURL: "http://ignored")
        var putRequest = HTTPClientRequest(url: putURL.url)
        putRequest.method = .PUT
        for (name, value) in putURL.headers where name != "Content-Length" { putRequest.headers.add(name: name, value: value) }
        putRequest.body = .bytes(ByteBuffer(string: "hello"))
        let putResponse = try await client.execute(putRequest, timeout: .seconds(10))
        #expect(putResponse.status == .ok)
        #expect(try await store.head(bucket: Self.bucket, key: "photos/p.jpg")?.size == 5)

        try await store.delete(bucket: Self.bucket, key: key)
        #expect(try await store.head(bucket: Self.bucket, key: key) == nil)
        try await store.delete(bucket: Self.bucket, key: key)
    }

    func createBucket(client: HTTPClient, configuration: S3Configuration) async throws {
        let status = try await MotoServer.createBucket(Self.bucket, client: client, configuration: configuration)
        #expect(status == .ok)
    }
}
