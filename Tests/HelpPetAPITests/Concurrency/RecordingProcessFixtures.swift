import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Multipart bodies and recording calls against a running `server` process.
enum RecordingProcessFixtures {
    static func multipart(fields: [(String, String)], file: (name: String, filename: String, type: String?, bytes: [UInt8]))
        -> (body: [UInt8], contentType: String)
    {
        let parts = multipartFrame(fields: fields, file: (file.name, file.filename, file.type))
        return (parts.head + file.bytes + parts.tail, parts.contentType)
    }

    /// Everything of a form but the file's bytes, which go between `head` and `tail` (for streamed bodies).
    static func multipartFrame(fields: [(String, String)], file: (name: String, filename: String, type: String?))
        -> (head: [UInt8], tail: [UInt8], contentType: String)
    {
        let boundary = "----helppet-test-\(UUID().uuidString)"
        var head: [UInt8] = []
        for (name, value) in fields {
            head += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\n"
        if let type = file.type { header += "Content-Type: \(type)\r\n" }
        head += Array((header + "\r\n").utf8)
        return (head, Array("\r\n--\(boundary)--\r\n".utf8), "multipart/form-data; boundary=\(boundary)")
    }

    /// The `upload_fields` of an initiate response, as form fields.
    static func uploadFields(_ initiated: TestResponse) -> [(String, String)] {
        var fields: [(String, String)] = []
        if case .object(let map)? = initiated.json["upload_fields"].value {
            for (k, v) in map { if case .string(let s) = v { fields.append((k, s)) } }
        }
        return fields
    }

    static func send(_ url: String, bytes: [UInt8], contentType: String, token: String? = nil) async throws -> TestResponse {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(bytes: bytes))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        var buffer = try await response.body.collect(upTo: 1 << 20)
        return TestResponse(status: response.status, headers: response.headers, body: buffer.readData(length: buffer.readableBytes) ?? Data())
    }

    static func initiate(_ server: ServerProcess, token: String, pet: UUID, appointment: String?) async throws -> TestResponse {
        var body: [String: Any?] = ["pet_id": pet.uuidString.lowercased(), "filename": "recording.m4a"]
        if let appointment { body["appointment_id"] = appointment }
        return try await server.client.post("/api/v1/visit-transcripts/audio/upload/initiate", token: token, json: body)
    }

    /// The presigned POST of an initiate response with `bytes` as the file.
    static func upload(initiated: TestResponse, bytes: [UInt8]) async throws -> TestResponse {
        let url = try #require(initiated.json["upload_url"].string)
        let form = multipart(fields: uploadFields(initiated), file: ("file", "a.m4a", "audio/m4a", bytes))
        return try await send(url, bytes: form.body, contentType: form.contentType)
    }

    static func legacyUpload(_ server: ServerProcess, token: String, appointment: String, pet: UUID, bytes: [UInt8])
        async throws -> TestResponse
    {
        let form = multipart(
            fields: [("appointment_id", appointment), ("pet_id", pet.uuidString.lowercased())],
            file: ("audio", "visit.m4a", "audio/m4a", bytes))
        return try await send(server.baseURL + "/api/v1/upload/audio", bytes: form.body, contentType: form.contentType, token: token)
    }

    /// Files of the embedded store below `objects/<bucket>/visit-recordings/` for one pet (objects only).
    static func storedObjects(dataDir: URL, pet: UUID) -> [String] {
        let root = dataDir.appendingPathComponent("objects/helppetai-visit-recordings/visit-recordings")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.contains("pet-\(pet.uuidString.lowercased())/"), path.hasSuffix(".m4a") { found.append(path) }
        }
        return found
    }

    /// Upload files (`upload-*`) anywhere below the embedded store's temporary folder (one subfolder per running
    /// store instance), with their sizes.
    static func temporaryUploadFiles(dataDir: URL) -> [(path: String, size: Int)] {
        let root = dataDir.appendingPathComponent("objects/.tmp")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [(String, Int)] = []
        while let path = enumerator?.nextObject() as? String {
            guard (path as NSString).lastPathComponent.hasPrefix("upload-") else { continue }
            let size = (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path))?[.size] as? Int
            found.append((path, size ?? 0))
        }
        return found
    }

    /// The demo appointment 1 (three pets) of the server's seed day, read from vet1's dashboard.
    static func multiPetAppointment(_ server: ServerProcess, token: String) async throws -> String {
        let today = try await server.client.get(
            "/api/v1/dashboard/vet/d1000000-0000-4000-8000-000000000002/today", token: token)
        let appointments = today.json["appointments_today"].array ?? []
        let multi = try #require(appointments.first { $0["pets"].count == 3 })
        return try #require(multi["id"].string)
    }
}
