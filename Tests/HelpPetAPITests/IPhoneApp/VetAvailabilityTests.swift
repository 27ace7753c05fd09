import AppCore
import Foundation
import Testing
import VaporTesting

/// The app's work-schedule screen: `/scheduling-unix/vet-availability` with the app's own models and encoders.
@Suite struct VetAvailabilityTests {
    static let base = "/api/v1/scheduling-unix/vet-availability"
    static let utc = TimeZone(identifier: "UTC")!

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    static func create(
        _ client: AppClient, vet: UUID = Demo.vet1.id, from start: Date, to end: Date,
        type: App.AvailabilityType = .available, notes: String? = nil, expect: Set<UInt> = [201]
    ) async throws -> TestResponse {
        let body = App.VetAvailabilityCreateRequest(
            vetUserId: vet.lowercased, practiceId: Demo.practiceID.lowercased, startAt: start, endAt: end,
            availabilityType: type, notes: notes)
        let response = try await client.raw(.POST, base, body: try AppCoding.availabilityEncoder.encode(body))
        #expect(expect.contains(response.status.code), "\(response)")
        return response
    }

    static func day(_ client: AppClient, vet: UUID = Demo.vet1.id, _ date: String, zone: String) async throws
        -> [App.VetAvailability]
    {
        try await client.get("\(base)/\(vet.lowercased)?date=\(date)&timezone=\(zone)", as: [App.VetAvailability].self)
    }

    @Test(arguments: ClientKind.allCases)
    func theAppCreatesListsEditsAndDeletesAWindow(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: kind)
            let day = try #require(CalendarDay("2030-06-03"))
            let start = LocalDay.instant(on: day, hour: 9, minute: 0, in: Demo.zone)
            let end = LocalDay.instant(on: day, hour: 17, minute: 0, in: Demo.zone)
            let created = try AppCoding.decoder.decode(
                App.VetAvailability.self, from: try await Self.create(client, from: start, to: end).body)
            #expect(created.startAt == start && created.endAt == end)
            #expect(created.availabilityType == .available && created.isActive && created.notes == nil)
            #expect(created.vetUserId == Demo.vet1.id.lowercased && created.practiceId == Demo.practiceID.lowercased)

            let listed = try await Self.day(client, "2030-06-03", zone: "America/Los_Angeles")
            #expect(listed.map(\.id) == [created.id])

            let edit = App.VetAvailabilityUpdateRequest(
                startAt: nil, endAt: LocalDay.instant(on: day, hour: 12, minute: 0, in: Demo.zone),
                availabilityType: .surgeryBlock, notes: "Spay clinic", isActive: nil)
            let updated = try await client.call(
                .PUT, "\(Self.base)/\(created.id)", body: try AppCoding.availabilityEncoder.encode(edit),
                as: App.VetAvailability.self)
            #expect(updated.availabilityType == .surgeryBlock && updated.notes == "Spay clinic")
            #expect(updated.startAt == start)

