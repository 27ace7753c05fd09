import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `server backup` / `server restore` of the embedded default (SQLite + local object store): a backup
/// taken while recordings upload and bookings arrive restores into a fresh data folder on which a new server
/// plays back every recording completed before the backup byte for byte and lists every booking made before it.
/// Always SQLite (the PostgreSQL path is pg_dump's), whatever database the test run uses.
@Suite(.serialized) struct BackupRestoreTests {
    @Test func backupTakenUnderLoadRestoresEveryCompletedRecordingAndBooking() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("backup-test-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let original = scratch.appendingPathComponent("original"), restored = scratch.appendingPathComponent("restored")
        let backup = scratch.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: original, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)

        let started = NIOLockedValueBox<[ServerProcess]>([])
        // A failed expectation must not leave a server running: SIGKILL whatever is still up.
        defer { for server in started.withLockedValue({ $0 }) where server.isRunning { Glibc.kill(server.pid, SIGKILL) } }
        let first = try await ServerProcess.start(environment: Self.environment(dataDir: original))
        started.withLockedValue { $0.append(first) }
        let flow = try await LoadFlow.connect(first)

        // Before the backup: recordings completed, bookings made. These must all come back.
        var before: [(visit: String, bytes: [UInt8])] = []
        for i in 0..<4 { before.append(try await flow.recordCompletedVisit(seed: UInt8(i))) }
        var bookingsBefore: [String] = []
        for day in 2..<5 { bookingsBefore.append(try await flow.book(daysAhead: day)) }

        // During the backup: the same traffic keeps going (and must not disturb the copy).
        let stop = NIOLockedValueBox(false)
        let load = Task {
            var done = 0
            var seed: UInt8 = 100
            while !stop.withLockedValue({ $0 }) {
                _ = try await flow.recordCompletedVisit(seed: seed)
                _ = try await flow.book(daysAhead: 5 + done % 20)
                seed &+= 1
                done += 1
            }
            return done
        }
        try await Task.sleep(for: .milliseconds(300))
        let backupRun = try await ServerProcess.run(
            arguments: ["backup", backup.path], environment: Self.environment(dataDir: original), timeout: .seconds(120))
        try await Task.sleep(for: .milliseconds(300))
        stop.withLockedValue { $0 = true }
        let duringBackup = try await load.value
        #expect(backupRun.status == 0, "backup: \(backupRun.output)")
        #expect(duringBackup > 0, "no traffic ran while the backup was taken")
        let manifest = try JSONNode(data: try Data(contentsOf: backup.appendingPathComponent("manifest.json")))
        #expect(manifest["database_method"].string == "sqlite VACUUM INTO")
        #expect((manifest["counts"]["objects_per_bucket"]["helppetai-visit-recordings"].int ?? 0) >= before.count)

        // Restore into a fresh folder, then serve it.
        let restoreRun = try await ServerProcess.run(
            arguments: ["restore", backup.path], environment: Self.environment(dataDir: restored), timeout: .seconds(120))
        #expect(restoreRun.status == 0, "restore: \(restoreRun.output)")
        #expect(restoreRun.output.contains("verified"))
        await first.stop()
        let second = try await ServerProcess.start(environment: Self.environment(dataDir: restored))
        started.withLockedValue { $0.append(second) }
        let replay = try await LoadFlow.connect(second)

        for (visit, bytes) in before {
            let played = try await replay.playback(visit: visit)
            #expect(played == bytes, "visit \(visit): \(played.count) bytes played back, \(bytes.count) uploaded")
        }
        for booking in bookingsBefore {
            let shown = try await second.client.get("/api/client/appointments/\(booking)", headers: ["X-API-Key": flow.installKey])
            #expect(shown.status == .ok, "booking \(booking): \(shown)")
        }
    }

    @Test func restoreRefusesADataFolderThatAlreadyHoldsADatabase() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("backup-test-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data"), backup = scratch.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let server = try await ServerProcess.start(environment: Self.environment(dataDir: data))
        defer { if server.isRunning { Glibc.kill(server.pid, SIGKILL) } }
        let backupRun = try await ServerProcess.run(arguments: ["backup", backup.path], environment: Self.environment(dataDir: data))
        await server.stop()
        #expect(backupRun.status == 0, "\(backupRun.output)")

        let intoItself = try await ServerProcess.run(arguments: ["restore", backup.path], environment: Self.environment(dataDir: data))
        #expect(intoItself.status != 0)
        #expect(intoItself.output.contains("restore needs a fresh data folder"), "\(intoItself.output)")

        // A damaged backup is refused before anything is copied.
        let handle = try FileHandle(forWritingTo: backup.appendingPathComponent("app.sqlite"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let fresh = scratch.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        let damaged = try await ServerProcess.run(arguments: ["restore", backup.path], environment: Self.environment(dataDir: fresh))
        #expect(damaged.status != 0)
        #expect(damaged.output.contains("does not match its manifest"), "\(damaged.output)")
        #expect(!FileManager.default.fileExists(atPath: fresh.appendingPathComponent("app.sqlite").path))
    }

    /// SQLite in `dataDir`, both products, rate limits off (the load is one client), no transcription engine.
    static func environment(dataDir: URL) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        return [
            "PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp",
            "DATA_DIR": dataDir.path, "JWT_SECRET": TestEnvironment.jwtSecret, "BCRYPT_COST": "4",
            "SEED_DEMO_DATA": "true", "LOG_LEVEL": "warning", "TRANSCRIPTION_ENGINE": "off",
            "DISABLE_RATE_LIMITS": "true",
        ]
    }
}

