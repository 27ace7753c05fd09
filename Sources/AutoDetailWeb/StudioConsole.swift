import AppCore
import AutoDetailAPI
import Foundation
import Vapor
import WebConsole

/// The studio console (issue 16), mounted at `/studio` (or `/` with `WEB_CONSOLE_ROOT=autodetail`).
public enum StudioConsole {
    public static func configure(_ app: Application, mount: ConsoleMount) throws {
        _ = try ConsoleAssets(
            directories: [ConsoleAssets.sharedDirectory,
                          Bundle.module.resourceURL!.appendingPathComponent("Assets", isDirectory: true)],
            mount: mount)
    }
}
