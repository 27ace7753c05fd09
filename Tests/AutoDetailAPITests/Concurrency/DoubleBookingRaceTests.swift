import AppCore
@testable import AutoDetailAPI
import Foundation
import NIOHTTP1
import Testing

/// No double booking, ever (contract §3.9 rule 5, §6 rule 13): two `server` processes over TCP share one database
/// (a file-backed WAL SQLite file, or one PostgreSQL database) and receive parallel bookings. In-process tests do not
/// count for these rules (ARCHITECTURE.md "Database concurrency rules").
@Suite(.serialized) struct DoubleBookingRaceTests {
    /// Two servers on one database, the printed organisation key and an admin token.
    struct Pair {
        let first: ServerProcess
        let second: ServerProcess
        let key: String
        let admin: String

        func server(_ i: Int) -> ServerProcess { i.isMultiple(of: 2) ? first : second }

        /// Tomorrow's first slot of Car Washing with every bay free (studio zone Europe/Moscow).
        func freeSlot() async throws -> String {
            let services = try await first.client.send(.GET, "/api/client/services")
            let washing = try #require((services.json.array ?? []).first { $0["name"].string == "Car Washing" })
            let id = try #require(washing["id"].string)
            let tomorrow = LocalDay.day(containing: Date(), in: TimeZone(identifier: "Europe/Moscow")!).adding(days: 1)
            let availability = try await first.client.send(.GET, "/api/client/availability?serviceId=\(id)&date=\(tomorrow)")
            let capacity = availability.json["capacity"].int
            let slot = (availability.json["slots"].array ?? []).first {
                $0["available"].bool == true && $0["remaining"].int == capacity
            }
            return try #require(slot?["startIso"].string)
        }

        func book(_ i: Int, start: String, key: String? = nil, body: Data? = nil, headers: HTTPHeaders = [:]) async throws
            -> TestResponse
        {
            try await server(i).client.json(
                .POST, "/api/client/appointments", key: key ?? self.key,
                body: try body ?? Fixture.seedBookingBody(startIso: start), headers: headers)
        }

        /// Non-cancelled appointments starting at `start`, read through the console API of the second server.
        func stored(at start: String) async throws -> Int {
            let day = String(start.prefix(10))
            let list = try await second.client.send(.GET, "/api/admin/appointments?from=\(day)&limit=200", bearer: admin)
            return (list.json.array ?? []).filter { $0["startIso"].string == start && $0["status"].string != "cancelled" }.count
        }
    }

    static func withPair<T>(_ body: (Pair) async throws -> T) async throws -> T {
        try await withServerDatabase { database, group in
            let first = try await group.start(database)
            let second = try await group.start(database)
            let output = first.output
            let range = try #require(output.range(of: #"org_[0-9]{10}_[0-9a-f]{24}"#, options: .regularExpression), "\(output)")
            let login = try await first.client.json(
                .POST, "/api/admin/login",
                body: try JSONSerialization.data(withJSONObject: ["username": "admin", "password": TestEnvironment.adminPassword]))
            let admin = try #require(login.json["token"].string, "\(login)")
            return try await body(Pair(first: first, second: second, key: String(output[range]), admin: admin))
        }
    }

    static func parallel(_ count: Int, _ request: @escaping @Sendable (Int) async throws -> TestResponse) async throws
        -> [TestResponse]
    {
        try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
            for i in 0..<count { tasks.addTask { try await request(i) } }
            var all: [TestResponse] = []
            for try await response in tasks { all.append(response) }
            return all
        }
    }

    @Test func twentyParallelBookingsForTwoFreeBaysAcrossTwoServers() async throws {
        try await Self.withPair { pair in
            let install = try #require(try await pair.second.client.send(.POST, "/api/ios/init").json["apiKey"].string)
            let start = try await pair.freeSlot()
            let results = try await Self.parallel(20) { i in
                try await pair.book(i, start: start, key: i % 4 < 2 ? pair.key : install)
            }
            let refused = results.filter { $0.status != .created }
            #expect(results.filter { $0.status == .created }.count == 2, "\(results.map(\.status.code))")
            #expect(refused.count == 18)
            for response in refused { expectError(response, .conflict, "Time slot is no longer available") }
            #expect(try await pair.stored(at: start) == 2, "the database holds exactly two bookings")
        }
    }

    /// §6 worked example: capacity 2, one booking at 11:00, 10 parallel requests for 11:00 → one 201, nine 409.
    @Test func oneFreeBayTenParallelRequests() async throws {
        try await Self.withPair { pair in
            let start = try await pair.freeSlot()
            #expect(try await pair.book(0, start: start).status == .created)
            let results = try await Self.parallel(10) { i in try await pair.book(i, start: start) }
            #expect(results.filter { $0.status == .created }.count == 1, "\(results.map(\.status.code))")
            let refused = results.filter { $0.status != .created }
            #expect(refused.count == 9)
            for response in refused { expectError(response, .conflict, "Time slot is no longer available") }
            #expect(try await pair.stored(at: start) == 2)
        }
    }

    /// §6 worked example: capacity 1, parallel bookings of two overlapping slots (10:00 and 10:30) → one 201, one 409;
    /// repeated with more requests of both slots.
    @Test func capacityOneOverlappingSlots() async throws {
        try await Self.withPair { pair in
            let settings = try await pair.first.client.json(
                .PUT, "/api/admin/settings", bearer: pair.admin, body: Data(#"{"capacity": 1}"#.utf8))
            #expect(settings.status == .ok, "\(settings)")
            let start = try await pair.freeSlot()
            let later = WireTime.format(try #require(ParsedInstant(start)).date.addingTimeInterval(1800))
            let pairResults = try await Self.parallel(2) { i in try await pair.book(i, start: i == 0 ? start : later) }
            #expect(pairResults.filter { $0.status == .created }.count == 1, "\(pairResults.map(\.status.code))")
            #expect(pairResults.filter { $0.status == .conflict }.count == 1)

            let nextStart = WireTime.format(try #require(ParsedInstant(start)).date.addingTimeInterval(3 * 3600))
            let nextLater = WireTime.format(try #require(ParsedInstant(nextStart)).date.addingTimeInterval(1800))
            let results = try await Self.parallel(12) { i in try await pair.book(i, start: i % 4 < 2 ? nextStart : nextLater) }
            #expect(results.filter { $0.status == .created }.count == 1, "\(results.map(\.status.code))")
            #expect(results.filter { $0.status == .conflict }.count == 11)
        }
    }

    /// Two concurrent requests with one `Idempotency-Key` create at most one appointment (§4.4.1).
    @Test func oneIdempotencyKeyAcrossTwoServers() async throws {
        try await Self.withPair { pair in
            let start = try await pair.freeSlot()
            // A replay needs a byte-identical body (JSONSerialization's key order varies between dictionaries).
            let body = try Fixture.seedBookingBody(startIso: start)
            let results = try await Self.parallel(8) { i in
                try await pair.book(i, start: start, body: body, headers: ["Idempotency-Key": "retry-\(start)"])
            }
            #expect(results.allSatisfy { $0.status == .created }, "\(results.map(\.status.code))")
            #expect(Set(results.compactMap { $0.json["id"].string }).count == 1)
            #expect(results.filter { $0.headers.first(name: "Idempotent-Replayed") == "true" }.count == 7)
            #expect(try await pair.stored(at: start) == 1)
        }
    }
}
