import AppCore
import AutoDetailAPI
import Foundation
import Plot
import Vapor
import WebConsole

/// The studio console: server-rendered pages over AutoDetailAPI's domain layer, mounted at `/studio`
/// (or `/` with `WEB_CONSOLE_ROOT=autodetail`, so a studio's own domain has the seed's `/settings/api-keys`). Pages
/// read through `StudioReads`; every change is a call of the page's scripts to `/api/admin` with the session cookie
/// and CSRF token, so the console and the API share one set of rules and messages (docs/web-console.md).
public enum StudioConsole {
    public static func configure(_ app: Application, mount: ConsoleMount) throws {
        let site = ConsoleSite.Description(
            productName: "AutoDetail Hub Studio",
            assetsDirectory: Bundle.module.resourceURL!.appendingPathComponent("Assets", isDirectory: true),
            stylesheet: "studio.css",
            navigation: [
                .init("Overview", StudioPage.overview.path), .init("Bookings", StudioPage.bookingsWeek.path),
                .init("Services", StudioPage.services.path), .init("Customers", StudioPage.customers.path),
                .init("Studio settings", StudioPage.studioSettings.path), .init("API keys", StudioPage.apiKeys.path),
            ],
            signIn: StudioSignIn(), signInHeading: "Sign in to the studio",
            signInHint: "Use the AutoDetail Hub admin account.", passwordReset: StudioPasswordResetService())
        StudioPasswordReset.setConfirmPagePath(mount.path("/password-reset/confirm"), on: app)
        try ConsoleSite.mount(app, at: mount, site, session: StudioSessionMiddleware()) { chrome, pages in
            let context = StudioContext(chrome: chrome, mount: mount)
            OverviewPage(context: context).boot(pages)
            BookingPages(context: context).boot(pages)
            ServicePages(context: context).boot(pages)
            CustomerPages(context: context).boot(pages)
            SettingsPages(context: context).boot(pages)
            AccountPage(context: context).boot(pages)
        }
    }
}

/// What every page of the studio console needs.
struct StudioContext: Sendable {
    let chrome: ConsoleChrome
    let mount: ConsoleMount

    /// A page's URL in this console (`StudioPage`), with an optional query.
    func url(_ page: StudioPage, query: KeyValuePairs<String, String?> = [:]) -> String {
        mount.url(page, query: query)
    }

    func render(
        _ title: String, _ request: Request, status: HTTPResponseStatus = .ok, _ content: Node<HTML.BodyContext>
    ) -> Response {
        chrome.render(title, session: request.consoleSession, request: request, status: status,
                      scripts: ["console.js", "studio.js"], content: content)
    }
}
