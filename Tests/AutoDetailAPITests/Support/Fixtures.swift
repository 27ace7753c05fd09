import AppCore
@testable import AutoDetailAPI
import Foundation
import SQLKit
import Testing
import VaporTesting

/// Fixed instants and common calls of the AutoDetail tests.
enum Fixture {
    /// The contract's example "now" (§4.3, §6): Friday 2025-03-14 09:40 in Europe/Moscow.
    static let exampleNow = instant("2025-03-14T06:40:00Z")
    static let exampleDay = CalendarDay("2025-03-14")!

    static func instant(_ text: String) -> Date { ParsedInstant(text)!.date }

    static func clock(_ text: String = "2025-03-14T06:40:00Z") -> ManualClock { ManualClock(instant(text)) }

    /// The seed's booking body, built exactly as the seed builds it (`JSONSerialization` of its dictionary), with
    /// the seed's test values.
    static func seedBookingBody(startIso: String) throws -> Data {
        let appointmentData: [String: Any] = [
            "startIso": startIso,
            "clientName": "Test User",
            "phone": "+1234567890",
            "carMake": "BMW",
            "carPlate": "ABC123",
            "serviceName": "Car Washing",
            "notes": "",
        ]
        return try JSONSerialization.data(withJSONObject: appointmentData)
    }

    /// A valid client booking body (as literals) for `start`, overridable field by field.
    static func booking(_ start: String, _ overrides: [String: Any?] = [:]) -> [String: Any?] {
        var body: [String: Any?] = [
            "startIso": start, "clientName": "Ivan Petrov", "phone": "+7 916 123-45-67", "carMake": "Toyota Camry",
            "carPlate": "а123вс 777", "serviceName": "Car Washing", "notes": "",
        ]
        for (k, v) in overrides { body[k] = v }
        return body
    }
}

extension Application {
    /// `POST /api/admin/login` with the test admin password; the token.
    func adminToken(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let response = try await post("/api/admin/login", ["username": "admin", "password": TestEnvironment.adminPassword])
        #expect(response.status == .ok, "admin login: \(response)", sourceLocation: sourceLocation)
        return try #require(response.json["token"].string, sourceLocation: sourceLocation)
    }

    /// `POST /api/ios/init`: a new install key and install id.
    func newInstall(sourceLocation: SourceLocation = #_sourceLocation) async throws -> (key: String, id: String) {
        let response = try await send(.POST, "/api/ios/init")
        #expect(response.status == .ok, "init: \(response)", sourceLocation: sourceLocation)
        return (
            try #require(response.json["apiKey"].string, sourceLocation: sourceLocation),
            try #require(response.json["installId"].string, sourceLocation: sourceLocation)
        )
    }

    /// A new organisation key (through the admin API).
    func newOrgKey(fullAccess: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> (key: String, id: String)
    {
        let token = try await adminToken(sourceLocation: sourceLocation)
        let response = try await post("/api/admin/api-keys", bearer: token, ["name": "Test key", "fullAccess": fullAccess])
        #expect(response.status == .created, "create key: \(response)", sourceLocation: sourceLocation)
        return (
            try #require(response.json["key"].string, sourceLocation: sourceLocation),
            try #require(response.json["id"].string, sourceLocation: sourceLocation)
        )
    }

    /// The id of the active service with this name.
    func serviceID(_ name: String = "Car Washing", sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let services = try await get("/api/client/services").json.array ?? []
        let match = services.first { $0["name"].string == name }
        return try #require(match?["id"].string, "no service \(name)", sourceLocation: sourceLocation)
    }

    /// `GET /api/client/availability` for a service name and a date.
    func availability(_ service: String = "Car Washing", date: String) async throws -> TestResponse {
        let id = try await serviceID(service)
        return try await get("/api/client/availability?serviceId=\(id)&date=\(date)")
    }

    /// Changes studio settings through the admin API.
    func setSettings(_ fields: [String: Any?], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let response = try await put("/api/admin/settings", bearer: try await adminToken(), fields)
        #expect(response.status == .ok, "settings: \(response)", sourceLocation: sourceLocation)
    }

    /// Books `start` with `key`; expects 201 and returns the appointment id.
    @discardableResult
    func book(
        _ start: String, key: String, _ overrides: [String: Any?] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await post("/api/client/appointments", key: key, Fixture.booking(start, overrides))
        #expect(response.status == .created, "booking \(start): \(response)", sourceLocation: sourceLocation)
        return try #require(response.json["id"].string, sourceLocation: sourceLocation)
    }

    /// Writes the key uses accumulated so far (the server does this every 10 s).
    func flushUsage() async { await AutoDetailModule.flushKeyUsage(self) }

    /// Runs raw SQL (for database-rule tests and direct state changes).
    func exec(_ query: SQLQueryString) async throws { try await db.sql.raw(query).run() }

    func count(_ query: SQLQueryString) async throws -> Int {
        try await db.sql.raw(query).first()?.decode(column: "n", as: Int.self) ?? -1
    }
}

/// Working hours of every day with the same opening interval (or closed when `nil`).
func everyDay(_ open: String?, _ close: String? = nil) -> [String: Any?] {
    var days: [String: Any?] = [:]
    for day in ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] {
        days.updateValue(open.flatMap { o in close.map { ["open": o, "close": $0] } }, forKey: day)
    }
    return days
}

/// Runs the hourly cleanup of unlinked uploads once (normally a background task of worker processes).
enum UploadCleanupProbe {
    static func run(_ app: Application) async throws { try await UploadCleanup.runOnce(app) }
}
