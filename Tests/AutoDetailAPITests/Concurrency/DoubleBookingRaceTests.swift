import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing

/// No double booking, ever (contract §3.9 rule 5, §6 rule 13): two `server` processes over TCP share one database
/// (a file-backed WAL SQLite file, or one PostgreSQL database) and receive parallel bookings of one slot.
@Suite(.serialized) struct DoubleBookingRaceTests {
    /// Logs in to the first server and returns tomorrow's first bookable Car Washing slot and the service id.
    static func freeSlot(_ server: ServerProcess) async throws -> (start: String, serviceID: String) {
        let services = try await server.client.send(.GET, "/api/client/services")
        let washing = try #require((services.json.array ?? []).first { $0["name"].string == "Car Washing" })
        let serviceID = try #require(washing["id"].string)
        let tomorrow = LocalDay.day(containing: Date(), in: TimeZone(identifier: "Europe/Moscow")!).adding(days: 1)
        let availability = try await server.client.send(.GET, "/api/client/availability?serviceId=\(serviceID)&date=\(tomorrow)")
        let slot = try #require((availability.json["slots"].array ?? []).first { $0["available"].bool == true && $0["remaining"].int == 2 })
        return (try #require(slot["startIso"].string), serviceID)
    }

    static func orgKey(_ server: ServerProcess) throws -> String {
        let output = server.output
        let range = try #require(output.range(of: #"org_[0-9]{10}_[0-9a-f]{24}"#, options: .regularExpression), "\(output)")
        return String(output[range])
    }

    @Test func twentyParallelBookingsForTwoFreeBaysAcrossTwoServers() async throws {
        try await withServerDatabase { database, group in
            let first = try await group.start(database)
            let second = try await group.start(database)
            let key = try Self.orgKey(first)
            let install = try #require(try await second.client.send(.POST, "/api/ios/init").json["apiKey"].string)
            let (start, _) = try await Self.freeSlot(first)

            let results = try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
                for i in 0..<20 {
                    let server = i.isMultiple(of: 2) ? first : second
                    let credential = i % 4 < 2 ? key : install
                    tasks.addTask {
                        try await server.client.json(
                            .POST, "/api/client/appointments", key: credential,
                            body: try Fixture.seedBookingBody(startIso: start))
                    }
                }
                var all: [TestResponse] = []
                for try await response in tasks { all.append(response) }
                return all
            }
            let created = results.filter { $0.status == .created }
            let refused = results.filter { $0.status != .created }
            #expect(created.count == 2, "\(results.map(\.status.code))")
            #expect(refused.count == 18)
            for response in refused { expectError(response, .conflict, "Time slot is no longer available") }

            // The database holds exactly two bookings for the slot.
            let admin = try await first.client.json(
                .POST, "/api/admin/login",
                body: try JSONSerialization.data(withJSONObject: ["username": "admin", "password": TestEnvironment.adminPassword]))
            let token = try #require(admin.json["token"].string)
            let day = String(start.prefix(10))
            let stored = try await second.client.send(.GET, "/api/admin/appointments?from=\(day)&limit=200", bearer: token)
            let atSlot = (stored.json.array ?? []).filter { $0["startIso"].string == start && $0["status"].string != "cancelled" }
            #expect(atSlot.count == 2, "\(stored)")
            #expect(stored.headers.first(name: "X-Total-Count") == "2")
        }
    }

    @Test func overlappingSlotsWithOneFreeBayAcrossTwoServers() async throws {
        try await withServerDatabase { database, group in
            let first = try await group.start(database)
            let second = try await group.start(database)
            let key = try Self.orgKey(first)
            let (start, _) = try await Self.freeSlot(first)
            // One bay taken at `start`; the other requests target `start` and the slot 30 minutes later (overlapping).
            let taken = try await first.client.json(.POST, "/api/client/appointments", key: key, body: try Fixture.seedBookingBody(startIso: start))
            #expect(taken.status == .created, "\(taken)")
            let later = WireTime.format(try #require(InstantInput(start)).date.addingTimeInterval(1800))
            let results = try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
                for i in 0..<12 {
                    let server = i.isMultiple(of: 2) ? first : second
                    let slot = i % 4 < 2 ? start : later
                    tasks.addTask {
                        try await server.client.json(.POST, "/api/client/appointments", key: key, body: try Fixture.seedBookingBody(startIso: slot))
                    }
                }
                var all: [TestResponse] = []
                for try await response in tasks { all.append(response) }
                return all
            }
            #expect(results.filter { $0.status == .created }.count == 1, "\(results.map(\.status.code))")
            #expect(results.filter { $0.status == .conflict }.count == 11)
        }
    }
}
