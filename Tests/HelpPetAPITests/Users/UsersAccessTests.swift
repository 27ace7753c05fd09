import AppCore
import Foundation
import Testing
import VaporTesting

/// The users API is ADMIN only: 403 `Administrator access required` for everyone else, before any validation
/// or lookup (contract §4.2, §1.10).
@Suite struct UsersAccessTests {
    static let requests: [(HTTPMethod, String, String?)] = [
        (.GET, "/api/v1/users", nil),
        (.GET, "/api/v1/users?role=NOPE&limit=0", nil),
        (.POST, "/api/v1/users", #"{"username":"x"}"#),
        (.POST, "/api/v1/users", "not json"),
        (.GET, "/api/v1/users/d1000000-0000-4000-8000-000000000001", nil),
        (.GET, "/api/v1/users/not-a-uuid", nil),
        (.GET, "/api/v1/users/\(UUID().uuidString)", nil),
        (.PUT, "/api/v1/users/d1000000-0000-4000-8000-000000000002", #"{"full_name":"Hacked"}"#),
        (.PUT, "/api/v1/users/not-a-uuid", "{}"),
    ]

    @Test func membersAndOwnersAreRefused() async throws {
        try await withTestApp { app in
            for user in [Demo.vet1, Demo.vet2, Demo.owner1] {
                let token = try await app.token(for: user)
                for (method, path, body) in Self.requests {
                    let response = try await app.send(method, path, token: token, body: body, contentType: body == nil ? nil : .json)
                    expectError(response, .forbidden, "Administrator access required")
                }
            }
            // Nothing was changed by the refused PUT.
            let admin = try await app.token(for: Demo.admin)
            let vet1 = try await app.get("/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())", token: admin)
            #expect(vet1.json["full_name"].string == "Dr. Sarah Johnson")
        }
    }

    @Test func aMemberPromotedToVETStillCannot() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let changed = try await app.put(
                "/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())", token: admin, json: ["role": "VET"])
            #expect(changed.status == .ok, "\(changed)")
            #expect(changed.json["role"].string == "VET")
            let response = try await app.get("/api/v1/users", token: try await app.token(for: Demo.vet1))
            expectError(response, .forbidden, "Administrator access required")
        }
    }

    @Test func unauthenticatedIs401NotForbidden() async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/v1/users")
            expectError(response, .unauthorized, "Not authenticated")
        }
    }
}
