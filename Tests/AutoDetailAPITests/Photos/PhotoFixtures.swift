import AppCore
import Foundation
import Testing
import VaporTesting

/// Presign, upload and link in process (`Host: localhost:8080`, so every URL is derived from that host).
enum PhotoFlow {
    static let host: HTTPHeaders = ["Host": "localhost:8080"]

    static func presign(
        _ app: Application, key: String? = nil, admin: String? = nil, appointment: String, kind: String = "work",
        contentType: String = "image/jpeg", sizeBytes: Int? = nil
    ) async throws -> TestResponse {
        var body: [String: Any?] = [
            "appointmentId": appointment, "kind": kind, "filename": "photo_1741939920.123456.jpg", "contentType": contentType,
        ]
        if let sizeBytes { body["sizeBytes"] = sizeBytes }
        let path = admin == nil ? "/api/uploads/presign" : "/api/admin/uploads/presign"
        return try await app.post(path, key: key, bearer: admin, body, headers: host)
    }

    /// PUT of `bytes` to a presign answer's URL with its headers (or `contentType` instead).
    static func put(
        _ app: Application, _ presigned: TestResponse, bytes: [UInt8], contentType: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let url = try #require(presigned.json["uploadUrl"].string, "\(presigned)", sourceLocation: sourceLocation)
        var headers = HTTPHeaders()
        if case .object(let signed)? = presigned.json["headers"].value {
            for (name, value) in signed { if case .string(let s) = value { headers.replaceOrAdd(name: name, value: s) } }
        }
        if let contentType { headers.replaceOrAdd(name: .contentType, value: contentType) }
        return try await app.storage(.PUT, url: url, headers: headers, body: bytes, sourceLocation: sourceLocation)
    }

    static func link(
        _ app: Application, key: String? = nil, admin: String? = nil, appointment: String, kind: String = "work",
        refs: [String]
    ) async throws -> TestResponse {
        let path = admin == nil
            ? "/api/client/appointments/\(appointment)/photos" : "/api/admin/appointments/\(appointment)/photos"
        return try await app.post(path, key: key, bearer: admin, ["kind": kind, "photoUrls": refs], headers: host)
    }

    /// Presign + PUT: the ref of an uploaded photo.
    static func uploaded(
        _ app: Application, key: String, appointment: String, kind: String = "work", bytes: [UInt8] = testBytes(1000),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let presigned = try await presign(app, key: key, appointment: appointment, kind: kind)
        #expect(presigned.status == .ok, "presign: \(presigned)", sourceLocation: sourceLocation)
        let put = try await put(app, presigned, bytes: bytes, sourceLocation: sourceLocation)
        #expect(put.status == .ok, "PUT: \(put)", sourceLocation: sourceLocation)
        return try #require(presigned.json["ref"].string, sourceLocation: sourceLocation)
    }
}
