import AppCore
import Foundation
import Testing

/// The seed's own flow (contract §9) against a real `server` process over TCP, with the key the server printed at its
/// first start and the seed's request bodies built exactly as the seed builds them (`JSONSerialization`); the only
/// additions are the `X-API-Key` header and a `startIso` taken from `/availability` (the seed's date is in the past).
@Suite struct SeedFlowTests {
    @Test func validateServicesBookPresignPutLinkGet() async throws {
        try await withServerDatabase { database, group in
            let server = try await group.start(database)
            let client = server.client
            let printed = server.output
            let keyRange = try #require(
                printed.range(of: #"organisation API key (org_[0-9]{10}_[0-9a-f]{24}) \(shown once\)"#, options: .regularExpression),
                "the first start prints the organisation key:\n\(printed)")
            let apiKey = String(printed[keyRange].split(separator: " ")[3])
            #expect(!printed.contains(TestEnvironment.adminPassword), "ADMIN_PASSWORD is never printed")

            // 1. validateAPIKey(): body ["apiKey": API_KEY] via JSONSerialization.
            let validated = try await client.json(
                .POST, "/api/auth/validate-key", body: try JSONSerialization.data(withJSONObject: ["apiKey": apiKey]))
            #expect(validated.status == .ok, "\(validated)")
            let validJSON = try JSONSerialization.jsonObject(with: validated.body) as? [String: Any]
            #expect(validJSON?["valid"] as? Bool == true)

            // 2. fetchServices(): the seed's curl, no key.
            let servicesResponse = try await client.send(.GET, "/api/client/services")
            #expect(servicesResponse.status == .ok)
            let services = try JSONDecoder().decode([Service].self, from: servicesResponse.body)
            let washing = try #require(services.first { $0.name == "Car Washing" })
            #expect(washing.priceRub == 1500 && washing.durationMinutes == 60 && washing.imageUrl == nil)
            #expect(ISO8601DateFormatter().date(from: washing.createdAt) != nil)
            let single = try await client.send(.GET, "/api/client/services/\(washing.id)")
            #expect(try JSONDecoder().decode(Service.self, from: single.body).id == washing.id)

            // 3. bookAppointment(): startIso from an available slot, formatted by ISO8601DateFormatter.
            let tomorrow = LocalDay.day(containing: Date(), in: TimeZone(identifier: "Europe/Moscow")!).adding(days: 1)
            let availability = try await client.send(.GET, "/api/client/availability?serviceId=\(washing.id)&date=\(tomorrow)")
            let slot = try #require((availability.json["slots"].array ?? []).first { $0["available"].bool == true })
            let slotStart = try #require(slot["startIso"].string)
            let startTime = try #require(ISO8601DateFormatter().date(from: slotStart))
            let isoFormatter = ISO8601DateFormatter()
            let body = try Fixture.seedBookingBody(startIso: isoFormatter.string(from: startTime))
            let booked = try await client.json(.POST, "/api/client/appointments", key: apiKey, body: body)
            #expect(booked.status == .created, "\(booked)")
            let appointment = try JSONDecoder().decode(Appointment.self, from: booked.body)
            #expect(appointment.source == "api" && appointment.status == "new")
            #expect(appointment.notes == nil, "the seed's \"notes\": \"\" is stored as null")
            #expect(appointment.startIso == isoFormatter.string(from: startTime))
            #expect(appointment.endIso == isoFormatter.string(from: startTime.addingTimeInterval(3600)))
            #expect(appointment.workPhotos.isEmpty && appointment.defectPhotos.isEmpty)
            #expect(booked.headers.first(name: .location) == "/api/client/appointments/\(appointment.id)")

            // 4. getPresignedURL(): the seed's body, filename with the interpolated Double.
            let presignBody: [String: Any] = [
                "appointmentId": appointment.id,
                "kind": "defect",
                "filename": "photo_\(Date().timeIntervalSince1970).jpg",
                "contentType": "image/jpeg",
            ]
            let presigned = try await client.json(
                .POST, "/api/uploads/presign", key: apiKey, body: try JSONSerialization.data(withJSONObject: presignBody))
            #expect(presigned.status == .ok, "\(presigned)")
            let presignJSON = try #require(try JSONSerialization.jsonObject(with: presigned.body) as? [String: Any])
            let uploadUrl = try #require(presignJSON["uploadUrl"] as? String)
            let photoRef = try #require(presignJSON["ref"] as? String)
            #expect(uploadUrl.hasPrefix(server.baseURL + "/storage/autodetail/appointments/\(appointment.id)/defect/"))

            // 5. uploadPhotoToS3(): PUT with Content-Type image/jpeg; success is exactly 200.
            let imageData = testBytes(48_000)
            let put = try await HTTPTestClient.send(.PUT, url: uploadUrl, body: imageData, contentType: "image/jpeg")
            #expect(put.status == .ok, "\(put)")

            // 6. linkPhotoToAppointment(): {"kind": kind, "photoUrls": [photoRef]}.
            let linkBody: [String: Any] = ["kind": "defect", "photoUrls": [photoRef]]
            let linked = try await client.json(
                .POST, "/api/client/appointments/\(appointment.id)/photos", key: apiKey,
                body: try JSONSerialization.data(withJSONObject: linkBody))
            #expect(linked.status == .ok, "\(linked)")
            #expect(try JSONDecoder().decode(Appointment.self, from: linked.body).defectPhotos.count == 1)

            // 7. getAppointment(): the photo's URL downloads the same bytes.
            let fetched = try await client.send(.GET, "/api/client/appointments/\(appointment.id)", key: apiKey)
            #expect(fetched.status == .ok)
            let current = try JSONDecoder().decode(Appointment.self, from: fetched.body)
            #expect(current.status == "new")
            let photo = try #require(current.defectPhotos.first)
            #expect(ISO8601DateFormatter().date(from: photo.createdAt) != nil)
            let download = try await HTTPTestClient.send(.GET, url: photo.url)
            #expect(download.status == .ok)
            #expect(Array(download.body) == imageData, "the photo URL serves the uploaded bytes")
            #expect(download.headers.first(name: .contentType) == "image/jpeg")

            // Every appointment response of the flow decodes with the seed's model, the list too.
            let list = try await client.send(.GET, "/api/client/appointments", key: apiKey)
            #expect(try JSONDecoder().decode([Appointment].self, from: list.body).map(\.id) == [appointment.id])
            let cancelled = try await client.send(.POST, "/api/client/appointments/\(appointment.id)/cancel", key: apiKey)
            #expect(try JSONDecoder().decode(Appointment.self, from: cancelled.body).status == "cancelled")
        }
    }

    /// The seed's test curl for booking works with the printed key, except for its past date (§9.3).
    @Test func seedCurlBookingWithItsPastDateIsAnInvalidSlot() async throws {
        try await withTestApp { app in
            let response = try await app.send(
                .POST, "/api/client/appointments", key: app.orgKey, json: """
                    {
                        "startIso": "2024-02-15T14:00:00Z",
                        "clientName": "Test User",
                        "phone": "+1234567890",
                        "carMake": "BMW",
                        "carPlate": "ABC123",
                        "serviceName": "Car Washing"
                      }
                    """)
            expectError(response, .badRequest, "Invalid time slot")
            let services = try await app.get("/api/client/services")
            #expect(try JSONDecoder().decode([Service].self, from: services.body).map(\.name) == [
                "Car Washing", "Ceramic Coating", "Engine Bay Cleaning", "Headlight Restoration", "Interior Detailing",
                "Machine Polishing",
            ])
        }
    }
}
