import AppCore
import Foundation
import Testing
import VaporTesting

/// Unknown routes and unserved methods answer `404 {"detail":"Not Found"}` under `/api/v1` and at the root,
/// before authentication (contract §1.2, §1.10; ARCHITECTURE "Error bodies by path"). `/` itself is the consoles'
/// landing page, as `server serve` mounts it.
@Suite struct UnknownRouteTests {
    static func expectNotFound(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        expectError(response, .notFound, "Not Found", sourceLocation: sourceLocation)
        #expect(response.text == #"{"detail":"Not Found"}"#, sourceLocation: sourceLocation)
    }

    @Test func unknownPaths() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.admin)
            for path in ["/api/v1/nope", "/api/v1", "/api/v1/", "/api/v1/users/x/y/z", "/nope", "/health/nope",
                         "/API/V1/USERS", "/api/v1/auth", "/metrics/x"] {
                Self.expectNotFound(try await app.get(path))
                Self.expectNotFound(try await app.get(path, token: token))
            }
            let landing = try await app.get("/")
            #expect(landing.status == .ok && landing.text.contains("Choose a console"))
        }
    }

    @Test func knownPathsWithOtherMethods() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.admin)
            let id = Demo.vet1.id.uuidString.lowercased()
            for (method, path) in [
                (HTTPMethod.DELETE, "/api/v1/auth/me"), (.POST, "/api/v1/auth/me"), (.GET, "/api/v1/auth/token"),
                (.PATCH, "/api/v1/users"), (.DELETE, "/api/v1/users/\(id)"), (.PATCH, "/api/v1/users/\(id)"),
                (.DELETE, "/api/v1/practices"), (.POST, "/health"), (.PUT, "/metrics"), (.DELETE, "/health/ready"),
            ] {
                let anonymous = try await app.send(method, path, body: "{}", contentType: .json)
                Self.expectNotFound(anonymous)
                let authenticated = try await app.send(method, path, token: token, body: "{}", contentType: .json)
                Self.expectNotFound(authenticated)
            }
        }
    }

    @Test func routeMatchComesBeforeAuthentication() async throws {
        try await withTestApp { app in
            // A garbage token on an unknown route is still a 404, not a 401.
            Self.expectNotFound(try await app.get("/api/v1/unknown", token: "garbage"))
        }
    }

    @Test func otherProductsPathsUseTheirErrorFormat() async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/unknown-product-path")
            #expect(response.status == .notFound)
            #expect(response.text == #"{"error":"Not found"}"#)
        }
    }
}
