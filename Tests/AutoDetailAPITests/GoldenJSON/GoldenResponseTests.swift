import AppCore
@testable import AutoDetailAPI
import Foundation
import NIOCore
import ServerTestSupport
import Testing
import VaporTesting

/// Golden JSON of every AutoDetail Hub route. AutoDetail has one client profile (no request header
/// changes a response shape), so the goldens live in `Tests/AutoDetailAPITests/Golden/default/`; the callers differ
/// (organisation key, app-installation key, admin token) and each is a case in the files. One scenario on a fixed
/// dataset (the first start of contract §8 at the contract's example instant, plus what the scenario creates through
/// the API) sends every request once; see docs/golden-json.md. `GOLDEN_RECORD=1` rewrites the files.
@Suite("Golden JSON (AutoDetail)")
struct GoldenResponseTests {
    static let env: [String: String] = [
        "PUBLIC_BASE_URL": "http://localhost:8080",
        "STORAGE_ACCESS_KEY_ID": "GOLDENACCESSKEY00001",
        "STORAGE_SECRET_ACCESS_KEY": "golden-secret-access-key-0123456789abcdef",
    ]
    static let host = "localhost:8080"

    @Test("every AutoDetail route answers its golden JSON")
    func goldens() async throws {
        let book = GoldenBook(directory: GoldenBook.directory(profile: "default"))
        let clock = Fixture.clock()
        let registered = try await withTestApp(env: Self.env, clock: clock) { app in
            try await Self.scenario(Session(app: app, book: book, clock: clock))
            return DocumentedAPI.autoDetail.registeredOperations(app)
        }
        let covered = Set(book.operations)
        let missing = registered.subtracting(covered).sorted()
        let list = missing.map { "  \($0)" }.joined(separator: "\n")
        #expect(missing.isEmpty, "routes without a golden entry (add a request to GoldenResponseTests.scenario):\n\(list)")
        for problem in try book.finish() { Issue.record(Comment(rawValue: problem)) }
    }

    struct Session {
        let app: Application
        let book: GoldenBook
        /// Advanced by one second before each request, so rows made by different requests never tie on their
        /// timestamps (lists ordered by time are then the same on every run and engine).
        let clock: ManualClock

