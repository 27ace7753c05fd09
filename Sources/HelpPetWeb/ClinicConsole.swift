import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The clinic console: server-rendered pages over HelpPetAPI's domain layer, mounted at `/clinic`
/// (or `/` with `WEB_CONSOLE_ROOT=helppet`). Pages read through the domain's stores; every change a page makes
/// is a call of its scripts to `/api/v1` with the session cookie and CSRF token, so console and API share one set of
/// rules and messages (docs/web-console.md).
public enum ClinicConsole {
    public static func configure(_ app: Application, mount: ConsoleMount) throws {
        let site = ConsoleSite.Description(
            productName: "HelpPet Clinic",
            assetsDirectory: Bundle.module.resourceURL!.appendingPathComponent("Assets", isDirectory: true),
            stylesheet: "clinic.css",
            navigation: [
                .init("Day board", ClinicPage.board.path), .init("Week", ClinicPage.week.path),
                .init("Owners & pets", ClinicPage.owners.path), .init("Admin", ClinicPage.adminUsers.path),
            ],
            signIn: ClinicSignIn(), signInHeading: "Sign in to the clinic", passwordReset: ClinicPasswordResetService())
        ClinicPasswordReset.setConfirmPagePath(mount.path("/password-reset/confirm"), on: app)
        try ConsoleSite.mount(app, at: mount, site, session: ClinicSessionMiddleware()) { chrome, pages in
            let context = ClinicContext(chrome: chrome, mount: mount)
            DayBoardPages(context: context).boot(pages)
            WeekPages(context: context).boot(pages)
            OwnerPages(context: context).boot(pages)
            PetPages(context: context).boot(pages)
            MyPetsPage(context: context).boot(pages)
            AdminPages(context: context).boot(pages)
            InvitePages(context: context).boot(pages)
            AppointmentPages(context: context).boot(pages)
            VisitPages(context: context).boot(pages)
            DischargePage(context: context).boot(pages)
            AccountPage(context: context).boot(pages)
        }
    }
}

/// What every page of the clinic console needs.
struct ClinicContext: Sendable {
    let chrome: ConsoleChrome
    let mount: ConsoleMount

    /// A page's URL in this console (`ClinicPage`), with an optional query.
    func url(_ page: ClinicPage, query: KeyValuePairs<String, String?> = [:]) -> String {
        mount.url(page, query: query)
    }

    func render(
        _ title: String, _ request: Request, status: HTTPResponseStatus = .ok, scripts: [String] = [],
        _ content: Node<HTML.BodyContext>
    ) -> Response {
        chrome.render(title, session: request.consoleSession, request: request, status: status,
                      scripts: ["console.js"] + scripts, navigation: navigation(for: request), content: content)
    }

    /// Owners see their pets only; the admin pages only administrators.
    private func navigation(for request: Request) -> [ConsoleChrome.NavItem] {
        guard let user = try? request.clinicUser else { return [] }
        if user.isOwner { return [.init("My pets", ClinicPage.myPets.path)] }
        if !user.isStaff { return [] }
        return chrome.navigation.filter { $0.path != ClinicPage.adminUsers.path || user.isAdmin }
    }
}
