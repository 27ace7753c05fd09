import AppCore
import Foundation
import Mail
import Vapor

/// Studio settings (contract §3.2, §4.7.6): partial at the top level; `workingHours` replaces all seven days. The
/// update runs under the booking lock, so a booking never sees half-applied settings.
struct AdminSettingsController: RouteCollection {
    static let fields = [
        "studioName", "timezone", "workingHours", "slotStepMinutes", "capacity", "bookingWindowDays", "leadTimeMinutes",
    ]
    /// May be null (or empty): no address, so no password reset by email.
    static let clearableFields = ["adminEmail"]

    func boot(routes: any RoutesBuilder) throws {
        routes.get("settings", use: show)
        routes.jsonRoute(.PUT, "settings", use: update)
    }

    @Sendable func show(req: Request) async throws -> Response {
        try JSONResponse.make(SettingsResponse(try await req.studioSettings.current()))
    }

    @Sendable func update(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        guard body.containsAny(of: Self.fields + Self.clearableFields) else { throw APIError.nothingToUpdate }
        if case .object(let days)? = body.object["workingHours"] { try Self.requireDays(days) }

        for name in Self.fields { try body.rejectNull(name) }
        let studioName = try body.string("studioName", min: 2, max: 100)
        if body.contains("studioName") && studioName == nil { throw APIError.invalidField("studioName", "must be 2-100 characters") }
        let timezone = try Self.timezone(body)
        let hours = try Self.workingHours(body)
        let step = try body.integer("slotStepMinutes", range: 5...240)
        if let step, step % 5 != 0 { throw APIError.invalidField("slotStepMinutes", "must be a multiple of 5") }
        let capacity = try body.integer("capacity", range: 1...20)
        let window = try body.integer("bookingWindowDays", range: 1...365)
        let lead = try body.integer("leadTimeMinutes", range: 0...10_080)
        let adminEmail = try Self.adminEmail(body)

        let updated = try await req.studioSettings.update(now: req.now) { settings in
            if let studioName { settings.studioName = studioName }
            if let timezone { settings.timezone = timezone }
            if let hours { settings.hours = hours }
            if let step { settings.slotStepMinutes = step }
            if let capacity { settings.capacity = capacity }
            if let window { settings.bookingWindowDays = window }
            if let lead { settings.leadTimeMinutes = lead }
            if let adminEmail { settings.adminEmail = adminEmail }
        }
        return try JSONResponse.make(SettingsResponse(updated))
    }

    /// Step 7 for `workingHours`: every absent day key, and `open`/`close` absent from a day object, in day order.
    static func requireDays(_ days: [String: JSONValue]) throws {
        var missing: [String] = []
        for day in Weekday.allCases {
            guard let value = days[day.rawValue] else {
                missing.append("workingHours.\(day.rawValue)")
                continue
            }
            guard case .object(let hours) = value else { continue }
            for part in ["open", "close"] where FieldReader.isMissing(hours[part]) {
                missing.append("workingHours.\(day.rawValue).\(part)")
            }
        }
        if !missing.isEmpty { throw APIError.missingFields(missing) }
    }

    /// `.some(nil)` clears the address (null or an empty string); nil leaves it as it is.
    static func adminEmail(_ body: FieldReader) throws -> String?? {
        switch body.object["adminEmail"] {
        case nil: return nil
        case .null?: return .some(nil)
        case .string(let s)?:
            let address = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if address.isEmpty { return .some(nil) }
            guard MailAddress.isPlausible(address) else {
                throw APIError.invalidField("adminEmail", "must be an email address")
            }
            return .some(address)
        default: throw APIError.invalidField("adminEmail", "must be a string")
        }
    }

    /// A tz database identifier (not `Etc/…`) or exactly `UTC`, matched exactly.
    static func timezone(_ body: FieldReader) throws -> String? {
        guard let raw = body.object["timezone"] else { return nil }
        guard case .string(let s) = raw else { throw APIError.invalidField("timezone", "must be a string") }
        let zone = s.trimmingCharacters(in: .whitespacesAndNewlines)
        guard LocalDay.isAcceptedZoneIdentifier(zone), TimeZone(identifier: zone) != nil else {
            throw APIError.invalidField("timezone", "unknown time zone")
        }
        return zone
    }

    static func workingHours(_ body: FieldReader) throws -> WeekHours? {
        guard let raw = body.object["workingHours"] else { return nil }
        guard case .object(let days) = raw else { throw APIError.invalidField("workingHours", "must be an object") }
        var result: [Weekday: DayHours] = [:]
        for day in Weekday.allCases {
            let name = "workingHours.\(day.rawValue)"
            switch days[day.rawValue] {
            case .null?, nil:
                continue
            case .object(let hours)?:
                let open = try time(hours["open"], field: name + ".open", closing: false)
                let close = try time(hours["close"], field: name + ".close", closing: true)
                guard close > open else { throw APIError.invalidField(name + ".close", "must be later than open") }
                result[day] = DayHours(open: open, close: close)
            default:
                throw APIError.invalidField(name, "must be an object")
            }
        }
        return WeekHours(days: result)
    }

    static func time(_ value: JSONValue?, field: String, closing: Bool) throws -> WallTime {
        guard case .string(let s)? = value else { throw APIError.invalidField(field, "must be a string") }
        guard let time = WallTime(s.trimmingCharacters(in: .whitespacesAndNewlines), allowMidnightEnd: closing),
            !closing || time.minutes >= 1
        else { throw APIError.invalidField(field, "must be a time HH:mm") }
        return time
    }
}
