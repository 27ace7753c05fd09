import AppCore
import Foundation
import Testing
import VaporTesting

/// The status table of contract §5.2, through `PUT /appointments/{id}` and `DELETE` (cancel); the legacy client
/// profile's extra `scheduled`/`confirmed` → `completed` (docs/iphone-app-compatibility.md) is checked last.
@Suite struct AppointmentStatusTransitionTests {
    static let statuses = ["scheduled", "confirmed", "in_progress", "completed", "cancelled"]
    static let allowed: Set<String> = [
        "scheduled>confirmed", "scheduled>in_progress", "scheduled>cancelled", "confirmed>in_progress",
        "confirmed>cancelled", "in_progress>completed", "in_progress>cancelled",
    ]

    @Test(arguments: statuses)
    func everyTransitionFrom(_ from: String) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for to in Self.statuses {
                let id = try await AppointmentFixtures.create(app, token: vet)
                try await AppointmentFixtures.drive(app, token: vet, id: id, to: from)
                let before = try await app.get("/api/v1/appointments/\(id)", token: vet)
                let response = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["status": to])
                if from == to {
                    #expect(response.status == .ok, "\(from)→\(to): \(response)")
                    #expect(response.json["updated_at"].string == before.json["updated_at"].string, "no-op keeps updated_at")
                } else if Self.allowed.contains("\(from)>\(to)") {
                    #expect(response.status == .ok, "\(from)→\(to): \(response)")
                    #expect(response.json["status"].string == to)
                } else {
                    #expect(response.status == .conflict, "\(from)→\(to): \(response)")
                    #expect(response.detail == "Cannot change appointment status from \(from) to \(to)")
                    let after = try await app.get("/api/v1/appointments/\(id)", token: vet)
                    #expect(after.json["status"].string == from)
                }
            }
        }
    }

    @Test func cancelIsIdempotentAndRefusedForCompletedAppointments() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            let cancelled = try await app.delete("/api/v1/appointments/\(id)", token: vet)
            #expect(cancelled.status == .ok)
            #expect(cancelled.json["status"].string == "cancelled")
            let again = try await app.delete("/api/v1/appointments/\(id)", token: vet)
            #expect(again.status == .ok)
            #expect(again.json["updated_at"].string == cancelled.json["updated_at"].string)

            let done = try await AppointmentFixtures.create(app, token: vet)
            try await AppointmentFixtures.drive(app, token: vet, id: done, to: "completed")
            let refused = try await app.delete("/api/v1/appointments/\(done)", token: vet)
            #expect(refused.status == .conflict)
            #expect(refused.detail == "Cannot change appointment status from completed to cancelled")
        }
    }

    @Test func concurrentStatusChangesHaveOneWinner() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for _ in 0..<5 {
                let id = try await AppointmentFixtures.create(app, token: vet)
                try await AppointmentFixtures.drive(app, token: vet, id: id, to: "in_progress")
                async let first = app.put("/api/v1/appointments/\(id)", token: vet, json: ["status": "completed"])
                async let second = app.put("/api/v1/appointments/\(id)", token: vet, json: ["status": "cancelled"])
                let results = try await [first, second]
                #expect(results.filter { $0.status == .ok }.count == 1, "\(results)")
                let loser = try #require(results.first { $0.status != .ok })
                #expect(loser.status == .conflict)
                #expect(loser.detail?.hasPrefix("Cannot change appointment status from ") == true)
            }
        }
    }

    /// The shipped app may complete an appointment whose visit was never started; other transitions keep the 409.
    @Test func theLegacyAppMayCompleteAScheduledOrConfirmedAppointment() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let legacy: HTTPHeaders = ["User-Agent": "HelpPetAI/57 CFNetwork/1496.0.7 Darwin/23.5.0"]
            for from in ["scheduled", "confirmed"] {
                let id = try await AppointmentFixtures.create(app, token: vet)
                try await AppointmentFixtures.drive(app, token: vet, id: id, to: from)
                let done = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["status": "completed"], headers: legacy)
                #expect(done.status == .ok && done.json["status"].string == "completed", "\(from): \(done)")
                let reopen = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["status": from], headers: legacy)
                #expect(reopen.status == .conflict, "\(reopen)")
            }
            let started = try await AppointmentFixtures.create(app, token: vet)
            try await AppointmentFixtures.drive(app, token: vet, id: started, to: "in_progress")
            let back = try await app.put("/api/v1/appointments/\(started)", token: vet, json: ["status": "scheduled"], headers: legacy)
            #expect(back.status == .conflict, "\(back)")
        }
    }
}
