import Foundation

/// The database a kit test's `server` process runs on. By default the server's own SQLite file in its `DATA_DIR`;
/// when the test run has `DATABASE_URL=postgres://…` (the PostgreSQL pass of `scripts/test`), a fresh PostgreSQL
/// database named after the data directory, created and dropped with `psql`, so the kits are tested against both
/// engines like the servers' own suites.
public enum ServerDatabase {
    /// The admin URL of the test run, when it is a PostgreSQL one.
    public static var adminURL: String? {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"],
            url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
        else { return nil }
        return url
    }

    /// Creates the PostgreSQL database of a new data directory (nothing on SQLite).
    public static func create(for dataDirectory: URL) throws {
        guard let admin = adminURL else { return }
        try psql(admin, "CREATE DATABASE \(name(for: dataDirectory))")
    }

    /// The variables that point a server at the data directory's database (none on SQLite: the default is used).
    public static func environment(for dataDirectory: URL) -> [String: String] {
        guard let admin = adminURL, var components = URLComponents(string: admin) else { return [:] }
        components.path = "/" + name(for: dataDirectory)
        return components.string.map { ["DATABASE_URL": $0] } ?? [:]
    }

    /// Drops the data directory's PostgreSQL database (ignored when it is gone or on SQLite).
    public static func drop(for dataDirectory: URL) {
        guard let admin = adminURL else { return }
        try? psql(admin, "DROP DATABASE IF EXISTS \(name(for: dataDirectory)) WITH (FORCE)")
    }

    static func name(for dataDirectory: URL) -> String {
        let letters = dataDirectory.lastPathComponent.lowercased().filter { $0.isLetter || $0.isNumber }
        return "kit_" + String(letters.suffix(40))
    }

    static func psql(_ url: String, _ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-q", "-v", "ON_ERROR_STOP=1", "-c", statement]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ServerDatabaseError(description: "psql `\(statement)` failed: \(message)")
        }
    }
}

public struct ServerDatabaseError: Error, CustomStringConvertible {
    public let description: String
}
