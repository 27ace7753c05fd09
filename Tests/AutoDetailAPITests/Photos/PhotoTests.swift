import AppCore
import Foundation
import ObjectStorage
import SQLKit
import Testing
import VaporTesting

/// Photos (contract §4.5, §7): presign → PUT → link, every error of the three steps, signed downloads, integrity.
@Suite struct PhotoTests {
    static let start = "2025-03-14T08:00:00Z"

    @Test func presignAnswerAndUploadAndLink() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let key = app.orgKey
            let appointment = try await app.book(Self.start, key: key)
            let presigned = try await PhotoFlow.presign(app, key: key, appointment: appointment, kind: "defect")
            #expect(presigned.status == .ok, "\(presigned)")
            let json = presigned.json
            #expect(json.keys == ["uploadUrl", "method", "headers", "ref", "expiresIn", "expiresAt"])
            let ref = try #require(json["ref"].string)
            let objectKey = String(ref.dropFirst(3))
            #expect(ref.range(of: "^s3:appointments/\(appointment)/defect/[0-9a-f-]{36}\\.jpg$", options: .regularExpression) != nil)
            let url = try #require(json["uploadUrl"].string)
            #expect(url.hasPrefix("http://localhost:8080/storage/autodetail/\(objectKey)?X-Amz-Algorithm=AWS4-HMAC-SHA256"))
            #expect(url.contains("X-Amz-Expires=900") && url.contains("X-Amz-SignedHeaders=content-type%3Bhost"))
            #expect(json["method"].string == "PUT")
            #expect(json["headers"].keys == ["Content-Type"] && json["headers"]["Content-Type"].string == "image/jpeg")
            #expect(json["expiresIn"].int == 900)
            #expect(json["expiresAt"].string == "2025-03-14T06:55:00Z")

            let bytes = testBytes(70_000)
            let put = try await PhotoFlow.put(app, presigned, bytes: bytes)
            #expect(put.status == .ok, "\(put)")
            #expect(put.body.isEmpty)
            #expect(put.headers.first(name: .eTag)?.range(of: #"^"[0-9a-f]{32}"$"#, options: .regularExpression) != nil)
            // Write-once: the same still-valid URL cannot replace the object.
            let again = try await PhotoFlow.put(app, presigned, bytes: testBytes(10))
            #expect(again.status == .forbidden && again.text.contains("<Code>AccessDenied</Code>"), "\(again)")

            clock.advance(by: 60)
            let linked = try await PhotoFlow.link(app, key: key, appointment: appointment, kind: "defect", refs: [ref, ref])
            #expect(linked.status == .ok, "\(linked)")
            let photos = linked.json["defectPhotos"].array ?? []
            #expect(photos.count == 1, "duplicates inside one request are collapsed")
            #expect(photos.first?.keys == ["id", "url", "createdAt"])
            #expect(linked.json["workPhotos"].array?.isEmpty == true)
            #expect(linked.json["updatedAt"].string == "2025-03-14T06:41:00Z")
            #expect(try linked.decode(Appointment.self).defectPhotos.count == 1)
            let photoURL = try #require(photos.first?["url"].string)
            #expect(photoURL.contains("X-Amz-Expires=3600") && photoURL.contains("X-Amz-SignedHeaders=host"))
            let download = try await app.storage(.GET, url: photoURL)
            #expect(download.status == .ok)
            #expect(Array(download.body) == bytes)
            #expect(download.headers.first(name: .cacheControl) == "private, max-age=3600")

            // Linking the same ref again is skipped silently; updatedAt is not bumped.
            clock.advance(by: 60)
            let relinked = try await PhotoFlow.link(app, key: key, appointment: appointment, kind: "defect", refs: [ref])
            #expect(relinked.status == .ok)
            #expect(relinked.json["defectPhotos"].count == 1)
            #expect(relinked.json["updatedAt"].string == "2025-03-14T06:41:00Z")
            // Stable ids, fresh URLs on every read.
            let read = try await app.get("/api/client/appointments/\(appointment)", key: key, headers: PhotoFlow.host)
            #expect(read.json["defectPhotos"][0]["id"].string == photos.first?["id"].string)

