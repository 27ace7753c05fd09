import AppCore
import Foundation
import Testing
import VaporTesting

/// The shared surface on AutoDetail's paths (ARCHITECTURE.md "Shared surface"; contract §1): error bodies, unknown
/// routes, body framing, headers, CORS, rate limits of the public key routes, ping, health, metrics.
@Suite struct SharedSurfaceTests {
    @Test func unknownRoutesAndMethods() async throws {
        try await withTestApp { app in
            for (method, path) in [
                (HTTPMethod.GET, "/api/nope"), (.GET, "/api"), (.GET, "/api/client"), (.DELETE, "/api/client/services"),
                (.PUT, "/api/client/appointments"), (.GET, "/api/auth/validate-key"), (.GET, "/api/CLIENT/SERVICES"),
                (.PATCH, "/api/admin/settings"), (.GET, "/api/ios/init"),
            ] {
                let anonymous = try await app.send(method, path, key: app.orgKey)
                expectError(anonymous, .notFound, "Not found")
                #expect(anonymous.text == #"{"error":"Not found"}"#)
            }
            // Route matching comes before authentication.
            expectError(try await app.get("/api/client/nothing", key: "garbage"), .notFound, "Not found")
            let root = try await app.get("/nope")
            #expect(root.status == .notFound && root.text == #"{"detail":"Not Found"}"#)
            // CORS is off by default: OPTIONS is an unknown method.
            expectError(try await app.send(.OPTIONS, "/api/client/services"), .notFound, "Not found")
        }
    }

