import AppCore
import Foundation
import Mail
import Vapor

/// Chooses the transport from the configuration (SMTP when `SMTP_URL` is set, `.eml` files otherwise) and runs the
/// outbox's delivery loop and the reminder scan in every process that runs background work (`serve` without
/// `--no-worker`, `worker`).
enum MailSetup {
    static func transport(_ settings: MailSettings) throws -> any MailTransport {
        guard let url = settings.smtpURL else { return FileMailTransport(directory: settings.directory) }
        do {
            let configuration = try SMTPConfiguration.parse(url, trustedCAFile: settings.tlsCAFile)
            return SMTPMailTransport(client: SMTPClient(configuration: configuration))
        } catch let error as SMTPConfiguration.Invalid {
            throw ConfigurationError(error.description)
        }
    }

    static func startDelivery(_ app: Application) {
        let settings = app.core.config.mail
        let delivery = MailDelivery(
            transport: app.mailTransport, settings: settings, metrics: app.core.metrics, clock: app.core.clock,
            owner: "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)")
        app.logger.notice("Mail: outgoing email goes to \(app.mailTransport.destination)")
        app.lifecycle.use(PeriodicTask(name: "mail-delivery", interval: .milliseconds(Int64(settings.pollSeconds * 1000))) { app in
            do {
                try await delivery.runOnce(on: app.db, logger: app.logger)
            } catch {
                app.logger.warning("mail delivery run failed: \(String(reflecting: type(of: error)))")
            }
        })
        let interval = Duration.milliseconds(Int64(settings.reminderScanSeconds * 1000))
        app.lifecycle.use(PeriodicTask(name: "mail-reminders", interval: interval) { app in
            do {
                try await AppointmentReminders(db: app.db, mailFrom: settings.from, metrics: app.core.metrics)
                    .runOnce(now: app.core.clock.now())
            } catch {
                app.logger.warning("reminder scan failed: \(String(reflecting: type(of: error)))")
            }
        })
    }
}

extension Application {
    private struct MailTransportKey: StorageKey { typealias Value = any MailTransport }

    /// Where this process sends email (set by `HelpPetModule.configure`).
    var mailTransport: any MailTransport {
        get {
            guard let value = storage[MailTransportKey.self] else { fatalError("HelpPetModule.configure must run first") }
            return value
        }
        set { storage[MailTransportKey.self] = newValue }
    }
}