        @discardableResult
        func call(
            _ method: HTTPMethod, _ template: String, with params: [String: String] = [:], query: String = "",
            key: String? = nil, bearer: String? = nil, json: [String: Any?]? = nil,
            raw: (body: [UInt8], contentType: String?)? = nil, headers extra: HTTPHeaders = [:],
            _ label: String, bodyNote: String? = nil, pathOverride: String? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> TestResponse {
            var path = template
            for (name, value) in params { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
            if let pathOverride { path = pathOverride.isEmpty ? "/storage/missing" : pathOverride }
            #expect(!path.contains("{"), "unfilled parameter in \(template)", sourceLocation: sourceLocation)
            if !query.isEmpty { path += "?" + query }
            clock.advance(by: 1)
            var headers: HTTPHeaders = ["Host": GoldenResponseTests.host]
            for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
            if let key { headers.replaceOrAdd(name: "X-API-Key", value: key) }
            if let bearer { headers.replaceOrAdd(name: .authorization, value: "Bearer \(bearer)") }
            var body: [UInt8] = []
            if let json {
                body = Array(JSONBody.encode(json).utf8)
                headers.replaceOrAdd(name: .contentType, value: "application/json")
            } else if let raw {
                body = raw.body
                if let type = raw.contentType { headers.replaceOrAdd(name: .contentType, value: type) }
            }
            let request = TestingHTTPRequest(
                method: method, url: URI(string: path), headers: headers, body: ByteBuffer(bytes: body))
            let response = try await app.testing().performTest(request: request)
            var out = response.body
            let data = out.readData(length: out.readableBytes) ?? Data()
            book.add(
                .init(method: method.rawValue, path: template), label: label, request: "\(method.rawValue) \(path)",
                status: Int(response.status.code), contentType: response.headers.first(name: .contentType), body: data,
                bodyNote: bodyNote)
            return TestResponse(status: response.status, headers: response.headers, body: data)
        }
    }

    /// The path and query of a URL the server handed out (`/storage/...`).
    static func target(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        var path = components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        return path
    }

    static func scenario(_ s: Session) async throws {
        let app = s.app
        let book = s.book
        let orgKey = app.orgKey

        // Shared surface and public routes.
        try await s.call(.GET, "/health", "liveness")
        try await s.call(.GET, "/health/ready", "readiness")
        try await s.call(.GET, "/openapi/autodetail.json", "the OpenAPI document",
                         bodyNote: "the committed openapi.yaml as JSON: pinned by OpenAPIRouteCoverageTests")
        try await s.call(.GET, "/api/ping", "ping")
        try await s.call(.GET, "/api/no-such-route", "unknown route (404 error body)")
        try await s.call(.POST, "/api/auth/validate-key", json: ["apiKey": orgKey], "the demo organisation key")
        try await s.call(.POST, "/api/auth/validate-key", json: ["apiKey": "org_0000000000_000000000000000000000000"],
                         "unknown key (401)")
        let install = try await s.call(.POST, "/api/ios/init", "new app installation")
        let installKey = install.json["apiKey"].string ?? ""
        let installID = install.json["installId"].string ?? ""
        book.label(installID, "install")

        let services = try await s.call(.GET, "/api/client/services", "active services")
        for (index, service) in (services.json.array ?? []).enumerated() {
            book.label(service["id"].string, "service-\(index + 1)")
        }
        let washing = services.json.array?.first { $0["name"].string == "Car Washing" }?["id"].string ?? ""
        try await s.call(.GET, "/api/client/services/{serviceId}", with: ["serviceId": washing], "Car Washing")
        try await s.call(.GET, "/api/client/services/{serviceId}", with: ["serviceId": "00000000-0000-4000-8000-000000000000"],
                         "unknown (404)")
        try await s.call(.GET, "/api/client/availability", query: "serviceId=\(washing)&date=2025-03-14",
                         "the example day")
        try await s.call(.GET, "/api/client/availability", query: "serviceId=\(washing)&date=14.03.2025",
                         "bad date (400)")

        // Admin session.
        let login = try await s.call(.POST, "/api/admin/login",
                                     json: ["username": "admin", "password": TestEnvironment.adminPassword], "log in")
        let admin = login.json["token"].string ?? ""
        try await s.call(.POST, "/api/admin/login", json: ["username": "admin", "password": "wrong"],
                         "wrong password (401)")
        try await s.call(.GET, "/api/admin/settings", bearer: admin, "settings")
        try await s.call(.PUT, "/api/admin/settings", bearer: admin,
                         json: ["workingHours": everyDay("09:00", "21:00"), "slotStepMinutes": 30], "update")
        try await s.call(.GET, "/api/admin/settings", "no token (401)")

        // Services.
        try await s.call(.GET, "/api/admin/services", bearer: admin, "all services")
        let polish = try await s.call(.POST, "/api/admin/services", bearer: admin, json: [
            "name": "Wheel Polish", "priceRub": 900.0, "durationMinutes": 45, "imageUrl": "https://cdn.example.com/w.jpg",
        ], "create")
        book.label(polish.json["id"].string, "service-polish")
        let polishID = polish.json["id"].string ?? ""
        try await s.call(.POST, "/api/admin/services", bearer: admin, json: ["name": "Glass Care"],
                         "missing fields (400)")
        try await s.call(.GET, "/api/admin/services/{serviceId}", with: ["serviceId": polishID], bearer: admin, "read")
        try await s.call(.PUT, "/api/admin/services/{serviceId}", with: ["serviceId": polishID], bearer: admin,
                         json: ["priceRub": 950, "description": "Both sides"], "update")
        try await s.call(.DELETE, "/api/admin/services/{serviceId}", with: ["serviceId": polishID], bearer: admin, "delete")

        // API keys.
        try await s.call(.GET, "/api/admin/api-keys", bearer: admin, "list")
        let created = try await s.call(.POST, "/api/admin/api-keys", bearer: admin,
                                       json: ["name": "Golden key", "fullAccess": true], "create")
        book.label(created.json["id"].string, "key-golden")
        let keyID = created.json["id"].string ?? ""
        try await s.call(.GET, "/api/admin/api-keys/{keyId}", with: ["keyId": keyID], bearer: admin, "read")
        try await s.call(.DELETE, "/api/admin/api-keys/{keyId}", with: ["keyId": keyID], bearer: admin, "revoke")
        try await s.call(.GET, "/api/admin/api-keys", query: "revoked=true", bearer: admin, "revoked keys")

        // Bookings: the organisation key, an app installation, the console.
        let booked = try await s.call(.POST, "/api/client/appointments", key: orgKey,
                                      json: Fixture.booking("2025-03-15T07:00:00Z"), "book with the organisation key")
        book.label(booked.json["id"].string, "appointment-org")
        let bookedID = booked.json["id"].string ?? ""
        let mine = try await s.call(.POST, "/api/client/appointments", key: installKey, json: Fixture.booking(
            "2025-03-15T08:00:00Z", ["clientName": "Olga Ivanova", "notes": "Please call first"]),
            "book with an installation key")
        book.label(mine.json["id"].string, "appointment-install")
        let mineID = mine.json["id"].string ?? ""
        // Fill a slot of another day to its capacity (unrecorded; the contract sorts same-start appointments by
        // their random ids, so they stay out of the lists below), then one booking too many.
        for _ in 0..<10 {
            s.clock.advance(by: 1)
            let more = try await app.post("/api/client/appointments", key: orgKey, Fixture.booking("2025-03-17T07:00:00Z"))
            if more.status != .created { break }
        }
        try await s.call(.POST, "/api/client/appointments", key: orgKey, json: Fixture.booking("2025-03-17T07:00:00Z"),
                         "the slot is full (409)")
        try await s.call(.POST, "/api/client/appointments", key: orgKey, json: [:], "missing fields (400)")
        try await s.call(.POST, "/api/client/appointments", json: Fixture.booking("2025-03-15T09:00:00Z"),
                         "no key (401)")
        try await s.call(.GET, "/api/client/appointments", key: installKey, "the installation's appointments")
        try await s.call(.GET, "/api/client/appointments/{appointmentId}", with: ["appointmentId": mineID], key: installKey,
                         "read")
        let console = try await s.call(.POST, "/api/admin/appointments", bearer: admin, json: [
            "startIso": "2025-03-15T10:00:00Z", "clientName": "Walk In", "serviceName": "Car Washing",
            "phone": "+7 900 000-00-00", "carMake": "Lada", "carPlate": "x001xx 77",
        ], "book from the console")
        book.label(console.json["id"].string, "appointment-console")
        let consoleID = console.json["id"].string ?? ""
        try await s.call(.GET, "/api/admin/appointments", query: "date=2025-03-15", bearer: admin, "a day")
        try await s.call(.GET, "/api/admin/appointments/{appointmentId}", with: ["appointmentId": bookedID], bearer: admin,
                         "read")
        try await s.call(.PUT, "/api/admin/appointments/{appointmentId}", with: ["appointmentId": bookedID], bearer: admin,
                         json: ["status": "confirmed"], "confirm")

        // Photos: presign, PUT to the embedded store, link; the store's own answers.
        let presigned = try await s.call(.POST, "/api/uploads/presign", key: installKey, json: [
            "appointmentId": mineID, "kind": "work", "filename": "photo_1741939920.123456.jpg",
            "contentType": "image/jpeg",
        ], "presign (installation)")
        #expect(presigned.status == .ok, "presign: \(presigned)")
        let objectURL = presigned.json["uploadUrl"].string ?? ""
        var signed = HTTPHeaders()
        if case .object(let map)? = presigned.json["headers"].value {
            for (name, value) in map { if case .string(let text) = value { signed.replaceOrAdd(name: name, value: text) } }
        }
        let bytes = testBytes(1000)
        let objectPath = Self.target(objectURL)
        let storageKeyTemplate = "/storage/{bucket}/{key}"
        let unsignedPath = objectPath.split(separator: "?").first.map(String.init) ?? ""
        let bucketAndKey = unsignedPath.split(separator: "/", maxSplits: 2).map(String.init)
        let bucket = bucketAndKey.count > 1 ? bucketAndKey[1] : "autodetail"
        signed.replaceOrAdd(name: .contentLength, value: String(bytes.count))
        try await s.call(.PUT, storageKeyTemplate, raw: (bytes, nil), headers: signed,
                         "presigned PUT of the photo", pathOverride: objectPath)
        try await s.call(.PUT, storageKeyTemplate, raw: (bytes, nil), headers: signed,
                         "the object exists: write-once (403)", pathOverride: objectPath)
        let ref = presigned.json["ref"].string ?? ""
        let linked = try await s.call(.POST, "/api/client/appointments/{appointmentId}/photos",
                                      with: ["appointmentId": mineID], key: installKey,
                                      json: ["kind": "work", "photoUrls": [ref]], "link the photo")
        try await s.call(.GET, "/api/client/appointments/{appointmentId}", with: ["appointmentId": mineID], key: installKey,
                         "read with its photo")
        let adminPresigned = try await s.call(.POST, "/api/admin/uploads/presign", bearer: admin, json: [
            "appointmentId": bookedID, "kind": "defect", "filename": "after.png", "contentType": "image/png",
        ], "presign (console)")
        var adminSigned = HTTPHeaders()
        if case .object(let map)? = adminPresigned.json["headers"].value {
            for (name, value) in map { if case .string(let text) = value { adminSigned.replaceOrAdd(name: name, value: text) } }
        }
        let png = testBytes(500, seed: 9)
        adminSigned.replaceOrAdd(name: .contentLength, value: String(png.count))
        try await s.call(.PUT, storageKeyTemplate, raw: (png, nil), headers: adminSigned,
                         "presigned PUT of the console's photo",
                         pathOverride: Self.target(adminPresigned.json["uploadUrl"].string ?? ""))
        let adminLinked = try await s.call(.POST, "/api/admin/appointments/{appointmentId}/photos",
                                           with: ["appointmentId": bookedID], bearer: admin,
                                           json: ["kind": "defect", "photoUrls": [adminPresigned.json["ref"].string ?? ""]],
                                           "link the console's photo")
        let photoID = adminLinked.json["defectPhotos"][0]["id"].string ?? ""
        #expect(!photoID.isEmpty, "link: \(adminLinked)")
        book.label(photoID, "photo-after")
        book.label(linked.json["workPhotos"][0]["id"].string, "photo-work")

        // Reading the object back: the URL the appointment hands out.
        let detail = try await s.call(.GET, "/api/admin/appointments/{appointmentId}", with: ["appointmentId": mineID],
                                      bearer: admin, "read with the installation's photo")
        let photoURL = Self.firstStorageURL(in: detail.json.value) ?? objectURL
        try await s.call(.GET, storageKeyTemplate, "presigned GET of the photo", bodyNote: "the uploaded bytes",
                         pathOverride: Self.target(photoURL))
        try await s.call(.HEAD, storageKeyTemplate, "HEAD with the GET's signature (403: the signature covers the method)", pathOverride: Self.target(photoURL))
        try await s.call(.GET, storageKeyTemplate, "unsigned GET (403 XML)",
                         pathOverride: unsignedPath)
        for method: HTTPMethod in [.DELETE, .OPTIONS, .PATCH, .POST] {
            try await s.call(method, storageKeyTemplate, "\(method.rawValue) is not allowed (405 XML)",
                             pathOverride: unsignedPath)
        }
        try await s.call(.POST, "/storage/{bucket}", with: ["bucket": bucket],
                         raw: (Array("--x--\r\n".utf8), "multipart/form-data; boundary=x"),
                         "a POST form without a policy (400 XML)")
        for method: HTTPMethod in [.GET, .HEAD, .PUT, .DELETE, .OPTIONS, .PATCH] {
            try await s.call(method, "/storage/{bucket}", with: ["bucket": bucket], "\(method.rawValue) is not allowed (405 XML)")
        }
        try await s.call(.DELETE, "/api/admin/appointments/{appointmentId}/photos/{photoId}",
                         with: ["appointmentId": bookedID, "photoId": photoID], bearer: admin, "delete the console's photo")

        try await s.call(.POST, "/api/client/appointments/{appointmentId}/cancel", with: ["appointmentId": mineID],
                         key: installKey, "cancel")
        try await s.call(.POST, "/api/client/appointments/{appointmentId}/cancel", with: ["appointmentId": consoleID],
                         key: installKey, "someone else's appointment (403/404)")

        // The installation's profile and messages, and the console's view of installations.
        try await s.call(.GET, "/api/ios/profile", key: installKey, "empty profile")
        try await s.call(.POST, "/api/ios/profile", key: installKey, json: [
            "name": "Olga Ivanova", "carMake": "Kia Rio", "carPlate": "о777оо 77", "phone": "+7 916 000-00-02",
            "telegram": "@olga_ivanova", "profilePhotoUrl": "preset:car_1",
        ], "create the profile")
        try await s.call(.POST, "/api/ios/profile", key: installKey, json: [:], "missing fields (400)")
        try await s.call(.GET, "/api/ios/profile", key: orgKey, "an organisation key may not (403)")
        let message = try await s.call(.POST, "/api/admin/ios-users/{installId}/message", with: ["installId": installID],
                                       bearer: admin, json: ["text": "Your car is ready."], "send a message")
        book.label(message.json["id"].string, "message")
        try await s.call(.GET, "/api/ios/messages", key: installKey, "messages")
        try await s.call(.POST, "/api/ios/messages/{messageId}/read", with: ["messageId": message.json["id"].string ?? ""],
                         key: installKey, "mark read")
        try await s.call(.GET, "/api/ios/messages", query: "unreadOnly=true", key: installKey, "unread only")
        try await s.call(.PUT, "/api/admin/ios-users/{installId}/priority", with: ["installId": installID], bearer: admin,
                         json: ["priority": "high"], "priority")
        try await s.call(.PUT, "/api/admin/ios-users/{installId}/priority", with: ["installId": installID], bearer: admin,
                         json: ["priority": "vip"], "invalid priority (400)")
        try await s.call(.GET, "/api/admin/ios-users", bearer: admin, "list")
        try await s.call(.GET, "/api/admin/ios-users/stats", bearer: admin, "stats")
        try await s.call(.GET, "/api/admin/ios-users/{installId}", with: ["installId": installID], bearer: admin, "detail")
        try await s.call(.DELETE, "/api/admin/ios-users/{installId}", with: ["installId": installID], bearer: admin, "delete")
        try await s.call(.GET, "/api/ios/profile", key: installKey, "the deleted installation's key (401)")

        // The end of the admin session.
        try await s.call(.POST, "/api/admin/password", bearer: admin, json: [
            "currentPassword": TestEnvironment.adminPassword, "newPassword": "a-brand-new-password",
        ], "change the password")
        let again = try await app.post("/api/admin/login", ["username": "admin", "password": "a-brand-new-password"])
        try await s.call(.POST, "/api/admin/logout", bearer: again.json["token"].string ?? "", "log out")
    }

    /// The first `http…/storage/…` string anywhere in a JSON value.
    static func firstStorageURL(in value: JSONValue?) -> String? {
        switch value {
        case .string(let text)? where text.contains("/storage/") && text.hasPrefix("http"): return text
        case .array(let items)?: return items.lazy.compactMap { firstStorageURL(in: $0) }.first
        case .object(let members)?:
            return members.keys.sorted().lazy.compactMap { firstStorageURL(in: members[$0]) }.first
        default: return nil
        }
    }
}