/// The traffic of the backup test: the seed 002 per-pet recording flow (a new pet each time, so each recording
/// is a new visit) and AutoDetail client bookings.
private struct LoadFlow: Sendable {
    let server: ServerProcess
    let token: String
    let installKey: String
    let serviceID: String

    static func connect(_ server: ServerProcess) async throws -> LoadFlow {
        let token = try await server.client.login(Demo.vet1)
        let install = try await server.client.send(.POST, "/api/ios/init")
        let key = try #require(install.json["apiKey"].string, "\(install)")
        let services = try await server.client.get("/api/client/services", headers: ["X-API-Key": key])
        let service = try #require(services.json.array?.first?["id"].string, "\(services)")
        return LoadFlow(server: server, token: token, installKey: key, serviceID: service)
    }

    /// New pet → initiate → presigned POST of distinct bytes → complete; returns the visit and its bytes.
    func recordCompletedVisit(seed: UInt8) async throws -> (visit: String, bytes: [UInt8]) {
        let pet = try await server.client.post(
            "/api/v1/pets", token: token,
            json: ["name": "Backup \(seed)", "species": "dog", "owner_id": Demo.owner(1).uuidString.lowercased()])
        let petID = try #require(pet.json["id"].string.flatMap(UUID.init(uuidString:)), "\(pet)")
        let initiated = try await RecordingProcessFixtures.initiate(server, token: token, pet: petID, appointment: nil)
        let visit = try #require(initiated.json["visit_id"].string, "\(initiated)")
        // 64 KiB plus a little, different for each seed, so a mix-up of two objects would show.
        let bytes = (0..<(65_536 + Int(seed))).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
        let uploaded = try await RecordingProcessFixtures.upload(initiated: initiated, bytes: bytes)
        #expect(uploaded.status == .noContent, "upload: \(uploaded)")
        let completed = try await server.client.post(
            "/api/v1/visit-transcripts/audio/upload/complete/\(visit)", token: token, json: [:])
        #expect(completed.status == .ok, "complete: \(completed)")
        return (visit, bytes)
    }

    /// Books the first free slot `daysAhead` days from now; returns the appointment id.
    func book(daysAhead: Int) async throws -> String {
        let day = Date().addingTimeInterval(Double(daysAhead) * 86_400)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "Europe/Moscow")
        let date = formatter.string(from: day)
        let slots = try await server.client.get(
            "/api/client/availability?serviceId=\(serviceID)&date=\(date)", headers: ["X-API-Key": installKey])
        let free = try #require(
            slots.json["slots"].array?.first { $0["available"].bool == true }?["startIso"].string, "\(date): \(slots)")
        let booked = try await server.client.send(
            .POST, "/api/client/appointments", headers: ["X-API-Key": installKey],
            body: JSONBody.encode([
                "startIso": free, "clientName": "Backup Test", "phone": "+7 916 123-45-67", "carMake": "Toyota",
                "carPlate": "a123bc 777", "serviceName": "Car Washing", "notes": "",
            ]), contentType: "application/json")
        #expect(booked.status == .created, "booking \(free): \(booked)")
        return try #require(booked.json["id"].string, "\(booked)")
    }

    /// The bytes the playback URL of `visit` serves.
    func playback(visit: String) async throws -> [UInt8] {
        let answer = try await server.client.get("/api/v1/visit-transcripts/audio/playback/\(visit)", token: token)
        let url = try #require(answer.json["presigned_url"].string, "playback \(visit): \(answer)")
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        #expect(response.status == .ok, "download \(visit): \(response.status)")
        var body = try await response.body.collect(upTo: 16 << 20)
        return body.readBytes(length: body.readableBytes) ?? []
    }
}
