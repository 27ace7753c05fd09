import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// App installations in the console (contract §4.7.5) and the app's own profile and messages (§4.6).
@Suite struct InstallsTests {
    @Test func profileAndMessagesOfTheApp() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let install = try await app.newInstall()
            let other = try await app.newInstall()
            let admin = try await app.adminToken()
            let empty = try await app.get("/api/ios/profile", key: install.key)
            #expect(empty.json.keys == ["id", "name", "carMake", "carPlate", "phone", "telegram", "profilePhotoUrl", "createdAt", "updatedAt", "unreadMessages"])
            #expect(empty.json["unreadMessages"].int == 0)

            func post(_ body: [String: Any?]) async throws -> TestResponse {
                try await app.post("/api/ios/profile", key: install.key, body)
            }
            expectError(try await post([:]), .badRequest, "Missing required fields: name, carMake, carPlate")
            expectError(try await post(["name": "Ivan", "carMake": "T", "carPlate": "A1"]), .badRequest,
                        "Invalid field: carMake (must be 2-50 characters)")
            expectError(try await post(["name": "Ivan", "carMake": "Toyota", "carPlate": "A1", "profilePhotoUrl": "http://x.example/a.jpg"]),
                        .badRequest, "Invalid field: profilePhotoUrl (invalid format)")
            clock.advance(by: 60)
            let saved = try await post([
                "name": "Ivan Petrov", "carMake": "Toyota Camry", "carPlate": "а123вс 777", "phone": "+7 916 123-45-67",
                "telegram": "@ivan_petrov", "profilePhotoUrl": "preset:car_1",
            ])
            #expect(saved.status == .ok, "\(saved)")
            #expect(saved.json["carPlate"].string == "А123ВС 777" && saved.json["phone"].string == "+79161234567")
            #expect(saved.json["telegram"].string == "ivan_petrov" && saved.json["updatedAt"].string == "2025-03-14T06:41:00Z")
            let replaced = try await post(["name": "Ivan Petrov", "carMake": "Toyota Camry", "carPlate": "A123BC", "phone": ""])
            #expect(replaced.json["phone"].isNull && replaced.json["telegram"].isNull && replaced.json["profilePhotoUrl"].isNull)

            // Messages from the console.
            let sent = try await app.post("/api/admin/ios-users/\(install.id)/message", bearer: admin, ["text": "Your car is ready."])
            #expect(sent.status == .created, "\(sent)")
            #expect(sent.json.keys == ["id", "installId", "text", "createdAt", "read", "readAt"])
            #expect(sent.json["read"].bool == false && sent.json["readAt"].isNull && sent.json["installId"].string == install.id)
            #expect(sent.headers.first(name: .location) == "/api/admin/ios-users/\(install.id)")
            clock.advance(by: 60)
            let second = try await app.post("/api/admin/ios-users/\(install.id)/message", bearer: admin, ["text": "Line 1\nLine 2"])
            expectError(try await app.post("/api/admin/ios-users/\(install.id)/message", bearer: admin, [:]), .badRequest,
                        "Missing required fields: text")
            expectError(try await app.post("/api/admin/ios-users/\(install.id)/message", bearer: admin, ["text": String(repeating: "t", count: 2001)]),
                        .badRequest, "Invalid field: text (must be 1-2000 characters)")

