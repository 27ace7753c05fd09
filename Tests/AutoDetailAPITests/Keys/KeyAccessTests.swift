@testable import AutoDetailAPI
import AppCore
import Foundation
import Testing
import VaporTesting

/// API keys (contract §2): validate-key, install init, the key check outcomes, header precedence, usage tracking.
@Suite struct KeyAccessTests {
    @Test func validateKey() async throws {
        try await withTestApp { app in
            let install = try await app.newInstall()
            let org = try await app.post("/api/auth/validate-key", ["apiKey": app.orgKey])
            #expect(org.status == .ok, "\(org)")
            #expect(org.json.keys == ["valid", "message", "timestamp", "keyType"])
            #expect(org.json["valid"].bool == true && org.json["message"].string == "API key is valid")
            #expect(org.json["keyType"].string == "org")
            #expect(org.json["timestamp"].string?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
            #expect(try await app.post("/api/auth/validate-key", ["apiKey": " \(install.key) "]).json["keyType"].string == "ios")

            func expectInvalid(_ response: TestResponse, _ status: HTTPStatus, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
                #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
                #expect(response.json.keys == ["valid", "error"], sourceLocation: sourceLocation)
                #expect(response.json["valid"].bool == false, sourceLocation: sourceLocation)
                #expect(response.error == message, sourceLocation: sourceLocation)
            }
            expectInvalid(try await app.post("/api/auth/validate-key", [:]), .badRequest, "Missing required fields: apiKey")
            expectInvalid(try await app.post("/api/auth/validate-key", ["apiKey": ""]), .badRequest, "Missing required fields: apiKey")
            expectInvalid(
                try await app.post("/api/auth/validate-key", ["apiKey": 12]), .badRequest, "Invalid field: apiKey (must be a string)")
            expectInvalid(
                try await app.post("/api/auth/validate-key", ["apiKey": "org_1705671234_abc123def456"]), .unauthorized,
                "Invalid API key")
            expectInvalid(
                try await app.post("/api/auth/validate-key", ["apiKey": "org_1705671234_abc123def456abc123def456"]),
                .unauthorized, "Invalid API key")
            expectInvalid(
                try await app.send(.POST, "/api/auth/validate-key", json: "[1]"), .badRequest, "Invalid JSON body")
            expectInvalid(
                try await app.send(.POST, "/api/auth/validate-key", json: "x", contentType: "text/plain"),
                .unsupportedMediaType, "Content-Type must be application/json")
            expectInvalid(
                try await app.send(.POST, "/api/auth/validate-key", json: "{\"apiKey\": \"" + String(repeating: "a", count: 70_000) + "\"}"),
                .payloadTooLarge, "Request body too large")

            // Revoked org key and blocked install.
            let partner = try await app.newOrgKey()
            let admin = try await app.adminToken()
            #expect(try await app.delete("/api/admin/api-keys/\(partner.id)", bearer: admin).status == .noContent)
            expectInvalid(try await app.post("/api/auth/validate-key", ["apiKey": partner.key]), .unauthorized, "Invalid API key")
            #expect(try await app.put("/api/admin/ios-users/\(install.id)/priority", bearer: admin, ["priority": "blocked"]).status == .ok)
            expectInvalid(
                try await app.post("/api/auth/validate-key", ["apiKey": install.key]), .forbidden,
                "This app installation has been blocked")
        }
    }

