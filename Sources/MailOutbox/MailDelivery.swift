import AppCore
import Fluent
import Foundation
import Logging
import Mail

/// Drains a product's outbox table: claims one due message with a lease, hands it to the transport, and records the outcome.
/// At least once: a worker that dies after the server accepted a message but before `markSent` leaves a lease that
/// expires, and the message goes again with the same Message-ID (receivers and people can tell the duplicate).
/// A 4yz reply or a connection failure backs off exponentially up to the cap; a 5yz reply, or the last allowed
/// attempt, dead-letters the message with the reason.
package struct MailDelivery: Sendable {
    package let table: MailOutboxTable
    package let transport: any MailTransport
    package let settings: MailSettings
    package let metrics: MetricsRegistry
    package let clock: any AppClock
    /// This process, for the lease owner column.
    package let owner: String

    package init(
        table: MailOutboxTable, transport: any MailTransport, settings: MailSettings, metrics: MetricsRegistry,
        clock: any AppClock, owner: String
    ) {
        self.table = table
        self.transport = transport
        self.settings = settings
        self.metrics = metrics
        self.clock = clock
        self.owner = owner
    }

    /// Delivers due messages until none is left; returns how many attempts were made.
    @discardableResult
    package func runOnce(on db: any Database, logger: Logger) async throws -> Int {
        let store = MailOutboxStore(db: db, table: table)
        var attempts = 0
        // Bounded, so one run never starves shutdown; the next run takes the rest.
        while attempts < 100, !Task.isCancelled,
            let mail = try await store.claim(owner: owner, leaseSeconds: settings.leaseSeconds, now: clock.now())
        {
            attempts += 1
            await deliver(mail, store: store, logger: logger)
        }
        return attempts
    }

    func deliver(_ mail: ClaimedMail, store: MailOutboxStore, logger: Logger) async {
        var log = logger
        log[metadataKey: "message_id"] = "\(mail.messageID)"
        if let deadline = mail.sendBefore, deadline <= clock.now() {
            // A reminder of an appointment that has begun is worth nothing: dead-letter it unsent.
            try? await store.markFailed(mail, error: "not sent: its appointment has begun", now: clock.now())
            metrics.counter("mail_messages_failed_total", labels: [("channel", "email")]).increment()
            return
        }
        do {
            _ = try await transport.deliver(mail.rawMessage, messageID: mail.messageID, from: mail.sender, to: [mail.recipient])
        } catch {
            let failure = (error as? MailDeliveryError) ?? .connection(String(describing: type(of: error)))
            do {
                if failure.isPermanent || mail.attempts >= settings.maxAttempts {
                    let reason = failure.isPermanent
                        ? failure.description : "gave up after \(mail.attempts) attempts; last: \(failure.description)"
                    try await store.markFailed(mail, error: reason, now: clock.now())
                    metrics.counter("mail_messages_failed_total", labels: [("channel", "email")]).increment()
                    log.warning("mail dead-lettered", metadata: ["reason": "\(reason)"])
                } else {
                    let delay = Self.backoff(attempt: mail.attempts, base: settings.retryBaseSeconds, cap: settings.retryMaxSeconds)
                    try await store.retryLater(mail, error: failure.description, delay: delay, now: clock.now())
                    metrics.counter("mail_delivery_retries_total", labels: [("channel", "email")]).increment()
                    log.notice("mail delivery will be retried", metadata: ["reason": "\(failure.description)", "in_seconds": "\((delay * 10).rounded() / 10)"])
                }
            } catch {
                // The lease expires and another run tries again.
                log.warning("mail outbox update failed: \(String(reflecting: type(of: error)))")
            }
            return
        }
        // Delivered. Whatever happens to the record from here on, this run never retries or dead-letters it: a
        // record that fails leaves the lease to expire, and the message goes once more (at least once).
        do {
            if try await store.markSent(mail, now: clock.now()) {
                metrics.counter("mail_messages_sent_total", labels: [("channel", "email")]).increment()
                log.info("mail sent", metadata: ["attempt": "\(mail.attempts)"])
            } else {
                log.warning("mail sent after its lease had passed to another worker; it may arrive twice")
            }
        } catch {
            log.warning("mail sent but not recorded (\(String(reflecting: type(of: error)))); it will be sent once more")
        }
    }

    /// `base · 2^(attempt-1)`, at most `cap`.
    package static func backoff(attempt: Int, base: Double, cap: Double) -> TimeInterval {
        min(cap, base * pow(2, Double(max(0, min(attempt - 1, 30)))))
    }
}
