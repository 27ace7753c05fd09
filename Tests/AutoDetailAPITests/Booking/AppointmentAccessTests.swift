import AppCore
import Foundation
import Testing
import VaporTesting

/// Who sees which appointment (contract §2.8), the client list (§4.4.2), show (§4.4.3) and cancel (§4.4.4).
@Suite struct AppointmentAccessTests {
    @Test func keysSeeOnlyWhatTheyCreatedUnlessFullAccess() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let install = try await app.newInstall()
            let otherInstall = try await app.newInstall()
            let partner = try await app.newOrgKey()
            let trusted = try await app.newOrgKey(fullAccess: true)
            let mine = try await app.book("2025-03-14T08:00:00Z", key: install.key)
            let demo = try await app.book("2025-03-14T10:00:00Z", key: app.orgKey, ["phone": "8 916 000 00 01"])

            for (key, visible) in [
                (install.key, [mine]), (otherInstall.key, []), (partner.key, []), (app.orgKey, [demo]),
                (trusted.key, [demo, mine]),
            ] {
                let list = try await app.get("/api/client/appointments", key: key)
                #expect(list.status == .ok)
                #expect(list.json.ids == visible, "\(key.prefix(19))")
                #expect(list.headers.first(name: "X-Total-Count") == String(visible.count))
            }
            for key in [otherInstall.key, partner.key, app.orgKey] {
                expectError(try await app.get("/api/client/appointments/\(mine)", key: key), .notFound, "Appointment not found")
                expectError(
                    try await app.send(.POST, "/api/client/appointments/\(mine)/cancel", key: key), .notFound,
                    "Appointment not found")
                expectError(
                    try await app.post("/api/client/appointments/\(mine)/photos", key: key, ["kind": "work", "photoUrls": ["s3:x"]]),
                    .notFound, "Appointment not found")
                expectError(
                    try await app.post("/api/uploads/presign", key: key, [
                        "appointmentId": mine, "kind": "work", "filename": "a.jpg", "contentType": "image/jpeg",
                    ]), .notFound, "Appointment not found")
            }
            #expect(try await app.get("/api/client/appointments/\(mine)", key: install.key).status == .ok)
            #expect(try await app.get("/api/client/appointments/\(mine.uppercased())", key: trusted.key).status == .ok)
            expectError(try await app.get("/api/client/appointments/abc", key: install.key), .notFound, "Appointment not found")
            expectError(
                try await app.get("/api/client/appointments/\(UUID().uuidString)", key: install.key), .notFound,
                "Appointment not found")

            // Filters narrow only what the key may see.
            let byPhone = try await app.get("/api/client/appointments?phone=%2B79160000001", key: trusted.key)
            #expect(byPhone.json.ids == [demo])
            let plusDecoded = try await app.get("/api/client/appointments?phone=+79160000001", key: trusted.key)
            #expect(plusDecoded.json.ids == [demo])
            #expect(try await app.get("/api/client/appointments?phone=%2B79160000001", key: install.key).json.ids == [])
            #expect(try await app.get("/api/client/appointments?status=new&limit=1", key: trusted.key).json.ids == [demo])
            let paged = try await app.get("/api/client/appointments?limit=1&offset=1", key: trusted.key)
            #expect(paged.json.ids == [mine] && paged.headers.first(name: "X-Total-Count") == "2")
            expectError(
                try await app.get("/api/client/appointments?status=open", key: install.key), .badRequest,
                "Invalid parameter: status (must be one of: new, confirmed, in_progress, done, cancelled)")
            expectError(
                try await app.get("/api/client/appointments?phone=12", key: install.key), .badRequest,
                "Invalid parameter: phone (invalid format)")
            expectError(
                try await app.get("/api/client/appointments?limit=0", key: install.key), .badRequest,
                "Invalid parameter: limit (must be between 1 and 200)")
            expectError(
                try await app.get("/api/client/appointments?limit=201", key: install.key), .badRequest,
                "Invalid parameter: limit (must be between 1 and 200)")
            expectError(
                try await app.get("/api/client/appointments?offset=-1", key: install.key), .badRequest,
                "Invalid parameter: offset (must be between 0 and 2147483647)")
        }
    }

    @Test func cancelRules() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let key = app.orgKey
            let id = try await app.book("2025-03-14T08:00:00Z", key: key)
            clock.advance(by: 60)
            let cancelled = try await app.send(.POST, "/api/client/appointments/\(id)/cancel", key: key, json: #"{"ignored": true}"#)
            #expect(cancelled.status == .ok, "\(cancelled)")
            #expect(cancelled.json["status"].string == "cancelled")
            #expect(cancelled.json["updatedAt"].string == "2025-03-14T06:41:00Z")
            clock.advance(by: 60)
            let again = try await app.send(.POST, "/api/client/appointments/\(id)/cancel", key: key)
            #expect(again.status == .ok)
            #expect(again.json["updatedAt"].string == "2025-03-14T06:41:00Z", "a retry changes nothing")

            // After the start: 409; in progress and done: transition errors.
            let started = try await app.book("2025-03-14T09:00:00Z", key: key)
            let running = try await app.book("2025-03-14T10:00:00Z", key: key)
            let finished = try await app.book("2025-03-14T11:00:00Z", key: key)
            let admin = try await app.adminToken()
            for (id, steps) in [(running, ["confirmed", "in_progress"]), (finished, ["confirmed", "in_progress", "done"])] {
                for status in steps {
                    #expect(try await app.put("/api/admin/appointments/\(id)", bearer: admin, ["status": status]).status == .ok)
                }
            }
            expectError(
                try await app.send(.POST, "/api/client/appointments/\(running)/cancel", key: key), .conflict,
                "Invalid status transition: in_progress -> cancelled")
            expectError(
                try await app.send(.POST, "/api/client/appointments/\(finished)/cancel", key: key), .conflict,
                "Invalid status transition: done -> cancelled")
            clock.set(Fixture.instant("2025-03-14T09:00:00Z"))
            expectError(
                try await app.send(.POST, "/api/client/appointments/\(started)/cancel", key: key), .conflict,
                "Appointment has already started")
            // The console may still cancel a no-show after its start.
            let noShow = try await app.put("/api/admin/appointments/\(started)", bearer: admin, ["status": "cancelled"])
            #expect(noShow.status == .ok && noShow.json["status"].string == "cancelled")
        }
    }
}
