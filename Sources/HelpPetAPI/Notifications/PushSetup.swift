import AppCore
import Foundation
import Push
import Vapor

/// Push is on when `APNS_*` configures an APNs key (checked at start: a partial or broken configuration stops it);
/// then every process that runs background work (`serve` without `--no-worker`, `worker`) drains
/// `notification_outbox`. Without it the rows stay queued and the startup log says push is off.
enum PushSetup {
    static func configuration(_ settings: PushSettings) throws -> APNsConfiguration? {
        do {
            return try APNsConfiguration.fromEnvironment(settings.apns)
        } catch let error as APNsConfiguration.Invalid {
            throw ConfigurationError(error.description)
        }
    }

    static func startDelivery(_ app: Application) {
        guard let configuration = app.pushConfiguration else {
            app.logger.notice("Push: off (set APNS_KEY_PATH, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC to send pushes)")
            return
        }
        let client: APNsClient
        do {
            client = try APNsClient(configuration: configuration)
        } catch {
            // The key was checked at start; this cannot happen unless the file changed in between.
            app.logger.error("Push: off, the APNs key cannot be used: \(error)")
            return
        }
        app.lifecycle.use(APNsClientShutdown(client: client))
        let settings = app.core.config.push
        let delivery = PushDelivery(
            sender: client, settings: settings, metrics: app.core.metrics, clock: app.core.clock,
            owner: "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)")
        app.logger.notice("Push: APNs at \(configuration.baseURL), topic \(configuration.topic)")
        app.lifecycle.use(PeriodicTask(name: "push-delivery", interval: .milliseconds(Int64(settings.pollSeconds * 1000))) { app in
            do {
                try await delivery.runOnce(on: app.db, logger: app.logger)
            } catch {
                app.logger.warning("push delivery run failed: \(String(reflecting: type(of: error)))")
            }
        })
        // Only while push is on: with it off, reminders would wait in the outbox for nobody.
        let scan = Duration.milliseconds(Int64(settings.reminderScanSeconds * 1000))
        app.lifecycle.use(PeriodicTask(name: "push-reminders", interval: scan) { app in
            do {
                try await VetPushReminders(db: app.db, leadMinutes: settings.reminderMinutes, metrics: app.core.metrics)
                    .runOnce(now: app.core.clock.now())
            } catch {
                app.logger.warning("vet reminder scan failed: \(String(reflecting: type(of: error)))")
            }
        })
    }
}

private struct APNsClientShutdown: LifecycleHandler {
    let client: APNsClient
    func shutdownAsync(_ application: Application) async { try? await client.shutdown() }
}

extension Application {
    private struct PushConfigurationKey: StorageKey { typealias Value = APNsConfiguration }

    /// APNs settings when push is on (set by `HelpPetModule.configure`); nil means push is off.
    package var pushConfiguration: APNsConfiguration? {
        get { storage[PushConfigurationKey.self] }
        set { storage[PushConfigurationKey.self] = newValue }
    }
}
