import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// Organisation keys in the console (contract §4.7.2).
@Suite struct AdminAPIKeysTests {
    @Test func createListShowRevoke() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let admin = try await app.adminToken()
            let created = try await app.post("/api/admin/api-keys", bearer: admin, ["name": "Website booking widget"])
            #expect(created.status == .created, "\(created)")
            let json = created.json
            #expect(json.keys == ["id", "kind", "name", "keyPrefix", "fullAccess", "key", "createdAt", "lastUsedAt", "requestCount", "revoked", "revokedAt"])
            let id = try #require(json["id"].string)
            let key = try #require(json["key"].string)
            #expect(key.range(of: #"^org_1741934400_[0-9a-f]{24}$"#, options: .regularExpression) != nil)
            #expect(json["keyPrefix"].string == String(key.prefix(19)))
            #expect(json["kind"].string == "org" && json["fullAccess"].bool == false)
            #expect(json["lastUsedAt"].isNull && json["requestCount"].int == 0 && json["revoked"].bool == false && json["revokedAt"].isNull)
            #expect(created.headers.first(name: .location) == "/api/admin/api-keys/\(id)")

            let shown = try await app.get("/api/admin/api-keys/\(id)", bearer: admin)
            #expect(shown.json["key"].isAbsent, "the full key is shown once")
            #expect(shown.json["name"].string == "Website booking widget")
            let trusted = try await app.post("/api/admin/api-keys", bearer: admin, ["name": "Server", "fullAccess": true])
            #expect(trusted.json["fullAccess"].bool == true)
            let list = try await app.get("/api/admin/api-keys", bearer: admin)
            #expect(list.json.count == 3 && list.headers.first(name: "X-Total-Count") == "3")
            #expect((list.json.array ?? []).allSatisfy { $0["key"].isAbsent && $0["kind"].string == "org" })

            expectError(try await app.post("/api/admin/api-keys", bearer: admin, [:]), .badRequest, "Missing required fields: name")
            expectError(try await app.post("/api/admin/api-keys", bearer: admin, ["name": "x"]), .badRequest,
                        "Invalid field: name (must be 2-100 characters)")
            expectError(try await app.post("/api/admin/api-keys", bearer: admin, ["name": "Widget", "fullAccess": "yes"]),
                        .badRequest, "Invalid field: fullAccess (must be a boolean)")

            #expect(try await app.get("/api/client/appointments", key: key).status == .ok)
            #expect(try await app.delete("/api/admin/api-keys/\(id)", bearer: admin).status == .noContent)
            #expect(try await app.delete("/api/admin/api-keys/\(id)", bearer: admin).status == .noContent)
            expectError(try await app.get("/api/client/appointments", key: key), .unauthorized, "Invalid API key")
            let revoked = try await app.get("/api/admin/api-keys/\(id)", bearer: admin)
            #expect(revoked.json["revoked"].bool == true && revoked.json["revokedAt"].string == "2025-03-14T06:40:00Z")
            #expect(try await app.get("/api/admin/api-keys?revoked=true", bearer: admin).json.ids == [id])
            #expect(try await app.get("/api/admin/api-keys?revoked=false", bearer: admin).json.count == 2)
            expectError(try await app.get("/api/admin/api-keys?revoked=1", bearer: admin), .badRequest,
                        "Invalid parameter: revoked (must be a boolean)")

            // Install keys are not managed here.
            let install = try await app.newInstall()
            let installKeyID = try #require(try await app.db.sql.raw("SELECT api_key_id FROM ad_install_profiles").first()?
                .decode(column: "api_key_id", as: UUID.self))
            expectError(try await app.get("/api/admin/api-keys/\(installKeyID)", bearer: admin), .notFound, "API key not found")
            expectError(try await app.delete("/api/admin/api-keys/\(installKeyID)", bearer: admin), .notFound, "API key not found")
            expectError(try await app.get("/api/admin/api-keys/nope", bearer: admin), .notFound, "API key not found")
            #expect(try await app.get("/api/ios/profile", key: install.key).status == .ok)
        }
    }
}
