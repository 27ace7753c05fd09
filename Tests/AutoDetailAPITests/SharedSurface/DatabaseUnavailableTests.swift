import AppCore
import Foundation
import Testing
import VaporTesting

/// An unreachable database answers `503 Service temporarily unavailable` with `Retry-After: 1` on every route, in the
/// `{"error": ...}` format (contract §1.5); never a 500, never a hang.
@Suite struct DatabaseUnavailableTests {
    @Test func everyKindOfRouteAnswers503() async throws {
        try await withUnreachableDatabaseApp { app in
            let key = "org_1741597200_66f40e2c1adbdaff5f6df26b"
            let requests: [(HTTPMethod, String, String?, String?)] = [
                (.GET, "/api/client/services", nil, nil),
                (.GET, "/api/client/availability?serviceId=\(UUID().uuidString)&date=2025-03-14", nil, nil),
                (.GET, "/api/client/appointments", key, nil),
                (.POST, "/api/client/appointments", key, "{}"),
                (.POST, "/api/ios/init", nil, nil),
                (.POST, "/api/admin/login", nil, #"{"username": "admin", "password": "x"}"#),
                (.GET, "/api/admin/settings", nil, nil),
            ]
            for (method, path, apiKey, json) in requests {
                var headers = HTTPHeaders()
                if path == "/api/admin/settings" { headers.add(name: .authorization, value: "Bearer adm_" + String(repeating: "a", count: 64)) }
                let response = try await app.send(method, path, key: apiKey, headers: headers, json: json)
                expectError(response, .serviceUnavailable, "Service temporarily unavailable")
                #expect(response.headers.first(name: "Retry-After") == "1", "\(path)")
            }
            let validate = try await app.post("/api/auth/validate-key", ["apiKey": key])
            #expect(validate.status == .serviceUnavailable)
            #expect(validate.json["valid"].bool == false && validate.error == "Service temporarily unavailable")
            #expect(try await app.get("/api/ping").status == .ok, "ping touches no dependency")
        }
    }
}
