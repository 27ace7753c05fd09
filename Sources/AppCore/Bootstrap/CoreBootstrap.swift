import Fluent
import Vapor

/// Wires the shared plumbing: configuration, database, middleware order, health and metrics routes.
public enum CoreBootstrap {
    public static func configure(_ app: Application, config: AppConfig, clock: any AppClock = SystemClock()) async throws {
        // Vapor's HTTP layer traces every raw request head at `trace` (Authorization and X-API-Key headers, presigned
        // query strings) through this logger, so the application logger never goes below `debug`: no log level may
        // put a credential into the log (scripts/check-log-secrets proves it).
        app.logger.logLevel = max(config.logLevel, .debug)
        if config.logLevel < .debug {
            app.logger.notice("LOG_LEVEL=\(config.logLevel) is served as debug: trace would log raw request heads with credentials")
        }
        app.http.server.configuration.hostname = config.host
        app.http.server.configuration.port = config.port
        // Requests are recorded once, by RequestObservationMiddleware, with route templates as labels.
        app.http.server.configuration.reportMetrics = false
        // Vapor hands a request over only at its first body byte, so a head that promises a body and then sends
        // nothing never reaches the body deadline; the idle timeout is the one thing that frees such a socket
        // (docs/transport-safety.md). It is measured on bytes in both directions, so a slow but moving upload or
        // download is never cut; no handler of ours works silently for anywhere near that long.
        app.http.server.configuration.idleTimeout = .milliseconds(Int64(config.connectionIdleTimeoutSeconds * 1000))
        app.routes.defaultMaxBodySize = "1mb"

        try DatabaseSetup.configure(app, config: config)
        app.migrations.add(M0001_CreateBootstrapMarkers(), M0002_CreateAttemptLedger())

        let metrics = MetricsRegistry()
        let readiness = ReadinessChecks()
        readiness.register(HealthController.databaseCheck)
        let hasher = PasswordHasher(cost: config.bcryptCost)
        app.core = CoreServices(
            config: config, clock: clock, passwordHasher: hasher,
            tokens: await TokenService(secret: config.jwtSecret), metrics: metrics, readiness: readiness,
            attempts: Self.attemptLedger(config))
        app.lifecycle.use(PasswordHasherShutdown(hasher: hasher))

        // Outermost first: every response, errors included, gets a request id, a log line and metrics.
        app.middleware = Middlewares()
        app.middleware.use(RequestObservationMiddleware(metrics: metrics))
        app.middleware.use(CORSPolicyMiddleware(allowedOrigins: config.corsAllowedOrigins))
        app.middleware.use(APIErrorMiddleware())
        app.middleware.use(HostHeaderMiddleware())
        app.middleware.use(RequestBodyDeadlineMiddleware(
            timeout: .milliseconds(Int64(config.requestBodyTimeoutSeconds * 1000)),
            streamingPaths: app.core.streamingBodyPaths))

        try app.register(collection: HealthController())
        try app.register(collection: MetricsController())
        try await ObjectStoreSetup.configure(app, config: config, clock: clock)
    }
}

extension CoreBootstrap {
    /// One process counts in memory (SQLite allows no second process); processes sharing PostgreSQL count there.
    static func attemptLedger(_ config: AppConfig) -> any AttemptLedger {
        if config.disableRateLimits { return UnlimitedAttemptLedger() }
        switch config.database {
        case .sqlite: return InMemoryAttemptLedger()
        case .postgres: return DatabaseAttemptLedger()
        }
    }
}

private struct PasswordHasherShutdown: LifecycleHandler {
    let hasher: PasswordHasher
    func shutdownAsync(_ application: Application) async { try? await hasher.shutdown() }
}
