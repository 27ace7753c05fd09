import Foundation
import Testing

/// Initiates under SUSTAINED contention on one (appointment, pet) — 32 connections, each sending initiates
/// back to back for several seconds, as `wrk` does — all succeed on one visit row. Before, a reissue compared the
/// URL time of the row as read and lost to every concurrent reissue from another second, and eight lost rounds in
/// a row answered 503.
@Suite(.serialized) struct InitiateContentionTests {
    @Test func thirtyTwoConnectionsInitiatingForOnePetGetOnlySuccessesAndOneVisit() async throws {
        try await withServerDatabase { database, group in
            let server = try await group.start(database)
            let token = try await server.client.login(Demo.vet1)
            let appointment = try await RecordingProcessFixtures.multiPetAppointment(server, token: token)
            let bella = Demo.pet(1)
            let deadline = ContinuousClock.now + .seconds(4)

            let answers = try await withThrowingTaskGroup(of: [TestResponse].self) { tasks in
                for _ in 0..<32 {
                    tasks.addTask {
                        var answers: [TestResponse] = []
                        // Back to back across several second boundaries, where the old retry loop lost.
                        while ContinuousClock.now < deadline || answers.count < 3 {
                            answers.append(try await RecordingProcessFixtures.initiate(
                                server, token: token, pet: bella, appointment: appointment))
                        }
                        return answers
                    }
                }
                return try await tasks.reduce(into: []) { $0 += $1 }
            }
            let failures = answers.filter { $0.status != .ok && $0.status != .conflict }
            #expect(failures.isEmpty, "\(failures.count) of \(answers.count): \(failures.prefix(3))")
            let ids = Set(answers.compactMap { $0.json["visit_id"].string })
            #expect(ids.count == 1, "\(ids)")
            let visits = try await server.client.get(
                "/api/v1/visit-transcripts/appointments/\(appointment)/visits?include_pending=true&pet_id=\(bella.uuidString.lowercased())",
                token: token)
            #expect(visits.json.count == 1, "\(visits)")
        }
    }
}
