import Foundation

/// One alert push: what the request's headers and JSON body carry.
public struct APNsNotification: Sendable, Equatable {
    public var title: String
    public var body: String
    /// Top-level keys beside `aps`, read by the app's notification handler (`type`, `appointment_id`, …).
    public var custom: [String: String]
    /// 10 delivers now; 5 lets the device's power considerations decide.
    public var priority: Int
    /// After this instant APNs stops trying to deliver to an offline device; nil means one attempt only (0).
    public var expiration: Date?
    /// Replaces an earlier notification with the same id on the device (at most 64 bytes).
    public var collapseID: String?

    public init(
        title: String, body: String, custom: [String: String] = [:], priority: Int = 10, expiration: Date? = nil,
        collapseID: String? = nil
    ) {
        self.title = title
        self.body = body
        self.custom = custom
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
    }

    /// The request body: `{"aps":{"alert":{"title":…,"body":…},"sound":"default"}, …custom}`. Sorted keys, so the
    /// same notification always has the same bytes.
    public func payload() throws -> Data {
        var object: [String: Any] = ["aps": ["alert": ["title": title, "body": body], "sound": "default"]]
        for (key, value) in custom where key != "aps" { object[key] = value }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The request headers other than authorization.
    public func headers(topic: String) -> [(String, String)] {
        var headers = [
            ("apns-topic", topic), ("apns-push-type", "alert"), ("apns-priority", String(priority)),
            ("apns-expiration", String(expiration.map { max(0, Int($0.timeIntervalSince1970)) } ?? 0)),
        ]
        if var collapseID, !collapseID.isEmpty {
            while collapseID.utf8.count > 64 { collapseID.removeLast() }
            headers.append(("apns-collapse-id", collapseID))
        }
        return headers
    }
}
