import AppCore
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import Vapor
import VaporTesting
@testable import ObjectStorage

/// `STORAGE_BACKEND=s3` through the server's own configuration path (`AppConfig` → `CoreBootstrap` →
/// `ObjectStoreSetup`) against a local moto server: the application gets an S3 store, mounts no `/storage` routes,
/// reports the bucket in `/health/ready`, and its presigned POST (the recording upload of contract §7.3) and
/// presigned GET work with plain HTTP against a real S3 API.
@Suite(.enabled(if: MotoServer.isInstalled, "moto is unavailable (pip install 'moto[server]'); .ci/run installs it"), .serialized)
struct S3BackendConfigurationTests {
    @Test func theS3BackendServesPresignedUploadsAndDownloadsThroughMoto() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let directory = TemporaryDirectory("s3-backend")
        var moto: MotoServer?
        var app: Application?
        do {
            let server = try await MotoServer.start(client: client)
            moto = server
            let application = try await Self.makeApplication(moto: server, dataDirectory: directory.url)
            app = application
            try await exercise(application, moto: server, client: client)
        } catch {
            Issue.record(error)
        }
        try? await app?.asyncShutdown()
        moto?.stop()
        directory.remove()
        try await client.shutdown()
    }

    @Test func missingCredentialsStopTheStartWithAClearMessage() throws {
        #expect(throws: ConfigurationError.self) {
            try AppConfig.load(environmentName: "testing", env: EnvironmentReader([
                "STORAGE_BACKEND": "s3", "DATA_DIR": NSTemporaryDirectory(), "JWT_SECRET": String(repeating: "s", count: 40),
            ]))
        }
    }

    static let bucket = "helppetai-visit-recordings"

    static func makeApplication(moto: MotoServer, dataDirectory: URL) async throws -> Application {
        let app = try await Application.make(.testing)
        do {
            let config = try AppConfig.load(environmentName: "testing", env: EnvironmentReader([
                "DATA_DIR": dataDirectory.path,
                "JWT_SECRET": String(repeating: "s", count: 40),
                "STORAGE_BACKEND": "s3",
                "S3_ENDPOINT": moto.endpoint,
                "S3_FORCE_PATH_STYLE": "true",
                "AWS_ACCESS_KEY_ID": "testing",
                "AWS_SECRET_ACCESS_KEY": "testing",
                "LOG_LEVEL": "error",
            ]))
            try await CoreBootstrap.configure(app, config: config)
            return app
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    func exercise(_ app: Application, moto: MotoServer, client: HTTPClient) async throws {
        let store = try #require(app.objectStore as? S3ObjectStore, "STORAGE_BACKEND=s3 must configure the S3 store")
        #expect(store.configuration.endpoint == moto.endpoint)

        try await app.testing().test(.GET, "/storage/\(Self.bucket)/anything") { response in
            #expect(response.status == .notFound, "the embedded store's routes are not mounted with S3")
        }
        #expect(await !store.bucketReachable(bucket: Self.bucket))
        #expect(try await MotoServer.createBucket(Self.bucket, client: client, configuration: store.configuration) == .ok)
        #expect(await store.bucketReachable(bucket: Self.bucket))

        // The presigned POST a phone receives from initiate, sent field by field with the file last.
        let key = "visit-recordings/2026/11/21/pet-1/visit-1.m4a"
        let post = store.presignPost(
            bucket: Self.bucket, key: key, contentType: "audio/m4a", contentLength: 1...104_857_600, expiresIn: 3600,
            requestBaseURL: "http://ignored")
        #expect(post.url == "\(moto.endpoint)/\(Self.bucket)/")
        let audio = testBytes(50_000)
        let form = MultipartFormBody.form(fields: post.fields.map { ($0.name, $0.value) }, file: audio)
        var upload = HTTPClientRequest(url: post.url)
        upload.method = .POST
        upload.headers.add(name: "Content-Type", value: form.contentType)
        upload.body = .bytes(form.buffer)
        let uploaded = try await client.execute(upload, timeout: .seconds(10))
        #expect(uploaded.status.code == 204, "\(uploaded.status)")

        let head = try #require(try await store.head(bucket: Self.bucket, key: key))
        #expect(head.size == Int64(audio.count))
        #expect(head.contentType == "audio/m4a")

        let playback = store.presignGet(
            bucket: Self.bucket, key: key, expiresIn: 900, overrides: ResponseOverrides(), requestBaseURL: "http://ignored")
        let fetched = try await client.execute(HTTPClientRequest(url: playback.url), timeout: .seconds(10))
        #expect(fetched.status == .ok)
        #expect(Data(try await fetched.body.collect(upTo: 1_000_000).readableBytesView) == audio)
    }
}
