import AppCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import VaporTesting

/// No N+1 queries: the dashboard and every list endpoint issue at most 6 SQL statements (authentication
/// included) whether the page holds one appointment or fifty. Statements are counted from the drivers'
/// "Executing query" debug log lines, grouped by request id.
@Suite struct QueryCountTests {
    static let limit = 6

    @Test func listEndpointsUseABoundedNumberOfStatements() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "true"]) { app in
            let counter = StatementCounter()
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let owner = try await app.token(for: Demo.owner1)
            let day = app.seedDay.description
            let first = Demo.appointmentID(1, app).lowercased
            let endpoints: [(String, String)] = [
                (vet, "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)?date=\(day)"),
                (vet, "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today?date=\(day)"),
                (admin, "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today?date=\(day)"),
                (vet, "/api/v1/appointments/practice/\(Demo.practiceID.lowercased)?date=\(day)"),
                (vet, "/api/v1/appointments/pet-owner/\(Demo.owner(1).lowercased)"),
                (owner, "/api/v1/appointments/pet-owner/\(Demo.owner(1).lowercased)"),
                (admin, "/api/v1/users"),
                (vet, "/api/v1/practices"),
                (owner, "/api/v1/practices"),
                (vet, "/api/v1/pet-owners"),
                (admin, "/api/v1/pet-owners"),
                (vet, "/api/v1/pets/owner/\(Demo.owner(1).lowercased)"),
                (vet, "/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)"),
                (vet, "/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)/history"),
                (owner, "/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)"),
                (vet, "/api/v1/visit-transcripts/pet/\(Demo.pet(1).lowercased)"),
                (vet, "/api/v1/visit-transcripts/appointments/\(first)/visits"),
            ]

            func measure() async throws -> [Int] {
                var counts: [Int] = []
                for (token, path) in endpoints {
                    // The fewest of three tries: authentication is cached for one second (ReadPathCaches), so
                    // whether a try loads the cache depends on timing; the fewest is the endpoint's own count.
                    var fewest = Int.max
                    for _ in 0..<3 {
                        let requestID = "count-\(UUID().uuidString.lowercased())"
                        let response = try await app.get(path, token: token, headers: ["X-Request-ID": requestID])
                        #expect(response.status == .ok, "\(path): \(response)")
                        fewest = min(fewest, counter.count(for: requestID))
                    }
                    counts.append(fewest)
                }
                return counts
            }

            app.logger = Logger(label: "statement-counter") { _ in counter }
            app.logger.logLevel = .debug
            let small = try await measure()

            // Grow every list: 50 appointments of owner 1 with three pets each today, records and visits of Bella.
            for i in 0..<50 {
                _ = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                    pets: [Demo.pet(1), Demo.pet(2), Demo.pet(3)],
                    date: WireTime.format(app.testSeedTime.addingTimeInterval(Double(i * 60)))))
                _ = try await app.post("/api/v1/medical-records", token: vet, json: [
                    "pet_id": Demo.pet(1).lowercased, "record_type": "checkup", "title": "Exam \(i)",
                ])
                _ = try await app.post("/api/v1/visit-transcripts", token: vet, json: [
                    "pet_id": Demo.pet(1).lowercased, "visit_date": Int(app.testSeedTime.timeIntervalSince1970) - i,
                    "full_text": "Visit \(i)",
                ])
            }
            let large = try await measure()

            for (index, (_, path)) in endpoints.enumerated() where large[index] > Self.limit || large[index] != small[index] {
                Issue.record("\(path): \(small[index]) statements with the demo data, \(large[index]) with 50+ rows")
            }
            for (index, (_, path)) in endpoints.enumerated() {
                #expect(small[index] > 0, "\(path) was not counted")
                #expect(large[index] <= Self.limit, "\(path): \(large[index]) statements with 50+ rows")
                #expect(large[index] == small[index], "\(path): \(small[index]) statements grew to \(large[index])")
            }
        }
    }
}


/// The hot reads (docs/read-path.md) are ONE statement each, authentication included: the bearer check is answered by the
/// process-local cache (at most one second old), and everything else (visibility, counts, the page, pets,
/// recordings, zones, availability windows) is inside the one statement. A second statement fails this test.
@Suite struct HotReadStatementTests {
    @Test func everyHotReadIsExactlyOneStatement() async throws {
        try await RecordingFixtures.withApp { app in
            let counter = StatementCounter()
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let owner = try await app.token(for: Demo.owner1)
            let day = app.seedDay.description
            let appointment = Demo.appointmentID(1, app)
            let bella = Demo.pet(1).lowercased
            let visitID = try await RecordingFixtures.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            let endpoints: [(String, String)] = [
                (vet, "/api/v1/appointments/\(appointment.lowercased)"),
                (owner, "/api/v1/appointments/\(appointment.lowercased)"),
                (admin, "/api/v1/appointments/\(appointment.lowercased)"),
                (vet, "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today?date=\(day)"),
                (admin, "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today?date=\(day)"),
                (vet, "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)?date=\(day)"),
                (vet, "/api/v1/pets/\(bella)"),
                (owner, "/api/v1/pets/\(bella)"),
                (admin, "/api/v1/pets/\(bella)"),
                (vet, "/api/v1/medical-records/pet/\(bella)"),
                (owner, "/api/v1/medical-records/pet/\(bella)?latest_only=true"),
                (vet, "/api/v1/visit-transcripts/pet/\(bella)"),
                (owner, "/api/v1/visit-transcripts/pet/\(bella)"),
                (vet, RecordingFixtures.playbackPath(visitID)),
                (owner, RecordingFixtures.playbackPath(visitID)),
            ]
            app.logger = Logger(label: "statement-counter") { _ in counter }
            app.logger.logLevel = .debug
            for (token, path) in endpoints {
                // The fewest of three tries: the first may load the caches (a cache entry lives one second, and a
                // busy machine may let it expire between two tries); what remains is the endpoint's own count.
                var fewest = Int.max
                for _ in 0..<3 {
                    let requestID = "hot-\(UUID().uuidString.lowercased())"
                    let response = try await app.get(path, token: token, headers: ["X-Request-ID": requestID])
                    #expect(response.status == .ok, "\(path): \(response)")
                    fewest = min(fewest, counter.count(for: requestID))
                }
                #expect(fewest == 1, "\(path): \(fewest) statements")
            }
        }
    }
}

/// Counts the SQL statements the drivers log, per request id.
final class StatementCounter: LogHandler, @unchecked Sendable {
    private let counts = NIOLockedValueBox<[String: Int]>([:])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.message.description == "Executing query" else { return }
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        guard case .string(let id)? = merged["request-id"] else { return }
        counts.withLockedValue { $0[id, default: 0] += 1 }
    }

    func count(for requestID: String) -> Int { counts.withLockedValue { $0[requestID] ?? 0 } }
}