            let inbox = try await app.get("/api/ios/messages", key: install.key)
            #expect(inbox.json.keys == ["messages", "unreadCount"])
            #expect(inbox.json["unreadCount"].int == 2 && inbox.headers.first(name: "X-Total-Count") == "2")
            #expect(inbox.json["messages"].ids == [second.json["id"].string ?? "", sent.json["id"].string ?? ""])
            #expect(inbox.json["messages"][0].keys == ["id", "text", "createdAt", "read"])
            let messageID = try #require(sent.json["id"].string)
            clock.advance(by: 60)
            let read = try await app.send(.POST, "/api/ios/messages/\(messageID)/read", key: install.key)
            #expect(read.status == .ok && read.json["read"].bool == true)
            clock.advance(by: 60)
            #expect(try await app.send(.POST, "/api/ios/messages/\(messageID)/read", key: install.key).status == .ok)
            let detail = try await app.get("/api/admin/ios-users/\(install.id)", bearer: admin)
            let readAt = (detail.json["messages"].array ?? []).first { $0["id"].string == messageID }?["readAt"].string
            #expect(readAt == "2025-03-14T06:43:00Z", "set by the first read only")
            let unreadOnly = try await app.get("/api/ios/messages?unreadOnly=true", key: install.key)
            #expect(unreadOnly.json["messages"].count == 1 && unreadOnly.headers.first(name: "X-Total-Count") == "1")
            #expect(unreadOnly.json["unreadCount"].int == 1)
            #expect(try await app.get("/api/ios/profile", key: install.key).json["unreadMessages"].int == 1)
            expectError(try await app.get("/api/ios/messages?unreadOnly=yes", key: install.key), .badRequest,
                        "Invalid parameter: unreadOnly (must be a boolean)")
            expectError(try await app.send(.POST, "/api/ios/messages/\(messageID)/read", key: other.key), .notFound, "Message not found")
            expectError(try await app.send(.POST, "/api/ios/messages/nope/read", key: install.key), .notFound, "Message not found")
        }
    }

    @Test func consoleListStatsPriorityDelete() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let admin = try await app.adminToken()
            let first = try await app.newInstall()
            clock.advance(by: 10)
            let second = try await app.newInstall()
            clock.advance(by: 10)
            let third = try await app.newInstall()
            _ = try await app.post("/api/ios/profile", key: second.key, ["name": "Ольга", "carMake": "Lada", "carPlate": "о001оо 77"])
            clock.advance(by: 10)
            let booked = try await app.book("2025-03-14T08:00:00Z", key: first.key)
            await app.flushUsage()

            let list = try await app.get("/api/admin/ios-users", bearer: admin)
            #expect(list.status == .ok)
            // Seen installs first (latest first), then never-seen ones by createdAt descending.
            #expect(list.json.ids == [first.id, second.id, third.id])
            #expect(list.headers.first(name: "X-Total-Count") == "3")
            let entry = list.json[0]
            #expect(entry.keys == ["id", "keyPrefix", "name", "carMake", "carPlate", "phone", "telegram", "profilePhotoUrl", "priority", "createdAt", "updatedAt", "lastSeenAt", "lastActivityPath", "requestCount", "appointmentCount", "unreadMessages"])
            #expect(entry["appointmentCount"].int == 1 && entry["requestCount"].int == 1)
            #expect(entry["lastActivityPath"].string == "POST /api/client/appointments")
            #expect(try await app.get("/api/admin/ios-users?search=%D0%BE%D0%BB%D1%8C%D0%B3%D0%B0", bearer: admin).json.ids == [second.id])
            #expect(try await app.get("/api/admin/ios-users?search=\(third.key.prefix(19))", bearer: admin).json.ids == [third.id])
            #expect(try await app.get("/api/admin/ios-users?limit=1&offset=2", bearer: admin).json.ids == [third.id])
            expectError(try await app.get("/api/admin/ios-users?priority=vip", bearer: admin), .badRequest,
                        "Invalid parameter: priority (must be one of: normal, high, blocked)")

            func priority(_ id: String, _ body: [String: Any?]) async throws -> TestResponse {
                try await app.put("/api/admin/ios-users/\(id)/priority", bearer: admin, body)
            }
            expectError(try await priority(first.id, [:]), .badRequest, "Missing required fields: priority")
            expectError(try await priority(first.id, ["priority": "vip"]), .badRequest,
                        "Invalid field: priority (must be one of: normal, high, blocked)")
            expectError(try await priority(UUID().uuidString, ["priority": "high"]), .notFound, "iOS user not found")
            let high = try await priority(first.id, ["priority": "high"])
            #expect(high.status == .ok && high.json["priority"].string == "high" && high.json["messages"].isAbsent)
            #expect(try await priority(second.id, ["priority": "blocked"]).status == .ok)
            #expect(try await app.get("/api/admin/ios-users?priority=blocked", bearer: admin).json.ids == [second.id])

            let stats = try await app.get("/api/admin/ios-users/stats", bearer: admin)
            #expect(stats.json.keys == ["total", "active30d", "highPriority", "blocked"])
            #expect(stats.json["total"].int == 3 && stats.json["active30d"].int == 2)
            #expect(stats.json["highPriority"].int == 1 && stats.json["blocked"].int == 1)

            expectError(try await app.get("/api/admin/ios-users/nope", bearer: admin), .notFound, "iOS user not found")
            _ = try await app.post("/api/admin/ios-users/\(first.id)/message", bearer: admin, ["text": "Hello"])
            #expect(try await app.delete("/api/admin/ios-users/\(first.id)", bearer: admin).status == .noContent)
            expectError(try await app.get("/api/admin/ios-users/\(first.id)", bearer: admin), .notFound, "iOS user not found")
            expectError(try await app.delete("/api/admin/ios-users/\(first.id)", bearer: admin), .notFound, "iOS user not found")
            expectError(try await app.get("/api/client/appointments", key: first.key), .unauthorized, "Invalid API key")
            let kept = try await app.get("/api/admin/appointments/\(booked)", bearer: admin)
            #expect(kept.status == .ok && kept.json["installId"].isNull, "appointments stay, without their install")
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_messages") == 0)
            #expect(try await app.get("/api/admin/ios-users/stats", bearer: admin).json["total"].int == 2)
        }
    }
}
