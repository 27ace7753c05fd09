import AppCore
import Foundation
import MailOutbox
import Vapor

/// HelpPet's email work in every process that runs background work (`serve` without `--no-worker`, `worker`): the
/// delivery loop of `mail_outbox` and the appointment reminder scan.
enum MailSetup {
    static func startDelivery(_ app: Application) {
        let settings = app.core.config.mail
        MailOutboxSetup.startDelivery(of: .helpPet, app)
        app.logger.notice("Mail: outgoing email goes to \(app.mailTransport.destination)")
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
