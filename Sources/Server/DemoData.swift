import AppCore
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
            print(HelpPetDemoData.credentials)
        }
    }

    static func seedAll(_ app: Application) async throws {
        let now = WireTime.truncated(app.core.clock.now())
        if app.core.config.apps.contains(.helppet) {
            try await HelpPetDemoData.seed(on: app.db, now: now)
            print(HelpPetDemoData.credentials)
        }
    }
}
