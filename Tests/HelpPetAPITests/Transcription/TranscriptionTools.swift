import AppCore
import Foundation
import SQLKit
import Testing
import Vapor

/// The tools the transcription tests need (Debian `ffmpeg espeak-ng pocketsphinx pocketsphinx-en-us`, and the
/// project's `.venv-transcription` from `scripts/transcription/setup-venv`). Without them the tests are skipped,
/// unless `HELPPET_REQUIRE_ENGINES=1` (set by `.ci/run`): then they run and fail on the missing tool.
enum TranscriptionTools {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var required: Bool { ProcessInfo.processInfo.environment["HELPPET_REQUIRE_ENGINES"] == "1" }

    static var python: String {
        ProcessInfo.processInfo.environment["TRANSCRIPTION_PYTHON"]
            ?? repository.appendingPathComponent(".venv-transcription/bin/python3").path
    }

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static var missingBase: [String] {
        ["ffmpeg", "espeak-ng"].filter { which($0) == nil }
    }
    static var missingWhisper: [String] {
        missingBase + (FileManager.default.isExecutableFile(atPath: python) ? [] : ["\(python) (scripts/transcription/setup-venv)"])
    }
    static var missingPocketsphinx: [String] {
        missingBase + (which("pocketsphinx_continuous") == nil ? ["pocketsphinx_continuous"] : [])
    }

    /// Run the whisper tests: everything is installed, or it is required (and the test fails on what is missing).
    static var whisperRunnable: Bool { required || missingWhisper.isEmpty }
    /// A Whisper test that never touches the database gives the same result on every engine, and costs tens of
    /// seconds of CPU behind `engineGate`. `.ci/run` runs the suite on SQLite, then again on PostgreSQL with
    /// `SKIP_DATABASE_FREE_TESTS=1`, so such a test runs once per CI run.
    static var databaseFreeWhisperRunnable: Bool {
        whisperRunnable && ProcessInfo.processInfo.environment["SKIP_DATABASE_FREE_TESTS"] != "1"
    }
    static var pocketsphinxRunnable: Bool { required || missingPocketsphinx.isEmpty }

    static func requireWhisper() throws {
        if !missingWhisper.isEmpty { throw TestSetupError("missing for the Whisper engine: \(missingWhisper)") }
    }
    static func requirePocketsphinx() throws {
        if !missingPocketsphinx.isEmpty { throw TestSetupError("missing for pocketsphinx: \(missingPocketsphinx)") }
    }

    /// The server environment of a transcribing process.
    static func env(engine: String, _ extra: [String: String] = [:]) -> [String: String] {
        [
            "TRANSCRIPTION_ENGINE": engine, "TRANSCRIPTION_PYTHON": python,
            "TRANSCRIPTION_POLL_INTERVAL_SECONDS": "0.2", "TRANSCRIPTION_RETRY_DELAYS_SECONDS": "1,1",
            "DISABLE_RATE_LIMITS": "true",
        ].merging(extra) { _, new in new }
    }
}

/// `withServerDatabase` for tests that run an engine: one such test at a time, so the CPU-heavy recognisers do
/// not starve the other suites' servers (pool timeouts) on a 2-core machine.
func withEngineServerDatabase<T>(_ body: (TestDatabase, ServerGroup) async throws -> T) async throws -> T {
    try await TranscriptionTools.engineGate.withPermit { try await withServerDatabase(body) }
}

extension TranscriptionTools {
    static let engineGate = AsyncGate(limit: 1)
}

/// Speech generated at test time: espeak-ng → WAV → AAC in an m4a (the iPhone app's format) via ffmpeg.
enum SpeechFixture {
    static let visitText = "Bella presents with vomiting since yesterday. Her temperature is 103 degrees Fahrenheit. "
        + "Weight is 12 kilograms. We will start amoxicillin 250 milligrams twice daily. Recheck in two weeks."

