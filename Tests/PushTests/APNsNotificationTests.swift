import Foundation
import Testing

@testable import Push

@Suite struct APNsNotificationTests {
    @Test func payloadCarriesTheAlertAndTheHandlersKeys() throws {
        let notification = APNsNotification(
            title: "New appointment", body: "Bella (Ann Smith) at 2026-12-01T09:00:00Z",
            custom: [
                "type": "appointment_booked", "appointment_id": "8e1c0c2e-0000-4000-8000-000000000001",
                "pet_owner_name": "Ann Smith", "pet_name": "Bella", "appointment_time": "2026-12-01T09:00:00Z",
                "aps": "not allowed to replace aps",
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: notification.payload()) as? [String: Any])
        let aps = try #require(object["aps"] as? [String: Any])
        #expect(aps["alert"] as? [String: String] == ["title": "New appointment", "body": "Bella (Ann Smith) at 2026-12-01T09:00:00Z"])
        #expect(aps["sound"] as? String == "default")
        #expect(object["type"] as? String == "appointment_booked")
        #expect(object["pet_owner_name"] as? String == "Ann Smith")
        #expect(object["pet_name"] as? String == "Bella")
        #expect(object["appointment_time"] as? String == "2026-12-01T09:00:00Z")
        #expect(object.count == 6)
        // Same notification, same bytes.
        #expect(try notification.payload() == notification.payload())
    }

    @Test func headersNameTopicTypePriorityExpirationAndCollapseID() {
        let notification = APNsNotification(
            title: "t", body: "b", priority: 5, expiration: Date(timeIntervalSince1970: 1_800_003_600),
            collapseID: String(repeating: "é", count: 40))
        let headers = Dictionary(uniqueKeysWithValues: notification.headers(topic: "com.helppet.app"))
        #expect(headers["apns-topic"] == "com.helppet.app")
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-priority"] == "5")
        #expect(headers["apns-expiration"] == "1800003600")
        #expect(headers["apns-collapse-id"] == String(repeating: "é", count: 32))
        let plain = Dictionary(uniqueKeysWithValues: APNsNotification(title: "t", body: "b").headers(topic: "x"))
        #expect(plain["apns-expiration"] == "0")
        #expect(plain["apns-priority"] == "10")
        #expect(plain["apns-collapse-id"] == nil)
    }

    @Test func deviceTokensMustBeHex() {
        #expect(APNsClient.isWellFormed(deviceToken: String(repeating: "ab12", count: 16)))
        #expect(!APNsClient.isWellFormed(deviceToken: ""))
        #expect(!APNsClient.isWellFormed(deviceToken: "../../3/device/x"))
        #expect(!APNsClient.isWellFormed(deviceToken: String(repeating: "a", count: 201)))
    }
}
