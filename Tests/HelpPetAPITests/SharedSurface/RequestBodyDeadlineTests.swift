import Foundation
import Testing
import VaporTesting

/// A request body that stalls is cut off with `408 Request timed out` and `Connection: close` after
/// `REQUEST_BODY_TIMEOUT_SECONDS` (slowloris), in each product's error format; streamed uploads are exempt, and a
/// body that arrives in time is served normally.
@Suite struct RequestBodyDeadlineTests {
    typealias F = RecordingFixtures

    @Test func aStalledBodyIsAnswered408AndTheConnectionClosed() async throws {
        try await withTestApp(env: ["REQUEST_BODY_TIMEOUT_SECONDS": "0.5"]) { app in
            let vet = try await app.token(for: Demo.vet1)
            try await app.whileListening { port in
                // HelpPet JSON route: 100 bytes declared, 10 sent, then silence.
                let helppet = "POST /api/v1/auth/token HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                let started = ContinuousClock.now
                let answer = try await Self.exchange(port: port, head: helppet, body: Array(#"{"username""#.utf8))
                #expect(answer.status == 408, "\(answer.text)")
                #expect(answer.text.contains(#"{"detail":"Request timed out"}"#), "\(answer.text)")
                #expect(answer.text.lowercased().contains("connection: close"), "\(answer.text)")
                #expect(ContinuousClock.now - started < .seconds(5))

                // AutoDetail route: the same in its {"error": ...} format.
                let autodetail = "POST /api/admin/login HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 80\r\n\r\n"
                let second = try await Self.exchange(port: port, head: autodetail, body: Array("{".utf8))
                #expect(second.status == 408, "\(second.text)")
                #expect(second.text.contains(#"{"error":"Request timed out"}"#), "\(second.text)")

                // The legacy multipart upload streams its body: no 408 while the client is still within its rights.
                let legacy = "POST \(F.legacyPath) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(vet)\r\n"
                    + "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 5000\r\n\r\n"
                let streaming = try await Self.exchange(port: port, head: legacy, body: Array("--x\r\n".utf8), timeoutSeconds: 2)
                #expect(streaming.status == 0, "no answer yet: the upload is exempt from the body deadline: \(streaming.text)")

                // A complete body is served normally.
                let body = #"{"username":"vet1","password":"password123"}"#
                let fine = "POST /api/v1/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                let served = try await Self.exchange(port: port, head: fine, body: Array(body.utf8))
                #expect(served.status == 200, "\(served.text)")
            }
        }
    }

    @Test func theTimeoutIsValidatedAtStart() async throws {
        for bad in ["0", "-1", "abc", "4000"] {
            await #expect(throws: (any Error).self, "\(bad)") {
                try await withTestApp(env: ["REQUEST_BODY_TIMEOUT_SECONDS": bad]) { _ in }
            }
        }
    }

    static func exchange(port: Int, head: String, body: [UInt8], timeoutSeconds: Int = 10) async throws -> RawHTTP.Answer {
        try await RawHTTP.exchangeOnThread(port: port, head: head, bodyPrefix: body, timeoutSeconds: timeoutSeconds)
    }
}
