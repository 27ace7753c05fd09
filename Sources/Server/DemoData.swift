import AppCore
import AutoDetailAPI
import Foundation
import HelpPetAPI
import Vapor

/// Demo data of every enabled product: seeded on a product's first start when `SEED_DEMO_DATA` is on.
enum DemoData {
    static func seedOnFirstStart(_ app: Application) async throws {
        let config = app.core.config
        let now = WireTime.truncated(app.core.clock.now())
        if config.apps.contains(.helppet),
            try await BootstrapMarker.claimFirstStart(product: "helppet", now: now, on: app.db),
            config.seedDemoData
        {
            try await HelpPetDemoData.seed(on: app.db, now: now)
            printUnbuffered(HelpPetDemoData.credentials)
        }
        // AutoDetail Hub's first start (its contract §8): the admin user always, demo services and an organisation
        // key with SEED_DEMO_DATA; each secret printed once.
        if config.apps.contains(.autodetail), let lines = try await AutoDetailModule.firstStart(app) {
            for line in lines { print(line) }
            fflush(nil)
        }
    }

    static func seedAll(_ app: Application) async throws {
        let now = WireTime.truncated(app.core.clock.now())
        if app.core.config.apps.contains(.helppet) {
            // `seed` counts as HelpPet's first start when none happened yet, so a later `serve` neither seeds again
            // nor prints the demo logins a second time.
            _ = try await BootstrapMarker.claimFirstStart(product: "helppet", now: now, on: app.db)
            try await HelpPetDemoData.seed(on: app.db, now: now)
            printUnbuffered(HelpPetDemoData.credentials)
        }
        // AutoDetail Hub: the first start if none happened yet (admin password printed once), then the demo
        // services and an organisation key where missing.
        if app.core.config.apps.contains(.autodetail) {
            for line in try await AutoDetailModule.seedDemoData(app) { printUnbuffered(line) }
        }
    }
}

/// Demo credentials must reach a redirected log at once, not when the process exits.
func printUnbuffered(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
