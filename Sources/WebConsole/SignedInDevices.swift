import Foundation
import Plot

/// One live session of the signed-in user, as the account page lists it.
public struct SignedInDevice: Sendable {
    public let signedInAt: Date
    public let expiresAt: Date
    /// "Console" for a browser session; a product may name its other kinds ("API (CLI, scripts)").
    public let kind: String
    public let userAgent: String?
    public let clientIP: String?
    public let isCurrent: Bool

    public init(
        signedInAt: Date, expiresAt: Date, kind: String, userAgent: String?, clientIP: String?, isCurrent: Bool
    ) {
        self.signedInAt = signedInAt
        self.expiresAt = expiresAt
        self.kind = kind
        self.userAgent = userAgent
        self.clientIP = clientIP
        self.isCurrent = isCurrent
    }
}

/// The account page's "Signed-in devices" section of either console: every live session and the one button that
/// ends them all (`POST {mount}/logout-everywhere`, a form with the session's CSRF token).
public enum SignedInDevicesView {
    public static func section(
        _ devices: [SignedInDevice], session: ConsoleSessionContext, mount: ConsoleMount, endsAlso: String
    ) -> Node<HTML.BodyContext> {
        .section(
            .class("card stack"), .id("signed-in-devices"), .attr("aria-labelledby", "signed-in-devices-title"),
            .h2(.id("signed-in-devices-title"), .text("Signed-in devices")),
            .p(.class("muted"), .safeText("\(devices.count) live \(devices.count == 1 ? "session" : "sessions").")),
            .div(.class("table-wrap"), .table(
                .thead(.tr(.th("Device"), .th("Kind"), .th("Address"), .th("Signed in"), .th("Ends"))),
                .tbody(.forEach(devices) { device in
                    .tr(
                        .td(.safeText(UserAgentSummary.describe(device.userAgent)),
                            .if(device.isCurrent, .group(.text(" "), .span(.class("badge ok"), .text("This browser"))))),
                        .td(.safeText(device.kind)),
                        .td(.safeText(device.clientIP ?? "—")),
                        .td(time(device.signedInAt)),
                        .td(time(device.expiresAt))
                    )
                })
            )),
            .form(
                .attr("method", "post"), .attr("action", mount.path("/logout-everywhere")),
                ConsoleForms.csrfField(session),
                .p(.safeText("Signing out everywhere ends every session above, this one included, and \(endsAlso).")),
                .button(.type(.submit), .class("danger"), .text("Sign out everywhere"))
            )
        )
    }

    static func time(_ date: Date) -> Node<HTML.BodyContext> {
        .element(named: "time", nodes: [.attr("datetime", ISO8601DateFormatter().string(from: date)),
                                         .safeText(utcText(date))])
    }

    /// "27 Nov 2026, 18:05 UTC", from calendar fields (no DateFormatter built per row).
    static func utcText(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let month = months[(parts.month ?? 1) - 1]
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), "
            + String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0) + " UTC"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .utc
        return calendar
    }()
}

/// A person-readable name for a `User-Agent`: browser and system, or the app, else the header's start.
enum UserAgentSummary {
    static func describe(_ userAgent: String?) -> String {
        guard let userAgent, !userAgent.isEmpty else { return "Unknown device" }
        if userAgent.hasPrefix("HelpPetAI") { return "HelpPet iPhone app" }
        let browsers: [(token: String, name: String)] = [
            ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
            ("Chromium/", "Chromium"), ("Safari/", "Safari"), ("curl/", "curl"), ("Python", "Python script"),
        ]
        let systems: [(token: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Mac OS X", "Mac"),
            ("Windows", "Windows"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
        ]
        let browser = browsers.first { userAgent.contains($0.token) }?.name
        let system = systems.first { userAgent.contains($0.token) }?.name
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return system
        default: return String(userAgent.prefix(60))
        }
    }
}
