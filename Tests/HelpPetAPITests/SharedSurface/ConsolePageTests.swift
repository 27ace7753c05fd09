import Foundation
@testable import HelpPetWeb
import ServerTestSupport
@testable import AutoDetailWeb
import Testing
import Vapor
import WebConsole

/// The typed console pages (`ClinicPage`, `StudioPage`): links are built from the same segments the router is given,
/// and each console registers exactly its listed pages besides the sign-in, password-reset and asset routes every
/// console shares (`ConsoleSite`).
@Suite("Console pages")
struct ConsolePageTests {
    static let sharedRoutes: Set<String> = [
        "GET /login", "POST /login", "POST /logout", "POST /logout-everywhere", "GET /password-reset",
        "POST /password-reset", "GET /password-reset/confirm", "POST /password-reset/confirm",
        "GET /assets/:version/:name", "GET /**",
    ]

    @Test func aLinkFillsInLowercaseIdsAndTheRouteNamesItsParameters() {
        let id = UUID(uuidString: "3F2C1B6E-0000-4000-8000-00000000000A")!
        #expect(ClinicPage.discharge(visit: .value(id)).path == "/visits/3f2c1b6e-0000-4000-8000-00000000000a/discharge")
        #expect(ClinicPage.discharge(visit: .key).path == "/visits/:visit_id/discharge")
        #expect(ClinicPage.discharge(visit: .key).pathComponents.map(\.description) == ["visits", ":visit_id", "discharge"])
        #expect(ClinicPage.pet(.placeholder).path == "/pets/{id}")
        #expect(ClinicPage.board.path == "/")
        #expect(StudioPage.photoThumbnail(booking: .key, photo: .key).path == "/bookings/:id/photos/:photoId/thumbnail")
    }

    @Test func aURLCarriesTheMountAndAnEncodedQueryWithoutItsNilValues() {
        let clinic = ConsoleMount(prefix: "/clinic/")
        #expect(clinic.url(ClinicPage.board) == "/clinic")
        #expect(clinic.url(ClinicPage.week, query: ["date": "2026-11-28", "practice": nil]) == "/clinic/week?date=2026-11-28")
        #expect(clinic.url(ClinicPage.owners, query: ["q": "Smith & Sons=1 #2"])
            == "/clinic/owners?q=Smith%20%26%20Sons%3D1%20%232")
        let root = ConsoleMount(prefix: "")
        #expect(root.url(StudioPage.overview) == "/")
        #expect(root.url(StudioPage.apiKeys) == "/settings/api-keys")
    }

    @Test func theClinicConsoleRegistersExactlyItsPages() async throws {
        let registered = try await DocumentedAPI.helpPet.withApp { app in Self.consoleRoutes(app, prefix: "clinic") }
        let pages = Set(ClinicPage.routes.map { "GET " + $0.path })
        #expect(pages.subtracting(registered).isEmpty, "pages without a route: \(pages.subtracting(registered).sorted())")
        let unlisted = registered.subtracting(pages).subtracting(Self.sharedRoutes)
        #expect(unlisted.isEmpty, "console routes that are not a ClinicPage: \(unlisted.sorted())")
    }

    @Test func theStudioConsoleRegistersExactlyItsPages() async throws {
        let registered = try await DocumentedAPI.autoDetail.withApp { app in Self.consoleRoutes(app, prefix: "studio") }
        let pages = Set(StudioPage.routes.map { ($0.isPost ? "POST " : "GET ") + $0.path })
        #expect(pages.subtracting(registered).isEmpty, "pages without a route: \(pages.subtracting(registered).sorted())")
        let unlisted = registered.subtracting(pages).subtracting(Self.sharedRoutes)
        #expect(unlisted.isEmpty, "console routes that are not a StudioPage: \(unlisted.sorted())")
    }

    /// "GET /path/:name" for every route below the console's mount, the mount taken off.
    static func consoleRoutes(_ app: Application, prefix: String) -> Set<String> {
        Set(app.routes.all.compactMap { route -> String? in
            let components = route.path.map(\.description)
            guard components.first == prefix else { return nil }
            return "\(route.method.rawValue) /" + components.dropFirst().joined(separator: "/")
        })
    }
}

private extension StudioPage {
    var isPost: Bool {
        if case .rescheduleBooking = self { return true }
        return false
    }
}
