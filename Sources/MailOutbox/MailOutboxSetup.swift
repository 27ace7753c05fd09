import AppCore
import Foundation
import Mail
import Vapor

/// The transport a process sends email through (SMTP when `SMTP_URL` is set, `.eml` files under `DATA_DIR/mail/`
/// otherwise), made once per process and shared by every product, and each product's delivery loop.
package enum MailOutboxSetup {
    /// The process's transport, made on first use from the configuration.
    package static func transport(of app: Application) throws -> any MailTransport {
        if let existing = app.storage[MailTransportKey.self] { return existing }
        let settings = app.core.config.mail
        let transport: any MailTransport
        if let url = settings.smtpURL {
            do {
                let configuration = try SMTPConfiguration.parse(url, trustedCAFile: settings.tlsCAFile)
                transport = SMTPMailTransport(client: SMTPClient(configuration: configuration))
            } catch let error as SMTPConfiguration.Invalid {
                throw ConfigurationError(error.description)
            }
        } else {
            transport = FileMailTransport(directory: settings.directory)
        }
        app.storage[MailTransportKey.self] = transport
        return transport
    }

    /// Runs `table`'s delivery loop in this process (one that runs background work: `serve` without `--no-worker`,
    /// or `worker`). The product made the transport while it was configured.
    package static func startDelivery(of table: MailOutboxTable, _ app: Application) {
        let settings = app.core.config.mail
        let delivery = MailDelivery(
            table: table, transport: app.mailTransport, settings: settings, metrics: app.core.metrics, clock: app.core.clock,
            owner: "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)")
        let interval = Duration.milliseconds(Int64(settings.pollSeconds * 1000))
        app.lifecycle.use(PeriodicTask(name: "mail-delivery-\(table.name)", interval: interval) { app in
            do {
                try await delivery.runOnce(on: app.db, logger: app.logger)
            } catch {
                app.logger.warning("mail delivery run failed: \(String(reflecting: type(of: error)))")
            }
        })
    }

    private struct MailTransportKey: StorageKey { typealias Value = any MailTransport }
}

extension Application {
    /// Where this process sends email (made by the first product that configures mail).
    package var mailTransport: any MailTransport {
        guard let transport = try? MailOutboxSetup.transport(of: self) else {
            fatalError("the mail transport is made while the products are configured")
        }
        return transport
    }
}
