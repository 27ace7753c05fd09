import AppCore
import ObjectStorage
import Fluent
import MailOutbox
import Vapor

#if canImport(Glibc)
    import Glibc
#endif

/// Registers HelpPet's migrations and routes under `/api/v1`.
public enum HelpPetModule {
    public static let migrations: [any Migration] = [
        M0101_CreatePractices(), M0102_CreateUsers(), M0103_CreatePetOwners(), M0104_CreatePets(),
        M0105_CreateAppointments(), M0106_CreateMedicalRecords(), M0107_CreateVisits(),
        M0108_CreateTranscriptionJobs(), M0109_AddUserTokenVersion(), M0111_CreateUploadIntents(),
        M0112_AddAppCompatibilityColumns(), M0113_AddGroomingTypes(), M0114_CreateDeviceTokensAndOutbox(),
        M0115_CreateVetAvailability(), M0116_AddPendingMembership(), M0120_CreatePracticeVocabulary(), M0121_CreateConsoleSessions(),
        M0122_AddRecordingConsentSetting(), M0123_CreateVisitAddenda(),
        M0124_CreatePracticeNoteTemplates(), M0125_AddConsoleSessionDevices(),
        M0126_CreateMailOutbox(), M0127_CreatePracticeInvites(),
        M0129_AddPushDelivery(), M0130_AddPracticeEmailSettings(), M0131_CreatePasswordResets(),
        M0132_AddVetPushReminders(),
    ]

    public static func configure(_ app: Application) throws {
        app.migrations.add(migrations)
        let config = app.core.config
        app.readPathCaches = ReadPathCaches()

        app.recordingStorage = RecordingStorage(
            store: app.objectStore, bucket: config.storage.helppetBucket, publicBaseURL: config.publicBaseURL,
            clientAddress: app.core.clientAddress)
        // The embedded store asks HelpPet whether an upload to its bucket is still expected.
        (app.objectStore as? LocalObjectStore)?.uploadAdmissions.register(
            UploadIntentAdmission(database: DatabaseProvider(app), clock: app.core.clock), forBucket: config.storage.helppetBucket)

        _ = try MailOutboxSetup.transport(of: app)
        app.pushConfiguration = try PushSetup.configuration(config.push)

        try routes(app, config: config)
    }

    /// Contract §2.3: failures per (username, IP), per username and per IP, each blocking for the lockout time.
    static func loginThrottle(_ app: Application) -> LoginThrottle {
        let settings = app.core.config.loginThrottle
        let window = TimeInterval(settings.windowSeconds), lockout = TimeInterval(settings.lockoutSeconds)
        func rule(_ name: String, _ limit: Int) -> AttemptRule {
            AttemptRule(name: "helppet.login." + name, limit: limit, window: window, lockout: lockout)
        }
        return LoginThrottle(
            limits: [
                .init(rule("pair", settings.maxFailuresPerKey), per: .usernameAndIP),
                .init(rule("user", settings.maxFailuresPerUser), per: .username),
                .init(rule("ip", settings.maxFailuresPerIP), per: .ip),
            ],
            ledger: app.core.attempts, clock: app.core.clock)
    }

    /// The background work of a process that runs workers (`server serve` without `--no-worker`, `server worker`):
    /// the reconciler, every `RECONCILER_INTERVAL_SECONDS`.
    public static func startBackgroundWork(_ app: Application) {
        let config = app.core.config
        let reconciler = Reconciler(
            storage: app.recordingStorage, graceSeconds: TimeInterval(config.reconciler.graceSeconds),
            clock: app.core.clock, metrics: app.core.metrics)
        app.lifecycle.use(PeriodicTask(name: "reconciler", interval: .seconds(config.reconciler.intervalSeconds)) { app in
            do {
                try await reconciler.runOnce(on: app.db, logger: app.logger)
            } catch {
                app.logger.warning("reconciler run failed: \(String(reflecting: type(of: error)))")
            }
        })
        MailSetup.startDelivery(app)
        PushSetup.startDelivery(app)
    }

    /// `/health/ready`'s transcription part: `off` when configured so or when this process runs no workers,
    /// `ok` when the engine can run, else `unavailable` (jobs wait in the queue; the answer is `degraded`, never 503).
    /// The engine's answer is cached, so this is instant, except in a process so new that its first probe (Whisper:
    /// a Python start, several seconds on a loaded machine) has not ended: that one request waits for it rather than
    /// report a working engine `unavailable`.
    public static func registerTranscriptionReadiness(
        _ app: Application, runsWorkers: Bool, engineAvailable: (@Sendable () async -> Bool)?
    ) {
        let engine = app.core.config.transcription.engine
        app.core.readiness.register(.init(name: "transcription", critical: false, timeoutSeconds: 20) { _ in
            if engine == .off || !runsWorkers { return .off }
            guard let engineAvailable else { return .unavailable }
            return await engineAvailable() ? .ok : .unavailable
        })
    }

    /// The legacy upload spools files into a private folder of `DATA_DIR`, one per process: several processes may
    /// share a `DATA_DIR`, so at start only the folders of processes that no longer run (a crash) are removed.
    static func legacyUploads(_ app: Application, config: AppConfig) throws -> LegacyAudioUploadController {
        let parent = config.dataDirectory.appendingPathComponent("tmp/legacy-uploads", isDirectory: true)
        try FileManager.default.createDirectory(
            at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
            let pid = name.split(separator: "-").dropFirst().first.flatMap { Int32($0) }
            if let pid, kill(pid, 0) == 0 || errno == EPERM { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
        let directory = parent.appendingPathComponent("pid-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let io = StorageFileIO()
        app.lifecycle.use(FileIOShutdown(io: io))
        // Up to 100 MiB streamed to the spool: exempt from the deadline for collected bodies.
        app.core.streamingBodyPaths.register("/api/v1/upload/audio")
        return LegacyAudioUploadController(spoolDirectory: directory, io: io)
    }
}

private struct FileIOShutdown: LifecycleHandler {
    let io: StorageFileIO
    func shutdownAsync(_ application: Application) async { await io.shutdown() }
}
