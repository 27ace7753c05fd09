import Foundation
import Testing

@testable import HelpPetKit

#if canImport(Glibc)
    import Glibc
#endif

/// The built `helppet` binary (`.build/debug/helppet`) against a running server.
@Suite("CLI: the helppet binary against the server", .timeLimit(.minutes(20)))
struct CLITests {
    /// Runs `helppet` with its own config folder; returns exit status, stdout and stderr.
    struct CLI {
        let server: TestServer
        let configHome: URL

        init(server: TestServer) throws {
            self.server = server
            configHome = server.dataDirectory.appendingPathComponent("config-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: configHome, withIntermediateDirectories: true)
        }

        var tokenFile: URL { configHome.appendingPathComponent("helppet/token.json") }

        @discardableResult
        func run(_ arguments: [String], stdin: String? = nil, server useServer: Bool = true, timeout: TimeInterval = 120)
            async throws -> (status: Int32, out: String, err: String)
        {
            let binary = try TestServer.binary("helppet")
            let directory = server.dataDirectory.appendingPathComponent("cli-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let outFile = directory.appendingPathComponent("stdout")
            let errFile = directory.appendingPathComponent("stderr")
            let inFile = directory.appendingPathComponent("stdin")
            _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
            _ = FileManager.default.createFile(atPath: inFile.path, contents: Data((stdin ?? "").utf8))
            let out = try FileHandle(forWritingTo: outFile)
            let err = try FileHandle(forWritingTo: errFile)
            let input = try FileHandle(forReadingFrom: inFile)
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            var environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "HOME": server.dataDirectory.path,
                "XDG_CONFIG_HOME": configHome.path,
            ]
            if useServer { environment["HELPPET_SERVER"] = server.baseURL.absoluteString }
            process.environment = environment
            process.currentDirectoryURL = directory
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            try process.run()
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning {
                if Date() > deadline {
                    Glibc.kill(process.processIdentifier, SIGKILL)
                    throw TestFailure("helppet \(arguments.joined(separator: " ")) did not exit within \(Int(timeout)) s")
                }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            try? out.close()
            try? err.close()
            try? input.close()
            let result = (
                process.terminationStatus,
                (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
                (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
            )
            try? FileManager.default.removeItem(at: directory)
            return result
        }

        func login(_ username: String = "vet1", _ password: String = "password123") async throws {
            let result = try await run(["login", "--username", username, "--password-stdin"], stdin: password + "\n")
            #expect(result.status == 0, "login: \(result.err)")
        }
    }

    @Test("login keeps a 0600 token; whoami; a wrong password exits 1; logout")
    func login() async throws {
        try await withServer { server in
            let cli = try CLI(server: server)
            let bad = try await cli.run(["login", "--username", "vet1", "--password-stdin"], stdin: "wrong\n")
            #expect(bad.status == 1)
            #expect(bad.err.contains("Incorrect username or password"))
            #expect(!FileManager.default.fileExists(atPath: cli.tokenFile.path))

            let good = try await cli.run(["login", "--username", "vet1", "--password-stdin"], stdin: "password123\n")
            #expect(good.status == 0, "\(good.err)")
            #expect(good.out.contains("Logged in to \(server.baseURL.absoluteString) as vet1 (Dr. Sarah Johnson, VET_STAFF)"))
            let attributes = try FileManager.default.attributesOfItem(atPath: cli.tokenFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(!(try String(contentsOf: cli.tokenFile, encoding: .utf8)).contains("password123"))

            let whoami = try await cli.run(["--json", "whoami"])
            #expect(whoami.status == 0)
            let user = try HelpPetCoding.makeDecoder().decode(User.self, from: Data(whoami.out.utf8))
            #expect(user.id == Demo.vet1)
            #expect(try await cli.run(["whoami"]).out.contains("Dr. Sarah Johnson"))

            // No terminal and no --password-stdin: a usage error, nothing is sent.
            let noTTY = try await cli.run(["login", "--username", "vet1"])
            #expect(noTTY.status == 2, "\(noTTY.err)")

            #expect(try await cli.run(["logout"]).status == 0)
            let after = try await cli.run(["today"])
            #expect(after.status == 1)
            #expect(after.err.contains("Not logged in"))
        }
    }

    @Test("--json today, record for each pet, duplicates and transcripts")
    func todayAndRecord() async throws {
        try await withServer { server in
            let cli = try CLI(server: server)
            try await cli.login()
            let today = try await cli.run(["--json", "today"])
            #expect(today.status == 0, "\(today.err)")
            let dashboard = try HelpPetCoding.makeDecoder().decode(DashboardResponse.self, from: Data(today.out.utf8))
            let appointment = try #require(dashboard.appointmentsToday.first { $0.pets.count == 3 })
            let table = try await cli.run(["today"])
            #expect(table.status == 0)
            #expect(table.out.contains("Multi-pet Wellness Exam - Smith Family"))
            #expect(table.out.contains("Bella, Max, Mittens"))

            #expect(try await cli.run(["appointment", "start", appointment.id]).status == 0)

            var visits: [String: String] = [:]
            for (index, pet) in appointment.pets.enumerated() {
                let file = try Recordings.make(bytes: 40_000 + index, name: "\(pet.name.lowercased()).m4a")
                defer { Recordings.remove(file) }
                let arguments = ["record", "--appointment", appointment.id, "--pet", pet.id, file.path]
                let result = try await cli.run(index == 0 ? arguments : ["--json"] + arguments)
                #expect(result.status == 0, "\(pet.name): \(result.err)")
                #expect(FileManager.default.fileExists(atPath: file.path), "the CLI never deletes the user's file")
                if index == 0 {
                    #expect(result.out.contains("Recorded \(pet.name): visit "))
                    #expect(result.err.contains("\(pet.name): uploading"))  // quiet progress lines without a TTY
                    let visitId = try #require(result.out.split(separator: " ").dropFirst(3).first)
                    visits[pet.id] = String(visitId)
                } else {
                    let visit = try HelpPetCoding.makeDecoder().decode(VisitTranscript.self, from: Data(result.out.utf8))
                    #expect(visit.petId == pet.id)
                    #expect(visit.appointmentId == appointment.id)
                    #expect(visit.fileSizeBytes == 40_000 + index)
                    visits[pet.id] = visit.uuid
                }
            }
            #expect(Set(visits.values).count == 3)

            let listed = try await cli.run(["--json", "transcripts", "--appointment", appointment.id])
            #expect(listed.status == 0)
            let transcripts = try HelpPetCoding.makeDecoder().decode([VisitTranscript].self, from: Data(listed.out.utf8))
            #expect(Set(transcripts.map(\.uuid)) == Set(visits.values))
            #expect(Set(transcripts.map(\.petId)) == Set(appointment.pets.map(\.id)))

            // A second recording of Bella: exit 1, the existing visit named, the file untouched.
            let again = try Recordings.make(bytes: 1_000)
            defer { Recordings.remove(again) }
            let duplicate = try await cli.run(["record", "--appointment", appointment.id, "--pet", Demo.bella, again.path])
            #expect(duplicate.status == 1)
            #expect(duplicate.err.contains("already has a recording"))
            #expect(duplicate.err.contains(visits[Demo.bella] ?? "?"))
            let replaced = try await cli.run(["--json", "record", "--replace", "--appointment", appointment.id, "--pet", Demo.bella, again.path])
            #expect(replaced.status == 0, "\(replaced.err)")
            #expect(try HelpPetCoding.makeDecoder().decode(VisitTranscript.self, from: Data(replaced.out.utf8)).uuid == visits[Demo.bella])

            let download = server.dataDirectory.appendingPathComponent("cli-download.m4a")
            let downloaded = try await cli.run(["download", visits[Demo.bella]!, "-o", download.path])
            #expect(downloaded.status == 0, "\(downloaded.err)")
            #expect(try Recordings.sameContents(download, again))

            #expect(try await cli.run(["appointment", "complete", appointment.id]).status == 0)
            let shown = try await cli.run(["--json", "appointment", "show", appointment.id])
            #expect(try HelpPetCoding.makeDecoder().decode(Appointment.self, from: Data(shown.out.utf8)).status == .completed)
        }
    }

    @Test("record-all uploads one file per pet (--map and order)")
    func recordAll() async throws {
        try await withServer { server in
            let cli = try CLI(server: server)
            try await cli.login()
            let today = try await cli.run(["--json", "today"])
            let dashboard = try HelpPetCoding.makeDecoder().decode(DashboardResponse.self, from: Data(today.out.utf8))
            let appointment = try #require(dashboard.appointmentsToday.first { $0.pets.count == 3 })
            let files = try ["a", "b", "c"].enumerated().map { try Recordings.make(bytes: 5_000 + $0.offset, name: "\($0.element).m4a") }
            defer { files.forEach(Recordings.remove) }

            let wrongCount = try await cli.run(["record-all", "--appointment", appointment.id, files[0].path])
            #expect(wrongCount.status == 2, "\(wrongCount.err)")

            // Mittens by name, the other two in the appointment's order (Bella, Max).
            let result = try await cli.run([
                "--json", "record-all", "--appointment", appointment.id, "--map", "mittens=\(files[2].path)",
                files[0].path, files[1].path,
            ])
            #expect(result.status == 0, "\(result.err)")
            let rows = try JSONDecoder().decode(JSONValue.self, from: Data(result.out.utf8)).arrayValue ?? []
            #expect(rows.count == 3)
            #expect(rows.allSatisfy { $0["status"] == "completed" })
            let visits = try await server.loggedInClient().visitTranscripts(appointmentId: appointment.id)
            #expect(visits.first { $0.petId == Demo.bella }?.fileSizeBytes == 5_000)
            #expect(visits.first { $0.petId == Demo.max }?.fileSizeBytes == 5_001)
            #expect(visits.first { $0.petId == Demo.mittens }?.fileSizeBytes == 5_002)

            let again = try await cli.run(["record-all", "--appointment", appointment.id, files[0].path, files[1].path, files[2].path])
            #expect(again.status == 1)
            #expect(again.out.contains("conflict"))
        }
    }

    @Test("wait times out cleanly (exit 1) while no transcription engine runs")
    func waitTimesOut() async throws {
        try await withServer { server in
            let cli = try CLI(server: server)
            try await cli.login()
            let client = try await server.loggedInClient()
            let appointment = try #require(try await client.today().appointmentsToday.first { $0.pets.count == 3 })
            let file = try Recordings.make(bytes: 3_000)
            defer { Recordings.remove(file) }
            let session = PetRecordingSession(client: client, appointmentId: appointment.id, pet: appointment.pets[0], recordingFile: file)
            guard case let .completed(visitId) = await session.upload() else {
                Issue.record("upload: \(await session.state)")
                return
            }
            let started = Date()
            let result = try await cli.run(["wait", visitId, "--timeout", "2", "--interval", "0.5"])
            #expect(result.status == 1)
            #expect(result.err.contains("Timed out after 2 s"))
            #expect(result.err.contains("still processing"))
            #expect(result.err.contains("transcription: off"))
            #expect(result.out.isEmpty)
            #expect(Date().timeIntervalSince(started) < 30)

            let json = try await cli.run(["--json", "wait", visitId, "--timeout", "0"])
            #expect(json.status == 1)
            #expect(try HelpPetCoding.makeDecoder().decode(VisitTranscript.self, from: Data(json.out.utf8)).state == .processing)

            // The manual demo transcript is already processed: printed at once.
            let processed = try await cli.run(["wait", Demo.manualVisit, "--timeout", "5"])
            #expect(processed.status == 0)
            #expect(processed.out.contains("Patient presented for routine wellness exam."))
            #expect(processed.out.contains("Summary: Routine wellness exam completed."))
        }
    }

    @Test("exit codes: 2 for usage errors, 1 for API errors with the server's message")
    func exitCodes() async throws {
        try await withServer { server in
            let cli = try CLI(server: server)
            #expect(try await cli.run(["frobnicate"]).status == 2)
            #expect(try await cli.run(["transcripts"]).status == 2)
            #expect(try await cli.run(["transcripts", "--pet", Demo.bella, "--appointment", Demo.bella]).status == 2)
            #expect(try await cli.run(["record", "--pet", Demo.bella, "x.m4a"]).status == 2)
            #expect(try await cli.run(["--server", "ftp://nowhere", "whoami"]).status == 2)
            #expect(try await cli.run(["today", "--date", "2025-02-30"]).status == 2)
            let help = try await cli.run(["--help"])
            #expect(help.status == 0)
            #expect(help.out.contains("record-all"))

            let notLoggedIn = try await cli.run(["today"])
            #expect(notLoggedIn.status == 1)
            #expect(notLoggedIn.err.contains("Not logged in"))

            try await cli.login()
            let missingPet = try await cli.run(["pet", "show", "00000000-0000-4000-8000-000000000000"])
            #expect(missingPet.status == 1)
            #expect(missingPet.err.contains("Pet not found"))
            let badId = try await cli.run(["pet", "show", "not-a-uuid"])
            #expect(badId.status == 1)
            #expect(badId.err.contains("Invalid pet ID format"))
            let missingFile = try await cli.run(["record", "--appointment", Demo.bella, "--pet", Demo.bella, "/nonexistent.m4a"])
            #expect(missingFile.status == 1)
            #expect(missingFile.err.contains("no such file"))

            let today = try await cli.run(["--json", "today"])
            let dashboard = try HelpPetCoding.makeDecoder().decode(DashboardResponse.self, from: Data(today.out.utf8))
            let appointment = try #require(dashboard.appointmentsToday.first { $0.pets.count == 3 })
            let file = try Recordings.make(bytes: 100)
            defer { Recordings.remove(file) }
            let notInAppointment = try await cli.run(["record", "--appointment", appointment.id, "--pet", Demo.rocky, file.path])
            #expect(notInAppointment.status == 1)
            #expect(notInAppointment.err.contains("is not associated with appointment"))
            let illegal = try await cli.run(["appointment", "complete", appointment.id])
            #expect(illegal.status == 1)
            #expect(illegal.err.contains("Cannot change appointment status from scheduled to completed"))

            // Another server: not logged in there, and an unreachable one is a (retried) network error.
            let elsewhere = try await cli.run(["--server", "http://127.0.0.1:9", "whoami"])
            #expect(elsewhere.status == 1)
            #expect(elsewhere.err.contains("Not logged in"))
            #expect(try await cli.run(["records", Demo.bella]).out.contains("Annual Vaccinations"))
            #expect(try await cli.run(["records", Demo.bella, "--history"]).out.contains("2 records"))
            #expect(try await cli.run(["pet", "show", Demo.bella]).out.contains("John Smith"))
        }
    }
}
