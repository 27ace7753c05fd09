import Foundation
import Testing

@testable import HelpPetKit

@Suite("Coding: dates, JSONValue, errors, retry policy")
struct CodingTests {
    @Test(
        "datetimes with Z, fractions and offsets decode to the same instant",
        arguments: [
            "2025-01-15T17:00:00Z", "2025-01-15T17:00:00.000Z", "2025-01-15T17:00:00.123Z",
            "2025-01-15T17:00:00.123456+00:00", "2025-01-15T09:00:00-08:00", "2025-01-15T09:00:00.5-0800",
            "2025-01-15T18:00:00+01:00", "2025-01-15t17:00:00z", "2025-01-15T17:00:00",
        ])
    func datetimes(_ text: String) throws {
        let date = try #require(HelpPetCoding.parseDate(text))
        #expect(abs(date.timeIntervalSince1970 - 1_736_960_400) < 1, "\(text) → \(date)")
    }

    @Test("fractions are kept, calendar days are midnight UTC, nonsense is refused")
    func edges() throws {
        #expect(HelpPetCoding.parseDate("2025-01-15T17:00:00.250Z")?.timeIntervalSince1970 == 1_736_960_400.25)
        #expect(HelpPetCoding.parseDate("2025-01-15")?.timeIntervalSince1970 == 1_736_899_200)
        #expect(HelpPetCoding.parseDate("2024-02-29T00:00:00Z") != nil)
        for bad in ["2025-02-30T00:00:00Z", "2025-13-01", "2025-01-15T25:00:00Z", "2025-01-15T17:00:00.Z", "yesterday", "",
                    "2025-01-15T17:00:00Zjunk", "1736960400"] {
            #expect(HelpPetCoding.parseDate(bad) == nil, "\(bad)")
        }
        #expect(HelpPetCoding.formatDate(Date(timeIntervalSince1970: 1_736_960_400.9)) == "2025-01-15T17:00:00Z")
        #expect(HelpPetCoding.formatDate(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test("the decoder reads unix seconds and ISO strings; visit_date stays unix seconds both ways")
    func decoderStrategy() throws {
        struct Probe: Decodable { let a: Date; let b: Date; let c: Date }
        let probe = try HelpPetCoding.makeDecoder().decode(
            Probe.self, from: Data(#"{"a": 1736960400, "b": "2025-01-15T17:00:00Z", "c": "2025-01-15T09:00:00.75-08:00"}"#.utf8))
        #expect(probe.a == probe.b)
        #expect(probe.c.timeIntervalSince(probe.b) == 0.75)

        // visit_date as unix seconds even with a decoder that knows nothing about it (the 2001 reference date is
        // never used).
        let json = #"{"uuid":"6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3","pet_id":"p","visit_date":1736960400,"full_text":"","audio_transcript_url":null,"metadata":{},"summary":null,"state":"new","created_at":"2025-01-15T17:00:00Z","updated_at":"2025-01-15T17:00:00Z","created_by":"u"}"#
        let plain = JSONDecoder()
        plain.dateDecodingStrategy = .iso8601
        let transcript = try plain.decode(VisitTranscript.self, from: Data(json.utf8))
        #expect(transcript.visitDate.timeIntervalSince1970 == 1_736_960_400)
        let encoded = try HelpPetCoding.makeEncoder().encode(transcript)
        let object = try JSONDecoder().decode(JSONValue.self, from: encoded)
        #expect(object["visit_date"] == .integer(1_736_960_400))
        #expect(object["created_at"] == "2025-01-15T17:00:00Z")
        #expect(object["appointment_id"] == .null)
    }

    @Test("JSONValue keeps s3_key and Content-Type under convertFromSnakeCase / convertToSnakeCase")
    func jsonValueKeys() throws {
        let json = #"{"visit_id":"v","upload_fields":{"Content-Type":"audio/m4a","x-amz-signature":"abc","key":"k"},"metadata":{"s3_key":"k","device_metadata":{"ios_version":"17.2.1"}},"n":[1,2.5,true,null,"s"]}"#
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let value = try decoder.decode(JSONValue.self, from: Data(json.utf8))
        #expect(value["upload_fields"]?["Content-Type"] == "audio/m4a")
        #expect(value["upload_fields"]?["x-amz-signature"] == "abc")
        #expect(value["metadata"]?["s3_key"] == "k")
        #expect(value["metadata"]?["device_metadata"]?["ios_version"] == "17.2.1")
        #expect(value["visit_id"] == "v")
        #expect(value["n"] == [1, 2.5, true, nil, "s"])

        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let again = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
        #expect(again == value)
    }

    @Test("API error bodies map to typed errors")
    func errorMapping() {
        func map(_ status: Int, _ body: String) -> HelpPetError {
            HelpPetError.fromAPIResponse(status: status, body: Data(body.utf8), headers: nil)
        }
        #expect(map(401, #"{"detail":"Could not validate credentials"}"#) == .unauthorized(detail: "Could not validate credentials"))
        #expect(map(403, #"{"detail":"Administrator access required"}"#) == .forbidden(detail: "Administrator access required"))
        #expect(map(404, #"{"detail":"Pet not found"}"#) == .notFound(detail: "Pet not found"))
        #expect(
            map(409, #"{"detail":"Recording already exists for this appointment and pet. Visit ID: 6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3","visit_id":"6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3"}"#)
                == .duplicateRecording(existingVisitId: "6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3"))
        #expect(
            map(409, #"{"detail":"Audio recording already exists for pet p today. Visit ID: 6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3"}"#)
                == .duplicateRecording(existingVisitId: "6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3"))
        #expect(
            map(409, #"{"detail":"Recording upload already in progress for this appointment and pet. Visit ID: 6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3","visit_id":"6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3"}"#)
                == .uploadInProgress(existingVisitId: "6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3"))
        #expect(map(409, #"{"detail":"Audio file has not been uploaded yet"}"#) == .conflict(detail: "Audio file has not been uploaded yet"))
        if case .petNotInAppointment = map(400, #"{"detail":"Pet x is not associated with appointment y"}"#) {} else {
            Issue.record("400 pet-not-in-appointment not mapped")
        }
        #expect(map(400, #"{"detail":"filename is required"}"#) == .invalid(detail: "filename is required"))
        #expect(map(503, #"{"detail":"Service temporarily unavailable"}"#) == .server(status: 503, detail: "Service temporarily unavailable"))
        #expect(map(502, "<html>bad gateway</html>") == .server(status: 502, detail: "<html>bad gateway</html>"))

        let expired = #"<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>"#
        #expect(HelpPetError.fromStorageResponse(status: 403, body: Data(expired.utf8)) == .uploadURLExpired)
        let exists = #"<Error><Code>AccessDenied</Code><Message>Access Denied. An object already exists at this key and objects are write-once.</Message></Error>"#
        #expect(
            HelpPetError.fromStorageResponse(status: 403, body: Data(exists.utf8))
                == .storage(status: 403, code: "AccessDenied", message: "Access Denied. An object already exists at this key and objects are write-once."))
    }

    @Test("only transport failures and 5xx are retried, with bounded exponential delays")
    func retryPolicy() {
        #expect(RetryPolicy.isRetryable(.transport(code: .networkConnectionLost, message: "")))
        #expect(RetryPolicy.isRetryable(.transport(code: .cannotConnectToHost, message: "")))
        #expect(RetryPolicy.isRetryable(.transport(code: .timedOut, message: "")))
        #expect(!RetryPolicy.isRetryable(.transport(code: .cancelled, message: "")))
        #expect(RetryPolicy.isRetryable(.server(status: 503, detail: "")))
        #expect(RetryPolicy.isRetryable(.storage(status: 500, code: "InternalError", message: "")))
        for error: HelpPetError in [
            .invalid(detail: ""), .unauthorized(detail: ""), .forbidden(detail: ""), .notFound(detail: ""),
            .duplicateRecording(existingVisitId: "x"), .conflict(detail: ""), .rateLimited(retryAfter: 3),
            .storage(status: 403, code: "AccessDenied", message: ""), .uploadURLExpired, .server(status: 501, detail: ""),
        ] {
            #expect(!RetryPolicy.isRetryable(error), "\(error)")
        }
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: 0.5, maxDelay: 4)
        for attempt in 1...8 {
            let ceiling = min(4, 0.5 * pow(2, Double(attempt - 1)))
            let delay = policy.delay(afterAttempt: attempt)
            #expect(delay >= ceiling * 0.5 && delay <= ceiling, "attempt \(attempt): \(delay)")
        }
        #expect(policy.delay(afterAttempt: 1, retryAfter: 3) >= 3)
    }

    @Test("AudioUploadRequest.validate uses the server's rules; the body uses snake_case keys")
    func uploadRequestValidation() throws {
        let good = AudioUploadRequest(
            petId: Demo.bella, filename: "bella.m4a", estimatedDurationSeconds: 180.5, appointmentId: Demo.practice)
        try good.validate()
        let cases: [(AudioUploadRequest, String)] = [
            (AudioUploadRequest(petId: "", filename: "a.m4a"), "Invalid pet ID format"),
            (AudioUploadRequest(petId: Demo.bella, filename: "a.m4a", appointmentId: ""), "Invalid appointment ID format"),
            (AudioUploadRequest(petId: Demo.bella, filename: "  "), "filename must not be empty"),
            (AudioUploadRequest(petId: Demo.bella, filename: String(repeating: "a", count: 256)), "filename must be at most 255 characters"),
            (AudioUploadRequest(petId: Demo.bella, filename: "a.m4a", contentType: "video/mp4"), "Invalid content_type: 'video/mp4'. Allowed: audio/m4a, audio/mp4, audio/x-m4a, audio/aac, audio/mpeg, audio/wav, audio/x-wav, audio/webm, audio/ogg, audio/flac"),
            (AudioUploadRequest(petId: Demo.bella, filename: "a.m4a", estimatedDurationSeconds: 0), "estimated_duration_seconds must be greater than 0 and at most 14400"),
        ]
        for (request, detail) in cases {
            #expect(throws: HelpPetError.invalid(detail: detail)) { try request.validate() }
        }
        let body = try JSONDecoder().decode(JSONValue.self, from: HelpPetCoding.makeEncoder().encode(good))
        #expect(body == ["pet_id": .string(Demo.bella), "filename": "bella.m4a", "content_type": "audio/m4a",
                         "estimated_duration_seconds": 180.5, "appointment_id": .string(Demo.practice)])

        let response = AudioUploadResponse(
            visitId: "not-a-uuid", uploadUrl: "http://x/", uploadFields: ["key": "k"], s3Key: "k", bucket: "b", expiresIn: 3600)
        #expect(throws: HelpPetError.self) { try response.validate() }
    }

    @Test("login form fields are percent-encoded strictly")
    func formEncoding() {
        #expect(PercentEncoding.form([("username", "vet 1"), ("password", "a+b&c=d%e/é")])
            == "username=vet%201&password=a%2Bb%26c%3Dd%25e%2F%C3%A9")
    }
}
