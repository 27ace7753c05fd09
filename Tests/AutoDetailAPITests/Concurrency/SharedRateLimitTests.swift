import Foundation
import NIOHTTP1
import Testing

/// Contract §2.7: the limits are counted across every server process on one PostgreSQL database, and an attempt is
/// counted before it is processed, so a burst spread over two processes gets no more than one process would.
@Suite(.timeLimit(.minutes(20))) struct SharedRateLimitTests {
    static func burst(
        _ servers: [ServerProcess], count: Int, _ request: @escaping @Sendable (HTTPTestClient) async throws -> TestResponse
    ) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for index in 0..<count {
                let client = servers[index % servers.count].client
                group.addTask { try await request(client) }
            }
            return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
        }
    }

    @Test(.enabled(if: TestDatabase.runEngine == .postgres, "several processes share one database on PostgreSQL only"))
    func adminGuessesAndKeyChecksAreLimitedInTotal() async throws {
        try await withServerDatabase { database, group in
            let servers = [try await group.start(database), try await group.start(database)]

            let wrong = Array(JSONBody.encode(["username": "admin", "password": "wrong-password-x"]).utf8)
            let guesses = try await Self.burst(servers, count: 40) { client in
                try await client.send(.POST, "/api/admin/login", body: wrong, contentType: "application/json")
            }
            let verified = guesses.filter { $0.status == .unauthorized }.count
            #expect(verified >= 1 && verified <= 5, "\(verified) guesses verified: \(guesses.map(\.status.code))")
            #expect(guesses.filter { $0.status == .tooManyRequests }.count == 40 - verified)
            let right = Array(JSONBody.encode(["username": "admin", "password": TestEnvironment.adminPassword]).utf8)
            for server in servers {
                let login = try await server.client.send(.POST, "/api/admin/login", body: right, contentType: "application/json")
                #expect(login.status == .tooManyRequests, "\(login)")
            }

            // 30 key checks per IP per minute, whichever process answers.
            let check = Array(JSONBody.encode(["apiKey": "not-a-key"]).utf8)
            let checks = try await Self.burst(servers, count: 44) { client in
                try await client.send(.POST, "/api/auth/validate-key", body: check, contentType: "application/json")
            }
            #expect(checks.filter { $0.status == .tooManyRequests }.count == 14, "\(checks.map(\.status.code))")
            #expect(checks.filter { $0.status != .tooManyRequests }.allSatisfy { $0.status == .unauthorized })
        }
    }
}
