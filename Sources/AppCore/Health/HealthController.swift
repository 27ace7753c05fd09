import Foundation
import SQLKit
import Vapor

/// `/health` (liveness, touches nothing) and `/health/ready` (database and other registered parts, 2 s each).
public struct HealthController: RouteCollection {
    public static let version = "1.0.0"

    public init() {}

    public func boot(routes: any RoutesBuilder) throws {
        routes.get("health", use: Self.liveness)
        routes.get("health", "ready", use: Self.readiness)
    }

    @Sendable public static func liveness(req: Request) async throws -> Response {
        try JSONResponse.make([
            "status": "ok", "version": version, "time": WireTime.format(req.core.clock.now()),
        ])
    }

    @Sendable static func readiness(req: Request) async throws -> Response {
        var results: [String: JSONValue] = [:]
        var failedCritical = false
        var degraded = false
        for check in req.core.readiness.all {
            let outcome = await withTimeout(seconds: check.timeoutSeconds) { await check.run(req.application) } ?? .unavailable
            results[check.name] = .string(outcome.rawValue)
            if outcome == .unavailable {
                if check.critical { failedCritical = true } else { degraded = true }
            }
        }
        if failedCritical {
            return try JSONResponse.make(
                JSONValue.object(["detail": .string("Service not ready"), "checks": .object(results)]),
                status: .serviceUnavailable, headers: ["Retry-After": "1"])
        }
        return try JSONResponse.make(
            JSONValue.object(["status": .string(degraded ? "degraded" : "ready"), "checks": .object(results)]))
    }

    /// The database part: a trivial query.
    public static let databaseCheck = ReadinessChecks.Check(name: "database", critical: true) { app in
        do {
            _ = try await app.db.sql.raw("SELECT 1 AS ok").all()
            return .ok
        } catch {
            return .unavailable
        }
    }

    static func withTimeout<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await work() }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
