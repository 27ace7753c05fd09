import AppCore
import Fluent
import Foundation
import Logging
import Push
import MailOutbox

/// Sends one alert push; the APNs client in production, a scripted one in the tests of the loop's decisions.
package protocol PushSender: Sendable {
    func send(_ notification: APNsNotification, to deviceToken: String) async -> APNsOutcome
}

extension APNsClient: PushSender {}

/// Drains `notification_outbox`: claims one due notification with a lease, sends it to each of the user's active
/// devices it has not reached yet, and records the outcome. A device APNs calls unregistered or bad is deactivated;
/// 429, 5xx and connection failures back off up to the cap (devices already reached are not sent to again); a
/// rejection or the last allowed attempt dead-letters the notification with the reason.
package struct PushDelivery: Sendable {
    package let sender: any PushSender
    package let settings: PushSettings
    package let metrics: MetricsRegistry
    package let clock: any AppClock
    package let owner: String
    /// Longer than a run over a handful of devices can take (each request has a 20 s limit).
    package static let leaseSeconds = 300
    /// A notification about an event this old is not worth a buzz any more: APNs stops trying after this too.
    package static let relevanceSeconds: TimeInterval = 24 * 3600

    package init(sender: any PushSender, settings: PushSettings, metrics: MetricsRegistry, clock: any AppClock, owner: String) {
        self.sender = sender
        self.settings = settings
        self.metrics = metrics
        self.clock = clock
        self.owner = owner
    }

    @discardableResult
    package func runOnce(on db: any Database, logger: Logger) async throws -> Int {
        let store = PushOutboxStore(db: db)
        var attempts = 0
        while attempts < 100, !Task.isCancelled,
            let push = try await store.claim(owner: owner, leaseSeconds: Self.leaseSeconds, now: clock.now())
        {
            attempts += 1
            do {
                try await deliver(push, store: store, logger: logger)
            } catch {
                // The lease expires and another run tries again.
                logger.warning("push outbox update failed: \(String(reflecting: type(of: error)))")
            }
        }
        return attempts
    }

    func deliver(_ push: ClaimedPush, store: PushOutboxStore, logger: Logger) async throws {
        var log = logger
        log[metadataKey: "notification_id"] = "\(push.id.lowercased)"
        if push.createdAt.addingTimeInterval(Self.relevanceSeconds) <= clock.now() {
            // Push was off, or failing, for a day: too late to be useful.
            try await store.markSkipped(push, reason: "not sent: older than a day", now: clock.now())
            return
        }
        let payload = try await store.payload(of: push)
        guard let notification = PushMessages.notification(kind: push.kind, payload: payload, createdAt: push.createdAt,
            relevance: Self.relevanceSeconds)
        else {
            try await store.markFailed(push, error: "unknown notification kind '\(push.kind)'", now: clock.now())
            count("mail_messages_failed_total")
            return
        }
        let devices = try await store.pendingDevices(of: push)
        var transient: String?
        var rejected: String?
        var reached = 0
        for device in devices {
            switch await sender.send(notification, to: device.token) {
            case .delivered(let apnsID):
                try await store.recordDelivery(of: push, to: device, apnsID: apnsID, now: clock.now())
                reached += 1
            case .tokenInvalid(let reason):
                try await store.deactivate(device, now: clock.now())
                log.notice("push device token deactivated", metadata: ["reason": "\(reason)"])
            case .retryLater(let reason):
                transient = reason
            case .providerTokenExpired:
                transient = "403 ExpiredProviderToken"
            case .rejected(let reason):
                rejected = reason
            }
        }
        let now = clock.now()
        if let rejected {
            try await store.markFailed(push, error: rejected, now: now)
            count("mail_messages_failed_total")
            log.warning("push dead-lettered", metadata: ["reason": "\(rejected)"])
        } else if let transient {
            if push.attempts >= settings.maxAttempts {
                let reason = "gave up after \(push.attempts) attempts; last: \(transient)"
                try await store.markFailed(push, error: reason, now: now)
                count("mail_messages_failed_total")
                log.warning("push dead-lettered", metadata: ["reason": "\(reason)"])
            } else {
                let delay = MailDelivery.backoff(attempt: push.attempts, base: settings.retryBaseSeconds, cap: settings.retryMaxSeconds)
                try await store.retryLater(push, error: transient, delay: delay, now: now)
                count("mail_delivery_retries_total")
                log.notice("push delivery will be retried", metadata: ["reason": "\(transient)", "in_seconds": "\((delay * 10).rounded() / 10)"])
            }
        } else if reached == 0 && devices.isEmpty {
            try await store.markSkipped(push, reason: "no active device token", now: now)
        } else if reached == 0 {
            try await store.markSkipped(push, reason: "every device token was invalid", now: now)
        } else {
            try await store.markSent(push, now: now)
            count("mail_messages_sent_total")
            log.info("push sent", metadata: ["devices": "\(reached)", "attempt": "\(push.attempts)"])
        }
    }

    private func count(_ name: String) {
        metrics.counter(name, labels: [("channel", "push")]).increment()
    }
}
