import AppCore
import Foundation
import NIOCore
import SQLKit
import Testing
import VaporTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Helpers of the in-process recording suites (contract §4.9–§4.11, §5.1, §6, §7): the v2 flow (initiate, the
/// presigned POST to the embedded store, complete, playback and the presigned GET), the legacy multipart upload,
/// and views of the store folder and of the database rows the contract talks about.
///
/// Every recording app runs with `PUBLIC_BASE_URL=http://localhost:8080`, and every request to `/storage/…` carries
/// `Host: localhost:8080`: the embedded store verifies presigned GETs against the `Host` header (§7.4).
enum RecordingFixtures {
    static let host = "localhost:8080"
    static let baseURL = "http://localhost:8080"
    static let bucket = "helppetai-visit-recordings"
    static let env: [String: String] = [
        "PUBLIC_BASE_URL": baseURL, "TRANSCRIPTION_ENGINE": "off", "DISABLE_RATE_LIMITS": "true",
    ]

    static let initiatePath = "/api/v1/visit-transcripts/audio/upload/initiate"
    static let legacyPath = "/api/v1/upload/audio"
    static func completePath(_ visitID: String) -> String { "/api/v1/visit-transcripts/audio/upload/complete/\(visitID)" }
    static func playbackPath(_ visitID: String) -> String { "/api/v1/visit-transcripts/audio/playback/\(visitID)" }
    static func visitPath(_ visitID: String) -> String { "/api/v1/visit-transcripts/\(visitID)" }
    static func transcribePath(_ visitID: String) -> String { "/api/v1/visit-transcripts/\(visitID)/transcribe" }
    static func appointmentPath(_ id: UUID) -> String { "/api/v1/appointments/\(id.lowercased)" }
    static func appointmentVisitsPath(_ id: UUID, _ query: String = "") -> String {
        "/api/v1/visit-transcripts/appointments/\(id.lowercased)/visits" + (query.isEmpty ? "" : "?" + query)
    }

    /// The list of §3.1 in error messages.
    static let allowedTypes =
        "Allowed: audio/m4a, audio/mp4, audio/x-m4a, audio/aac, audio/mpeg, audio/wav, audio/x-wav, audio/webm, audio/ogg, audio/flac"
    static let staffOnly = "Veterinary staff or administrator access required"

    // MARK: - Applications

    /// `withTestApp` with the recording settings above (plus `env`).
    @discardableResult
    static func withApp<T>(
        env: [String: String] = [:], clock: (any AppClock)? = nil, _ body: (Application) async throws -> T
    ) async throws -> T {
        try await withTestApp(env: Self.env.merging(env) { _, new in new }, clock: clock, body)
    }

    /// A ManualClock at the current time in whole seconds (the demo data is seeded at that instant).
    static func manualClock(_ start: Date = Date()) -> ManualClock {
        ManualClock(Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down)))
    }

    // MARK: - Bytes

    /// Deterministic "audio" bytes (not real audio: transcription is off in these tests).
    static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    // MARK: - Raw requests

    /// Sends a request with a binary body through the whole middleware chain (in process).
    static func send(
        _ app: Application, _ method: HTTPMethod, _ path: String, token: String? = nil, headers: HTTPHeaders = [:],
        body: [UInt8] = [], contentType: String? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
        if let contentType { headers.replaceOrAdd(name: .contentType, value: contentType) }
        let request = TestingHTTPRequest(
            method: method, url: URI(string: path), headers: headers, body: ByteBuffer(bytes: body))
        let response = try await app.testing().performTest(request: request)
        var out = response.body
        let data = out.readData(length: out.readableBytes) ?? Data()
        return TestResponse(status: response.status, headers: response.headers, body: data)
    }

    /// `(path with query, host:port)` of an absolute URL the server handed out.
    static func target(of url: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (path: String, host: String) {
        let components = try #require(URLComponents(string: url), "not a URL: \(url)", sourceLocation: sourceLocation)
        let host = try #require(components.host, "no host in \(url)", sourceLocation: sourceLocation)
        let authority = components.port.map { "\(host):\($0)" } ?? host
        var path = components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        return (path, authority)
    }

    // MARK: - Multipart

    struct FilePart {
        var name: String
        var filename: String?
        var contentType: String?
        var bytes: [UInt8]
    }

    /// A `multipart/form-data` body: the text parts in order, then the file parts.
    static func multipart(text: [(String, String)], files: [FilePart]) -> (body: [UInt8], contentType: String) {
        let boundary = "----helppet-recording-\(UUID().uuidString)"
        var body: [UInt8] = []
        for (name, value) in text {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8)
            body += Array(value.utf8) + Array("\r\n".utf8)
        }
        for file in files {
            var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\""
            if let filename = file.filename { header += "; filename=\"\(filename)\"" }
            header += "\r\n"
            if let type = file.contentType { header += "Content-Type: \(type)\r\n" }
            body += Array((header + "\r\n").utf8) + file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    // MARK: - v2 flow

    /// `POST …/audio/upload/initiate`. `extra` is merged last (use it for raw or invalid values).
    static func initiate(
        _ app: Application, _ token: String, pet: UUID?, appointment: UUID? = nil, filename: String = "recording.m4a",
        contentType: String? = nil, estimatedDuration: Double? = nil, replaceExisting: Bool? = nil,
        extra: [String: Any?] = [:]
    ) async throws -> TestResponse {
        var body: [String: Any?] = ["filename": filename]
        if let pet { body["pet_id"] = pet.lowercased }
        if let appointment { body["appointment_id"] = appointment.lowercased }
        if let contentType { body["content_type"] = contentType }
        if let estimatedDuration { body["estimated_duration_seconds"] = estimatedDuration }
        if let replaceExisting { body["replace_existing"] = replaceExisting }
        body.merge(extra) { _, new in new }
        return try await app.post(initiatePath, token: token, json: body)
    }

    /// A successful initiate, decoded.
    struct Initiated {
        let response: TestResponse
        var visitID: String { response.json["visit_id"].string ?? "" }
        var key: String { response.json["s3_key"].string ?? "" }
        var uploadURL: String { response.json["upload_url"].string ?? "" }
        var fields: [String: String] {
            guard case .object(let map)? = response.json["upload_fields"].value else { return [:] }
            return map.compactMapValues { (value: JSONValue) -> String? in
                if case .string(let s) = value { return s }
                return nil
            }
        }
    }

    /// Initiate that must answer 200.
    static func initiated(
        _ app: Application, _ token: String, pet: UUID, appointment: UUID? = nil, filename: String = "recording.m4a",
        contentType: String? = nil, replaceExisting: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Initiated {
        let response = try await initiate(
            app, token, pet: pet, appointment: appointment, filename: filename, contentType: contentType,
            replaceExisting: replaceExisting)
        try #require(response.status == .ok, "initiate: \(response)", sourceLocation: sourceLocation)
        return Initiated(response: response)
    }

    /// The client's upload (§4.10 "Upload", §7.3): every `upload_fields` entry as a text part, then the `file` part
    /// (last), POSTed in process to the path of `upload_url` with `Host` = its host:port.
    static func uploadToPresignedPost(
        _ app: Application, _ initiated: TestResponse, bytes: [UInt8], fileContentType: String = "audio/m4a",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let url = try #require(initiated.json["upload_url"].string, "no upload_url: \(initiated)", sourceLocation: sourceLocation)
        let fields = Initiated(response: initiated).fields
        try #require(!fields.isEmpty, "no upload_fields: \(initiated)", sourceLocation: sourceLocation)
        let form = multipart(
            text: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            files: [FilePart(name: "file", filename: "recording.m4a", contentType: fileContentType, bytes: bytes)])
        let target = try target(of: url, sourceLocation: sourceLocation)
        return try await send(
            app, .POST, target.path, headers: ["Host": target.host], body: form.body, contentType: form.contentType)
    }

    static func upload(
        _ app: Application, _ initiated: Initiated, bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await uploadToPresignedPost(app, initiated.response, bytes: bytes, sourceLocation: sourceLocation)
        #expect(response.status == .noContent, "upload: \(response)", sourceLocation: sourceLocation)
    }

    /// `POST …/complete/{visit_id}`: no body when `body` is nil (no Content-Type either), else JSON.
    static func complete(
        _ app: Application, _ token: String, _ visitID: String, body: [String: Any?]? = nil
    ) async throws -> TestResponse {
        guard let body else { return try await send(app, .POST, completePath(visitID), token: token) }
        return try await app.post(completePath(visitID), token: token, json: body)
    }

    /// Initiate, upload `bytes`, complete: the visit id of a `processing` recording.
    static func recorded(
        _ app: Application, _ token: String, pet: UUID, appointment: UUID? = nil, bytes: [UInt8] = RecordingFixtures.bytes(1000),
        filename: String = "recording.m4a", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let started = try await initiated(
            app, token, pet: pet, appointment: appointment, filename: filename, sourceLocation: sourceLocation)
        try await upload(app, started, bytes: bytes, sourceLocation: sourceLocation)
        let completed = try await complete(app, token, started.visitID)
        try #require(completed.status == .ok, "complete: \(completed)", sourceLocation: sourceLocation)
        #expect(completed.json["state"].string == "processing", sourceLocation: sourceLocation)
        return started.visitID
    }

    static func playback(_ app: Application, _ token: String, _ visitID: String) async throws -> TestResponse {
        try await app.get(playbackPath(visitID), token: token)
    }

    /// GET (or HEAD) of a presigned URL in process, with `Host` = the URL's host:port.
    static func fetch(
        _ app: Application, _ url: String, method: HTTPMethod = .GET, headers: HTTPHeaders = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let target = try target(of: url, sourceLocation: sourceLocation)
        var headers = headers
        headers.replaceOrAdd(name: .host, value: target.host)
        return try await send(app, method, target.path, headers: headers)
    }

    /// Playback, then the presigned GET; expects the stored bytes to equal `bytes`.
    static func expectPlayback(
        _ app: Application, _ token: String, _ visitID: String, bytes: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let playback = try await playback(app, token, visitID)
        try #require(playback.status == .ok, "playback: \(playback)", sourceLocation: sourceLocation)
        let url = try #require(playback.json["presigned_url"].string, sourceLocation: sourceLocation)
        let fetched = try await fetch(app, url, sourceLocation: sourceLocation)
        #expect(fetched.status == .ok, "presigned GET: \(fetched)", sourceLocation: sourceLocation)
        #expect(Array(fetched.body) == bytes, "the played-back bytes are the uploaded ones", sourceLocation: sourceLocation)
    }

    static func visit(_ app: Application, _ token: String, _ visitID: String) async throws -> TestResponse {
        try await app.get(visitPath(visitID), token: token)
    }

    // MARK: - Legacy upload (§4.11)

    /// `POST /api/v1/upload/audio`: text parts first (`appointment_id`, `pet_id`, then `extraText`), then `audio`.
    /// A nil id leaves its part out.
    static func legacyUpload(
        _ app: Application, _ token: String, appointment: String?, pet: String?, bytes: [UInt8],
        contentType: String? = "audio/m4a", filename: String? = "visit.m4a", extraText: [(String, String)] = [],
        audioParts: Int = 1
    ) async throws -> TestResponse {
        var text: [(String, String)] = []
        if let appointment { text.append(("appointment_id", appointment)) }
        if let pet { text.append(("pet_id", pet)) }
        text += extraText
        let files = (0..<audioParts).map { _ in
            FilePart(name: "audio", filename: filename, contentType: contentType, bytes: bytes)
        }
        let form = multipart(text: text, files: files)
        return try await send(app, .POST, legacyPath, token: token, body: form.body, contentType: form.contentType)
    }

    static func legacyUpload(
        _ app: Application, _ token: String, appointment: UUID, pet: UUID, bytes: [UInt8],
        contentType: String? = "audio/m4a", filename: String? = "visit.m4a"
    ) async throws -> TestResponse {
        try await legacyUpload(
            app, token, appointment: appointment.lowercased, pet: pet.lowercased, bytes: bytes,
            contentType: contentType, filename: filename)
    }

    // MARK: - Store folder (§7.1: objects under DATA_DIR/objects)

    static func dataDirectory(_ app: Application) -> URL { app.core.config.dataDirectory }

    static func objectFile(_ app: Application, key: String) -> URL {
        dataDirectory(app).appendingPathComponent("objects/\(bucket)/\(key)")
    }

    static func objectExists(_ app: Application, key: String) -> Bool {
        FileManager.default.fileExists(atPath: objectFile(app, key: key).path)
    }

    static func objectBytes(_ app: Application, key: String) -> [UInt8]? {
        (try? Data(contentsOf: objectFile(app, key: key))).map(Array.init)
    }

    /// Keys of the stored objects of one pet (`visit-recordings/…/pet-{pet_id}/…`).
    static func storedKeys(_ app: Application, pet: UUID) -> [String] {
        let root = dataDirectory(app).appendingPathComponent("objects/\(bucket)/visit-recordings")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            if path.contains("/pet-\(pet.lowercased)/") { found.append("visit-recordings/" + path) }
        }
        return found.sorted()
    }

    /// Upload files left in the store's upload folder (`objects/.tmp`, where each running store keeps an instance
    /// folder and its `.lock` file) and in the legacy upload spool folders (`tmp/legacy-uploads/{process}/`).
    static func temporaryFiles(_ app: Application) -> [String] {
        let data = dataDirectory(app)
        return regularFiles(under: data.appendingPathComponent("objects/.tmp"), prefix: "objects/.tmp/")
            .filter { !$0.hasSuffix(".lock") }
            + regularFiles(under: data.appendingPathComponent("tmp/legacy-uploads"), prefix: "tmp/legacy-uploads/")
    }

    static func regularFiles(under root: URL, prefix: String) -> [String] {
        let fm = FileManager.default
        let enumerator = fm.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(prefix + path)
            }
        }
        return found.sorted()
    }

    /// Polls `condition` (every 20 ms) until it holds or `seconds` have passed; returns its last value.
    static func eventually(_ seconds: Double = 5, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if try await condition() { return true }
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    // MARK: - Metrics

    /// The value of one series of the application's `/metrics` registry (e.g.
    /// `helppet_recordings_completed_total{source="client"}`), nil when absent.
    static func metric(_ app: Application, _ series: String) -> Double? {
        for line in app.core.metrics.render().split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    // MARK: - Rows

    static func count(_ app: Application, _ query: SQLQueryString) async throws -> Int {
        let rows = try await app.db.sql.raw(query).all()
        return try rows.first?.decode(column: "n", as: Int.self) ?? 0
    }

    static func visitRows(_ app: Application, pet: UUID) async throws -> Int {
        try await count(app, "SELECT COUNT(*) AS n FROM visits WHERE pet_id = \(bind: pet) AND source = 'recording'")
    }

    static func visitRows(_ app: Application, appointment: UUID) async throws -> Int {
        try await count(app, "SELECT COUNT(*) AS n FROM visits WHERE appointment_id = \(bind: appointment)")
    }

    static func visitRows(_ app: Application, appointment: UUID, pet: UUID) async throws -> Int {
        try await count(app, """
            SELECT COUNT(*) AS n FROM visits WHERE appointment_id = \(bind: appointment) AND pet_id = \(bind: pet)
            """)
    }

    /// The columns of a visit row the API does not show.
    struct VisitRow {
        let state: String
        let storageKey: String?
        let attempt: Int?
        let uploadMethod: String?
        let recordingDay: String?
        let uploadURLIssuedAt: Date?
        let reservedAt: Date?
        let reconcileAfter: Date?
    }

    static func visitRow(_ app: Application, _ visitID: String) async throws -> VisitRow? {
        let id = try #require(UUID(uuidString: visitID))
        let rows = try await app.db.sql.raw("""
            SELECT state, storage_key, attempt, upload_method, recording_day, upload_url_issued_at, reserved_at,
                reconcile_after FROM visits WHERE id = \(bind: id)
            """).all()
        guard let row = rows.first else { return nil }
        return VisitRow(
            state: try row.decode(column: "state", as: String.self),
            storageKey: try row.decode(column: "storage_key", as: String?.self),
            attempt: try row.decode(column: "attempt", as: Int?.self),
            uploadMethod: try row.decode(column: "upload_method", as: String?.self),
            recordingDay: try row.decode(column: "recording_day", as: String?.self),
            uploadURLIssuedAt: try row.decode(column: "upload_url_issued_at", as: Date?.self),
            reservedAt: try row.decode(column: "reserved_at", as: Date?.self),
            reconcileAfter: try row.decode(column: "reconcile_after", as: Date?.self))
    }

    /// Runs one statement (states the API cannot produce directly: a live legacy reservation, a failed job …).
    static func exec(_ app: Application, _ query: SQLQueryString) async throws {
        try await app.db.sql.raw(query).run()
    }

    static func uuid(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> UUID {
        try #require(UUID(uuidString: text), "not a uuid: \(text)", sourceLocation: sourceLocation)
    }

    struct JobRow: Equatable {
        let id: UUID
        let storageKey: String
        let status: String
        let attempts: Int
    }

    /// The `transcription_jobs` rows of a visit, by storage key.
    static func jobs(_ app: Application, visit: String) async throws -> [JobRow] {
        let id = try #require(UUID(uuidString: visit))
        let rows = try await app.db.sql.raw("""
            SELECT id, storage_key, status, attempts FROM transcription_jobs WHERE visit_id = \(bind: id)
            ORDER BY storage_key
            """).all()
        return try rows.map {
            JobRow(
                id: try $0.decode(column: "id", as: UUID.self), storageKey: try $0.decode(column: "storage_key", as: String.self),
                status: try $0.decode(column: "status", as: String.self), attempts: try $0.decode(column: "attempts", as: Int.self))
        }
    }

    /// The `recording` of each pet of an appointment, by pet id (`nil` = JSON null).
    static func recordings(_ appointment: TestResponse) -> [String: JSONNode] {
        var out: [String: JSONNode] = [:]
        for pet in appointment.json["pets"].array ?? [] {
            if let id = pet["id"].string { out[id] = pet["recording"] }
        }
        return out
    }
}

// MARK: - A live listener, for requests that must not be sent whole

/// Minimal HTTP/1.1 over a POSIX socket: sends `head` plus `bodyPrefix` only (not the declared body), then reads
/// the answer. Used for "413 at once, before the body is read".
enum RawHTTP {
    struct Answer {
        let status: Int
        let text: String
    }

    /// `exchange` on a thread of its own: on a 2-core machine the cooperative pool has two threads, and two
    /// exchanges blocking there would starve the in-process server that has to answer them.
    static func exchangeOnThread(port: Int, head: String, bodyPrefix: [UInt8], timeoutSeconds: Int = 10) async throws -> Answer {
        try await RawConnection.onThread {
            try exchange(port: port, head: head, bodyPrefix: bodyPrefix, timeoutSeconds: timeoutSeconds)
        }
    }

    static func exchange(port: Int, head: String, bodyPrefix: [UInt8], timeoutSeconds: Int = 10) throws -> Answer {
        let fd = try LoopbackSocket.connect(port: port, receiveTimeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        // A server that stops taking the body early still answers: read what it says either way.
        LoopbackSocket.sendAll(fd, Array(head.utf8) + bodyPrefix)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n"), let length = RawResponseHead.contentLength(text[..<end.lowerBound]),
                received.count - text[..<end.upperBound].utf8.count >= length
            {
                break
            }
        }
        let text = String(decoding: received, as: UTF8.self)
        return Answer(status: RawResponseHead.status(text), text: text)
    }
}