    static func m4a(_ text: String, in folder: URL) throws -> [UInt8] {
        let name = UUID().uuidString.prefix(8)
        let wav = folder.appendingPathComponent("speech-\(name).wav")
        let m4a = folder.appendingPathComponent("speech-\(name).m4a")
        try run("espeak-ng", ["-v", "en", "-s", "130", "-g", "3", "-w", wav.path, text])
        try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", wav.path, "-c:a", "aac", "-b:a", "64k", m4a.path])
        defer {
            try? FileManager.default.removeItem(at: wav)
            try? FileManager.default.removeItem(at: m4a)
        }
        return Array(try Data(contentsOf: m4a))
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        guard let path = TranscriptionTools.which(tool) else { throw TestSetupError("\(tool) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestSetupError("\(tool) failed (\(process.terminationStatus))") }
    }
}

/// Recording calls against a running server, and the job rows through a direct connection.
struct TranscriptionHarness {
    let api: ServerProcess
    let token: String

    static func visitPath(_ id: String) -> String { "/api/v1/visit-transcripts/\(id)" }

    /// Initiate (optionally replacing), upload `bytes`, complete: the visit id.
    func record(pet: UUID, bytes: [UInt8], replace: Bool = false) async throws -> String {
        var body: [String: Any?] = ["pet_id": pet.uuidString.lowercased(), "filename": "visit.m4a", "content_type": "audio/m4a"]
        if replace { body["replace_existing"] = true }
        let initiated = try await api.client.post("/api/v1/visit-transcripts/audio/upload/initiate", token: token, json: body)
        try #require(initiated.status == .ok, "\(initiated)")
        let visitID = try #require(initiated.json["visit_id"].string)
        let uploaded = try await RecordingProcessFixtures.upload(initiated: initiated, bytes: bytes)
        try #require(uploaded.status == .noContent, "\(uploaded)")
        let completed = try await api.client.post(
            "/api/v1/visit-transcripts/audio/upload/complete/\(visitID)", token: token, json: [:])
        try #require(completed.status == .ok, "\(completed)")
        return visitID
    }

    /// Polls the visit until `state` is one of `states`.
    func waitForState(_ visitID: String, _ states: Set<String>, timeout: Duration = .seconds(180)) async throws
        -> TestResponse
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            let visit = try await api.client.get(Self.visitPath(visitID), token: token)
            if let state = visit.json["state"].string, states.contains(state) { return visit }
            guard ContinuousClock.now < deadline else {
                throw TestSetupError("visit \(visitID) not in \(states) after \(timeout): \(visit)")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}

/// A direct connection to a test database that `server` processes migrated (for job rows).
struct JobRows {
    let app: Application

    static func open(_ database: TestDatabase) async throws -> JobRows {
        var values = TestEnvironment.base
        values.merge(database.environment) { _, new in new }
        values["TRANSCRIPTION_ENGINE"] = "off"
        return JobRows(app: try await makeTestApplication(values, clock: nil))
    }

    func close() async { try? await app.asyncShutdown() }

    struct Row: Equatable {
        var status: String
        var attempts: Int
        var lastError: String?
    }

    func jobs(visit: String) async throws -> [Row] {
        let id = try #require(UUID(uuidString: visit))
        return try await app.db.sql.raw("""
            SELECT status, attempts, last_error FROM transcription_jobs WHERE visit_id = \(bind: id) ORDER BY created_at
            """).all().map {
            Row(
                status: try $0.decode(column: "status", as: String.self),
                attempts: try $0.decode(column: "attempts", as: Int.self),
                lastError: try $0.decode(column: "last_error", as: String?.self))
        }
    }

    /// Polls until the visit's newest job has `status`.
    func waitForJob(visit: String, status: String, timeout: Duration = .seconds(120)) async throws -> Row {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let last = try await jobs(visit: visit).last, last.status == status { return last }
            guard ContinuousClock.now < deadline else {
                throw TestSetupError("job of \(visit) not \(status): \(try await jobs(visit: visit))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
