import Foundation
import NIOHTTP1
import Testing

/// Contract §2.3: the login limits hold across every server process on one PostgreSQL database (the documented
/// scale-out is N stateless API nodes): a burst split over two processes gets no more passwords verified than one.
@Suite(.timeLimit(.minutes(20))) struct SharedLoginThrottleTests {
    @Test(.enabled(if: TestDatabase.runEngine == .postgres, "several processes share one database on PostgreSQL only"))
    func aBurstSplitOverTwoProcessesGetsTheSameBound() async throws {
        try await withServerDatabase { database, servers in
            let first = try await servers.start(database)
            let second = try await servers.start(database)
            let body = JSONBody.encode(["username": "vet1", "password": "wrong-password"])
            let statuses = try await withThrowingTaskGroup(of: HTTPResponseStatus.self) { group in
                for index in 0..<120 {
                    let server = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        try await server.client.send(
                            .POST, "/api/v1/auth/token", body: body, contentType: "application/json"
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let verified = statuses.filter { $0 == .unauthorized }.count
            #expect(verified <= 5 && verified >= 1, "\(verified) wrong passwords were verified")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 120 - verified)

            // Each process's own failure counter: together they verified no more than the limit.
            var counted = 0.0
            for server in [first, second] {
                let metrics = try await server.client.get("/metrics").text
                counted += Self.counter("helppet_login_failures_total", in: metrics)
            }
            #expect(counted == Double(verified), "failure counters \(counted), 401 answers \(verified)")

            // The block is shared too: the correct password is refused by both processes.
            for server in [first, second] {
                let correct = try await server.client.post(
                    "/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
                #expect(correct.status == .tooManyRequests, "\(correct)")
            }
        }
    }

    /// The value of an unlabelled Prometheus counter (0 when the process never incremented it).
    static func counter(_ name: String, in text: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.split(separator: " ").last ?? "") ?? 0
        }
        return 0
    }
}
