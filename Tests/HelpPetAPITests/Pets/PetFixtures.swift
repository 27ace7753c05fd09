import AppCore
import Foundation
import Testing
import VaporTesting

/// Builders for the pet tests (contract §4.7).
enum PetFixtures {
    static func path(_ n: Int) -> String { "/api/v1/pets/\(Demo.pet(n).lowercased)" }

    /// A minimal valid creation body for John Smith (owner 1).
    static func body(_ changes: [String: Any?] = [:]) -> [String: Any?] {
        var body: [String: Any?] = ["owner_id": Demo.owner(1).lowercased, "name": "Biscuit", "species": "dog"]
        body.merge(changes) { _, new in new }
        return body
    }

    @discardableResult
    static func create(
        _ app: Application, token: String, _ changes: [String: Any?] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await app.post("/api/v1/pets", token: token, json: body(changes))
        #expect(response.status == .created, "\(response)", sourceLocation: sourceLocation)
        return try #require(response.json["id"].string, sourceLocation: sourceLocation)
    }

    /// 2025-01-16T03:00:00Z: still 2025-01-15 in Los Angeles (19:00) and New York (22:00), already the 16th in UTC.
    static let eveningInCalifornia = Date(timeIntervalSince1970: 1_736_996_400)
}
