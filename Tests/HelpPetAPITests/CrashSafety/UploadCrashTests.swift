import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// A server killed with SIGKILL never leaves a partial object or a temporary file behind, and never loses a
/// finished upload: after a restart the slot is reusable, and the reconciler completes uploads that landed without
/// a complete call (contract §5.1, issue "crash safety").
@Suite(.serialized) struct UploadCrashTests {
    static let mebibyte = 1024 * 1024

    @Test func killDuringASlowUploadLeavesNoObjectAndTheSlotIsReusable() async throws {
        try await withServerDatabase { database, group in
            let server = try await group.start(database)
            let token = try await server.client.login(Demo.vet1)
            let appointment = try await RecordingProcessFixtures.multiPetAppointment(server, token: token)
            let initiated = try await RecordingProcessFixtures.initiate(server, token: token, pet: Demo.pet(1), appointment: appointment)
            let visitID = try #require(initiated.json["visit_id"].string)
            let key = try #require(initiated.json["s3_key"].string)

            // 30 MiB at about 2 MiB/s; the server is killed once 10 MiB reached its temporary file.
            let upload = Task { try await Self.slowUpload(initiated: initiated, size: 30 * Self.mebibyte, bytesPerSecond: 2 * Self.mebibyte) }
            let deadline = ContinuousClock.now + .seconds(60)
            var reached = false
            while ContinuousClock.now < deadline, !reached {
                reached = Self.largestTemporaryFile(database.directory) >= 10 * Self.mebibyte
                if !reached { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(reached, "the upload never reached 10 MiB in the temporary folder")
            _ = await server.kill()
            _ = try? await upload.value

            let restarted = try await group.start(database)
            #expect(RecordingProcessFixtures.temporaryUploadFiles(dataDir: database.directory).isEmpty)
            #expect(!FileManager.default.fileExists(
                atPath: database.directory.appendingPathComponent("objects/helppetai-visit-recordings/\(key)").path))
            let again = try await RecordingProcessFixtures.initiate(restarted, token: token, pet: Demo.pet(1), appointment: appointment)
            #expect(again.status == .ok)
            #expect(again.json["visit_id"].string == visitID)
            let bytes = (0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0) }
            #expect(try await RecordingProcessFixtures.upload(initiated: again, bytes: bytes).status == .noContent)
            let completed = try await restarted.client.post(
                "/api/v1/visit-transcripts/audio/upload/complete/\(visitID)", token: token, json: [:])
            #expect(completed.json["state"].string == "processing")
            #expect(completed.json["metadata"]["file_size_bytes"].int == bytes.count)
        }
    }

    @Test func killAfterTheUploadBeforeCompleteIsFinishedByTheReconciler() async throws {
        try await withServerDatabase { database, group in
            let env = ["RECONCILER_INTERVAL_SECONDS": "1", "RECONCILER_GRACE_SECONDS": "1"]
            let server = try await group.start(database, env: env)
            let token = try await server.client.login(Demo.vet1)
            let initiated = try await RecordingProcessFixtures.initiate(server, token: token, pet: Demo.pet(4), appointment: nil)
            let visitID = try #require(initiated.json["visit_id"].string)
            let bytes = Array(repeating: UInt8(9), count: 2_048_576)
            #expect(try await RecordingProcessFixtures.upload(initiated: initiated, bytes: bytes).status == .noContent)
            _ = await server.kill()

            let restarted = try await group.start(database, env: env)
            var visit = TestResponse(status: .notFound, headers: [:], body: Data())
            for _ in 0..<50 {
                visit = try await restarted.client.get("/api/v1/visit-transcripts/\(visitID)", token: token)
                if visit.json["state"].string == "processing" { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(visit.json["state"].string == "processing", "\(visit)")
            #expect(visit.json["metadata"]["completion_source"].string == "reconciler")
            #expect(visit.json["metadata"]["file_size_bytes"].int == bytes.count)
        }
    }

    /// The presigned POST of `initiated` with a generated file of `size` bytes, streamed at about `bytesPerSecond`.
    static func slowUpload(initiated: TestResponse, size: Int, bytesPerSecond: Int) async throws -> TestResponse {
        let url = try #require(initiated.json["upload_url"].string)
        let frame = RecordingProcessFixtures.multipartFrame(
            fields: RecordingProcessFixtures.uploadFields(initiated), file: ("file", "a.m4a", "audio/m4a"))
        let (head, tail) = (frame.head, frame.tail)
        let chunk = 64 * 1024
        let pause = Duration.seconds(Double(chunk) / Double(bytesPerSecond))
        let stream = AsyncStream<ByteBuffer> { continuation in
            let producer = Task {
                continuation.yield(ByteBuffer(bytes: head))
                var sent = 0
                while sent < size, !Task.isCancelled {
                    let n = min(chunk, size - sent)
                    continuation.yield(ByteBuffer(repeating: 0x41, count: n))
                    sent += n
                    try? await Task.sleep(for: pause)
                }
                continuation.yield(ByteBuffer(bytes: tail))
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: frame.contentType)
        request.body = .stream(stream, length: .known(Int64(head.count + size + tail.count)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        return TestResponse(status: response.status, headers: response.headers, body: Data())
    }

    static func largestTemporaryFile(_ dataDir: URL) -> Int {
        RecordingProcessFixtures.temporaryUploadFiles(dataDir: dataDir).map(\.size).max() ?? 0
    }
}
