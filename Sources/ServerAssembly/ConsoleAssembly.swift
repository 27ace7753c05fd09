import AppCore
import AutoDetailWeb
import HelpPetWeb
import Vapor
import WebConsole

/// Mounts the web consoles of the enabled products: `/clinic` and `/studio` with a landing page at `/`, or one
/// console at `/` (`WEB_CONSOLE_ROOT`) for a product on its own domain.
package enum ConsoleAssembly {
    package static func configure(_ app: Application) throws {
        let config = app.core.config
        var entries: [LandingPage.Entry] = []
        if config.apps.contains(.helppet) {
            let root = config.webConsoleRoot == .helppet
            try ClinicConsole.configure(app, mount: ConsoleMount(prefix: root ? "" : "/clinic"))
            entries.append(.init(name: "HelpPet Clinic", path: root ? "/" : "/clinic",
                                 summary: "Day board, per-pet recording, visits, pets and medical records."))
        }
        if config.apps.contains(.autodetail) {
            let root = config.webConsoleRoot == .autodetail
            try StudioConsole.configure(app, mount: ConsoleMount(prefix: root ? "" : "/studio"))
            entries.append(.init(name: "AutoDetail Hub Studio", path: root ? "/" : "/studio",
                                 summary: "Bookings calendar, services, customers, photos and API keys."))
        }
        if config.webConsoleRoot == nil { try LandingPage.register(on: app, entries: entries) }
    }
}
