import Foundation
import Testing

/// Recording uniqueness under real concurrency: two `server` processes over TCP sharing one database (a WAL SQLite
/// file, or one PostgreSQL database), contract §4.10/§4.11 and R3, R10, R21.
@Suite(.serialized) struct RecordingRaceTests {
    @Test func fiftyParallelInitiatesShareOneVisitThenAllConflict() async throws {
        try await withServerDatabase { database, group in
            let a = try await group.start(database)
            let b = try await group.start(database)
            let token = try await a.client.login(Demo.vet1)
            let appointment = try await RecordingProcessFixtures.multiPetAppointment(a, token: token)
            let bella = Demo.pet(1)

            let first = try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
                for i in 0..<50 {
                    let server = i.isMultiple(of: 2) ? a : b
                    tasks.addTask { try await RecordingProcessFixtures.initiate(server, token: token, pet: bella, appointment: appointment) }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            #expect(first.allSatisfy { $0.status == .ok }, "\(first.filter { $0.status != .ok })")
            let ids = Set(first.compactMap { $0.json["visit_id"].string })
            #expect(ids.count == 1, "\(ids)")
            let visits = try await a.client.get(
                "/api/v1/visit-transcripts/appointments/\(appointment)/visits?include_pending=true&pet_id=\(bella.uuidString.lowercased())",
                token: token)
            #expect(visits.json.count == 1)

            // Upload once, then five parallel completes: one transition, one job.
            let visitID = try #require(ids.first)
            #expect(try await RecordingProcessFixtures.upload(initiated: first[0], bytes: Array(repeating: 7, count: 4096)).status == .noContent)
            let completes = try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
                for i in 0..<5 {
                    let server = i.isMultiple(of: 2) ? a : b
                    tasks.addTask {
                        try await server.client.post(
                            "/api/v1/visit-transcripts/audio/upload/complete/\(visitID)", token: token, json: [:])
                    }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            #expect(completes.allSatisfy { $0.status == .ok && $0.json["state"].string == "processing" })
            #expect(Set(completes.compactMap { $0.json["updated_at"].string }).count == 1)
            #expect(Set(completes.compactMap { $0.json["metadata"]["transcription_job_id"].string }).count == 1)

            let second = try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
                for i in 0..<50 {
                    let server = i.isMultiple(of: 2) ? a : b
                    tasks.addTask { try await RecordingProcessFixtures.initiate(server, token: token, pet: bella, appointment: appointment) }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            #expect(second.allSatisfy { $0.status == .conflict && $0.json["visit_id"].string == visitID })
            #expect(second.allSatisfy {
                $0.detail == "Recording already exists for this appointment and pet. Visit ID: \(visitID)"
            })
        }
    }

    @Test func twentyParallelLegacyUploadsStoreExactlyOneObject() async throws {
        try await withServerDatabase { database, group in
            let a = try await group.start(database)
            let b = try await group.start(database)
            let token = try await a.client.login(Demo.vet1)
            let appointment = try await RecordingProcessFixtures.multiPetAppointment(a, token: token)
            let max = Demo.pet(2)
            let bytes = Array(repeating: UInt8(3), count: 256 * 1024)

            let results = try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
                for i in 0..<20 {
                    let server = i.isMultiple(of: 2) ? a : b
                    tasks.addTask {
                        try await RecordingProcessFixtures.legacyUpload(server, token: token, appointment: appointment, pet: max, bytes: bytes)
                    }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            let created = results.filter { $0.status == .created }
            #expect(created.count == 1, "\(results.map(\.status.code))")
            let winner = try #require(created.first?.json["visit_id"].string)
            let losers = results.filter { $0.status != .created }
            #expect(losers.allSatisfy { $0.status == .conflict && $0.json["visit_id"].string == winner }, "\(losers)")
            #expect(RecordingProcessFixtures.storedObjects(dataDir: database.directory, pet: max).count == 1)
        }
    }
}
