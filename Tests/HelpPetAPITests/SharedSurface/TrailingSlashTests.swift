import AppCore
import Foundation
import Testing
import VaporTesting

/// Every route is served with and without one trailing slash, identically, without a redirect (contract §1.2).
@Suite struct TrailingSlashTests {
    @Test func getRoutes() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let practice = Demo.practiceID.uuidString.lowercased()
            for path in ["/api/v1/auth/me", "/api/v1/users", "/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())",
                         "/api/v1/practices", "/api/v1/practices/\(practice)", "/api/v1/users?role=VET_STAFF"] {
                let plain = try await app.get(path, token: admin)
                let slashed = try await app.get(path.replacingOccurrences(of: "?", with: "/?").appendingSlashIfNoQuery, token: admin)
                #expect(plain.status == .ok, "\(path): \(plain)")
                #expect(slashed.status == plain.status, "\(path)/: \(slashed)")
                #expect(slashed.json.value == plain.json.value, "\(path)/")
                #expect(slashed.headers.first(name: "X-Total-Count") == plain.headers.first(name: "X-Total-Count"))
            }
        }
    }

    @Test func publicRoutes() async throws {
        try await withTestApp { app in
            for path in ["/health", "/api/v1/health", "/health/ready", "/metrics"] {
                let plain = try await app.get(path)
                let slashed = try await app.get(path + "/")
                #expect(plain.status == .ok, "\(path): \(plain)")
                #expect(slashed.status == .ok, "\(path)/: \(slashed)")
                #expect(slashed.headers.first(name: .location) == nil)
            }
        }
    }

    @Test func writeRoutes() async throws {
        try await withTestApp { app in
            let login = try await app.post("/api/v1/auth/token/", json: ["username": "vet1", "password": "password123"])
            #expect(login.status == .ok, "\(login)")
            let admin = try await app.token(for: Demo.admin)
            let created = try await app.post("/api/v1/practices/", token: admin, json: ["name": "Slash", "timezone": "UTC"])
            #expect(created.status == .created, "\(created)")
            let id = try #require(created.json["id"].string)
            let updated = try await app.put("/api/v1/practices/\(id)/", token: admin, json: ["name": "Slashed"])
            #expect(updated.status == .ok, "\(updated)")
            #expect(updated.json["name"].string == "Slashed")
            let user = try await app.post("/api/v1/users/", token: admin, json: [
                "username": "slash", "password": "password123", "email": "slash@example.com", "full_name": "S",
                "role": "ADMIN",
            ])
            #expect(user.status == .created, "\(user)")
        }
    }

    @Test func errorsAreIdenticalToo() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let plain = try await app.get("/api/v1/users", token: vet)
            let slashed = try await app.get("/api/v1/users/", token: vet)
            expectError(plain, .forbidden, "Administrator access required")
            expectError(slashed, .forbidden, "Administrator access required")
            expectError(try await app.get("/api/v1/auth/me/"), .unauthorized, "Not authenticated")
        }
    }
}

extension String {
    /// `/a/b` → `/a/b/`; `/a/b/?q` is left as is.
    fileprivate var appendingSlashIfNoQuery: String { contains("?") ? self : self + "/" }
}