    /// A deeply nested document is refused with 400 before the parser recurses once per level (AppCore's
    /// StrictJSONSyntax bounds nesting at 64); at the bound the route's own validation answers.
    @Test func deeplyNestedJSONIs400() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            let levels = 30_000  // within the 64 KiB body limit
            for document in [
                String(repeating: "[", count: levels) + String(repeating: "]", count: levels),
                #"{"a":"# + String(repeating: "[", count: levels),
                String(repeating: #"{"a":"#, count: levels / 5) + "1" + String(repeating: "}", count: levels / 5),
                #"{"a":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}",
            ] {
                expectError(try await app.send(.POST, "/api/client/appointments", key: key, json: document), .badRequest,
                            "Invalid JSON body")
                expectError(try await app.send(.POST, "/api/admin/login", json: document), .badRequest, "Invalid JSON body")
            }
            let deepest = #"{"a":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
            expectError(try await app.send(.POST, "/api/admin/login", json: deepest), .badRequest,
                        "Missing required fields: username, password")
            #expect(try await app.get("/health").status == .ok)
        }
    }

    @Test func bodyFraming() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            let path = "/api/client/appointments"
            let big = "{\"notes\": \"" + String(repeating: "a", count: 65_600) + "\"}"
            expectError(try await app.send(.POST, path, key: key, json: big), .payloadTooLarge, "Request body too large")
            expectError(try await app.send(.POST, path, json: big), .unauthorized, "Missing API key")
            expectError(
                try await app.send(.POST, path, key: key, json: "{}", contentType: "text/plain"), .unsupportedMediaType,
                "Content-Type must be application/json")
            expectError(try await app.send(.POST, path, key: key, body: Array("{}".utf8)), .unsupportedMediaType,
                        "Content-Type must be application/json")
            expectError(try await app.send(.POST, path, key: key, json: "{\"a\": "), .badRequest, "Invalid JSON body")
            expectError(try await app.send(.POST, path, key: key, json: "[]"), .badRequest, "Invalid JSON body")
            expectError(try await app.send(.POST, path, key: key, json: "\"x\""), .badRequest, "Invalid JSON body")
            expectError(try await app.send(.POST, path, key: key, json: #"{"clientName": "x",}"#), .badRequest, "Invalid JSON body")
            let charset = try await app.send(
                .POST, path, key: key, json: JSONBody.encode(Fixture.booking("2025-03-14T08:00:00Z")),
                contentType: "application/json; charset=utf-8")
            #expect(charset.status == .created, "\(charset)")
            // An empty body is `{}` whatever its content type.
            expectError(
                try await app.send(.POST, path, key: key, contentType: "text/plain"), .badRequest,
                "Missing required fields: startIso, clientName, phone, carMake, carPlate, serviceName")
            // Body framing comes before path resources (404).
            expectError(
                try await app.send(.POST, "/api/client/appointments/\(UUID().uuidString)/photos", key: key, json: "[]"),
                .badRequest, "Invalid JSON body")
        }
    }

    @Test func headersPingHealthOpenAPI() async throws {
        try await withTestApp { app in
            let ping = try await app.get("/api/ping/")
            #expect(ping.status == .ok && ping.text == #"{"message":"pong"}"#)
            #expect(ping.headers.first(name: .cacheControl) == "no-store")
            #expect(ping.headers.first(name: .contentType) == "application/json; charset=utf-8")
            let echoed = try await app.get("/api/client/services", headers: ["X-Request-Id": "abc.DEF_1-2"])
            #expect(echoed.headers.first(name: "X-Request-Id") == "abc.DEF_1-2")
            let replaced = try await app.get("/api/nope", headers: ["X-Request-Id": "bad id!"])
            #expect(replaced.headers.first(name: "X-Request-Id").map { UUID(uuidString: $0) != nil } == true)
            let health = try await app.get("/health")
            #expect(health.status == .ok && health.json["status"].string == "ok")
            #expect(health.headers.first(name: .cacheControl) == "no-store")
            let ready = try await app.get("/health/ready")
            #expect(ready.status == .ok && ready.json["checks"]["database"].string == "ok" && ready.json["checks"]["storage"].string == "ok")
            let document = try await app.get("/openapi/autodetail.json")
            #expect(document.status == .ok && document.json["openapi"].string == "3.1.0")
            #expect(document.headers.first(name: .cacheControl) == "no-store")
            // Routes report to /metrics with their templates.
            _ = try await app.get("/api/client/services/\(UUID().uuidString)")
            let metrics = try await app.get("/metrics")
            #expect(metrics.text.contains(#"route="/api/client/services/:serviceId""#))
            #expect(metrics.text.contains(#"route="/api/ping""#))
        }
    }

    @Test func pingMessageIsConfigurable() async throws {
        try await withTestApp(env: ["PING_MESSAGE": "hello"]) { app in
            let ping = try await app.get("/api/ping")
            #expect(ping.json["message"].string == "hello")
        }
    }

    @Test func corsForAListedOrigin() async throws {
        let origin = "https://console.autodetailhub.com"
        try await withTestApp(env: ["CORS_ALLOWED_ORIGINS": origin]) { app in
            let preflight: HTTPHeaders = ["Origin": origin, "Access-Control-Request-Method": "POST"]
            for path in ["/api/client/appointments", "/api/admin/login", "/storage/autodetail/x.jpg"] {
                let response = try await app.send(.OPTIONS, path, headers: preflight)
                #expect(response.status == .noContent, "\(path): \(response)")
                #expect(response.headers.first(name: .accessControlAllowOrigin) == origin)
                #expect(response.headers.first(name: .accessControlAllowMethods) == "GET, POST, PUT, DELETE, OPTIONS")
                if path.hasPrefix("/api/") {
                    #expect(response.headers.first(name: .accessControlAllowHeaders)
                        == "Content-Type, Content-Length, X-API-Key, Authorization, X-Request-Id, Idempotency-Key")
                    #expect(response.headers.first(name: .accessControlExpose)
                        == "X-Request-Id, X-Total-Count, Retry-After, Location, Idempotent-Replayed, ETag")
                }
                #expect(response.headers.first(name: .accessControlMaxAge) == "600")
                #expect(response.headers.first(name: "Access-Control-Allow-Credentials") == nil)
            }
            let stranger = try await app.send(.OPTIONS, "/api/client/services", headers: [
                "Origin": "https://evil.example", "Access-Control-Request-Method": "GET",
            ])
            #expect(stranger.status == .noContent && stranger.headers.first(name: .accessControlAllowOrigin) == nil)
            let simple = try await app.get("/api/client/services", headers: ["Origin": origin])
            #expect(simple.headers.first(name: .accessControlAllowOrigin) == origin && simple.headers.first(name: .vary) == "Origin")
        }
    }

    @Test func rateLimitsOfPublicKeyRoutes() async throws {
        let clock = Fixture.clock()
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false"], clock: clock) { app in
            for _ in 0..<30 { #expect(try await app.post("/api/auth/validate-key", ["apiKey": "x"]).status == .unauthorized) }
            let limited = try await app.post("/api/auth/validate-key", ["apiKey": app.orgKey])
            #expect(limited.status == .tooManyRequests)
            #expect(limited.json.keys == ["valid", "error"] && limited.json["valid"].bool == false && limited.error == "Too many requests")
            #expect(limited.headers.first(name: "Retry-After") == "60")
            clock.advance(by: 45)
            #expect(try await app.post("/api/auth/validate-key", ["apiKey": app.orgKey]).headers.first(name: "Retry-After") == "15")
            clock.advance(by: 15)
            #expect(try await app.post("/api/auth/validate-key", ["apiKey": app.orgKey]).status == .ok)

            for _ in 0..<10 { #expect(try await app.send(.POST, "/api/ios/init").status == .ok) }
            let initLimited = try await app.send(.POST, "/api/ios/init")
            expectError(initLimited, .tooManyRequests, "Too many requests")
            #expect(initLimited.headers.first(name: "Retry-After") == "3600")
            // Other routes are never limited.
            for _ in 0..<40 { #expect(try await app.get("/api/ping").status == .ok) }
        }
    }

    @Test func appsSwitchesTheAPIOff() async throws {
        try await withTestApp(env: ["APPS": "autodetail"]) { app in
            let helppet = try await app.get("/api/v1/health")
            #expect(helppet.status == .notFound && helppet.text == #"{"detail":"Not Found"}"#)
        }
    }
}
