import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /appointments/{id}`, `/appointments/pet-owner/{id}` and `/appointments/practice/{id}` (contract §4.5).
@Suite struct AppointmentListTests {
    @Test func singleAppointmentIsScopedByRole() async throws {
        try await withTestApp { app in
            let first = Demo.appointmentID(1, app).lowercased
            let fluffy = Demo.appointmentID(2, app).lowercased
            let owner = try await app.token(for: Demo.owner1)
            let own = try await app.get("/api/v1/appointments/\(first)", token: owner)
            #expect(own.status == .ok)
            #expect(own.json["pets"].ids == Demo.appointmentPets(1).map(\.lowercased))
            let notOwn = try await app.get("/api/v1/appointments/\(fluffy)", token: owner)
            #expect(notOwn.status == .notFound)
            #expect(notOwn.detail == "Appointment not found")

            let other = try await AppointmentFixtures.otherPractice(app)
            let foreign = try await app.get("/api/v1/appointments/\(first)", token: other.vetToken)
            #expect(foreign.status == .notFound)
            let admin = try await app.token(for: Demo.admin)
            #expect(try await app.get("/api/v1/appointments/\(first)/", token: admin).status == .ok)
            #expect(try await app.get("/api/v1/appointments/nope", token: admin).detail == "Invalid appointment ID format")
        }
    }

    @Test func practiceDayListIsOrderedCountedAndPaginated() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let day = app.seedDay.description
            let path = "/api/v1/appointments/practice/\(Demo.practiceID.lowercased)?date=\(day)"
            let all = try await app.get(path, token: vet)
            #expect(all.status == .ok)
            #expect(all.headers.first(name: "X-Total-Count") == "5")
            let expected = [1, 4, 2, 5, 3].map { Demo.appointmentID($0, app).lowercased }  // 09:00 09:30 10:30 13:00 14:00
            #expect(all.json.ids == expected)
            let page = try await app.get(path + "&limit=2&offset=1", token: vet)
            #expect(page.json.ids == Array(expected[1...2]))
            #expect(page.headers.first(name: "X-Total-Count") == "5")
            let otherDay = try await app.get(
                "/api/v1/appointments/practice/\(Demo.practiceID.lowercased)?date=\(app.seedDay.adding(days: 1))",
                token: vet)
            #expect(otherDay.json.count == 0)

            for (query, detail) in [("date=2025-02-30", "Invalid date format. Use YYYY-MM-DD"),
                                    ("date=20250115", "Invalid date format. Use YYYY-MM-DD"),
                                    ("limit=0", "limit must be between 1 and 200"),
                                    ("limit=x", "limit must be an integer"),
                                    ("offset=-1", "offset must be at least 0")] {
                let bad = try await app.get("/api/v1/appointments/practice/\(Demo.practiceID.lowercased)?\(query)", token: vet)
                #expect(bad.status == .badRequest)
                #expect(bad.detail == detail)
            }
            let owner = try await app.token(for: Demo.owner1)
            let forbidden = try await app.get(path, token: owner)
            #expect(forbidden.status == .forbidden)
            let other = try await AppointmentFixtures.otherPractice(app)
            let foreign = try await app.get(path, token: other.vetToken)
            #expect(foreign.status == .notFound)
            #expect(foreign.detail == "Practice not found")
        }
    }

    @Test func ownerListIsNewestFirstAndScoped() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let later = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                date: "2099-01-01T10:00:00Z"))
            let path = "/api/v1/appointments/pet-owner/\(Demo.owner(1).lowercased)"
            let list = try await app.get(path, token: vet)
            #expect(list.status == .ok)
            #expect(list.json.ids == [later, Demo.appointmentID(1, app).lowercased])
            #expect(list.headers.first(name: "X-Total-Count") == "2")

            let owner = try await app.token(for: Demo.owner1)
            #expect(try await app.get(path, token: owner).json.count == 2)
            let otherOwner = try await app.get("/api/v1/appointments/pet-owner/\(Demo.owner(2).lowercased)", token: owner)
            #expect(otherOwner.status == .notFound)
            #expect(otherOwner.detail == "Pet owner not found")

            let other = try await AppointmentFixtures.otherPractice(app)
            #expect(try await app.get(path, token: other.vetToken).status == .notFound)
            #expect(try await app.get("/api/v1/appointments/pet-owner/xyz", token: vet).detail == "Invalid pet owner ID format")
        }
    }
}