    @Test func installInit() async throws {
        try await withTestApp { app in
            let response = try await app.send(.POST, "/api/ios/init", json: #"{"ignored": 1}"#)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json.keys == ["apiKey", "baseUrl", "installId"])
            let key = try #require(response.json["apiKey"].string)
            #expect(key.range(of: #"^ios_[0-9]{10}_[0-9a-f]{24}$"#, options: .regularExpression) != nil)
            #expect(response.json["baseUrl"].string == "http://127.0.0.1")
            let withHost = try await app.send(.POST, "/api/ios/init", headers: ["Host": "localhost:8080"])
            #expect(withHost.json["baseUrl"].string == "http://localhost:8080")
            let installID = try #require(response.json["installId"].string)
            // Only the hash is stored; the profile starts empty with priority normal.
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_api_keys WHERE key_hash = \(bind: Secrets.hash(key)) AND kind = 'ios' AND name = 'iOS install'") == 1)
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_api_keys WHERE key_hash = \(bind: key)") == 0)
            let profile = try await app.get("/api/ios/profile", key: key)
            #expect(profile.json["id"].string == installID)
            #expect(profile.json["name"].isNull && profile.json["priority"].isAbsent)
        }
    }

    @Test func keyCheckOutcomes() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let install = try await app.newInstall()
            let admin = try await app.adminToken()
            let path = "/api/client/appointments"
            expectError(try await app.get(path), .unauthorized, "Missing API key")
            expectError(try await app.get(path, headers: ["X-API-Key": ""]), .unauthorized, "Missing API key")
            expectError(try await app.get(path, key: "garbage"), .unauthorized, "Invalid API key")
            expectError(try await app.get(path, key: "ios_1741597925_850539358460fea4d1e69f21"), .unauthorized, "Invalid API key")
            expectError(try await app.get(path, bearer: admin), .unauthorized, "Invalid API key")
            expectError(try await app.get(path, headers: ["Authorization": "Basic abc"]), .unauthorized, "Invalid API key")
            // Bearer works when X-API-Key is absent; X-API-Key wins when both are sent.
            #expect(try await app.get(path, bearer: install.key).status == .ok)
            #expect(try await app.get(path, key: install.key, bearer: "garbage").status == .ok)
            expectError(try await app.get(path, key: "garbage", bearer: install.key), .unauthorized, "Invalid API key")
            // Organisation keys are refused on install routes; admin tokens on key routes.
            expectError(try await app.get("/api/ios/profile", key: app.orgKey), .forbidden, "This endpoint requires an app installation key")
            expectError(try await app.get("/api/ios/messages", key: app.orgKey), .forbidden, "This endpoint requires an app installation key")
            expectError(try await app.get("/api/ios/profile"), .unauthorized, "Missing API key")
            // Public routes ignore every credential.
            #expect(try await app.get("/api/client/services", key: "garbage").status == .ok)
            #expect(try await app.get("/api/ping", bearer: "garbage").status == .ok)

            // Blocking applies from the next request; unblocking lifts it.
            #expect(try await app.put("/api/admin/ios-users/\(install.id)/priority", bearer: admin, ["priority": "blocked"]).status == .ok)
            for (method, route) in [
                (HTTPMethod.GET, path), (.GET, "/api/ios/profile"), (.GET, "/api/ios/messages"), (.POST, "/api/uploads/presign"),
            ] {
                expectError(try await app.send(method, route, key: install.key), .forbidden, "This app installation has been blocked")
            }
            #expect(try await app.get("/api/client/services", key: install.key).status == .ok)
            #expect(try await app.put("/api/admin/ios-users/\(install.id)/priority", bearer: admin, ["priority": "high"]).status == .ok)
            #expect(try await app.get(path, key: install.key).status == .ok)

            // Deleting the install revokes its key.
            #expect(try await app.delete("/api/admin/ios-users/\(install.id)", bearer: admin).status == .noContent)
            expectError(try await app.get(path, key: install.key), .unauthorized, "Invalid API key")
        }
    }

    @Test func usageIsTrackedInBatches() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let install = try await app.newInstall()
            let admin = try await app.adminToken()
            #expect(try await app.get("/api/client/appointments?status=new", key: install.key).status == .ok)
            clock.advance(by: 5)
            _ = try await app.get("/api/client/appointments/\(UUID().uuidString)", key: install.key)  // 404 still counts
            #expect(try await app.post("/api/auth/validate-key", ["apiKey": install.key]).status == .ok)
            _ = try await app.get("/api/client/services", key: install.key)  // public: not a use
            await app.flushUsage()
            let user = try await app.get("/api/admin/ios-users/\(install.id)", bearer: admin)
            #expect(user.json["requestCount"].int == 3, "\(user)")
            #expect(user.json["lastSeenAt"].string == "2025-03-14T06:40:05Z")
            #expect(user.json["lastActivityPath"].string == "POST /api/auth/validate-key")
            #expect(user.json["keyPrefix"].string == String(install.key.prefix(19)))

            _ = try await app.get("/api/client/appointments", key: app.orgKey)
            _ = try await app.get("/api/ios/profile", key: app.orgKey)  // 403: not counted
            await app.flushUsage()
            let keys = try await app.get("/api/admin/api-keys", bearer: admin)
            let demo = (keys.json.array ?? []).first { $0["name"].string == "Default integration key" }
            #expect(demo?["requestCount"].int == 1)
            #expect(demo?["lastUsedAt"].string == "2025-03-14T06:40:05Z")
        }
    }
}
