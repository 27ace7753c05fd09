import AppCore
import Foundation
import Testing
import VaporTesting

/// The catalogue (contract §4.2) and its administration (§4.7.3).
@Suite struct ServiceCatalogueTests {
    @Test func publicCatalogue() async throws {
        try await withTestApp { app in
            let list = try await app.get("/api/client/services")
            #expect(list.status == .ok)
            #expect(list.headers.first(name: .cacheControl) == "public, max-age=300")
            let services = list.json.array ?? []
            #expect(services.map { $0["name"].string ?? "" } == [
                "Car Washing", "Ceramic Coating", "Engine Bay Cleaning", "Headlight Restoration", "Interior Detailing",
                "Machine Polishing",
            ])
            let washing = services[0]
            #expect(washing.keys == ["id", "name", "description", "priceRub", "durationMinutes", "imageUrl", "active", "createdAt", "updatedAt"])
            #expect(washing["description"].string == "Two-phase contact wash, wheels and arches, hand drying, quick interior vacuum.")
            #expect(washing["priceRub"].int == 1500 && washing["durationMinutes"].int == 60)
            #expect(washing["imageUrl"].isNull && washing["active"].bool == true)
            #expect(try list.decode([Service].self).count == 6)
            let id = try #require(washing["id"].string)
            let one = try await app.get("/api/client/services/\(id)/")
            #expect(one.status == .ok && one.json["id"].string == id)
            #expect(one.headers.first(name: .cacheControl) == "public, max-age=300")
            expectError(try await app.get("/api/client/services/nope"), .notFound, "Service not found")
            expectError(try await app.get("/api/client/services/\(UUID().uuidString)"), .notFound, "Service not found")
            let admin = try await app.adminToken()
            #expect(try await app.delete("/api/admin/services/\(id)", bearer: admin).status == .noContent)
            expectError(try await app.get("/api/client/services/\(id)"), .notFound, "Service not found")
            #expect(try await app.get("/api/client/services").json.count == 5)
            #expect(try await app.get("/api/admin/services/\(id)", bearer: admin).json["active"].bool == false)
        }
    }

    @Test func administration() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let admin = try await app.adminToken()
            let created = try await app.post("/api/admin/services", bearer: admin, [
                "name": "  Wheel Polish ", "priceRub": 900.0, "durationMinutes": 45, "imageUrl": "https://cdn.example.com/w.jpg",
            ])
            #expect(created.status == .created, "\(created)")
            let id = try #require(created.json["id"].string)
            #expect(created.headers.first(name: .location) == "/api/admin/services/\(id)")
            #expect(created.json["name"].string == "Wheel Polish" && created.json["description"].string == "")
            #expect(created.json["priceRub"].int == 900 && created.json["active"].bool == true)

            func create(_ body: [String: Any?]) async throws -> TestResponse {
                try await app.post("/api/admin/services", bearer: admin, body)
            }
            let base: [String: Any?] = ["name": "Glass Care", "priceRub": 100, "durationMinutes": 30]
            func with(_ changes: [String: Any?]) -> [String: Any?] { base.merging(changes) { _, new in new } }
            expectError(try await create([:]), .badRequest, "Missing required fields: name, priceRub, durationMinutes")
            expectError(try await create(with(["name": "G"])), .badRequest, "Invalid field: name (must be 2-100 characters)")
            expectError(try await create(with(["description": String(repeating: "d", count: 2001)])), .badRequest,
                        "Invalid field: description (must be at most 2000 characters)")
            expectError(try await create(with(["priceRub": -1])), .badRequest, "Invalid field: priceRub (must be between 0 and 10000000)")
            expectError(try await create(with(["priceRub": 10.5])), .badRequest, "Invalid field: priceRub (must be an integer)")
            expectError(try await create(with(["priceRub": "100"])), .badRequest, "Invalid field: priceRub (must be an integer)")
            expectError(try await create(with(["durationMinutes": 10])), .badRequest, "Invalid field: durationMinutes (must be between 15 and 720)")
            expectError(try await create(with(["durationMinutes": 721])), .badRequest, "Invalid field: durationMinutes (must be between 15 and 720)")
            expectError(try await create(with(["durationMinutes": 47])), .badRequest, "Invalid field: durationMinutes (must be a multiple of 5)")
            expectError(try await create(with(["imageUrl": "ftp://x.example/a"])), .badRequest, "Invalid field: imageUrl (invalid format)")
            expectError(try await create(with(["active": "yes"])), .badRequest, "Invalid field: active (must be a boolean)")
            expectError(try await create(with(["name": "car washing"])), .conflict, "A service with this name already exists")
            // An inactive service does not block its name.
            let inactive = try await create(with(["name": "Wheel Polish", "active": false]))
            #expect(inactive.status == .created, "\(inactive)")
            let inactiveID = try #require(inactive.json["id"].string)

            func update(_ target: String, _ body: [String: Any?]) async throws -> TestResponse {
                try await app.put("/api/admin/services/\(target)", bearer: admin, body)
            }
            expectError(try await update(id, ["unknown": 1]), .badRequest, "Nothing to update")
            expectError(try await update(id, ["name": nil]), .badRequest, "Invalid field: name (must not be null)")
            expectError(try await update(id, ["priceRub": nil]), .badRequest, "Invalid field: priceRub (must not be null)")
            expectError(try await update(id, ["name": "Car Washing"]), .conflict, "A service with this name already exists")
            expectError(try await update(inactiveID, ["active": true]), .conflict, "A service with this name already exists")
            expectError(try await update(UUID().uuidString, ["name": "X y"]), .notFound, "Service not found")
            let updated = try await update(id, ["description": nil, "imageUrl": nil, "priceRub": 950, "name": "Wheel Polish Pro"])
            #expect(updated.status == .ok, "\(updated)")
            #expect(updated.json["description"].string == "" && updated.json["imageUrl"].isNull)
            #expect(updated.json["priceRub"].int == 950 && updated.json["name"].string == "Wheel Polish Pro")
            #expect(try await update(inactiveID, ["active": true]).json["active"].bool == true)

            // Bookings keep their snapshots when the service changes.
            let booked = try await app.book("2025-03-14T08:00:00Z", key: app.orgKey, ["serviceName": "Wheel Polish Pro"])
            #expect(try await update(id, ["priceRub": 2000, "durationMinutes": 120, "name": "Renamed"]).status == .ok)
            let snapshot = try await app.get("/api/client/appointments/\(booked)", key: app.orgKey)
            #expect(snapshot.json["serviceName"].string == "Wheel Polish Pro")
            #expect(snapshot.json["priceRub"].int == 950 && snapshot.json["endIso"].string == "2025-03-14T08:45:00Z")

            let all = try await app.get("/api/admin/services", bearer: admin)
            #expect(all.json.count == 8)
            #expect(try await app.get("/api/admin/services?active=false", bearer: admin).json.count == 0)
            #expect(try await app.delete("/api/admin/services/\(id)", bearer: admin).status == .noContent)
            #expect(try await app.delete("/api/admin/services/\(id)", bearer: admin).status == .noContent)
            #expect(try await app.get("/api/admin/services?active=false", bearer: admin).json.ids == [id])
            expectError(
                try await app.get("/api/admin/services?active=maybe", bearer: admin), .badRequest,
                "Invalid parameter: active (must be a boolean)")
        }
    }
}
