import Foundation

/// What one APNs answer means for the sender.
public enum APNsOutcome: Sendable, Equatable {
    /// 200: `apns-id` is APNs' id of the notification (kept as the record that it went out).
    case delivered(apnsID: String?)
    /// The device token is no longer valid for this topic (410 Unregistered, 400 BadDeviceToken,
    /// DeviceTokenNotForTopic): stop sending to it.
    case tokenInvalid(reason: String)
    /// 403 ExpiredProviderToken: sign a new JWT and send again.
    case providerTokenExpired
    /// 429 and 5xx: try again later.
    case retryLater(reason: String)
    /// Anything else (a bad topic, a payload too large, a wrong key): retrying does not help.
    case rejected(reason: String)

    /// Classifies a status and the `reason` of APNs' JSON error body.
    public static func classify(status: Int, reason: String?, apnsID: String?) -> APNsOutcome {
        let described = "\(status) \(reason ?? "(no reason)")"
        switch (status, reason) {
        case (200, _): return .delivered(apnsID: apnsID)
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): return .tokenInvalid(reason: described)
        case (403, "ExpiredProviderToken"): return .providerTokenExpired
        case (429, _), (500...599, _): return .retryLater(reason: described)
        default: return .rejected(reason: described)
        }
    }

    /// APNs' error body is `{"reason": "…"}` (410 adds `timestamp`).
    public static func reason(fromBody body: Data) -> String? {
        struct ErrorBody: Decodable { var reason: String? }
        return (try? JSONDecoder().decode(ErrorBody.self, from: body))?.reason
    }
}
