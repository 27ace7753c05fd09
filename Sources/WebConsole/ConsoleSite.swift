import AppCore
import Foundation
import Vapor

/// Mounts a console: its assets (shared plus its own), page frame, error pages, sign-in and sign-out, and its pages
/// behind its session middleware and the CSRF check.
public enum ConsoleSite {
    public struct Description: Sendable {
        public let productName: String
        /// The console's own `Assets` folder (its CSS and modules); the shared ones come first.
        public let assetsDirectory: URL
        public let stylesheet: String
        public let navigation: [ConsoleChrome.NavItem]
        public let signIn: any ConsoleSignInService
        public let signInHeading: String
        public let signInHint: String?
        /// The forgotten-password pages, linked from the sign-in page; nil: neither.
        public let passwordReset: (any ConsolePasswordResetService)?

        public init(
            productName: String, assetsDirectory: URL, stylesheet: String, navigation: [ConsoleChrome.NavItem],
            signIn: any ConsoleSignInService, signInHeading: String, signInHint: String? = nil,
            passwordReset: (any ConsolePasswordResetService)? = nil
        ) {
            self.productName = productName
            self.assetsDirectory = assetsDirectory
            self.stylesheet = stylesheet
            self.navigation = navigation
            self.signIn = signIn
            self.signInHeading = signInHeading
            self.signInHint = signInHint
            self.passwordReset = passwordReset
        }
    }

    /// `pages` registers the console's pages on a group whose requests have a session (else: the sign-in page).
    public static func mount(
        _ app: Application, at mount: ConsoleMount, _ site: Description, session: any AsyncMiddleware,
        pages: (ConsoleChrome, any RoutesBuilder) -> Void
    ) throws {
        let assets = try ConsoleAssets(directories: [ConsoleAssets.sharedDirectory, site.assetsDirectory], mount: mount)
        let chrome = ConsoleChrome(
            productName: site.productName, mount: mount, assets: assets, stylesheets: ["console.css", site.stylesheet],
            extraConnectSources: StorageOrigin.connectSources(app.core.config), navigation: site.navigation)
        let root = mount.routes(app).grouped(ConsoleResponseHeaders(chrome: chrome)).grouped(ConsoleErrorMiddleware(chrome: chrome))
        assets.register(on: root)
        let signIn = ConsoleSignInPages(
            chrome: chrome, service: site.signIn, heading: site.signInHeading, hint: site.signInHint,
            offersPasswordReset: site.passwordReset != nil)
        signIn.boot(public: root)
        if let passwordReset = site.passwordReset {
            ConsolePasswordResetPages(chrome: chrome, service: passwordReset).boot(public: root)
        }
        let signedIn = root.grouped(session).grouped(ConsoleCSRFMiddleware())
        signIn.boot(signedIn: signedIn)
        pages(chrome, signedIn)
        // Unknown console paths answer in the console's style; at the root the API's own 404s keep theirs.
        if !mount.prefix.isEmpty {
            signedIn.get("**") { _ -> Response in throw Abort(.notFound) }
        }
    }
}
