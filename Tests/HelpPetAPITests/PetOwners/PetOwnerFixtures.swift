import AppCore
import Foundation
import Testing
import VaporTesting

/// Builders for the pet-owner tests (contract §4.6).
enum PetOwnerFixtures {
    static let demoPractice = Demo.practiceID.lowercased

    /// A valid creation body; ADMIN callers must add `practice_id`.
    static func body(_ changes: [String: Any?] = [:]) -> [String: Any?] {
        var body: [String: Any?] = [
            "first_name": "Grace", "last_name": "Hopper", "email": "grace.hopper@example.com",
            "phone": "+1 (555) 010-9999", "address": "1 Navy Way",
        ]
        body.merge(changes) { _, new in new }
        return body
    }

    /// Creates an owner through the API and returns its id.
    @discardableResult
    static func create(
        _ app: Application, token: String, _ changes: [String: Any?] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await app.post("/api/v1/pet-owners", token: token, json: body(changes))
        #expect(response.status == .created, "\(response)", sourceLocation: sourceLocation)
        return try #require(response.json["id"].string, sourceLocation: sourceLocation)
    }

    /// Makes `owner` a client of `practice` (ADMIN endpoint of §4.6).
    static func link(_ app: Application, owner: String, practice: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let admin = try await app.token(for: Demo.admin)
        let response = try await app.post("/api/v1/pet-owners/\(owner)/practices", token: admin, json: [
            "practice_id": practice,
        ])
        #expect(response.status == .ok, "\(response)", sourceLocation: sourceLocation)
    }
}
