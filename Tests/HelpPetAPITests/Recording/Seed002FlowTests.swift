import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// The iOS flow of seed 002 end to end, in process (contract §4.10, §7.3, §7.4): initiate → multipart POST of every
/// `upload_fields` entry plus the file → 204 → complete → playback → the presigned GET serves the uploaded bytes,
/// whole and by Range.
@Suite struct RecordingSeed002FlowTests {
    typealias F = RecordingFixtures

    /// Seed 002's own request bodies, without `PUBLIC_BASE_URL`: every URL is derived from the request's Host.
    @Test func seed002FlowFromInitiateToRangedPlayback() async throws {
        try await withTestApp(env: ["TRANSCRIPTION_ENGINE": "off"]) { app in
            let vet = try await app.token(for: Demo.vet1)
            let host: HTTPHeaders = ["Host": F.host]
            let fluffy = Demo.pet(4)
            let filename = "appointment_123_pet_fluffy_20241219_143022.m4a"

            // 1. Initiate (seed 002 sends no appointment: the day slot of §4.10).
            let initiated = try await app.post(F.initiatePath, token: vet, json: [
                "pet_id": fluffy.lowercased, "filename": filename, "content_type": "audio/m4a",
                "estimated_duration_seconds": 180.5,
            ], headers: host)
            try #require(initiated.status == .ok, "\(initiated)")
            let json = initiated.json
            #expect(json.keys == ["visit_id", "upload_url", "upload_fields", "s3_key", "bucket", "expires_in"])
            let visitID = try #require(json["visit_id"].string)
            #expect(UUID(uuidString: visitID) != nil && visitID == visitID.lowercased())
            #expect(json["upload_url"].string == "http://localhost:8080/storage/helppetai-visit-recordings/")
            #expect(json["bucket"].string == F.bucket)
            #expect(json["expires_in"].int == 3600)
            let key = try #require(json["s3_key"].string)
            let utcDay = ISO8601DateFormatter.string(
                from: app.core.clock.now(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
                .replacingOccurrences(of: "-", with: "/")
            #expect(key == "visit-recordings/\(utcDay)/pet-\(fluffy.lowercased)/\(visitID)-1.m4a")
            let fields = F.Initiated(response: initiated).fields
            #expect(Set(fields.keys) == [
                "key", "Content-Type", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "policy", "x-amz-signature",
            ])
            #expect(fields["key"] == key)
            #expect(fields["Content-Type"] == "audio/m4a")
            #expect(fields["x-amz-algorithm"] == "AWS4-HMAC-SHA256")
            #expect(fields["x-amz-credential"]?.range(of: #"^[^/]+/\d{8}/us-east-1/s3/aws4_request$"#, options: .regularExpression) != nil)
            #expect(fields["x-amz-date"]?.range(of: #"^\d{8}T\d{6}Z$"#, options: .regularExpression) != nil)
            #expect(fields["x-amz-signature"]?.range(of: #"^[0-9a-f]{64}$"#, options: .regularExpression) != nil)
            let policyData = try #require(fields["policy"].flatMap { Data(base64Encoded: $0) })
            let policy = try JSONNode(data: policyData)
            #expect(policy["expiration"].string != nil)
            let conditions = policy["conditions"].array ?? []
            #expect(conditions.contains { $0["key"].string == key })
            #expect(conditions.contains { $0["Content-Type"].string == "audio/m4a" })
            #expect(conditions.contains {
                $0[0].string == "content-length-range" && $0[1].int == 1 && $0[2].int == 104_857_600
            }, "1 byte to 100 MiB")

            let pending = try await F.visit(app, vet, visitID)
            #expect(pending.json["state"].string == "new")
            #expect(pending.json["audio_transcript_url"].isNull)
            #expect(pending.json["appointment_id"].isNull)
            let initiatedMetadata = pending.json["metadata"]
            #expect(initiatedMetadata["s3_key"].string == key)
            #expect(initiatedMetadata["s3_bucket"].string == F.bucket)
            #expect(initiatedMetadata["filename"].string == filename)
            #expect(initiatedMetadata["content_type"].string == "audio/m4a")
            #expect(initiatedMetadata["estimated_duration_seconds"].double == 180.5)
            #expect(initiatedMetadata["uploaded_by"].string == Demo.vet1.id.lowercased)
            #expect(initiatedMetadata["upload_method"].string == "presigned_post")
            #expect(initiatedMetadata["attempt"].int == 1)
            #expect(initiatedMetadata["upload_initiated_at"].string != nil)
            #expect(initiatedMetadata["upload_url_issued_at"].string != nil)
            #expect(initiatedMetadata["appointment_id"].isAbsent, "only set when linked to an appointment")

