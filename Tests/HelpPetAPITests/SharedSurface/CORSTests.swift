import AppCore
import Foundation
import Testing
import VaporTesting

/// CORS (contract §1.13): off by default; with `CORS_ALLOWED_ORIGINS` exact origins only, no credentials mode.
@Suite struct CORSTests {
    static let origin = "https://app.helppet.ai"
    static let preflight: HTTPHeaders = [
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
    ]

    static func corsHeaders(_ response: TestResponse) -> [String] {
        response.headers.map(\.name).filter { $0.lowercased().hasPrefix("access-control-") }
    }

    @Test func offByDefaultPreflightIs404() async throws {
        try await withTestApp { app in
            for path in ["/api/v1/auth/token", "/api/v1/users", "/health", "/api/v1/nope"] {
                let response = try await app.send(.OPTIONS, path, headers: Self.preflight)
                UnknownRouteTests.expectNotFound(response)
                #expect(Self.corsHeaders(response).isEmpty, "\(path): \(response.headers)")
            }
            let plainOptions = try await app.send(.OPTIONS, "/api/v1/auth/me")
            UnknownRouteTests.expectNotFound(plainOptions)
        }
    }

    @Test func offByDefaultNoHeadersOnRequests() async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/v1/auth/me", token: try await app.token(for: Demo.vet1),
                                             headers: ["Origin": Self.origin])
            #expect(response.status == .ok)
            #expect(Self.corsHeaders(response).isEmpty, "\(response.headers)")
        }
    }

    @Test func enabledPreflightFromAListedOrigin() async throws {
        try await withTestApp(env: ["CORS_ALLOWED_ORIGINS": "https://console.example, \(Self.origin)"]) { app in
            for path in ["/api/v1/auth/token", "/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())", "/health"] {
                let response = try await app.send(.OPTIONS, path, headers: Self.preflight)
                #expect(response.status == .noContent, "\(path): \(response)")
                let h = response.headers
                #expect(h.first(name: .accessControlAllowOrigin) == Self.origin)
                #expect(h.first(name: .vary) == "Origin")
                #expect(h.first(name: .accessControlAllowMethods) == "GET, POST, PUT, DELETE, OPTIONS")
                #expect(h.first(name: .accessControlAllowHeaders) == "Authorization, Content-Type, X-Request-ID")
                #expect(h.first(name: .accessControlMaxAge) == "600")
                #expect(h.first(name: .accessControlExpose) == "X-Request-ID, X-Total-Count, Retry-After")
                #expect(h.first(name: .accessControlAllowCredentials) == nil)
            }
        }
    }

    @Test func enabledActualRequestsFromAListedOrigin() async throws {
        try await withTestApp(env: ["CORS_ALLOWED_ORIGINS": Self.origin]) { app in
            let ok = try await app.get("/api/v1/auth/me", token: try await app.token(for: Demo.vet1), headers: ["Origin": Self.origin])
            #expect(ok.status == .ok)
            #expect(ok.headers.first(name: .accessControlAllowOrigin) == Self.origin)
            #expect(ok.headers.first(name: .vary) == "Origin")
            #expect(ok.headers.first(name: .accessControlExpose) == "X-Request-ID, X-Total-Count, Retry-After")
            #expect(ok.headers.first(name: .accessControlAllowCredentials) == nil)
            // Errors carry the headers too, so a browser can read them.
            let error = try await app.get("/api/v1/auth/me", headers: ["Origin": Self.origin])
            #expect(error.status == .unauthorized)
            #expect(error.headers.first(name: .accessControlAllowOrigin) == Self.origin)
        }
    }

    @Test func enabledOtherOriginsGetNothing() async throws {
        try await withTestApp(env: ["CORS_ALLOWED_ORIGINS": Self.origin]) { app in
            for other in ["https://evil.example", "https://app.helppet.ai.evil.example", "http://app.helppet.ai",
                          "https://APP.helppet.ai", "null"] {
                var headers = Self.preflight
                headers.replaceOrAdd(name: "Origin", value: other)
                let preflight = try await app.send(.OPTIONS, "/api/v1/auth/token", headers: headers)
                #expect(preflight.status == .noContent, "\(other): \(preflight)")
                #expect(Self.corsHeaders(preflight).isEmpty, "\(other): \(preflight.headers)")
                let request = try await app.get("/health", headers: ["Origin": other])
                #expect(Self.corsHeaders(request).isEmpty, "\(other)")
            }
            // Native clients send no Origin at all.
            let native = try await app.get("/health")
            #expect(Self.corsHeaders(native).isEmpty)
        }
    }
}
