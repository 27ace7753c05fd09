import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing

/// A type that writes its own JSON (`JSONWritable`) must say exactly what `JSONEncoder` says for it: the same keys,
/// the same values, the same nulls. Foundation's key order is a hash table's, so the two are compared parsed.
@Suite struct JSONWriterTests {
    /// Both encodings of `value`, parsed.
    static func bothParsed<T: JSONWritable>(_ value: T) throws -> (written: NSObject, encoded: NSObject) {
        let written = try JSONSerialization.jsonObject(with: Data(value.jsonBytes), options: [.fragmentsAllowed])
        let encoded = try JSONSerialization.jsonObject(with: JSONCoding.encoder.encode(value), options: [.fragmentsAllowed])
        return (try #require(written as? NSObject), try #require(encoded as? NSObject))
    }

    static func slot(_ minute: Int, reason: String?) -> AvailabilityResponse.Slot {
        let start = Date(timeIntervalSince1970: 1_764_576_000 + Double(minute * 60))
        return AvailabilityResponse.Slot(
            startIso: start, endIso: start.addingTimeInterval(3600), startTime: "09:\(minute % 60 < 10 ? "0" : "")\(minute % 60)",
            endTime: "10:00", available: reason == nil, remaining: reason == "full" ? 0 : 3, unavailableReason: reason)
    }

    @Test(arguments: [false, true])
    func theAvailabilityGridIsWhatTheEncoderWrites(closedDay: Bool) throws {
        let response = AvailabilityResponse(
            date: "2025-12-01", serviceId: UUID().uuidString.lowercased(), timezone: "America/Argentina/Buenos_Aires",
            durationMinutes: 60, capacity: 3,
            workingHours: closedDay ? nil : DayHoursResponse(DayHours(open: WallTime("09:00", allowMidnightEnd: false)!,
                                                                      close: WallTime("24:00", allowMidnightEnd: true)!)),
            slots: closedDay ? [] : [Self.slot(0, reason: nil), Self.slot(5, reason: "lead_time"), Self.slot(30, reason: "full")])
        let (written, encoded) = try Self.bothParsed(response)
        #expect(written == encoded, "written: \(String(decoding: response.jsonBytes, as: UTF8.self))")
        // Slashes stay as they are (the encoder's `.withoutEscapingSlashes`).
        #expect(String(decoding: response.jsonBytes, as: UTF8.self).contains("America/Argentina/Buenos_Aires"))
    }

    /// Strings: quotes, backslashes, every control character, slashes, letters outside ASCII and emoji.
    @Test func stringsAreEscapedAsTheEncoderReadsThem() throws {
        let hard = "\"quoted\" \\ back / slash \u{7F} Ñandú 東京 🐕 " + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        let response = AvailabilityResponse(
            date: hard, serviceId: "x", timezone: "UTC", durationMinutes: 0, capacity: 0, workingHours: nil, slots: [])
        let (written, encoded) = try Self.bothParsed(response)
        #expect(written == encoded)
        let parsed = try #require(written as? [String: Any])
        #expect(parsed["date"] as? String == hard)
    }

    /// The endpoint answers with the written form: the same body the encoder would give, parsed.
    @Test func theAvailabilityEndpointSendsTheWrittenJSON() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let service = try await app.serviceID()
            try await app.book("2025-03-15T07:00:00Z", key: app.orgKey)
            let response = try await app.get("/api/client/availability?serviceId=\(service)&date=2025-03-15")
            #expect(response.status == .ok)
            #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8")
            let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let slots = try #require(body["slots"] as? [[String: Any]])
            #expect(!slots.isEmpty)
            #expect(slots.contains { $0["remaining"] as? Int == 1 } || slots.contains { $0["available"] as? Bool == true })
            // Members in the declared order (Foundation's order changes from process to process).
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.hasPrefix(#"{"date":"2025-03-15","serviceId":"#), "\(text.prefix(80))")
        }
    }
}
