import Foundation
import Testing
import Vapor
@testable import ObjectStorage

/// The embedded store through the `ObjectStore` protocol the products use, plus crash recovery.
@Suite struct LocalObjectStoreTests {
    static let bucket = "helppetai-visit-recordings"

    func withStore(publicBaseURL: String? = nil, _ body: (LocalObjectStore, TemporaryDirectory) async throws -> Void) async throws {
        let directory = TemporaryDirectory("local-store")
        let store = try await LocalObjectStore.open(configuration(directory, publicBaseURL: publicBaseURL))
        do {
            try await body(store, directory)
        } catch {
            await store.shutdown()
            directory.remove()
            throw error
        }
        await store.shutdown()
        directory.remove()
    }

    func configuration(_ directory: TemporaryDirectory, publicBaseURL: String? = nil) -> LocalObjectStoreConfiguration {
        LocalObjectStoreConfiguration(
            rootDirectory: directory.url.appendingPathComponent("objects"),
            credentials: SigV4Credentials(accessKeyID: "HPLOCALDEMOKEY000001", secretAccessKey: "secret"),
            buckets: [LocalBucket(name: Self.bucket), LocalBucket(name: "autodetail", maxObjectBytes: 100)],
            publicBaseURL: publicBaseURL)
    }

    func sourceFile(_ directory: TemporaryDirectory, _ bytes: Data) throws -> URL {
        let url = directory.url.appendingPathComponent("source-\(UUID().uuidString)")
        try bytes.write(to: url)
        return url
    }

    @Test func putHeadGetDownloadDelete() async throws {
        try await withStore { store, directory in
            let bytes = testBytes(600_000)
            let info = try await store.put(bucket: Self.bucket, key: "a/b.m4a", file: try sourceFile(directory, bytes),
                                           size: Int64(bytes.count), contentType: "audio/m4a")
            #expect(info.etag == md5Hex(bytes))
            let head = try #require(try await store.head(bucket: Self.bucket, key: "a/b.m4a"))
            #expect(head.size == 600_000 && head.contentType == "audio/m4a" && head.etag == md5Hex(bytes))
            #expect(try await store.head(bucket: Self.bucket, key: "a/missing.m4a") == nil)
            #expect(try await store.head(bucket: Self.bucket, key: "../escape") == nil)

            let range = try #require(try await store.get(bucket: Self.bucket, key: "a/b.m4a", range: 10...19, maxBytes: 100))
            #expect(Data(range.bytes.readableBytesView) == bytes[10..<20])
            await #expect(throws: StorageError.requestTooLarge) {
                _ = try await store.get(bucket: Self.bucket, key: "a/b.m4a", range: nil, maxBytes: 100)
            }

            let destination = directory.url.appendingPathComponent("downloaded")
            #expect(try await store.download(bucket: Self.bucket, key: "a/b.m4a", to: destination)?.etag == md5Hex(bytes))
            #expect(try Data(contentsOf: destination) == bytes)

            await #expect(throws: StorageError.objectExists) {
                _ = try await store.put(bucket: Self.bucket, key: "a/b.m4a", file: try sourceFile(directory, bytes),
                                        size: Int64(bytes.count), contentType: "audio/m4a")
            }
            try await store.delete(bucket: Self.bucket, key: "a/b.m4a")
            try await store.delete(bucket: Self.bucket, key: "a/b.m4a")
            #expect(try await store.head(bucket: Self.bucket, key: "a/b.m4a") == nil)
            // After a delete the key can be used again.
            _ = try await store.put(bucket: Self.bucket, key: "a/b.m4a", file: try sourceFile(directory, Data("x".utf8)),
                                    size: 1, contentType: "text/plain")
            #expect(try await store.head(bucket: Self.bucket, key: "a/b.m4a")?.contentType == "text/plain")