            // sizeBytes signs Content-Length.
            let sized = try await PhotoFlow.presign(app, key: key, appointment: appointment, sizeBytes: 500)
            #expect(sized.json["headers"]["Content-Length"].string == "500")
            #expect(sized.json["uploadUrl"].string?.contains("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost") == true)
            let wrongLength = try await PhotoFlow.put(app, sized, bytes: testBytes(400))
            #expect(wrongLength.status == .forbidden && wrongLength.text.contains("SignatureDoesNotMatch"), "\(wrongLength)")
            #expect(try await PhotoFlow.put(app, sized, bytes: testBytes(500)).status == .ok)
        }
    }

    @Test func uploadRefusals() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let key = app.orgKey
            let appointment = try await app.book(Self.start, key: key)
            let presigned = try await PhotoFlow.presign(app, key: key, appointment: appointment)
            // Another content type than the signed one.
            let png = try await PhotoFlow.put(app, presigned, bytes: testBytes(100), contentType: "image/png")
            #expect(png.status == .forbidden && png.text.contains("<Code>SignatureDoesNotMatch</Code>"), "\(png)")
            // Over 15 MiB: refused before the body is read.
            let big = try await PhotoFlow.put(app, presigned, bytes: testBytes(15_728_641))
            #expect(big.status == .payloadTooLarge && big.text.contains("<Code>EntityTooLarge</Code>"), "\(big.status)")
            // Expired URL.
            clock.advance(by: 901)
            let late = try await PhotoFlow.put(app, presigned, bytes: testBytes(100))
            #expect(late.status == .forbidden && late.text.contains("Request has expired"), "\(late)")
            #expect(late.headers.first(name: .contentType) == "application/xml")
        }
    }

    @Test func presignErrors() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            let appointment = try await app.book(Self.start, key: key)
            func presign(_ body: [String: Any?]) async throws -> TestResponse {
                try await app.post("/api/uploads/presign", key: key, body)
            }
            let valid: [String: Any?] = ["appointmentId": appointment, "kind": "work", "filename": "a.jpg", "contentType": "image/jpeg"]
            func with(_ changes: [String: Any?]) -> [String: Any?] { valid.merging(changes) { _, new in new } }
            expectError(try await presign([:]), .badRequest, "Missing required fields: appointmentId, kind, filename, contentType")
            expectError(try await presign(with(["filename": " ", "kind": nil])), .badRequest, "Missing required fields: kind, filename")
            expectError(try await presign(with(["appointmentId": "x"])), .badRequest, "Invalid field: appointmentId (invalid format)")
            expectError(try await presign(with(["kind": "before"])), .badRequest, "Invalid field: kind (must be one of: work, defect)")
            expectError(
                try await presign(with(["filename": String(repeating: "f", count: 256)])), .badRequest,
                "Invalid field: filename (must be 1-255 characters)")
            expectError(
                try await presign(with(["filename": "a\nb.jpg"])), .badRequest,
                "Invalid field: filename (must not contain control characters)")
            expectError(
                try await presign(with(["contentType": "image/gif"])), .badRequest,
                "Invalid field: contentType (must be one of: image/jpeg, image/png, image/heic)")
            expectError(
                try await presign(with(["contentType": "image/jpeg; charset=x"])), .badRequest,
                "Invalid field: contentType (must be one of: image/jpeg, image/png, image/heic)")
            expectError(
                try await presign(with(["sizeBytes": 0])), .badRequest, "Invalid field: sizeBytes (must be between 1 and 15728640)")
            expectError(try await presign(with(["sizeBytes": "10"])), .badRequest, "Invalid field: sizeBytes (must be an integer)")
            expectError(try await presign(with(["sizeBytes": 15_728_641])), .payloadTooLarge, "File too large (max 15 MiB)")
            expectError(
                try await presign(with(["appointmentId": UUID().uuidString])), .notFound, "Appointment not found")
            let heic = try await presign(with(["contentType": "IMAGE/HEIC"]))
            #expect(heic.status == .ok && heic.json["headers"]["Content-Type"].string == "image/heic")
            #expect(heic.json["ref"].string?.hasSuffix(".heic") == true)
            #expect(try await presign(with(["sizeBytes": 15_728_640])).status == .ok)

            #expect(try await app.send(.POST, "/api/client/appointments/\(appointment)/cancel", key: key).status == .ok)
            expectError(try await presign(valid), .conflict, "Cannot add photos to a cancelled appointment")
        }
    }

    @Test func linkErrors() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            let appointment = try await app.book(Self.start, key: key)
            let other = try await app.book("2025-03-14T09:00:00Z", key: key)
            let uploaded = try await PhotoFlow.uploaded(app, key: key, appointment: appointment, kind: "work")
            let otherRef = try await PhotoFlow.uploaded(app, key: key, appointment: other, kind: "work")
            let pending = try #require(try await PhotoFlow.presign(app, key: key, appointment: appointment).json["ref"].string)
            func link(_ kind: Any?, _ refs: Any?) async throws -> TestResponse {
                try await app.post("/api/client/appointments/\(appointment)/photos", key: key, ["kind": kind, "photoUrls": refs])
            }
            expectError(try await link(nil, nil), .badRequest, "Missing required fields: kind, photoUrls")
            expectError(try await link("before", [uploaded]), .badRequest, "Invalid field: kind (must be one of: work, defect)")
            expectError(try await link("work", uploaded), .badRequest, "Invalid field: photoUrls (must be an array of strings)")
            expectError(try await link("work", [1]), .badRequest, "Invalid field: photoUrls (must be an array of strings)")
            expectError(try await link("work", [String]()), .badRequest, "Invalid field: photoUrls (must contain 1-10 items)")
            expectError(
                try await link("work", (0..<11).map { "s3:x\($0)" }), .badRequest, "Invalid field: photoUrls (must contain 1-10 items)")
            let longRef = "s3:" + String(repeating: "z", count: 300)
            expectError(try await link("work", [longRef]), .badRequest, "Invalid photo reference: \(longRef.prefix(200))")
            expectError(
                try await link("work", ["https://example.com/a.jpg"]), .badRequest, "Invalid photo reference: https://example.com/a.jpg")
            let forged = "s3:appointments/\(appointment)/work/\(UUID().uuidString.lowercased()).jpg"
            expectError(try await link("work", [forged]), .badRequest, "Invalid photo reference: \(forged)")
            expectError(
                try await link("work", [otherRef]), .badRequest,
                "Photo reference does not belong to this appointment and kind: \(otherRef)")
            expectError(
                try await link("defect", [uploaded]), .badRequest,
                "Photo reference does not belong to this appointment and kind: \(uploaded)")
            expectError(try await link("work", [pending]), .badRequest, "Photo has not been uploaded: \(pending)")
            // All or nothing: a good ref before a bad one is not linked.
            expectError(try await link("work", [uploaded, pending]), .badRequest, "Photo has not been uploaded: \(pending)")
            #expect(try await app.get("/api/client/appointments/\(appointment)", key: key).json["workPhotos"].count == 0)
            expectError(
                try await app.post("/api/client/appointments/\(UUID().uuidString)/photos", key: key, [:]), .notFound,
                "Appointment not found")
            #expect(try await link("work", [uploaded]).status == .ok)

            #expect(try await app.send(.POST, "/api/client/appointments/\(other)/cancel", key: key).status == .ok)
            expectError(
                try await app.post("/api/client/appointments/\(other)/photos", key: key, ["kind": "work", "photoUrls": [otherRef]]),
                .conflict, "Cannot add photos to a cancelled appointment")
        }
    }

    @Test func thirtyPhotosPerKind() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            let appointment = try await app.book(Self.start, key: key)
            var refs: [String] = []
            for i in 0..<31 { refs.append(try await PhotoFlow.uploaded(app, key: key, appointment: appointment, bytes: testBytes(20, seed: UInt8(i)))) }
            for batch in 0..<3 {
                let linked = try await PhotoFlow.link(app, key: key, appointment: appointment, refs: Array(refs[(batch * 10)..<(batch * 10 + 10)]))
                #expect(linked.status == .ok, "\(linked)")
            }
            expectError(
                try await PhotoFlow.link(app, key: key, appointment: appointment, refs: [refs[30]]), .conflict,
                "Photo limit reached (30 per kind)")
            expectError(try await PhotoFlow.presign(app, key: key, appointment: appointment), .conflict, "Photo limit reached (30 per kind)")
            #expect(try await PhotoFlow.presign(app, key: key, appointment: appointment, kind: "defect").status == .ok)
            let read = try await app.get("/api/client/appointments/\(appointment)", key: key)
            #expect(read.json["workPhotos"].count == 30)
        }
    }

    /// §7.5: a photo whose object no longer matches after its upload URL expired is hidden from clients and shown to
    /// the admin with `mismatch: true`; the admin can delete it.
    @Test func integrityCheckAfterTheUploadURLExpired() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let key = app.orgKey
            let admin = try await app.adminToken()
            let appointment = try await app.book(Self.start, key: key)
            let kept = try await PhotoFlow.uploaded(app, key: key, appointment: appointment)
            let lost = try await PhotoFlow.uploaded(app, key: key, appointment: appointment)
            #expect(try await PhotoFlow.link(app, key: key, appointment: appointment, refs: [kept, lost]).status == .ok)
            // The second object disappears behind the server's back.
            try await app.objectStore.delete(bucket: "autodetail", key: String(lost.dropFirst(3)))
            #expect(try await app.get("/api/client/appointments/\(appointment)", key: key).json["workPhotos"].count == 2,
                    "before the URL expired no check happens")
            clock.advance(by: 901)
            let client = try await app.get("/api/client/appointments/\(appointment)", key: key)
            #expect(client.json["workPhotos"].count == 1)
            let console = try await app.get("/api/admin/appointments/\(appointment)", bearer: admin)
            let photos = console.json["workPhotos"].array ?? []
            #expect(photos.map { $0["mismatch"].bool ?? true } == [false, true])
            #expect(photos.allSatisfy { $0.keys == ["id", "url", "createdAt", "mismatch"] })
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_photos WHERE verified_at IS NOT NULL") == 2)
            let broken = try #require(photos.last?["id"].string)
            #expect(try await app.delete("/api/admin/appointments/\(appointment)/photos/\(broken)", bearer: admin).status == .noContent)
            expectError(
                try await app.delete("/api/admin/appointments/\(appointment)/photos/\(broken)", bearer: admin), .notFound,
                "Photo not found")
            expectError(
                try await app.delete("/api/admin/appointments/\(UUID().uuidString)/photos/\(broken)", bearer: admin), .notFound,
                "Appointment not found")
            #expect(try await app.get("/api/admin/appointments/\(appointment)", bearer: admin).json["workPhotos"].count == 1)
        }
    }

    @Test func consolePhotosAndCleanupOfUnlinkedUploads() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let admin = try await app.adminToken()
            let appointment = try await app.book(Self.start, key: app.orgKey)
            // The console has no ownership limits.
            let presigned = try await PhotoFlow.presign(app, admin: admin, appointment: appointment, kind: "defect")
            #expect(presigned.status == .ok, "\(presigned)")
            #expect(try await PhotoFlow.put(app, presigned, bytes: testBytes(300)).status == .ok)
            let ref = try #require(presigned.json["ref"].string)
            let linked = try await PhotoFlow.link(app, admin: admin, appointment: appointment, kind: "defect", refs: [ref])
            #expect(linked.status == .ok)
            #expect(linked.json["installId"].isNull && linked.json["defectPhotos"][0]["mismatch"].bool == false)
            let photoID = try #require(linked.json["defectPhotos"][0]["id"].string)
            #expect(try await app.delete("/api/admin/appointments/\(appointment)/photos/\(photoID)", bearer: admin).status == .noContent)
            // The object is gone and the ref cannot be linked again.
            expectError(
                try await PhotoFlow.link(app, admin: admin, appointment: appointment, kind: "defect", refs: [ref]), .badRequest,
                "Invalid photo reference: \(ref)")

            // An upload that is never linked is removed with its object after 24 hours.
            let orphan = try await PhotoFlow.presign(app, key: app.orgKey, appointment: appointment)
            #expect(try await PhotoFlow.put(app, orphan, bytes: testBytes(10)).status == .ok)
            let orphanKey = String((orphan.json["ref"].string ?? "").dropFirst(3))
            clock.advance(by: 86_401)
            try await UploadCleanupProbe.run(app)
            #expect(try await app.objectStore.head(bucket: "autodetail", key: orphanKey) == nil)
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_uploads") == 0)
        }
    }
}
