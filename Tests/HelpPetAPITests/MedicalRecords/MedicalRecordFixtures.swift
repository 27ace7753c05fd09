import AppCore
import Foundation
import Testing
import VaporTesting

/// Builders for the medical-record tests (contract §4.8).
enum MedicalRecordFixtures {
    static func path(_ n: Int) -> String { "/api/v1/medical-records/\(Demo.record(n).lowercased)" }
    static func list(pet n: Int, _ query: String = "") -> String {
        "/api/v1/medical-records/pet/\(Demo.pet(n).lowercased)\(query)"
    }
    static func history(pet n: Int, _ query: String = "") -> String {
        "/api/v1/medical-records/pet/\(Demo.pet(n).lowercased)/history\(query)"
    }

    /// A minimal valid creation body for Bella.
    static func body(_ changes: [String: Any?] = [:]) -> [String: Any?] {
        var body: [String: Any?] = ["pet_id": Demo.pet(1).lowercased, "record_type": "checkup", "title": "Exam"]
        body.merge(changes) { _, new in new }
        return body
    }

    /// Creates a record and returns its id.
    @discardableResult
    static func create(
        _ app: Application, token: String, _ changes: [String: Any?] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await app.post("/api/v1/medical-records", token: token, json: body(changes))
        #expect(response.status == .created, "\(response)", sourceLocation: sourceLocation)
        return try #require(response.json["id"].string, sourceLocation: sourceLocation)
    }

    /// Amends `id` and returns the new version's id.
    @discardableResult
    static func amend(
        _ app: Application, token: String, _ id: String, _ body: [String: Any?] = ["notes": "amended"],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await app.put("/api/v1/medical-records/\(id)", token: token, json: body)
        #expect(response.status == .ok, "\(response)", sourceLocation: sourceLocation)
        return try #require(response.json["id"].string, sourceLocation: sourceLocation)
    }

    /// Expects the envelope counts of §4.8 (and `X-Total-Count` = `total`).
    static func expectCounts(
        _ response: TestResponse, total: Int, current: Int, historical: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == .ok, "\(response)", sourceLocation: sourceLocation)
        #expect(response.json.keys == ClinicalKeys.envelope, sourceLocation: sourceLocation)
        #expect(response.json["total"].int == total, "\(response)", sourceLocation: sourceLocation)
        #expect(response.json["current_records_count"].int == current, "\(response)", sourceLocation: sourceLocation)
        #expect(response.json["historical_records_count"].int == historical, "\(response)", sourceLocation: sourceLocation)
        #expect(response.totalCount == String(total), sourceLocation: sourceLocation)
    }
}
