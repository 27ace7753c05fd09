import Foundation
import KitTestSupport
import Testing

@testable import AutoDetailKit

/// What the kit decides on its own, without a server.
@Suite("AutoDetailKit: local behaviour")
struct LocalTests {
    @Test("retries only transport failures and 502-504/500, never a 4xx; backoff grows with jitter and honours Retry-After")
    func retryPolicy() {
        #expect(RetryPolicy.isRetryable(.transport(message: "refused")))
        #expect(RetryPolicy.isRetryable(.server(status: 503, message: "Service temporarily unavailable")))
        #expect(RetryPolicy.isRetryable(.storage(status: 500, code: "InternalError", message: "")))
        for error: AutoDetailError in [
            .invalid(message: "x"), .unauthorized(message: "x"), .forbidden(message: "x"), .notFound(message: "x"),
            .conflict(message: "x"), .rateLimited(retryAfter: 1), .storage(status: 403, code: "AccessDenied", message: ""),
        ] {
            #expect(!RetryPolicy.isRetryable(error), "\(error)")
        }
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 1, maxDelay: 4)
        for attempt in 1...5 {
            let delay = policy.delay(afterAttempt: attempt)
            let cap = min(4, pow(2, Double(attempt - 1)))
            #expect(delay >= cap * 0.5 && delay <= cap)
        }
        #expect(policy.delay(afterAttempt: 1, retryAfter: 3) >= 3)
    }

    @Test("error bodies map to typed errors with the server's message")
    func errorMapping() {
        func map(_ status: Int, _ body: String, retryAfter: String? = nil) -> AutoDetailError {
            AutoDetailError.fromAPIResponse(status: status, body: Data(body.utf8), retryAfterHeader: retryAfter)
        }
        #expect(map(401, #"{"valid": false, "error": "Invalid API key"}"#) == .unauthorized(message: "Invalid API key"))
        #expect(map(409, #"{"error": "Time slot is no longer available"}"#) == .conflict(message: "Time slot is no longer available"))
        #expect(map(404, #"{"error": "Appointment not found"}"#) == .notFound(message: "Appointment not found"))
        #expect(map(413, #"{"error": "File too large (max 15 MiB)"}"#) == .invalid(message: "File too large (max 15 MiB)"))
        #expect(map(429, #"{"error": "Too many requests"}"#, retryAfter: "7") == .rateLimited(retryAfter: 7))
        #expect(map(502, "<html>bad gateway</html>") == .server(status: 502, message: "<html>bad gateway</html>"))
        let storage = AutoDetailError.fromStorageResponse(
            status: 403,
            body: Data("<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code><Message>no &amp; no</Message></Error>".utf8))
        #expect(storage == .storage(status: 403, code: "SignatureDoesNotMatch", message: "no & no"))
    }

    @Test("request bodies: the seed's booking shape, explicit nulls only where asked, all seven days sent")
    func encoding() throws {
        func json(_ value: some Encodable) throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as! [String: Any]
        }
        let booking = try json(
            BookingRequest(startIso: "2025-03-14T08:00:00Z", clientName: "Test User", phone: "+1234567890", carMake: "BMW",
                carPlate: "ABC123", serviceName: "Car Washing"))
        #expect(Set(booking.keys) == ["startIso", "clientName", "phone", "carMake", "carPlate", "serviceName", "notes"])
        #expect(booking["notes"] as? String == "")

        let update = try json(ServiceUpdateRequest(priceRub: 1600, imageUrl: .clear))
        #expect(Set(update.keys) == ["priceRub", "imageUrl"])
        #expect(update["imageUrl"] is NSNull)
        #expect(ServiceUpdateRequest().isEmpty)

        var week: [String: DayHours?] = [:]
        for day in StudioSettings.weekdays { week[day] = .some(DayHours(open: "09:00", close: "21:00")) }
        week["sun"] = .some(nil)
        let settings = try json(SettingsUpdateRequest(workingHours: week))
        let hours = settings["workingHours"] as! [String: Any]
        #expect(hours.count == 7)
        #expect(hours["sun"] is NSNull)
        #expect(AutoDetailClient.isoString(Date(timeIntervalSince1970: 1_741_939_200)) == "2025-03-14T08:00:00Z")
    }

    @Test("the file store keeps credentials per server in a 0600 file and removes it when empty")
    func fileStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("adkit-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("autodetail/credentials.json")
        let a = FileCredentialStore(fileURL: file, account: "http://a")
        let b = FileCredentialStore(fileURL: file, account: "http://b")
        try await a.save(StoredCredentials(apiKey: "ios_1741597925_850539358460fea4d1e69f21"))
        try await b.save(StoredCredentials(adminToken: "adm_x"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try await a.load().apiKey == "ios_1741597925_850539358460fea4d1e69f21")
        #expect(try await b.load().adminToken == "adm_x")
        try await a.save(StoredCredentials())
        try await b.save(StoredCredentials())
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("local checks fail before anything is sent: no key, missing file, unknown type, too large")
    func localChecks() async throws {
        // Port 9 (discard) on loopback: nothing may be sent, and nothing is.
        let client = AutoDetailClient(baseURL: URL(string: "http://127.0.0.1:9")!, configuration: .init(retryPolicy: .none))
        await #expect(throws: AutoDetailError.unauthorized(message: "No API key: call initInstall() or useAPIKey(_:) first")) {
            _ = try await client.appointments()
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("adkit-local-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await client.useAPIKey("org_1741597200_66f40e2c1adbdaff5f6df26b")
        let missing = directory.appendingPathComponent("missing.jpg")
        await #expect(throws: AutoDetailError.file(path: missing.path, reason: "no such file")) {
            _ = try await client.addPhoto(appointmentId: UUID().uuidString, kind: .work, file: missing)
        }
        let gif = directory.appendingPathComponent("photo.gif")
        try Data([1, 2, 3]).write(to: gif)
        await #expect(throws: AutoDetailError.invalid(message: "photo.gif: unknown photo type (use .jpg, .jpeg, .png or .heic)")) {
            _ = try await client.addPhoto(appointmentId: UUID().uuidString, kind: .work, file: gif)
        }
        let big = directory.appendingPathComponent("big.jpg")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(AutoDetailClient.maxPhotoBytes + 1))
        try handle.close()
        await #expect(throws: AutoDetailError.invalid(message: "big.jpg: File too large (max 15 MiB)")) {
            _ = try await client.addPhoto(appointmentId: UUID().uuidString, kind: .work, file: big)
        }
    }

    @Test("a refused connection is a transport error after the retries of a GET")
    func transport() async throws {
        let port = try TestServer.freePort()
        let client = AutoDetailClient(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!,
            configuration: .init(retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.02)))
        do {
            _ = try await client.services()
            Issue.record("expected a transport error")
        } catch {
            guard case .transport = error else {
                Issue.record("expected transport, got \(error)")
                return
            }
        }
    }

    /// A booking sent with an `Idempotency-Key` is repeated after a proxy's 502 (the server replays it instead of
    /// booking twice); one without a key is never repeated, since a repeat could book the slot twice.
    @Test("a booking with an Idempotency-Key is repeated after a 502; one without a key is not")
    func bookingsRetryOnlyWithAnIdempotencyKey() async throws {
        let proxy = try BadGatewayServer()
        defer { proxy.stop() }
        let client = AutoDetailClient(
            baseURL: proxy.baseURL,
            configuration: .init(retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.02)))
        try await client.useAPIKey("ad_live_test")
        let booking = BookingRequest(
            startIso: "2026-12-01T09:00:00Z", clientName: "Ann", phone: "+15550100", carMake: "Volvo", carPlate: "AB123",
            serviceName: "Car Washing")
        await #expect(throws: AutoDetailError.self) { try await client.book(booking, idempotencyKey: "booking-1") }
        #expect(proxy.requests == Array(repeating: "POST /api/client/appointments", count: 3))
        await #expect(throws: AutoDetailError.self) { try await client.book(booking) }
        #expect(proxy.requests.count == 4)
    }
}
