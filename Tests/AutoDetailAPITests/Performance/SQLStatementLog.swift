import Foundation
import Logging
import NIOConcurrencyHelpers
import Vapor

/// Counts the SQL statements the database drivers log ("Executing query" at debug level), per request id — the
/// technique of Tests/HelpPetAPITests/Performance/QueryCountTests.swift (its counter lives in that test target, so
/// AutoDetail has its own under another name).
final class SQLStatementLog: LogHandler, @unchecked Sendable {
    private let counts = NIOLockedValueBox<[String: Int]>([:])
    private let preparedCounts = NIOLockedValueBox<[String: Int]>([:])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.message.description == "Executing query" else { return }
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        guard case .string(let id)? = merged["request-id"] else { return }
        counts.withLockedValue { $0[id, default: 0] += 1 }
        // `Database.preparedRows` names the prepared statement it executes.
        if merged["prepared"] != nil { preparedCounts.withLockedValue { $0[id, default: 0] += 1 } }
    }

    func count(for requestID: String) -> Int { counts.withLockedValue { $0[requestID] ?? 0 } }
    func preparedCount(for requestID: String) -> Int { preparedCounts.withLockedValue { $0[requestID] ?? 0 } }

    /// Routes `app`'s logging (debug level) into a new log.
    static func attach(to app: Application) -> SQLStatementLog {
        let log = SQLStatementLog()
        app.logger = Logger(label: "autodetail-statement-log") { _ in log }
        app.logger.logLevel = .debug
        return log
    }
}

extension Application {
    /// Sends one request under a fresh request id and returns its response and the statements it executed.
    func countingStatements(
        _ log: SQLStatementLog, _ method: HTTPMethod, _ path: String, key: String? = nil, json: String? = nil
    ) async throws -> (response: TestResponse, statements: Int, prepared: Int) {
        let requestID = "count-\(UUID().uuidString.lowercased())"
        let response = try await send(method, path, key: key, headers: ["X-Request-ID": requestID], json: json)
        return (response, log.count(for: requestID), log.preparedCount(for: requestID))
    }
}
