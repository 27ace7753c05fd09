import AppCore
import Foundation
import Testing
import VaporTesting

/// Builders shared by the appointment and dashboard tests.
enum AppointmentFixtures {
    /// A valid creation body for owner 1 (John Smith) with the given pets, assigned to vet1.
    static func body(
        pets: [UUID] = [Demo.pet(1), Demo.pet(2)], date: String = "2030-05-01T16:00:00Z", extra: [String: Any?] = [:]
    ) -> [String: Any?] {
        var body: [String: Any?] = [
            "pet_owner_id": Demo.owner(1).lowercased, "assigned_vet_user_id": Demo.vet1.id.lowercased,
            "appointment_date": date, "title": "Checkup", "pet_ids": pets.map(\.lowercased),
        ]
        body.merge(extra) { _, new in new }
        return body
    }

    /// Creates an appointment as `token` and returns its id.
    static func create(
        _ app: Application, token: String, body: [String: Any?] = body(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await app.post("/api/v1/appointments", token: token, json: body)
        #expect(response.status == .created, "\(response)", sourceLocation: sourceLocation)
        return try #require(response.json["id"].string, sourceLocation: sourceLocation)
    }

    /// Drives an appointment through allowed transitions to `status`.
    static func drive(_ app: Application, token: String, id: String, to status: String) async throws {
        let path: [String]
        switch status {
        case "scheduled": path = []
        case "confirmed": path = ["confirmed"]
        case "in_progress": path = ["in_progress"]
        case "completed": path = ["in_progress", "completed"]
        default: path = ["cancelled"]
        }
        for step in path {
            let response = try await app.put("/api/v1/appointments/\(id)", token: token, json: ["status": step])
            #expect(response.status == .ok, "\(response)")
        }
    }

    /// A second practice with a member `vet9` (password `password999`), created through the admin API.
    static func otherPractice(_ app: Application) async throws -> (practiceID: String, vetToken: String) {
        let admin = try await app.token(for: Demo.admin)
        let practice = try await app.post("/api/v1/practices", token: admin, json: [
            "name": "Other Clinic", "timezone": "America/New_York",
        ])
        #expect(practice.status == .created, "\(practice)")
        let practiceID = try #require(practice.json["id"].string)
        let user = try await app.post("/api/v1/users", token: admin, json: [
            "username": "vet9", "password": "password999", "email": "vet9@other.example", "full_name": "Dr. Other",
            "role": "VET", "practice_id": practiceID,
        ])
        #expect(user.status == .created, "\(user)")
        let token = try await app.login("vet9", "password999")
        return (practiceID, token)
    }
}
