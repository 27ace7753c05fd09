import Foundation
import Testing
import VaporTesting

/// The transport rules of docs/transport-safety.md over real sockets: the Host header
/// must be there exactly once, and a client that goes away mid-body is counted as a client abort, never as a 500.
@Suite struct TransportRulesTests {
    typealias F = RecordingFixtures

    static func head(_ method: String, _ path: String, _ headers: [String]) -> String {
        "\(method) \(path) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    /// Sends `head`, then expects `status` within `within` seconds with a body `bodyCheck` accepts.
    static func expectAnswered(
        port: Int, head: String, status: Int, within: Double, _ bodyCheck: (String) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let connection = try await RawConnection.open(port: port)
        defer { connection.close() }
        let started = ContinuousClock.now
        await connection.send(Array(head.utf8))
        let answer = try #require(
            await connection.readAnswer(timeout: within + 5), "no answer to \(head)", sourceLocation: sourceLocation)
        #expect(answer.status == status, "\(answer.head)\n\(answer.body)", sourceLocation: sourceLocation)
        #expect(ContinuousClock.now - started < .milliseconds(Int(within * 1000)), sourceLocation: sourceLocation)
        #expect(bodyCheck(answer.body), "\(answer.body)", sourceLocation: sourceLocation)
    }

    @Test func theHostHeaderMustBeThereExactlyOnce() async throws {
        try await withTestApp { app in
            try await app.whileListening { port in
                try await Self.expectAnswered(
                    port: port, head: "GET /health HTTP/1.1\r\n\r\n", status: 400, within: 3
                ) { $0 == #"{"detail":"Missing Host header"}"# }
                try await Self.expectAnswered(
                    port: port, head: Self.head("GET", "/api/ping", ["Host: a.example", "Host: b.example"]),
                    status: 400, within: 3
                ) { $0 == #"{"error":"Duplicate Host header"}"# }
                // HTTP/1.0 may leave it out.
                let connection = try await RawConnection.open(port: port)
                defer { connection.close() }
                await connection.send("GET /health HTTP/1.0\r\n\r\n")
                #expect(await connection.readAnswer(timeout: 5)?.status == 200)
                // With one Host, as every client sends it, nothing changes.
                let fine = try await RawConnection.open(port: port)
                defer { fine.close() }
                await fine.send(Self.head("GET", "/health", ["Host: localhost"]))
                #expect(await fine.readAnswer(timeout: 5)?.status == 200)
            }
        }
    }

    @Test func aClientThatDisconnectsMidBodyIsAClientAbortNotA500() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await app.whileListening { port in
                let aborted = [
                    // A collected JSON body, and the streamed legacy upload, each cut off halfway.
                    (Self.head("POST", "/api/v1/auth/token", [
                        "Host: localhost", "Content-Type: application/json", "Content-Length: 100",
                    ]), #"{"username":"vet1","#),
                    (Self.head("POST", F.legacyPath, [
                        "Host: localhost", "Authorization: Bearer \(vet)",
                        "Content-Type: multipart/form-data; boundary=x", "Content-Length: 5000",
                    ]), "--x\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.m4a\"\r\n\r\nabc"),
                ]
                for (head, half) in aborted {
                    let connection = try await RawConnection.open(port: port)
                    await connection.send(head + half)
                    try await Task.sleep(for: .milliseconds(300))
                    connection.close()
                }
                try await Task.sleep(for: .milliseconds(500))
                let metrics = try await RawConnection.open(port: port)
                defer { metrics.close() }
                await metrics.send(Self.head("GET", "/metrics", ["Host: localhost"]))
                let text = try #require(await metrics.readAnswer(timeout: 5)).body
                let series = text.split(separator: "\n").filter { $0.hasPrefix("http_requests_total{") }
                #expect(!series.contains { $0.contains(#"status="500""#) }, "\(series)")
                #expect(series.contains { $0.contains(#"route="/api/v1/auth/token""#) && $0.contains(#"status="client_abort""#) },
                    "\(series)")
                #expect(series.contains { $0.contains(#"route="/api/v1/upload/audio""#) && $0.contains(#"status="client_abort""#) },
                    "\(series)")
            }
        }
    }

    /// The part of the slow-client rules the application can do (docs/transport-safety.md): a head that promises a body and then sends nothing held its
    /// socket forever, because the request never reaches the application; now the idle timeout frees it. Idle
    /// keep-alive connections go the same way, while a body that keeps moving, however slowly, is never cut.
    @Test func aConnectionOnWhichNothingMovesIsClosedAtTheIdleTimeout() async throws {
        try await withTestApp(env: ["HTTP_IDLE_TIMEOUT_SECONDS": "1"]) { app in
            try await app.whileListening { port in
                let silent = try await RawConnection.open(port: port)
                defer { silent.close() }
                await silent.send(Self.head("POST", "/api/v1/auth/token", [
                    "Host: localhost", "Content-Type: application/json", "Content-Length: 100",
                ]))
                #expect(await silent.closedByServer(within: 4), "a body that never starts must not hold the socket")

                let idle = try await RawConnection.open(port: port)
                defer { idle.close() }
                await idle.send(Self.head("GET", "/health", ["Host: localhost"]))
                #expect(await idle.readAnswer(timeout: 5)?.status == 200)
                #expect(await idle.closedByServer(within: 4), "an idle keep-alive connection must be closed")

                let slow = try await RawConnection.open(port: port)
                defer { slow.close() }
                let body = #"{"username":"nobody","password":"not-the-password"}"#
                await slow.send(Self.head("POST", "/api/v1/auth/token", [
                    "Host: localhost", "Content-Type: application/json", "Content-Length: \(body.utf8.count)",
                ]))
                for chunk in body.chunked(into: 8) {
                    try await Task.sleep(for: .milliseconds(400))
                    #expect(await slow.send(chunk), "a moving body must not be cut")
                }
                #expect(await slow.readAnswer(timeout: 5)?.status == 401)
            }
        }
    }
}

extension String {
    fileprivate func chunked(into size: Int) -> [String] {
        stride(from: 0, to: count, by: size).map { start in
            let from = index(startIndex, offsetBy: start)
            return String(self[from..<(index(from, offsetBy: size, limitedBy: endIndex) ?? endIndex)])
        }
    }
}
