import AppCore
import Foundation
import Testing
import VaporTesting

/// `X-Request-ID` (echo rule) and `Cache-Control: no-store` (contract §1.12; ARCHITECTURE "Request ids").
@Suite struct ResponseHeaderTests {
    /// One request per kind of response: success, error (401, 403, 400), unknown route, public route.
    static func probes(_ app: Application) async throws -> [(String, HTTPMethod, String, String?, HTTPStatus)] {
        let vet = try await app.token(for: Demo.vet1)
        return [
            ("success", .GET, "/api/v1/auth/me", vet, .ok),
            ("401", .GET, "/api/v1/auth/me", nil, .unauthorized),
            ("403", .GET, "/api/v1/users", vet, .forbidden),
            ("400", .GET, "/api/v1/practices/nope", vet, .badRequest),
            ("404 unknown route", .GET, "/api/v1/nope", nil, .notFound),
            ("404 root", .GET, "/nope", nil, .notFound),
            ("404 wrong method", .DELETE, "/api/v1/auth/me", vet, .notFound),
            ("health", .GET, "/health", nil, .ok),
        ]
    }

    static func isGeneratedID(_ value: String?) -> Bool {
        guard let value, value == value.lowercased(), let uuid = UUID(canonical: value) else { return false }
        return uuid.uuidString.lowercased().dropFirst(14).first == "4"  // version 4
    }

    @Test func validRequestIDsAreEchoed() async throws {
        try await withTestApp { app in
            let ids = ["abc", "A.b_c-1", String(repeating: "x", count: 128), "0", "req-2025.01.15_17:00".replacingOccurrences(of: ":", with: "")]
            for (label, method, path, token, status) in try await Self.probes(app) {
                for id in ids {
                    let response = try await app.send(method, path, token: token, headers: ["X-Request-ID": id])
                    #expect(response.status == status, "\(label)")
                    #expect(response.headers[RequestID.header] == [id], "\(label): \(id)")
                }
            }
        }
    }

    @Test func invalidRequestIDsAreReplaced() async throws {
        try await withTestApp { app in
            let invalid = ["", "has space", "semi;colon", String(repeating: "x", count: 129), "ünïcode", "a/b", "a:b", "{x}"]
            for (label, method, path, token, status) in try await Self.probes(app) {
                for id in invalid {
                    let response = try await app.send(method, path, token: token, headers: ["X-Request-ID": id])
                    #expect(response.status == status, "\(label)")
                    let echoed = response.headers[RequestID.header]
                    #expect(echoed.count == 1, "\(label)")
                    #expect(echoed.first != id && Self.isGeneratedID(echoed.first), "\(label): \(id) → \(echoed)")
                }
            }
        }
    }

    @Test func missingRequestIDIsGeneratedFreshEachTime() async throws {
        try await withTestApp { app in
            var seen = Set<String>()
            let probes = try await Self.probes(app)
            for (label, method, path, token, _) in probes {
                let response = try await app.send(method, path, token: token)
                let id = response.headers.first(name: RequestID.header)
                #expect(Self.isGeneratedID(id), "\(label): \(String(describing: id))")
                if let id { seen.insert(id) }
            }
            #expect(seen.count == probes.count)
        }
    }

    @Test func internalErrorBodyCarriesTheRequestID() async throws {
        try await withTestApp { app in
            // A route that fails unexpectedly: registered only in this test application.
            app.get("test-only", "explode") { _ -> String in throw TestSetupError("boom: secret details") }
            let response = try await app.get("/test-only/explode", headers: ["X-Request-ID": "trace-500"])
            #expect(response.status == .internalServerError)
            #expect(response.json.keys == ["detail", "request_id"])
            #expect(response.detail == "Internal server error")
            #expect(response.json["request_id"].string == "trace-500")
            #expect(!response.text.contains("boom"))
        }
    }

    @Test func cacheControlNoStoreOnEveryAPIResponse() async throws {
        try await withTestApp { app in
            for (label, method, path, token, _) in try await Self.probes(app) where path.hasPrefix("/api/v1") {
                let response = try await app.send(method, path, token: token)
                #expect(response.headers[.cacheControl] == ["no-store"], "\(label)")
            }
            let login = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(login.headers[.cacheControl] == ["no-store"])
            let health = try await app.get("/api/v1/health")
            #expect(health.headers[.cacheControl] == ["no-store"])
        }
    }

    @Test func jsonContentType() async throws {
        try await withTestApp { app in
            for (label, method, path, token, _) in try await Self.probes(app) {
                let response = try await app.send(method, path, token: token)
                #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8", "\(label)")
            }
        }
    }
}