            // 2. Upload straight to storage.
            let audio = F.bytes(70_000)
            let uploaded = try await F.uploadToPresignedPost(app, initiated, bytes: audio)
            #expect(uploaded.status == .noContent, "\(uploaded)")
            let etag = uploaded.headers.first(name: .eTag) ?? ""
            #expect(etag.range(of: #"^"[0-9a-f]{32}"$"#, options: .regularExpression) != nil, "ETag: \(etag)")
            #expect(uploaded.headers.first(name: .location) == "http://localhost:8080/storage/\(F.bucket)/\(key)")
            #expect(F.objectBytes(app, key: key) == audio)
            #expect(F.temporaryFiles(app) == [])

            // 3. Complete with seed 002's body.
            let device: [String: Any?] = [
                "device_model": "iPhone 15 Pro", "ios_version": "17.2.1", "app_version": "2.0.0",
                "recording_quality": "high", "sample_rate": 44100,
            ]
            let completed = try await app.post(F.completePath(visitID), token: vet, json: [
                "file_size_bytes": audio.count, "duration_seconds": 185.3, "device_metadata": device,
            ], headers: host)
            #expect(completed.status == .ok, "\(completed)")
            #expect(completed.json.keys == ClinicalKeys.visitTranscript)
            #expect(completed.json["uuid"].string == visitID)
            #expect(completed.json["pet_id"].string == fluffy.lowercased)
            #expect(completed.json["state"].string == "processing")
            #expect(completed.json["full_text"].string == "")
            #expect(completed.json["audio_transcript_url"].string == "http://localhost:8080/storage/\(F.bucket)/\(key)")
            let metadata = completed.json["metadata"]
            #expect(metadata["upload_completed_at"].string?.hasSuffix("Z") == true)
            #expect(metadata["completion_source"].string == "client")
            #expect(metadata["file_size_bytes"].int == audio.count)
            #expect(metadata["client_file_size_bytes"].isAbsent, "the client's size equals the stored one")
            #expect(metadata["duration_seconds"].double == 185.3)
            #expect(metadata["device_metadata"]["device_model"].string == "iPhone 15 Pro")
            #expect(metadata["device_metadata"]["sample_rate"].int == 44100)
            let jobs = try await F.jobs(app, visit: visitID)
            #expect(jobs.count == 1)
            #expect(jobs.first?.status == "queued")
            #expect(jobs.first?.storageKey == key)
            #expect(metadata["transcription_job_id"].string == jobs.first?.id.lowercased)

            // 4. Playback.
            let playback = try await app.get(F.playbackPath(visitID), token: vet, headers: host)
            #expect(playback.status == .ok, "\(playback)")
            #expect(playback.json.keys == ["presigned_url", "expires_in", "visit_id", "filename"])
            #expect(playback.json["expires_in"].int == 900)
            #expect(playback.json["visit_id"].string == visitID)
            #expect(playback.json["filename"].string == filename)
            let url = try #require(playback.json["presigned_url"].string)
            #expect(url.hasPrefix("http://localhost:8080/storage/\(F.bucket)/\(key)?"))
            #expect(url.contains("X-Amz-Expires=900"))
            #expect(url.contains("X-Amz-SignedHeaders=host"))

            let whole = try await F.fetch(app, url)
            #expect(whole.status == .ok, "\(whole)")
            #expect(Array(whole.body) == audio)
            #expect(whole.headers.first(name: .contentType) == "audio/mp4")
            #expect(whole.headers.first(name: .contentDisposition) == "inline; filename=\"\(filename)\"")
            #expect(whole.headers.first(name: .acceptRanges) == "bytes")
            #expect(whole.headers.first(name: .contentLength) == String(audio.count))

