import AutoDetailKit
import Foundation
import Testing

/// AutoDetailKit against the real `server` binary (default SQLite in a temporary DATA_DIR, embedded object store):
/// one server for the whole suite, driven only through the kit, as the iPhone app would.
@Suite("AutoDetailKit against the server binary", .serialized, .timeLimit(.minutes(20)))
struct EndToEndTests {
    @Test("first start, the seed's flow, seed models, typed errors, admin")
    func everything() async throws {
        try await withServer { server in
            let admin = try await firstStart(server)
            let photoDirectory = server.dataDirectory.appendingPathComponent("photos")
            try await seedFlowWithOrganisationKey(server, photos: photoDirectory)
            try await typedErrors(server, admin: admin, photos: photoDirectory)
            try await installProfileAndMessages(server, admin: admin)
            try await adminConsole(server, admin: admin)
        }
    }

    /// The embedded default's first start seeded AutoDetail: six services incl. "Car Washing", default settings, an
    /// organisation key and the admin password, each printed exactly once.
    func firstStart(_ server: TestServer) async throws -> AutoDetailClient {
        let log = server.log
        #expect(log.components(separatedBy: "AutoDetail Hub first start: admin username=admin password=").count == 2, "\(log)")
        #expect(log.components(separatedBy: "AutoDetail Hub first start: organisation API key org_").count == 2, "\(log)")
        let password = try #require(server.adminPassword)
        #expect(password.count == 20 && password.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        let orgKey = try #require(server.orgKey)
        #expect(orgKey.range(of: #"^org_[0-9]{10}_[0-9a-f]{24}$"#, options: .regularExpression) != nil)

        let client = server.client()
        let services = try await client.services()
        #expect(services.map(\.name) == [
            "Car Washing", "Ceramic Coating", "Engine Bay Cleaning", "Headlight Restoration", "Interior Detailing",
            "Machine Polishing",
        ])
        let wash = try #require(services.first { $0.name == "Car Washing" })
        #expect(wash.priceRub == 1500 && wash.durationMinutes == 60 && wash.imageUrl == nil && wash.active == true)
        #expect(ISO8601DateFormatter().date(from: wash.createdAt) != nil)
        #expect(try await client.service(id: wash.id) == wash)

        let admin = try await server.adminClient()
        let settings = try await admin.settings()
        #expect(settings.studioName == "AutoDetail Hub" && settings.timezone == "Europe/Moscow")
        #expect(settings.slotStepMinutes == 30 && settings.capacity == 2)
        #expect(settings.bookingWindowDays == 30 && settings.leadTimeMinutes == 60)
        for day in StudioSettings.weekdays {
            #expect(settings.workingHours[day] == .some(DayHours(open: "09:00", close: "21:00")), "\(day)")
        }
        let keys = try await admin.apiKeys()
        #expect(keys.items.map(\.name) == ["Default integration key"] && keys.totalCount == 1)
        #expect(keys.items.first?.keyPrefix == String(orgKey.prefix(19)))
        return admin
    }

    /// The seed's own flow with the printed organisation key: validate → services → availability → book → presign →
    /// PUT from a file → link → get shows the photo, whose URL downloads the same bytes. Every body also decodes
    /// into verbatim copies of the seed's structs.
    func seedFlowWithOrganisationKey(_ server: TestServer, photos: URL) async throws {
        let orgKey = try #require(server.orgKey)
        let client = server.client(apiKey: orgKey)
        let validation = try await client.validateKey()
        #expect(validation.valid && validation.keyType == "org" && validation.message == "API key is valid")

        let rawServices = try await client.sendRaw(Request<[Service]>(path: "/api/client/services", authentication: .none))
        let seedServices = try JSONDecoder().decode([Seed.Service].self, from: rawServices)
        let wash = try #require(seedServices.first { $0.name == "Car Washing" })

        let date = Fixtures.studioDate(daysFromNow: 1)
        let availability = try await client.availability(serviceId: wash.id, date: date)
        #expect(availability.date == date && availability.serviceId == wash.id && availability.timezone == "Europe/Moscow")
        #expect(availability.durationMinutes == 60 && availability.capacity == 2)
        #expect(availability.workingHours == DayHours(open: "09:00", close: "21:00"))
        #expect(availability.slots.count == 23)
        let slot = try #require(availability.availableSlots.first)

        // The seed builds startIso with ISO8601DateFormatter from a Date: the same text.
        let start = try #require(ISO8601DateFormatter().date(from: slot.startIso))
        #expect(AutoDetailClient.isoString(start) == slot.startIso)
        let booked = try await client.book(Fixtures.booking(AutoDetailClient.isoString(start)))
        #expect(booked.source == "api" && booked.status == "new" && booked.typedStatus == .new)
        #expect(booked.startIso == slot.startIso && booked.endIso == slot.endIso)
        #expect(booked.notes == nil && booked.phone == "+1234567890" && booked.carPlate == "ABC123")
        #expect(booked.workPhotos.isEmpty && booked.defectPhotos.isEmpty)
        #expect(booked.serviceId == wash.id && booked.priceRub == 1500 && booked.installId == nil)

        let (file, bytes) = try Fixtures.jpegFile(in: photos, name: "photo_1741939920.123456.jpg")
        let steps = ProgressLog()
        let linked = try await client.addPhoto(appointmentId: booked.id, kind: .defect, file: file) { steps.add($0) }
        #expect(linked.defectPhotos.count == 1 && linked.workPhotos.isEmpty)
        #expect(steps.last?.bytesSent == Int64(bytes.count) && steps.last?.totalBytes == Int64(bytes.count))
        #expect(steps.all.allSatisfy { $0.attempt == 1 })

        let rawAppointment = try await client.sendRaw(
            Request<Appointment>(path: "/api/client/appointments/\(booked.id)", authentication: .apiKey))
        let seedAppointment = try JSONDecoder().decode(Seed.Appointment.self, from: rawAppointment)
        #expect(seedAppointment.id == booked.id && seedAppointment.defectPhotos.count == 1)
        let fetched = try await client.appointment(id: booked.id)
        let photo = try #require(fetched.defectPhotos.first)
        #expect(photo.id == linked.defectPhotos.first?.id && photo.mismatch == nil)
        #expect(photo.url.hasPrefix(server.baseURL.absoluteString + "/storage/autodetail/appointments/\(booked.id)/defect/"))
        #expect(try await client.downloadPhoto(photo) == bytes)

        // The list and a cancel, twice (the second is a harmless repeat).
        let mine = try await client.appointments()
        #expect(mine.items.map(\.id).contains(booked.id))
        #expect(try await client.cancelAppointment(id: booked.id).status == "cancelled")
        #expect(try await client.cancelAppointment(id: booked.id).status == "cancelled")
        #expect(try await client.appointments(status: .cancelled).items.map(\.id) == [booked.id])
    }

    /// Each documented failure arrives as its typed error with the server's message.
    func typedErrors(_ server: TestServer, admin: AutoDetailClient, photos: URL) async throws {
        let wash = try #require(try await server.client().services().first { $0.name == "Car Washing" })
        let date = Fixtures.studioDate(daysFromNow: 2)
        let slots = try await server.client().availability(serviceId: wash.id, date: date).availableSlots
        #expect(slots.count >= 3)

        // A revoked organisation key answers 401 Invalid API key from its next request.
        let created = try await admin.createAPIKey(name: "Kit test key")
        let key = try #require(created.key)
        #expect(created.kind == "org" && !created.fullAccess && !created.revoked && created.keyPrefix == String(key.prefix(19)))
        let keyed = server.client(apiKey: key)
        #expect(try await keyed.appointments().items.isEmpty)
        try await admin.revokeAPIKey(id: created.id)
        try await admin.revokeAPIKey(id: created.id)  // again: still 204
        #expect(try await admin.apiKey(id: created.id).revoked)
        await #expect(throws: AutoDetailError.unauthorized(message: "Invalid API key")) { _ = try await keyed.appointments() }
        await #expect(throws: AutoDetailError.unauthorized(message: "Invalid API key")) { _ = try await keyed.validateKey() }

        // Capacity 2: the third booking of one slot is a conflict.
        let alice = server.client()
        let bob = server.client()
        try await alice.initInstall()
        try await bob.initInstall()
        let slot = slots[2].startIso
        let aliceBooking = try await alice.book(Fixtures.booking(slot, clientName: "Alice"))
        #expect(aliceBooking.source == "ios")
        _ = try await bob.book(Fixtures.booking(slot, clientName: "Bob"), idempotencyKey: "bob-1")
        // The same idempotency key and body: the same appointment, nothing new booked.
        _ = try await bob.book(Fixtures.booking(slot, clientName: "Bob"), idempotencyKey: "bob-1")
        await #expect(throws: AutoDetailError.conflict(message: "Time slot is no longer available")) {
            _ = try await alice.book(Fixtures.booking(slot, clientName: "Alice again"))
        }
        let full = try await alice.availability(serviceId: wash.id, date: date).slots.first { $0.startIso == slot }
        #expect(full?.available == false && full?.remaining == 0 && full?.unavailableReason == "full")

        // Another customer's appointment does not exist for Bob.
        await #expect(throws: AutoDetailError.notFound(message: "Appointment not found")) {
            _ = try await bob.appointment(id: aliceBooking.id)
        }
        await #expect(throws: AutoDetailError.notFound(message: "Appointment not found")) {
            _ = try await bob.cancelAppointment(id: aliceBooking.id)
        }
        await #expect(throws: AutoDetailError.notFound(message: "Appointment not found")) {
            _ = try await bob.presign(
                PresignRequest(appointmentId: aliceBooking.id, kind: .work, filename: "a.jpg", contentType: "image/jpeg"))
        }

        // Wrong kind, wrong content type, a slot that is not on the grid.
        await #expect(throws: AutoDetailError.invalid(message: "Invalid field: kind (must be one of: work, defect)")) {
            _ = try await alice.presign(
                PresignRequest(appointmentId: aliceBooking.id, kind: "before", filename: "a.jpg", contentType: "image/jpeg"))
        }
        await #expect(
            throws: AutoDetailError.invalid(message: "Invalid field: contentType (must be one of: image/jpeg, image/png, image/heic)")
        ) {
            _ = try await alice.presign(
                PresignRequest(appointmentId: aliceBooking.id, kind: .work, filename: "a.gif", contentType: "image/gif"))
        }
        let (file, _) = try Fixtures.jpegFile(in: photos, name: "wrong-kind.jpg")
        await #expect(throws: AutoDetailError.invalid(message: "Invalid field: kind (must be one of: work, defect)")) {
            _ = try await alice.addPhoto(appointmentId: aliceBooking.id, kind: "after", file: file)
        }
        let offGrid = try #require(ISO8601DateFormatter().date(from: slots[0].startIso)).addingTimeInterval(600)
        await #expect(throws: AutoDetailError.invalid(message: "Invalid time slot")) {
            _ = try await alice.book(Fixtures.booking(AutoDetailClient.isoString(offGrid)))
        }
        await #expect(throws: AutoDetailError.invalid(message: "Unknown or inactive service")) {
            _ = try await alice.book(Fixtures.booking(slots[0].startIso, serviceName: "Teleportation"))
        }

        // A ref of one appointment cannot be linked to another; a ref never uploaded is refused.
        let presigned = try await alice.presign(
            PresignRequest(appointmentId: aliceBooking.id, kind: .work, filename: "a.jpg", contentType: "image/jpeg"))
        await #expect(throws: AutoDetailError.invalid(message: "Photo has not been uploaded: \(presigned.ref)")) {
            _ = try await alice.linkPhotos(appointmentId: aliceBooking.id, kind: .work, refs: [presigned.ref])
        }

        // Organisation keys may not use install routes; a blocked install is forbidden.
        let org = server.client(apiKey: server.orgKey)
        await #expect(throws: AutoDetailError.forbidden(message: "This endpoint requires an app installation key")) {
            _ = try await org.profile()
        }
        let bobInstall = try #require(try await bob.credentials().installId)
        #expect(try await admin.setInstallPriority(id: bobInstall, priority: "blocked").priority == "blocked")
        await #expect(throws: AutoDetailError.forbidden(message: "This app installation has been blocked")) {
            _ = try await bob.appointments()
        }
        _ = try await admin.setInstallPriority(id: bobInstall, priority: "normal")
        #expect(try await bob.appointments().items.count == 1)

        // Unknown service: 404 on the public route.
        await #expect(throws: AutoDetailError.notFound(message: "Service not found")) {
            _ = try await alice.service(id: UUID().uuidString)
        }
    }

    /// Install-only routes: profile and messages from the studio.
    func installProfileAndMessages(_ server: TestServer, admin: AutoDetailClient) async throws {
        let app = server.client()
        let install = try await app.initInstall()
        #expect(install.baseUrl == server.baseURL.absoluteString)
        #expect(try await app.validateKey().keyType == "ios")
        let empty = try await app.profile()
        #expect(empty.id == install.installId && empty.name == nil && empty.unreadMessages == 0)
        let profile = try await app.updateProfile(
            ProfileRequest(name: "Ivan Petrov", carMake: "Toyota Camry", carPlate: " а123вс  777 ", phone: "8 916 123 45 67",
                telegram: "@ivan_petrov", profilePhotoUrl: "preset:car_1"))
        #expect(profile.carPlate == "А123ВС 777" && profile.phone == "+79161234567" && profile.telegram == "ivan_petrov")

        let sent = try await admin.sendMessage(installId: install.installId, text: "Your car is ready.")
        #expect(sent.installId == install.installId && !sent.read && sent.readAt == nil)
        let inbox = try await app.messages()
        #expect(inbox.unreadCount == 1 && inbox.messages.map(\.text) == ["Your car is ready."])
        #expect(try await app.markMessageRead(id: sent.id).read)
        #expect(try await app.messages(unreadOnly: true).messages.isEmpty)
        let user = try await admin.install(id: install.installId)
        #expect(user.name == "Ivan Petrov" && user.messages?.first?.read == true)
        #expect(try await admin.installStats().total >= 3)
        #expect(try await admin.installs(search: "Ivan").items.map(\.id) == [install.installId])

        // Deleting the install revokes its key.
        try await admin.deleteInstall(id: install.installId)
        await #expect(throws: AutoDetailError.unauthorized(message: "Invalid API key")) { _ = try await app.profile() }
    }

    /// Console: bookings of a day, status changes, services CRUD, settings, logout.
    func adminConsole(_ server: TestServer, admin: AutoDetailClient) async throws {
        let customer = server.client()
        try await customer.initInstall()
        let wash = try #require(try await customer.services().first { $0.name == "Car Washing" })
        let date = Fixtures.studioDate(daysFromNow: 3)
        let slot = try #require(try await customer.availability(serviceId: wash.id, date: date).availableSlots.last)
        let booking = try await customer.book(Fixtures.booking(slot.startIso, clientName: "Console Test"))

        let day = try await admin.adminAppointments(date: date)
        #expect(day.items.map(\.id) == [booking.id] && day.totalCount == 1)
        #expect(day.items.first?.installId == (try await customer.credentials().installId))
        #expect(try await admin.setAppointmentStatus(id: booking.id, to: .confirmed).status == "confirmed")
        #expect(try await admin.setAppointmentStatus(id: booking.id, to: .inProgress).status == "in_progress")
        #expect(try await admin.setAppointmentStatus(id: booking.id, to: .done).status == "done")
        await #expect(throws: AutoDetailError.conflict(message: "Invalid status transition: done -> confirmed")) {
            _ = try await admin.setAppointmentStatus(id: booking.id, to: .confirmed)
        }
        #expect(try await customer.appointment(id: booking.id).status == "done")

        let created = try await admin.createService(
            ServiceCreateRequest(name: "Wheel Polish", description: "Rims.", priceRub: 2000, durationMinutes: 45))
        #expect(created.active == true && created.description == "Rims.")
        await #expect(throws: AutoDetailError.conflict(message: "A service with this name already exists")) {
            _ = try await admin.createService(ServiceCreateRequest(name: "wheel polish", priceRub: 1, durationMinutes: 15))
        }
        let renamed = try await admin.updateService(
            id: created.id, ServiceUpdateRequest(name: "Wheel Polishing", imageUrl: .set("https://cdn.example.com/w.jpg")))
        #expect(renamed.name == "Wheel Polishing" && renamed.imageUrl == "https://cdn.example.com/w.jpg")
        #expect(try await admin.updateService(id: created.id, ServiceUpdateRequest(imageUrl: .clear)).imageUrl == nil)
        await #expect(throws: AutoDetailError.invalid(message: "Invalid field: durationMinutes (must be a multiple of 5)")) {
            _ = try await admin.updateService(id: created.id, ServiceUpdateRequest(durationMinutes: 47))
        }
        try await admin.deleteService(id: created.id)
        #expect(try await admin.adminService(id: created.id).active == false)
        #expect(!(try await customer.services()).map(\.id).contains(created.id))

        let updated = try await admin.updateSettings(SettingsUpdateRequest(capacity: 3, leadTimeMinutes: 30))
        #expect(updated.capacity == 3 && updated.leadTimeMinutes == 30)
        await #expect(throws: AutoDetailError.invalid(message: "Invalid field: timezone (unknown time zone)")) {
            _ = try await admin.updateSettings(SettingsUpdateRequest(timezone: "MSK"))
        }

        try await admin.adminLogout()
        #expect(try await admin.credentials().adminToken == nil)
        await #expect(throws: AutoDetailError.unauthorized(message: "Not logged in as admin: call adminLogin(username:password:) first")) {
            _ = try await admin.settings()
        }
        await #expect(throws: AutoDetailError.unauthorized(message: "Invalid username or password")) {
            _ = try await admin.adminLogin(username: "admin", password: "wrong-password")
        }
    }
}

/// Collects progress callbacks (called from URLSession's queue).
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [UploadProgress] = []

    func add(_ progress: UploadProgress) { lock.withLock { items.append(progress) } }
    var all: [UploadProgress] { lock.withLock { items } }
    var last: UploadProgress? { all.last }
}
