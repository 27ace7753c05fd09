import AutoDetailKit
import Foundation
import Testing

/// The built `autodetail` binary against one running server.
@Suite("CLI: the autodetail binary against the server", .serialized, .timeLimit(.minutes(20)))
struct CLITests {
    @Test("init, services, slots, book, photo add, show, list, cancel, admin, exit codes")
    func everything() async throws {
        try await withServer { server in
            let cli = try CLI(server: server)

            // Without a key: exit 1 and a hint.
            let noKey = try await cli.run(["list"])
            #expect(noKey.status == 1 && noKey.err.contains("autodetail init"), "\(noKey)")

            // init: an install key kept in a 0600 file under XDG_CONFIG_HOME; a second init is refused.
            let initialised = try await cli.run(["init"])
            #expect(initialised.status == 0, "\(initialised.err)")
            #expect(initialised.out.contains("New install "))
            let attributes = try FileManager.default.attributesOfItem(atPath: cli.credentialsFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let stored = try String(contentsOf: cli.credentialsFile, encoding: .utf8)
            #expect(stored.contains("\"apiKey\" : \"ios_") && stored.contains(server.baseURL.absoluteString))
            let again = try await cli.run(["init"])
            #expect(again.status == 1 && again.err.contains("--force"), "\(again)")

            // services (JSON decodes into the kit's and the seed's models; the table names them).
            let services = try await cli.json([Service].self, ["services"])
            let wash = try #require(services.first { $0.name == "Car Washing" })
            let table = try await cli.run(["services"])
            #expect(table.status == 0 && table.out.contains("Car Washing") && table.out.contains("1 500 RUB"))
            #expect(table.out.contains(wash.id))

            // slots of tomorrow, then book the first free one.
            let date = Fixtures.studioDate(daysFromNow: 1)
            let availability = try await cli.json(Availability.self, ["slots", "--service", wash.id, "--date", date])
            let slot = try #require(availability.availableSlots.first)
            let slotTable = try await cli.run(["slots", "--service", wash.id, "--date", date, "--available"])
            #expect(slotTable.status == 0 && slotTable.out.contains(slot.startIso) && slotTable.out.contains("available"))
            let booked = try await cli.json(
                Appointment.self,
                [
                    "book", "--service", "Car Washing", "--slot", slot.startIso, "--name", "Ivan Petrov", "--phone",
                    "+7 916 123-45-67", "--car-make", "Toyota Camry", "--car-plate", "а123вс 777",
                ])
            #expect(booked.status == "new" && booked.source == "ios" && booked.carPlate == "А123ВС 777")
            #expect(booked.phone == "+79161234567" && booked.startIso == slot.startIso)

            // photo add: presign, PUT with progress (quiet lines: stderr is not a terminal), link.
            let (photo, bytes) = try Fixtures.jpegFile(in: server.dataDirectory.appendingPathComponent("cli-photos"), name: "scratch.jpg")
            let added = try await cli.run(["photo", "add", booked.id, "--kind", "defect", photo.path])
            #expect(added.status == 0, "\(added.err)")
            #expect(added.out.contains("Linked 1 defect photo to \(booked.id)"))
            #expect(added.err.contains("scratch.jpg: uploading 48.0 KiB") && added.err.contains("scratch.jpg: uploaded"))
            let shown = try await cli.json(Appointment.self, ["show", booked.id])
            let linked = try #require(shown.defectPhotos.first)
            let client = server.client()
            #expect(try await client.downloadPhoto(linked) == bytes)
            let shownTable = try await cli.run(["show", booked.id])
            #expect(shownTable.out.contains("Defect photos") && shownTable.out.contains(linked.id))

            // list, then cancel.
            let list = try await cli.run(["list"])
            #expect(list.status == 0 && list.out.contains(booked.id) && list.out.contains("new"))
            let cancelled = try await cli.run(["cancel", booked.id])
            #expect(cancelled.status == 0 && cancelled.out.contains("is cancelled"), "\(cancelled)")
            #expect(try await cli.json([Appointment].self, ["list", "--status", "cancelled"]).map(\.id) == [booked.id])

            // A second booking for the console to confirm.
            let second = try await cli.json(
                Appointment.self,
                [
                    "book", "--service", wash.id, "--slot", slot.startIso, "--name", "Ivan Petrov", "--phone", "+79161234567",
                    "--car-make", "Toyota Camry", "--car-plate", "A123BC777", "--notes", "Please check the left door",
                ])
            #expect(second.notes == "Please check the left door")

            // admin login: a wrong password exits 1; the right one keeps a token.
            let password = try #require(server.adminPassword)
            let wrong = try await cli.run(["admin", "login", "--password-stdin"], stdin: "not-the-password\n")
            #expect(wrong.status == 1 && wrong.err.contains("Invalid username or password"), "\(wrong)")
            let login = try await cli.run(["admin", "login", "--username", "admin", "--password-stdin"], stdin: password + "\n")
            #expect(login.status == 0 && login.out.contains("Logged in to"), "\(login.err)")
            #expect(!(try String(contentsOf: cli.credentialsFile, encoding: .utf8)).contains(password))

            // admin keys create / list / revoke; a revoked key is refused by init --key.
            let key = try await cli.json(APIKey.self, ["admin", "keys", "create", "--name", "CLI test key"])
            let fullKey = try #require(key.key)
            let keys = try await cli.run(["admin", "keys", "list"])
            #expect(keys.status == 0 && keys.out.contains(key.keyPrefix) && keys.out.contains("Default integration key"))
            let revoked = try await cli.run(["admin", "keys", "revoke", key.id])
            #expect(revoked.status == 0 && revoked.out.contains("revoked"), "\(revoked)")
            let other = try CLI(server: server)
            let refused = try await other.run(["init", "--key", fullKey])
            #expect(refused.status == 1 && refused.err.contains("Invalid API key"), "\(refused)")
            let orgKey = try #require(server.orgKey)
            let accepted = try await other.run(["init", "--key", orgKey])
            #expect(accepted.status == 0 && accepted.out.contains("Using the org key"), "\(accepted)")
            #expect(!accepted.out.contains(orgKey))

            // admin bookings of the day and booking confirm.
            let day = try await cli.json([Appointment].self, ["admin", "bookings", "--date", date])
            #expect(Set(day.map(\.id)) == [booked.id, second.id])
            let confirmed = try await cli.run(["admin", "booking", "confirm", second.id])
            #expect(confirmed.status == 0 && confirmed.out.contains("is confirmed"), "\(confirmed)")
            let illegal = try await cli.run(["admin", "booking", "done", second.id])
            #expect(illegal.status == 1 && illegal.err.contains("Invalid status transition: confirmed -> done"), "\(illegal)")
            #expect(try await cli.json(Appointment.self, ["show", second.id]).status == "confirmed")

            // admin services and settings.
            let service = try await cli.json(
                Service.self, ["admin", "services", "create", "--name", "Glass Coating", "--price", "4000", "--duration", "90"])
            #expect(service.active == true)
            let renamed = try await cli.json(Service.self, ["admin", "services", "update", service.id, "--price", "4500"])
            #expect(renamed.priceRub == 4500)
            #expect(try await cli.run(["admin", "services", "delete", service.id]).status == 0)
            #expect(try await cli.run(["admin", "services", "list"]).out.contains("Glass Coating"))
            let settings = try await cli.json(
                StudioSettings.self, ["admin", "settings", "update", "--capacity", "3", "--hours", "sun=closed"])
            #expect(settings.capacity == 3 && settings.workingHours["sun"] == .some(nil))
            #expect(settings.workingHours["sat"] == .some(DayHours(open: "09:00", close: "21:00")))
            let shownSettings = try await cli.run(["admin", "settings"])
            #expect(shownSettings.status == 0 && shownSettings.out.contains("sun") && shownSettings.out.contains("closed"))

            // profile and messages of the install.
            let profile = try await cli.run([
                "profile", "set", "--name", "Ivan Petrov", "--car-make", "Toyota Camry", "--car-plate", "A123BC777",
            ])
            #expect(profile.status == 0 && profile.out.contains("Ivan Petrov"), "\(profile)")
            #expect(try await cli.run(["messages"]).out.contains("0 unread."))

            // Exit code 1: API errors.
            let unknown = try await cli.run(["show", UUID().uuidString.lowercased()])
            #expect(unknown.status == 1 && unknown.err.contains("Appointment not found"), "\(unknown)")
            let badTransition = try await cli.run(["--json", "admin", "booking", "confirm", booked.id])
            #expect(badTransition.status == 1 && badTransition.err.contains("cancelled -> confirmed"))

            // Exit code 2: usage errors, nothing sent.
            for arguments in [
                ["slots", "--service", "not-an-id", "--date", date],
                ["slots", "--service", wash.id, "--date", "2025-02-30"],
                ["book", "--service", "Car Washing"],
                ["book", "--service", "Car Washing", "--slot", "tomorrow", "--name", "A B", "--phone", "1", "--car-make", "X",
                    "--car-plate", "Y"],
                ["photo", "add", booked.id, "--kind", "before", photo.path],
                ["photo", "add", booked.id, "--kind", "work", "notes.txt"],
                ["--server", "ftp://example.com", "services"],
                ["admin", "settings", "update", "--hours", "funday=09:00-10:00"],
                ["admin", "services", "update", wash.id],
                ["no-such-command"],
            ] {
                let result = try await cli.run(arguments)
                #expect(result.status == 2, "\(arguments): \(result)")
                #expect(!result.err.isEmpty)
            }

            // logout forgets the admin token.
            #expect(try await cli.run(["admin", "logout"]).status == 0)
            let afterLogout = try await cli.run(["admin", "bookings"])
            #expect(afterLogout.status == 1 && afterLogout.err.contains("admin login"), "\(afterLogout)")
        }
    }
}
