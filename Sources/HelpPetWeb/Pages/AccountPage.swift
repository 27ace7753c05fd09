import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The signed-in user's own page: who they are, and their signed-in devices with "Sign out everywhere".
struct AccountPage: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.account, use: page)
    }

    @Sendable func page(request: Request) async throws -> Response {
        let user = try request.clinicUser
        guard let session = request.consoleSession else { throw ConsoleSignInRequired() }
        let devices = try await ClinicSession.devices(request: request).map {
            SignedInDevice(signedInAt: $0.signedInAt, expiresAt: $0.expiresAt, kind: "Console", userAgent: $0.userAgent,
                           clientIP: $0.clientIP, isCurrent: $0.isCurrent)
        }
        return context.render("Your account", request, .div(
            .class("stack"),
            .h1("Your account"),
            .p(.safeText(user.displayName), .text(" · "), .safeText(ClinicSessionMiddleware.roleLabel(user.role))),
            SignedInDevicesView.section(
                devices, session: session, mount: context.mount,
                endsAlso: "signs you out of the HelpPet app on every phone")
        ))
    }
}