            let ranged = try await F.fetch(app, url, headers: ["Range": "bytes=10-19"])
            #expect(ranged.status == .partialContent, "\(ranged)")
            #expect(ranged.headers.first(name: .contentRange) == "bytes 10-19/\(audio.count)")
            #expect(Array(ranged.body) == Array(audio[10...19]))
            let suffix = try await F.fetch(app, url, headers: ["Range": "bytes=-5"])
            #expect(suffix.status == .partialContent)
            #expect(Array(suffix.body) == Array(audio.suffix(5)))
            let open = try await F.fetch(app, url, headers: ["Range": "bytes=69990-"])
            #expect(open.status == .partialContent)
            #expect(open.headers.first(name: .contentRange) == "bytes 69990-69999/70000")
            let beyond = try await F.fetch(app, url, headers: ["Range": "bytes=70000-"])
            #expect(beyond.status == .rangeNotSatisfiable, "\(beyond)")
            #expect(beyond.headers.first(name: .contentRange) == "bytes */70000")

            // The store verifies the signature against Host (§7.4), and the object URL itself is not signed (§7.6).
            let otherHost = try await F.send(app, .GET, try F.target(of: url).path, headers: ["Host": "evil.example:8080"])
            #expect(otherHost.status == .forbidden)
            #expect(otherHost.text.contains("<Code>SignatureDoesNotMatch</Code>"), "\(otherHost)")
            let direct = try await F.fetch(app, try #require(completed.json["audio_transcript_url"].string))
            #expect(direct.status == .forbidden, "\(direct)")
        }
    }

    /// Objects are write-once (§4.10 "Upload", §7.3): a retried upload is 403 AccessDenied and the first object stays.
    @Test func aSecondUploadToTheSameKeyIsRefused() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let first = F.bytes(500, seed: 1)
            try await F.upload(app, started, bytes: first)
            let retry = try await F.uploadToPresignedPost(app, started.response, bytes: F.bytes(800, seed: 2))
            #expect(retry.status == .forbidden, "\(retry)")
            #expect(retry.text.contains("<Code>AccessDenied</Code>"))
            #expect(F.objectBytes(app, key: started.key) == first)
            #expect(F.temporaryFiles(app) == [])
            // "on a retry this usually means the earlier attempt landed; call complete"
            let completed = try await F.complete(app, vet, started.visitID)
            #expect(completed.status == .ok)
            #expect(completed.json["metadata"]["file_size_bytes"].int == 500)
        }
    }

    /// The presigned POST writes only its own key with its own type (§7.3): a form whose key, type or extra
    /// fields differ from the policy is refused, and so is an empty file; nothing is stored.
    @Test func thePresignedPostOnlyWritesItsOwnKeyAndType() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let bella = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            let max = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            let target = try F.target(of: bella.uploadURL)
            func post(_ fields: [String: String], bytes: [UInt8] = F.bytes(10)) async throws -> TestResponse {
                let form = F.multipart(
                    text: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                    files: [F.FilePart(name: "file", filename: "x.m4a", contentType: "audio/m4a", bytes: bytes)])
                return try await F.send(
                    app, .POST, target.path, headers: ["Host": target.host], body: form.body, contentType: form.contentType)
            }
            var otherKey = bella.fields
            otherKey["key"] = max.key
            var otherType = bella.fields
            otherType["Content-Type"] = "audio/mpeg"
            var extra = bella.fields
            extra["x-amz-meta-owner"] = "someone"
            for fields in [otherKey, otherType, extra] {
                let refused = try await post(fields)
                #expect(refused.status == .forbidden, "\(refused)")
                #expect(refused.text.contains("<Code>AccessDenied</Code>"), "\(refused)")
            }
            let empty = try await post(bella.fields, bytes: [])
            #expect(empty.status == .badRequest, "\(empty)")
            #expect(empty.text.contains("<Code>EntityTooSmall</Code>"), "\(empty)")
            #expect(F.storedKeys(app, pet: Demo.pet(1)) == [] && F.storedKeys(app, pet: Demo.pet(2)) == [])
            #expect(F.temporaryFiles(app) == [])
            expectError(try await F.complete(app, vet, max.visitID), .conflict, "Audio file has not been uploaded yet")
        }
    }

    /// With `PUBLIC_BASE_URL` every URL uses it, whatever Host the request came with (§7.6, Appendix B).
    @Test func urlsUsePublicBaseURLWhenConfigured() async throws {
        try await F.withApp(env: ["PUBLIC_BASE_URL": "https://recordings.example.test"]) { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post(F.initiatePath, token: vet, json: [
                "pet_id": Demo.pet(2).lowercased, "filename": "max.m4a",
            ], headers: ["Host": "internal-node:9999"])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["upload_url"].string == "https://recordings.example.test/storage/\(F.bucket)/")
        }
    }
}
