import Foundation
import NIOHTTP1
import Testing

/// Login throttling keyed by client address (contract §2.3), over TCP: the key is (username, client IP); the
/// client IP is the TCP peer, or with a trusted proxy the right-most `X-Forwarded-For` address not in
/// `TRUSTED_PROXIES`. Per-username and per-IP caps apply across keys.
@Suite(.timeLimit(.minutes(20))) struct LoginThrottleByClientAddressTests {
    static func attempt(
        _ server: ServerProcess, _ username: String, _ password: String, from ip: String?
    ) async throws -> TestResponse {
        var headers = HTTPHeaders()
        if let ip { headers.add(name: "X-Forwarded-For", value: ip) }
        return try await server.client.send(
            .POST, "/api/v1/auth/token", headers: headers,
            body: JSONBody.encode(["username": username, "password": password]), contentType: "application/json")
    }

    static func fail(_ server: ServerProcess, _ username: String, from ip: String?, times: Int) async throws {
        for _ in 0..<times {
            let response = try await attempt(server, username, "wrong-password", from: ip)
            #expect(response.status == .unauthorized, "\(response)")
        }
    }

    @Test func keyCapsAndProxyRules() async throws {
        try await withServerDatabase { database, servers in
            let server = try await servers.start(database, env: [
                "TRUSTED_PROXIES": "127.0.0.1", "LOGIN_USER_MAX_FAILURES": "8", "LOGIN_IP_MAX_FAILURES": "10",
            ])

            // (username, IP): five failures from one address block that address only.
            try await Self.fail(server, "vet1", from: "10.0.0.1", times: 5)
            let blocked = try await Self.attempt(server, "vet1", "password123", from: "10.0.0.1")
            #expect(blocked.status == .tooManyRequests, "\(blocked)")
            #expect(blocked.headers.first(name: "Retry-After") != nil)
            let elsewhere = try await Self.attempt(server, "vet1", "password123", from: "10.0.0.2")
            #expect(elsewhere.status == .ok, "\(elsewhere)")
            // The right-most address that is not a trusted proxy counts.
            let spoofed = try await Self.attempt(server, "vet1", "password123", from: "10.0.0.1, 10.0.0.9")
            #expect(spoofed.status == .ok, "\(spoofed)")
            let viaProxy = try await Self.attempt(server, "vet1", "password123", from: "10.0.0.9, 10.0.0.1, 127.0.0.1")
            #expect(viaProxy.status == .tooManyRequests, "\(viaProxy)")

            // Per username, all addresses together (cap 8 here).
            try await Self.fail(server, "vet2", from: "10.0.1.1", times: 4)
            try await Self.fail(server, "vet2", from: "10.0.1.2", times: 4)
            let userCapped = try await Self.attempt(server, "vet2", "password123", from: "10.0.1.3")
            #expect(userCapped.status == .tooManyRequests, "\(userCapped)")

            // Per address, all usernames together (cap 10 here).
            for n in 0..<10 {
                let response = try await Self.attempt(server, "nobody\(n)", "x", from: "10.0.2.1")
                #expect(response.status == .unauthorized, "\(response)")
            }
            let ipCapped = try await Self.attempt(server, "admin", "admin123", from: "10.0.2.1")
            #expect(ipCapped.status == .tooManyRequests, "\(ipCapped)")
            let otherAddress = try await Self.attempt(server, "admin", "admin123", from: "10.0.2.2")
            #expect(otherAddress.status == .ok, "\(otherAddress)")
        }
    }

    @Test func forwardedForFromAnUntrustedPeerIsIgnored() async throws {
        try await withServerDatabase { database, servers in
            let server = try await servers.start(database)  // no TRUSTED_PROXIES
            for n in 1...5 {
                let response = try await Self.attempt(server, "vet1", "wrong-password", from: "10.9.9.\(n)")
                #expect(response.status == .unauthorized, "\(response)")
            }
            // All five counted against (vet1, 127.0.0.1), whatever the header claimed.
            let blocked = try await Self.attempt(server, "vet1", "password123", from: "10.9.9.99")
            #expect(blocked.status == .tooManyRequests, "\(blocked)")
        }
    }
}
