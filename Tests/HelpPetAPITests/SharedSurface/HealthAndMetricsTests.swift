import AppCore
import Foundation
import Testing
import VaporTesting

/// `/health`, `/api/v1/health`, `/health/ready` and `/metrics` (contract §4.12; ARCHITECTURE "Health", "Metrics").
@Suite struct HealthAndMetricsTests {
    @Test func livenessAndItsAlias() async throws {
        try await withTestApp { app in
            for path in ["/health", "/api/v1/health"] {
                let before = WireTime.truncated(Date())
                let response = try await app.get(path)
                #expect(response.status == .ok)
                #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8")
                #expect(response.json.keys == ["status", "version", "time"])
                #expect(response.json["status"].string == "ok")
                #expect(response.json["version"].string == "1.0.0")
                let time = try #require(response.json["time"].string)
                guard case .success(let instant) = WireTime.parse(time) else {
                    Issue.record("time \(time) is not a datetime")
                    continue
                }
                #expect(time.count == 20 && time.hasSuffix("Z"))
                #expect(instant >= before && instant <= Date().addingTimeInterval(1))
            }
        }
    }

    @Test func livenessDoesNotTouchTheDatabase() async throws {
        try await withUnreachableDatabaseApp { app in
            let started = ContinuousClock.now
            let response = try await app.get("/health")
            #expect(response.status == .ok, "\(response)")
            #expect(ContinuousClock.now - started < .seconds(1))
        }
    }

    @Test func readiness() async throws {
        try await withTestApp { app in
            let response = try await app.get("/health/ready")
            #expect(response.status == .ok, "\(response)")
            #expect(["ready", "degraded"].contains(response.json["status"].string ?? ""), "\(response)")
            #expect(response.json["checks"]["database"].string == "ok")
            for (name, value) in (response.json["checks"].keys.map { ($0, response.json["checks"][$0].string ?? "") }) {
                #expect(["ok", "unavailable", "off"].contains(value), "\(name)=\(value)")
            }
        }
    }

    @Test func readinessReportsADatabaseOutageAs503() async throws {
        try await withUnreachableDatabaseApp { app in
            let response = try await app.get("/health/ready")
            #expect(response.status == .serviceUnavailable, "\(response)")
            #expect(response.headers.first(name: "Retry-After") == "1")
            #expect(response.detail == "Service not ready")
            #expect(response.json["checks"]["database"].string == "unavailable")
        }
    }

    /// Contract §1.9: an unreachable database answers 503 with `Retry-After: 1` on any route, never a 500.
    @Test func databaseOutageIs503OnEveryRoute() async throws {
        try await withUnreachableDatabaseApp { app in
            let token = try await app.token(for: Demo.vet1)
            for (method, path, body) in [
                (HTTPMethod.POST, "/api/v1/auth/token", #"{"username":"vet1","password":"password123"}"#),
                (.GET, "/api/v1/auth/me", nil), (.GET, "/api/v1/practices", nil),
            ] {
                let started = ContinuousClock.now
                let response = try await app.send(method, path, token: token, body: body, contentType: body == nil ? nil : .json)
                expectError(response, .serviceUnavailable, "Service temporarily unavailable")
                #expect(response.headers.first(name: "Retry-After") == "1", "\(path)")
                #expect(ContinuousClock.now - started < .seconds(10), "\(path) must not hang")
            }
        }
    }

    @Test func metricsUseRouteTemplates() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            _ = try await app.get("/api/v1/practices/\(Demo.practiceID.uuidString.lowercased())", token: vet)
            _ = try await app.get("/api/v1/practices/\(UUID().uuidString)", token: vet)
            _ = try await app.get("/api/v1/no/such/route/\(UUID().uuidString)")
            _ = try await app.get("/api/v1/auth/me")

            let response = try await app.get("/metrics")
            #expect(response.status == .ok)
            // Parameter order is not significant in a media type.
            let contentType = (response.headers.first(name: .contentType) ?? "").split(separator: ";")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(contentType.first == "text/plain")
            #expect(Set(contentType.dropFirst()) == ["version=0.0.4", "charset=utf-8"])
            let text = response.text
            let series = text.split(separator: "\n").filter { $0.hasPrefix("http_requests_total{") }.map(String.init)
            func has(_ labels: [String]) -> Bool { series.contains { line in labels.allSatisfy { line.contains($0) } } }
            #expect(has([#"method="GET""#, #"route="/api/v1/practices/:practice_id""#, #"status="200""#]), "\(series)")
            #expect(has([#"method="GET""#, #"route="/api/v1/practices/:practice_id""#, #"status="404""#]), "\(series)")
            #expect(has([#"route="unmatched""#, #"status="404""#]), "\(series)")
            #expect(has([#"route="/api/v1/auth/me""#, #"status="401""#]), "\(series)")
            // Ids never become labels.
            #expect(!text.contains(Demo.practiceID.uuidString.lowercased()))
            #expect(text.contains("http_request_duration_seconds_bucket{"))
            #expect(text.contains(#"route="/api/v1/practices/:practice_id""#))
            #expect(text.contains("# TYPE http_requests_total counter"))
        }
    }

    @Test func loginMetrics() async throws {
        try await withTestApp(env: ["LOGIN_MAX_FAILURES": "1"]) { app in
            _ = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "nope"])
            _ = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "nope"])
            let text = try await app.get("/metrics").text
            #expect(text.contains("helppet_login_failures_total 1"), "\(text)")
            #expect(text.contains("helppet_login_throttled_total 1"), "\(text)")
        }
    }

    @Test func metricsTokenProtectsMetrics() async throws {
        try await withTestApp(env: ["METRICS_TOKEN": "scrape-secret"]) { app in
            let anonymous = try await app.get("/metrics")
            expectError(anonymous, .unauthorized, "Not authenticated")
            #expect(anonymous.headers.first(name: .wwwAuthenticate) == "Bearer")
            expectError(try await app.get("/metrics", token: "wrong"), .unauthorized, "Not authenticated")
            let ok = try await app.get("/metrics", token: "scrape-secret")
            #expect(ok.status == .ok)
        }
    }

    @Test func publicEndpointsNeedNoToken() async throws {
        try await withTestApp { app in
            for path in ["/health", "/api/v1/health", "/health/ready", "/metrics"] {
                let response = try await app.get(path)
                #expect(response.status == .ok, "\(path)")
            }
        }
    }
}
