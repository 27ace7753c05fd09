import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing

/// The input grammar for instants (§1.3) and the normalisation of phones, plates and handles (§1.12).
@Suite struct WireFormatTests {
    @Test(arguments: [
        ("2025-03-14T08:00:00Z", "2025-03-14T08:00:00Z", false),
        ("2025-03-14T11:00:00+03:00", "2025-03-14T08:00:00Z", false),
        ("2025-03-14T08:00:00.000Z", "2025-03-14T08:00:00Z", false),
        ("2025-03-14T08:00:00.250Z", "2025-03-14T08:00:00Z", true),
        ("2025-03-14T05:00:00-03:00", "2025-03-14T08:00:00Z", false),
        ("2025-03-14T08:00:00.123456789Z", "2025-03-14T08:00:00Z", true),
    ])
    func acceptedInstants(input: String, instant: String, fraction: Bool) throws {
        let parsed = try #require(ParsedInstant(input))
        #expect(WireTime.format(parsed.date) == instant)
        #expect(parsed.hasFraction == fraction)
    }

    @Test(arguments: [
        "2025-03-14T11:00:00", "2025-03-14 08:00:00Z", "2025-03-14T08:00Z", "2025-03-14", "1741939200",
        "2025-03-14T11:00:00+0300", "2025-02-30T08:00:00Z", "2025-03-14t08:00:00z", "2025-03-14T08:00:00.Z",
        "2025-03-14T08:00:00.1234567890Z", "2025-03-14T24:00:00Z", "",
    ])
    func refusedInstants(input: String) {
        #expect(ParsedInstant(input) == nil)
    }

    @Test(arguments: [
        ("+7 (916) 123-45-67", "+79161234567"), ("8 916 123 45 67", "+79161234567"), ("0049 30 1234567", "+49301234567"),
        ("+1234567890", "+1234567890"), (" 79161234567", "+79161234567"), ("49.30.1234567", "+49301234567"),
    ])
    func phones(input: String, normalized: String) {
        #expect(ContactNormalization.phone(input) == normalized)
    }

    @Test(arguments: ["12345", "+0123456789", "+7916abc4567", "++79161234567", "+1234567890123456", ""])
    func invalidPhones(input: String) {
        #expect(ContactNormalization.phone(input) == nil)
    }

    @Test func platesAndHandles() {
        #expect(ContactNormalization.plate(" а123вс  777 ") == "А123ВС 777")
        #expect(ContactNormalization.plate("abc123") == "ABC123")
        #expect(ContactNormalization.plate("AB-12") == "AB-12")
        #expect(ContactNormalization.plate("AB_12") == nil)
        #expect(ContactNormalization.plate("AB.12") == nil)
        #expect(ContactNormalization.telegram("@ivan_petrov") == "ivan_petrov")
        #expect(ContactNormalization.telegram("ivan") == nil)
        #expect(ContactNormalization.telegram("@@ivan_petrov") == nil)
        #expect(ContactNormalization.profilePhoto("preset:car_1") == "preset:car_1")
        #expect(ContactNormalization.profilePhoto("preset:Car") == nil)
        #expect(ContactNormalization.profilePhoto("http://example.com/a.jpg") == nil)
        #expect(ContactNormalization.profilePhoto("https://example.com/a.jpg") == "https://example.com/a.jpg")
        #expect(ContactNormalization.absoluteURL("ftp://example.com/a") == nil)
    }

    @Test func keysAndTokens() {
        let key = Secrets.newAPIKey(kind: .org, now: Date(timeIntervalSince1970: 1_741_597_200))
        #expect(key.range(of: #"^org_1741597200_[0-9a-f]{24}$"#, options: .regularExpression) != nil)
        #expect(Secrets.apiKeyKind(of: key) == .org)
        #expect(Secrets.keyPrefix(key).count == 19)
        #expect(Secrets.apiKeyKind(of: "org_1705671234_abc123def456") == nil, "the seed's sample is only illustrative")
        #expect(Secrets.apiKeyKind(of: key.uppercased()) == nil)
        #expect(Secrets.hash("x").count == 64)
        #expect(Secrets.isAdminToken(Secrets.newAdminToken()))
        #expect(Secrets.newPassword().range(of: "^[A-Za-z0-9]{20}$", options: .regularExpression) != nil)
    }
}