            #expect(try await client.raw(.DELETE, "\(Self.base)/\(created.id)").status == .noContent)
            #expect(try await Self.day(client, "2030-06-03", zone: "America/Los_Angeles").isEmpty)
            #expect(try await client.raw(.DELETE, "\(Self.base)/\(created.id)").status == .notFound)
        }
    }

    /// 8 March 2026 is 23 hours long in Los Angeles (DST starts): 08:00Z to 07:00Z the next day. A window starting
    /// at the next local midnight is not on that day, although it starts within 24 hours of the day's start.
    @Test func theLocalDayOfTheGivenZoneIsDSTCorrect() async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: .legacy)
            let acrossStart = try await Self.create(
                client, from: try Self.instant("2026-03-08T07:30:00Z"), to: try Self.instant("2026-03-08T08:30:00Z"))
            let lastHalfHour = try await Self.create(
                client, from: try Self.instant("2026-03-09T06:30:00Z"), to: try Self.instant("2026-03-09T07:00:00Z"))
            let nextDay = try await Self.create(
                client, from: try Self.instant("2026-03-09T07:00:00Z"), to: try Self.instant("2026-03-09T08:00:00Z"))
            let ids = [acrossStart, lastHalfHour, nextDay].compactMap { $0.json["id"].string }
            try #require(ids.count == 3)

            let losAngeles = try await Self.day(client, "2026-03-08", zone: "America/Los_Angeles")
            #expect(losAngeles.map(\.id) == [ids[0], ids[1]])
            // The same date in another zone is another window of instants (Berlin: 23:00Z to 23:00Z).
            let berlin = try await Self.day(client, "2026-03-08", zone: "Europe/Berlin")
            #expect(berlin.map(\.id) == [ids[0]])
            let nextLocalDay = try await Self.day(client, "2026-03-09", zone: "America/Los_Angeles")
            #expect(nextLocalDay.map(\.id) == [ids[2]])
        }
    }

    @Test func overlappingWindowsOfOneVetAreRefused() async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: .standard)
            let nine = try Self.instant("2030-06-03T16:00:00Z"), noon = try Self.instant("2030-06-03T19:00:00Z")
            let eleven = try Self.instant("2030-06-03T18:00:00Z"), one = try Self.instant("2030-06-03T20:00:00Z")
            _ = try await Self.create(client, from: nine, to: noon)
            let clash = try await Self.create(client, from: eleven, to: one, expect: [409])
            expectError(clash, .conflict, "The vet already has an availability window overlapping this time")
            // Touching is not overlapping, and another vet's schedule is separate.
            let afternoon = try await Self.create(client, from: noon, to: one)
            _ = try await Self.create(client, vet: Demo.vet2.id, from: eleven, to: one)
            // Moving a window onto another one is refused too; deactivating it first frees the time.
            let id = try #require(afternoon.json["id"].string)
            let move = try await app.put("\(Self.base)/\(id)", token: client.token, json: ["start_at": "2030-06-03T18:30:00Z"])
            expectError(move, .conflict, "The vet already has an availability window overlapping this time")
            let off = try await app.put("\(Self.base)/\(id)", token: client.token, json: ["is_active": false])
            #expect(off.status == .ok, "\(off)")
            _ = try await Self.create(client, from: try Self.instant("2030-06-03T19:30:00Z"), to: one)
        }
    }

    /// Two clients saving overlapping windows for one vet at the same moment: exactly one gets 201.
    @Test func concurrentOverlappingCreatesHaveOneWinner() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            for round in 0..<4 {
                func body(_ startHour: Int) -> [String: Any?] {
                    ["vet_user_id": Demo.vet1.id.lowercased, "start_at": "2030-07-0\(round + 1)T\(startHour):00:00Z",
                     "end_at": "2030-07-0\(round + 1)T\(startHour + 2):00:00Z"]
                }
                async let first = app.post(Self.base, token: token, json: body(16))
                async let second = app.post(Self.base, token: token, json: body(17))
                let results = try await [first, second]
                #expect(results.map(\.status.code).sorted() == [201, 409], "\(results)")
            }
        }
    }

    @Test func windowsArePracticeScopedAndStaffOnly() async throws {
        try await withTestApp { app in
            let vet1 = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: .standard)
            let created = try await Self.create(
                vet1, from: try Self.instant("2030-06-03T16:00:00Z"), to: try Self.instant("2030-06-03T17:00:00Z"))
            let id = try #require(created.json["id"].string)
            let other = try await AppointmentFixtures.otherPractice(app)
            let vetPath = "\(Self.base)/\(Demo.vet1.id.lowercased)?date=2030-06-03&timezone=America/Los_Angeles"

            expectError(try await app.get(vetPath, token: other.vetToken), .notFound, "Vet not found")
            expectError(
                try await app.put("\(Self.base)/\(id)", token: other.vetToken, json: ["notes": "x"]),
                .notFound, "Vet availability not found")
            expectError(try await app.delete("\(Self.base)/\(id)", token: other.vetToken), .notFound, "Vet availability not found")
            let foreign = try await app.post(Self.base, token: other.vetToken, json: [
                "vet_user_id": Demo.vet1.id.lowercased, "start_at": "2030-06-04T16:00:00Z", "end_at": "2030-06-04T17:00:00Z",
            ])
            expectError(foreign, .notFound, "Vet not found")
            let owner = try await app.token(for: Demo.owner1)
            #expect(try await app.get(vetPath, token: owner).status == .forbidden)
            #expect(try await app.get(vetPath).status == .unauthorized)
            let admin = try await app.get(vetPath, token: try await app.token(for: Demo.admin))
            #expect(admin.status == .ok && admin.json.array?.count == 1, "\(admin)")
        }
    }

    /// A device set to UTC (any Linux-hosted client, some real phones) reports `Etc/UTC`, `Etc/GMT` or `GMT`: names
    /// of UTC in the tz database, listed for the UTC day like `UTC` itself.
    @Test func aDeviceInUTCByAnyOfItsNamesGetsTheUTCDay() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            let vet1 = AppClient(app: app, token: token, kind: .standard)
            // 23:30 UTC on 3 June: the UTC day of 3 June holds it, Los Angeles' 3 June too (16:30 local).
            _ = try await Self.create(
                vet1, from: try Self.instant("2030-06-03T23:30:00Z"), to: try Self.instant("2030-06-04T00:30:00Z"))
            let path = "\(Self.base)/\(Demo.vet1.id.lowercased)?date=2030-06-04&timezone="
            let inUTC = try await app.get(path + "UTC", token: token)
            #expect(inUTC.status == .ok && inUTC.json.array?.count == 1, "\(inUTC)")
            for name in ["Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Zulu"] {
                let response = try await app.get(path + name, token: token)
                #expect(response.status == .ok, "\(name): \(response)")
                #expect(response.json.array?.count == 1, "\(name): the UTC day of 4 June holds the window's last 30 minutes")
            }
            let losAngeles = try await app.get(path + "America/Los_Angeles", token: token)
            #expect(losAngeles.json.array?.count == 0, "4 June in Los Angeles starts at 07:00 UTC")
        }
    }

    @Test func badInputIsA400WithAClearMessage() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            let vet = Demo.vet1.id.lowercased
            expectError(
                try await app.get("\(Self.base)/\(vet)?date=2030-06-03&timezone=Mars/Olympus", token: token), .badRequest,
                "timezone must be an IANA time zone name such as America/Los_Angeles")
            func post(_ body: [String: Any?]) async throws -> TestResponse {
                var full: [String: Any?] = ["vet_user_id": vet, "start_at": "2030-06-03T16:00:00Z", "end_at": "2030-06-03T17:00:00Z"]
                full.merge(body) { _, new in new }
                return try await app.post(Self.base, token: token, json: full)
            }
            expectError(try await post(["end_at": "2030-06-03T15:00:00Z"]), .badRequest, "end_at must be after start_at")
            expectError(try await post(["end_at": "2030-06-03T16:00:00Z"]), .badRequest, "end_at must be after start_at")
            #expect(try await post(["availability_type": "HOLIDAY"]).status == .badRequest)
            #expect(try await post(["start_at": "2030-06-03T16:00:00"]).status == .badRequest)
            expectError(
                try await post(["end_at": "2030-08-03T17:00:00Z"]), .badRequest, "An availability window may last at most 31 days")
            expectError(
                try await post(["practice_id": UUID().uuidString.lowercased()]), .badRequest,
                "practice_id must be the vet's practice")
        }
    }
}
