import AppCore
import Foundation
import Testing
import VaporTesting

/// Appointments in the console (contract §4.7.4) and the status table (§5).
@Suite struct AdminAppointmentsTests {
    @Test func listFiltersAndRepresentation() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let admin = try await app.adminToken()
            let install = try await app.newInstall()
            let a = try await app.book("2025-03-14T08:00:00Z", key: install.key, ["clientName": "Анна Смирнова"])
            let b = try await app.book("2025-03-15T08:00:00Z", key: app.orgKey, ["carPlate": "x777xx 99", "phone": "+49 30 1234567"])
            let all = try await app.get("/api/admin/appointments", bearer: admin)
            #expect(all.status == .ok)
            #expect(all.json.ids == [a, b])
            #expect(all.headers.first(name: "X-Total-Count") == "2")
            let first = all.json[0]
            #expect(first["installId"].string == install.id)
            #expect(all.json[1]["installId"].isNull && !all.json[1]["installId"].isAbsent)
            #expect(try await app.get("/api/admin/appointments/\(a)", bearer: admin).json["installId"].string == install.id)
            expectError(try await app.get("/api/admin/appointments/nope", bearer: admin), .notFound, "Appointment not found")

            func ids(_ query: String) async throws -> [String] {
                let response = try await app.get("/api/admin/appointments?\(query)", bearer: admin)
                #expect(response.status == .ok, "\(query): \(response)")
                return response.json.ids
            }
            #expect(try await ids("date=2025-03-14") == [a])
            #expect(try await ids("from=2025-03-15") == [b])
            #expect(try await ids("to=2025-03-14") == [a])
            #expect(try await ids("from=2025-03-14&to=2025-03-15") == [a, b])
            #expect(try await ids("status=new&limit=1&offset=1") == [b])
            #expect(try await ids("phone=%2B49301234567") == [b])
            #expect(try await ids("search=%D0%B0%D0%BD%D0%BD%D0%B0") == [a], "Cyrillic, case-insensitive")
            #expect(try await ids("search=X777") == [b])
            #expect(try await ids("search=car%20wash") == [a, b])
            #expect(try await ids("installId=\(install.id)") == [a])
            for (query, message) in [
                ("date=2025-3-14", "Invalid parameter: date (must be a date YYYY-MM-DD)"),
                ("date=2025-03-14&from=2025-03-14", "Invalid parameter: date (cannot be combined with from/to)"),
                ("from=2025-03-15&to=2025-03-14", "Invalid parameter: to (must not be before from)"),
                ("installId=abc", "Invalid parameter: installId (invalid format)"),
                ("status=late", "Invalid parameter: status (must be one of: new, confirmed, in_progress, done, cancelled)"),
                ("search=" + String(repeating: "s", count: 101), "Invalid parameter: search (must be 1-100 characters)"),
            ] {
                expectError(try await app.get("/api/admin/appointments?\(query)", bearer: admin), .badRequest, message)
            }
        }
    }

    @Test func statusTransitionTable() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let admin = try await app.adminToken()
            let statuses = ["new", "confirmed", "in_progress", "done", "cancelled"]
            let path: [String: [String]] = [
                "new": [], "confirmed": ["confirmed"], "in_progress": ["confirmed", "in_progress"],
                "done": ["confirmed", "in_progress", "done"], "cancelled": ["cancelled"],
            ]
            let allowed: Set<String> = ["new>confirmed", "new>cancelled", "confirmed>in_progress", "confirmed>cancelled", "in_progress>done"]
            try await app.setSettings(["capacity": 20])
            var slot = 0
            for from in statuses {
                for to in statuses {
                    // A fresh appointment per cell, moved to `from` first.
                    let start = Fixture.instant("2025-03-15T06:00:00Z").addingTimeInterval(TimeInterval(3600 * (slot / 20)))
                    slot += 1
                    let id = try await app.book(WireTime.format(start), key: app.orgKey)
                    for step in path[from]! {
                        #expect(try await app.put("/api/admin/appointments/\(id)", bearer: admin, ["status": step]).status == .ok)
                    }
                    let before = try await app.get("/api/admin/appointments/\(id)", bearer: admin)
                    let response = try await app.put("/api/admin/appointments/\(id)", bearer: admin, ["status": to])
                    if from == to {
                        #expect(response.status == .ok, "\(from) -> \(to)")
                        #expect(response.json["updatedAt"].string == before.json["updatedAt"].string, "no-op")
                    } else if allowed.contains("\(from)>\(to)") {
                        #expect(response.status == .ok && response.json["status"].string == to, "\(from) -> \(to): \(response)")
                    } else {
                        expectError(response, .conflict, "Invalid status transition: \(from) -> \(to)")
                    }
                }
            }
        }
    }

    @Test func updateRules() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let admin = try await app.adminToken()
            let id = try await app.book("2025-03-14T08:00:00Z", key: app.orgKey)
            func update(_ body: [String: Any?]) async throws -> TestResponse {
                try await app.put("/api/admin/appointments/\(id)", bearer: admin, body)
            }
            expectError(try await update([:]), .badRequest, "Nothing to update")
            expectError(try await update(["clientName": "X"]), .badRequest, "Nothing to update")
            expectError(try await update(["status": nil]), .badRequest, "Invalid field: status (must not be null)")
            expectError(
                try await update(["status": "waiting"]), .badRequest,
                "Invalid field: status (must be one of: new, confirmed, in_progress, done, cancelled)")
            expectError(
                try await update(["notes": String(repeating: "n", count: 501)]), .badRequest,
                "Invalid field: notes (must be at most 500 characters)")
            expectError(
                try await app.put("/api/admin/appointments/\(UUID().uuidString)", bearer: admin, ["notes": "x"]), .notFound,
                "Appointment not found")
            clock.advance(by: 60)
            let noted = try await update(["notes": " Customer is late "])
            #expect(noted.json["notes"].string == "Customer is late" && noted.json["updatedAt"].string == "2025-03-14T06:41:00Z")
            clock.advance(by: 60)
            #expect(try await update(["notes": "Customer is late"]).json["updatedAt"].string == "2025-03-14T06:41:00Z")
            #expect(try await update(["notes": nil]).json["notes"].isNull)
            #expect(try await update(["notes": "x"]).status == .ok)
            #expect(try await update(["notes": "   "]).json["notes"].isNull)
            let both = try await update(["status": "confirmed", "notes": "ok"])
            #expect(both.json["status"].string == "confirmed" && both.json["notes"].string == "ok")
        }
    }
}
