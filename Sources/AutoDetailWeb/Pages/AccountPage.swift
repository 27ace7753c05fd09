import AutoDetailAPI
import Plot
import Vapor
import WebConsole

/// The signed-in admin's own page: their signed-in devices (console browsers and API sessions) with "Sign out
/// everywhere".
struct AccountPage: Sendable {
    let context: StudioContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(StudioPage.account, use: page)
    }

    @Sendable func page(request: Request) async throws -> Response {
        guard let session = request.consoleSession,
            let token = ConsoleSessionCookie(name: StudioSession.cookieName).token(in: request)
        else { throw ConsoleSignInRequired() }
        let devices = try await StudioSession.devices(cookieToken: token, request: request).map {
            SignedInDevice(signedInAt: $0.signedInAt, expiresAt: $0.expiresAt,
                           kind: $0.viaConsole ? "Console" : "API (CLI, scripts)", userAgent: $0.userAgent,
                           clientIP: $0.clientIP, isCurrent: $0.isCurrent)
        }
        return context.render("Your account", request, .div(
            .class("stack"),
            .h1("Your account"),
            .p(.safeText(session.displayName), .text(" · Studio admin")),
            SignedInDevicesView.section(
                devices, session: session, mount: context.mount,
                endsAlso: "every admin token the CLI or a script holds")
        ))
    }
}
