import Foundation
import Testing
import VaporTesting

/// Hostile JSON bodies over a real socket: an oversized body is refused with 413 (at once when its length is declared,
/// before it is read), a deeply nested document with 400 (the parser would otherwise recurse once per level), and the
/// server keeps answering afterwards. Contract §1.3 (1 MiB, `Malformed JSON body`). AutoDetail's side (same AppCore
/// code, its own limit and message) is in its SharedSurfaceTests.
@Suite struct HostileBodyTests {
    struct Route: Sendable {
        let path: String
        let headers: String
        let error: @Sendable (String) -> String
    }

    static func helppet(_ token: String) -> Route {
        Route(path: "/api/v1/appointments", headers: "Authorization: Bearer \(token)\r\n") { #"{"detail":"\#($0)"}"# }
    }

    static func post(_ route: Route, port: Int, declaredLength: Int, body: [UInt8]) async throws -> RawHTTP.Answer {
        let head = "POST \(route.path) HTTP/1.1\r\nHost: localhost\r\n\(route.headers)Content-Type: application/json\r\n"
            + "Content-Length: \(declaredLength)\r\nConnection: close\r\n\r\n"
        return try await RequestBodyDeadlineTests.exchange(port: port, head: head, body: body)
    }

    static func post(_ route: Route, port: Int, json: String) async throws -> RawHTTP.Answer {
        try await post(route, port: port, declaredLength: json.utf8.count, body: Array(json.utf8))
    }

    static func withServer(_ body: (_ port: Int, _ vetToken: String) async throws -> Void) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await app.whileListening { port in
                try await body(port, vet)
                let health = try await RequestBodyDeadlineTests.exchange(
                    port: port, head: "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", body: [])
                #expect(health.status == 200, "the server still answers: \(health.text)")
            }
        }
    }

    @Test func oversizedBodiesAre413BeforeTheyAreRead() async throws {
        try await Self.withServer { port, vet in
            for (route, limit, message) in [(Self.helppet(vet), 1_048_576, "Request body too large")] {
                // 10 GiB declared, 1 KiB sent: the answer comes at once, without waiting for the rest.
                let started = ContinuousClock.now
                let declared = try await Self.post(route, port: port, declaredLength: 10 << 30, body: Array(repeating: 0x20, count: 1024))
                #expect(declared.status == 413, "\(route.path): \(declared.text)")
                #expect(declared.text.lowercased().contains("connection: close"), "the body stays unread: \(declared.text)")
                #expect(declared.text.hasSuffix(route.error(message)), "\(route.path): \(declared.text)")
                #expect(ContinuousClock.now - started < .seconds(5))

                // One byte over the limit, all of it sent.
                let padding = String(repeating: " ", count: limit + 1 - 2)
                let over = try await Self.post(route, port: port, json: "{" + padding + "}")
                #expect(over.status == 413, "\(route.path): \(over.text)")
                #expect(over.text.hasSuffix(route.error(message)), "\(route.path): \(over.text)")
            }
        }
    }

    @Test func deeplyNestedJSONIs400() async throws {
        try await Self.withServer { port, vet in
            for (route, message, levels) in [(Self.helppet(vet), "Malformed JSON body", 400_000)] {
                for document in [
                    String(repeating: "[", count: levels) + String(repeating: "]", count: levels),
                    #"{"a":"# + String(repeating: "[", count: levels),
                    String(repeating: #"{"a":"#, count: levels / 5) + "1" + String(repeating: "}", count: levels / 5),
                    // One level over the parser's bound (64), well-formed.
                    #"{"a":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}",
                ] {
                    let answer = try await Self.post(route, port: port, json: document)
                    #expect(answer.status == 400, "\(route.path) (\(document.prefix(20))…): \(answer.text)")
                    #expect(answer.text.hasSuffix(route.error(message)), "\(route.path): \(answer.text)")
                }
                // At the bound the document is parsed, and the route's own validation answers.
                let deepest = #"{"a":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
                let answer = try await Self.post(route, port: port, json: deepest)
                #expect(answer.status == 400, "\(route.path): \(answer.text)")
                #expect(!answer.text.hasSuffix(route.error(message)), "64 levels are allowed: \(answer.text)")
            }
        }
    }
}