            await #expect(throws: StorageError.noSuchBucket) { _ = try await store.head(bucket: "nope", key: "a") }
            await #expect(throws: StorageError.requestTooLarge) {
                _ = try await store.put(bucket: "autodetail", key: "big.jpg", file: try sourceFile(directory, testBytes(101)),
                                        size: 101, contentType: "image/jpeg")
            }
            await #expect(throws: StorageError.self) {
                _ = try await store.put(bucket: Self.bucket, key: "a/b.m4a/child", file: try sourceFile(directory, bytes),
                                        size: Int64(bytes.count), contentType: "audio/m4a")
            }
            #expect(await store.bucketReachable(bucket: Self.bucket))
            #expect(await !store.bucketReachable(bucket: "nope"))
            #expect(directory.uploadFiles(root: "objects").isEmpty)
        }
    }

    @Test func concurrentUploadsToOneKeyHaveExactlyOneWinner() async throws {
        try await withStore { store, directory in
            let files = try (0..<12).map { try sourceFile(directory, testBytes(300_000, seed: UInt64($0))) }
            let results = await withTaskGroup(of: Result<ObjectInfo, StorageError>.self) { group in
                for file in files {
                    group.addTask {
                        do {
                            return .success(try await store.put(bucket: Self.bucket, key: "race/one.m4a", file: file,
                                                                size: 300_000, contentType: "audio/m4a"))
                        } catch let error as StorageError {
                            return .failure(error)
                        } catch {
                            return .failure(.internalError)
                        }
                    }
                }
                var all: [Result<ObjectInfo, StorageError>] = []
                for await result in group { all.append(result) }
                return all
            }
            let winners = results.compactMap { try? $0.get() }
            #expect(winners.count == 1)
            #expect(results.filter { $0 == .failure(.objectExists) }.count == 11)
            let stored = try #require(try await store.head(bucket: Self.bucket, key: "race/one.m4a"))
            #expect(stored.etag == winners.first?.etag)
            let winnerIndex = try #require((0..<12).first { md5Hex(testBytes(300_000, seed: UInt64($0))) == stored.etag })
            #expect(try Data(contentsOf: directory.url.appendingPathComponent("objects/\(Self.bucket)/race/one.m4a"))
                == testBytes(300_000, seed: UInt64(winnerIndex)))
            #expect(directory.uploadFiles(root: "objects").isEmpty)
        }
    }

    @Test func startupFinishesInterruptedPublishAndRemovesTemporaryFiles() async throws {
        let directory = TemporaryDirectory("recovery")
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("objects")
        let temp = root.appendingPathComponent(".tmp")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        let objectDirectory = root.appendingPathComponent("\(Self.bucket)/landed")
        try FileManager.default.createDirectory(at: objectDirectory, withIntermediateDirectories: true)

        // A crash after link(): the object has its name, its metadata is still in .tmp.
        let bytes = testBytes(1234)
        try bytes.write(to: temp.appendingPathComponent("upload-a.data"))
        let meta = ObjectMetadata(bucket: Self.bucket, key: "landed/one.m4a", contentType: "audio/mp4", size: 1234, etag: md5Hex(bytes))
        try meta.encoded().write(to: temp.appendingPathComponent("upload-a.meta"))
        #expect(link(temp.appendingPathComponent("upload-a.data").path, objectDirectory.appendingPathComponent("one.m4a").path) == 0)
        // A crash mid-upload: only a partial temporary file.
        try testBytes(5000).write(to: temp.appendingPathComponent("upload-b.data"))
        // A crash before link(): data and metadata in .tmp, no object.
        try testBytes(10).write(to: temp.appendingPathComponent("upload-c.data"))
        try ObjectMetadata(bucket: Self.bucket, key: "never/linked.m4a", contentType: "audio/mp4", size: 10, etag: "x")
            .encoded().write(to: temp.appendingPathComponent("upload-c.meta"))

        let store = try await LocalObjectStore.open(configuration(directory))
        let info = try await store.head(bucket: Self.bucket, key: "landed/one.m4a")
        #expect(info?.contentType == "audio/mp4")
        #expect(info?.etag == md5Hex(bytes))
        #expect(try await store.head(bucket: Self.bucket, key: "never/linked.m4a") == nil)
        #expect(directory.uploadFiles(root: "objects").isEmpty)
        await store.shutdown()
    }

    @Test func startupLeavesLiveNeighboursAloneAndCleansDeadInstances() async throws {
        let directory = TemporaryDirectory("instances")
        defer { directory.remove() }
        let first = try await LocalObjectStore.open(configuration(directory))
        let upload = try await first.beginUpload()
        try await upload.writer.append(ByteBuffer(data: testBytes(1000)))

        // A dead instance: a lock file nobody holds, with an unfinished upload in its directory.
        let temp = directory.url.appendingPathComponent("objects/.tmp")
        try Data().write(to: temp.appendingPathComponent("0dead.lock"))
        try FileManager.default.createDirectory(at: temp.appendingPathComponent("0dead"), withIntermediateDirectories: true)
        try testBytes(10).write(to: temp.appendingPathComponent("0dead/upload-x.data"))

        // A second process sharing the root starts while the first is mid-upload.
        let second = try await LocalObjectStore.open(configuration(directory))
        #expect(FileManager.default.fileExists(atPath: upload.writer.path))
        #expect(!FileManager.default.fileExists(atPath: temp.appendingPathComponent("0dead").path))
        #expect(!FileManager.default.fileExists(atPath: temp.appendingPathComponent("0dead.lock").path))

        let (size, md5) = try await upload.writer.finish()
        let info = try await first.publish(upload, bucket: Self.bucket, key: "shared/one.m4a", contentType: "audio/m4a", size: size, md5: md5)
        #expect(try await second.head(bucket: Self.bucket, key: "shared/one.m4a") == info)
        await first.shutdown()
        await second.shutdown()
        #expect(directory.files(under: "objects/.tmp").isEmpty)
    }

    @Test func urlsUsePublicBaseURLWhenSet() async throws {
        try await withStore(publicBaseURL: "https://api.example.com") { store, _ in
            #expect(store.objectURL(bucket: Self.bucket, key: "a b.m4a", requestBaseURL: "http://ignored:8080")
                == "https://api.example.com/storage/\(Self.bucket)/a%20b.m4a")
            let post = store.presignPost(bucket: Self.bucket, key: "k.m4a", contentType: "audio/m4a", contentLength: 1...10,
                                         expiresIn: 3600, requestBaseURL: "http://ignored")
            #expect(post.url == "https://api.example.com/storage/\(Self.bucket)/")
            let put = store.presignPut(bucket: "autodetail", key: "p.jpg", contentType: "image/jpeg", contentLength: 42,
                                       expiresIn: 900, requestBaseURL: "http://ignored")
            #expect(put.url.hasPrefix("https://api.example.com/storage/autodetail/p.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&"))
            #expect(put.url.contains("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost"))
            #expect(put.headers == ["Content-Type": "image/jpeg", "Content-Length": "42"])
        }
        try await withStore { store, _ in
            #expect(store.objectURL(bucket: Self.bucket, key: "k", requestBaseURL: "http://127.0.0.1:8080")
                == "http://127.0.0.1:8080/storage/\(Self.bucket)/k")
            let get = store.presignGet(bucket: Self.bucket, key: "k", expiresIn: 900,
                                       overrides: .init(contentType: "audio/mp4", contentDisposition: "inline; filename=\"k\""),
                                       requestBaseURL: "http://localhost:8080")
            #expect(get.url.contains("&X-Amz-SignedHeaders=host&response-content-disposition=inline%3B%20filename%3D%22k%22&response-content-type=audio%2Fmp4&X-Amz-Signature="))
        }
    }

    @Test func refusesBadConfiguration() async throws {
        let directory = TemporaryDirectory("bad-config")
        defer { directory.remove() }
        var bad = configuration(directory)
        bad.buckets = [LocalBucket(name: ".meta")]
        await #expect(throws: LocalStoreConfigurationError.self) { _ = try await LocalObjectStore.open(bad) }
        var noKey = configuration(directory)
        noKey.credentials = SigV4Credentials(accessKeyID: "", secretAccessKey: "")
        await #expect(throws: LocalStoreConfigurationError.self) { _ = try await LocalObjectStore.open(noKey) }
    }
}
