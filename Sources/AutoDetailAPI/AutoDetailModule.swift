import AppCore
import Fluent
import MailOutbox
import Foundation
import ObjectStorage
import Vapor

/// Registers AutoDetail Hub: its migrations (tables prefixed `ad_`), its routes under `/api/` (outside `/api/v1`),
/// `/openapi/autodetail.json`, key-usage flushing, and (with workers) the cleanup of unlinked uploads.
public enum AutoDetailModule {
    public static let migrations: [any Migration] = [
        M0201_CreateServices(), M0202_CreateStudioSettings(), M0203_CreateAPIKeys(), M0204_CreateInstallProfiles(),
        M0205_CreateMessages(), M0206_CreateAppointments(), M0207_CreatePhotosAndUploads(), M0208_CreateAdminUsers(),
        M0209_CreateIdempotencyRecords(), M0210_AddAdminTokenVersion(), M0211_CreateObjectPurges(),
        M0212_AddAdminSessionDevices(), M0213_AddAdminPasswordReset(),
    ]

    public static func configure(_ app: Application) throws {
        let config = app.core.config
        if config.isProduction && config.autodetail.adminPassword == nil {
            throw ConfigurationError("ADMIN_PASSWORD is required in production")
        }
        app.migrations.add(migrations)
        app.photoStorage = PhotoStorage(
            store: app.objectStore, bucket: config.storage.autodetailBucket, publicBaseURL: config.publicBaseURL,
            clientAddress: app.core.clientAddress)
        // The embedded store asks AutoDetail whether a PUT to its bucket is still expected.
        (app.objectStore as? LocalObjectStore)?.uploadAdmissions.register(
            PhotoUploadAdmission(database: DatabaseProvider(app), clock: app.core.clock), forBucket: config.storage.autodetailBucket)
        let usage = KeyUsageRecorder()
        app.autodetailKeyUsage = usage
        app.autodetailKeyCache = KeyCallerCache()
        app.lifecycle.use(KeyUsageFlushing(recorder: usage))
        _ = try MailOutboxSetup.transport(of: app)
        let limits = RateLimits(ledger: app.core.attempts, clock: app.core.clock)

        try routes(app, usage: usage, limits: limits)
    }

    /// The first start of this product (contract §8), once per database: admin user and, with `SEED_DEMO_DATA`,
    /// the demo services and one organisation key. Returns the one-time lines to print (nil on later starts).
    public static func firstStart(_ app: Application) async throws -> [String]? {
        try await AutoDetailFirstStart.run(app)
    }

    /// `server seed`: the first start if none happened yet, then the demo services and an organisation key if
    /// missing (idempotent). Returns the one-time lines to print.
    public static func seedDemoData(_ app: Application) async throws -> [String] {
        try await AutoDetailDemoSeed.run(app)
    }

    /// Work of processes that run workers: the studio's email delivery and the hourly cleanup of unlinked uploads (and
    /// expired idempotency records).
    public static func startBackgroundWork(_ app: Application) {
        MailOutboxSetup.startDelivery(of: .studio, app)
        app.lifecycle.use(PeriodicTask(name: "autodetail-upload-cleanup", interval: UploadCleanup.interval) { app in
            do {
                try await UploadCleanup.runOnce(app)
            } catch {
                app.logger.warning("upload cleanup failed: \(String(reflecting: type(of: error)))")
            }
        })
    }

    /// Writes the key uses this process has accumulated (tests; the server does it every 10 s and at shutdown).
    public static func flushKeyUsage(_ app: Application) async {
        await app.autodetailKeyUsage.flush(on: app.db, logger: app.logger)
    }
}

extension Application {
    private struct KeyUsageKey: StorageKey { typealias Value = KeyUsageRecorder }

    var autodetailKeyUsage: KeyUsageRecorder {
        get {
            guard let value = storage[KeyUsageKey.self] else { fatalError("AutoDetailModule.configure must run first") }
            return value
        }
        set { storage[KeyUsageKey.self] = newValue }
    }
}
