import Foundation
import Testing

@testable import Push

@Suite struct APNsOutcomeTests {
    @Test func classifiesAPNsAnswers() {
        #expect(APNsOutcome.classify(status: 200, reason: nil, apnsID: "A-1") == .delivered(apnsID: "A-1"))
        #expect(APNsOutcome.classify(status: 410, reason: "Unregistered", apnsID: nil) == .tokenInvalid(reason: "410 Unregistered"))
        #expect(APNsOutcome.classify(status: 400, reason: "BadDeviceToken", apnsID: nil) == .tokenInvalid(reason: "400 BadDeviceToken"))
        #expect(APNsOutcome.classify(status: 400, reason: "DeviceTokenNotForTopic", apnsID: nil)
            == .tokenInvalid(reason: "400 DeviceTokenNotForTopic"))
        #expect(APNsOutcome.classify(status: 403, reason: "ExpiredProviderToken", apnsID: nil) == .providerTokenExpired)
        #expect(APNsOutcome.classify(status: 403, reason: "InvalidProviderToken", apnsID: nil)
            == .rejected(reason: "403 InvalidProviderToken"))
        #expect(APNsOutcome.classify(status: 429, reason: "TooManyRequests", apnsID: nil) == .retryLater(reason: "429 TooManyRequests"))
        #expect(APNsOutcome.classify(status: 500, reason: "InternalServerError", apnsID: nil)
            == .retryLater(reason: "500 InternalServerError"))
        #expect(APNsOutcome.classify(status: 503, reason: nil, apnsID: nil) == .retryLater(reason: "503 (no reason)"))
        #expect(APNsOutcome.classify(status: 400, reason: "PayloadTooLarge", apnsID: nil) == .rejected(reason: "400 PayloadTooLarge"))
    }

    @Test func readsTheReasonOfAnErrorBody() {
        #expect(APNsOutcome.reason(fromBody: Data(#"{"reason":"Unregistered","timestamp":1800000000000}"#.utf8)) == "Unregistered")
        #expect(APNsOutcome.reason(fromBody: Data("not json".utf8)) == nil)
        #expect(APNsOutcome.reason(fromBody: Data()) == nil)
    }
}
