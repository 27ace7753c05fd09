import AppCore
import Foundation
import Testing

/// Two `server` processes over TCP share one database (a file-backed WAL SQLite file, or one PostgreSQL database)
/// and receive parallel amendments of the same current medical record: exactly one new version is created, every
/// other request answers 409, and the lineage keeps exactly one current row (C15, contract §4.8).
@Suite(.serialized) struct MedicalRecordAmendmentRaceTests {
    @Test func parallelAmendmentsAcrossTwoServersCreateOneVersion() async throws {
        try await withServerDatabase { database, group in
            let first = try await group.start(database)
            let second = try await group.start(database)
            let token = try await first.client.login(Demo.vet1)
            let current = Demo.record(2).lowercased  // version 2 of Bella's vaccination lineage

            let results = try await withThrowingTaskGroup(of: TestResponse.self) { tasks in
                for i in 0..<20 {
                    let client = i.isMultiple(of: 2) ? first.client : second.client
                    tasks.addTask {
                        try await client.put(
                            "/api/v1/medical-records/\(current)", token: token, json: ["notes": "amendment \(i)"])
                    }
                }
                var all: [TestResponse] = []
                for try await response in tasks { all.append(response) }
                return all
            }

            let winners = results.filter { $0.status == .ok }
            #expect(winners.count == 1, "\(results.map(\.status.code))")
            let losers = results.filter { $0.status != .ok }
            #expect(losers.allSatisfy { $0.status == .conflict }, "\(losers)")
            #expect(losers.allSatisfy { $0.detail == "Only the current version of a medical record can be amended" })
            #expect(winners.first?.json["version"].int == 3)

            let history = try await second.client.get(
                "/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)/history", token: token)
            let lineage = (history.json["records"].array ?? []).filter {
                $0["original_id"].string == Demo.record(1).lowercased
            }
            #expect(lineage.map { $0["version"].int ?? 0 } == [3, 2, 1])
            #expect(lineage.filter { $0["is_current"].bool == true }.count == 1)
        }
    }
}
