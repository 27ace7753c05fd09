import Foundation
import Logging

/// Every configuration variable of the server, read and validated once at start (ARCHITECTURE.md,
/// "One server, one configuration"). Nothing else in the code reads the environment.
public struct AppConfig: Sendable {
    public enum DatabaseKind: Sendable, Equatable {
        case sqlite(path: String)
        case postgres(url: String)
    }

    public enum Product: String, Sendable, CaseIterable {
        case helppet, autodetail
    }

    public struct LoginThrottleSettings: Sendable {
        public var maxFailuresPerKey: Int
        public var maxFailuresPerUser: Int
        public var maxFailuresPerIP: Int
        public var windowSeconds: Int
        public var lockoutSeconds: Int
    }

    public var environmentName: String
    public var isProduction: Bool { environmentName == "production" }
    public var host: String
    public var port: Int
    public var dataDirectory: URL
    public var database: DatabaseKind
    public var databasePoolSize: Int
    /// `DATABASE_PREPARED_STATEMENTS` (default on): the hot reads run as prepared statements on PostgreSQL. Off
    /// behind a pooler that cannot keep named statements per client (PgBouncer in transaction mode before 1.21).
    public var databasePreparedStatements: Bool
    public var apps: Set<Product>
    public var publicBaseURL: String?
    public var jwtSecret: [UInt8]
    public var bcryptCost: Int
    public var corsAllowedOrigins: [String]
    public var trustedProxies: [String]
    public var loginThrottle: LoginThrottleSettings
    public var seedDemoData: Bool
    public var disableRateLimits: Bool
    /// `HELPPET_SELF_SERVICE_PRACTICES`: a signed-up user without a practice may create one and own it
    /// (`POST /api/v1/practices`); off by default, when only an ADMIN creates practices.
    public var selfServicePractices: Bool
    public var logLevel: Logger.Level
    /// `REQUEST_BODY_TIMEOUT_SECONDS`: time a client has to deliver a JSON/form body (streamed uploads excepted).
    public var requestBodyTimeoutSeconds: Double
    /// `HTTP_IDLE_TIMEOUT_SECONDS`: a connection on which no byte moves either way for this long is closed: an idle
    /// keep-alive connection, a head whose promised body never starts, a client that stops sending mid-head.
    public var connectionIdleTimeoutSeconds: Double
    public var metricsToken: String?
    public var storage: StorageSettings
    public var reconciler: ReconcilerSettings
    public var transcription: TranscriptionSettings
    public var autodetail: AutoDetailSettings
    /// `WEB_CONSOLE_ROOT`: which product's web console is mounted at `/` (its own domain); nil mounts the clinic
    /// console at `/clinic`, the studio console at `/studio` and a landing page at `/`.
    public var webConsoleRoot: Product?
    /// Outgoing email (`SMTP_URL`, `MAIL_FROM`, ...); see `MailSettings`.
    public var mail: MailSettings = .embedded(dataDirectory: URL(fileURLWithPath: "./data"))
    /// Push notifications (`APNS_KEY_PATH`, ...); see `PushSettings`.
    public var push: PushSettings = .off

    /// Reads the configuration. `environmentName` is Vapor's (`development`, `testing`, `production`).
    public static func load(environmentName: String, env: EnvironmentReader = EnvironmentReader()) throws -> AppConfig {
        let production = environmentName == "production"
        let dataDir = URL(fileURLWithPath: env.string("DATA_DIR") ?? "./data", isDirectory: true).standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("DATA_DIR '\(dataDir.path)' cannot be created: \(error.localizedDescription)")
        }

        let database: DatabaseKind
        if let url = env.string("DATABASE_URL") {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"), URL(string: url)?.host != nil else {
                throw ConfigurationError("DATABASE_URL must be a postgres:// URL")
            }
            database = .postgres(url: url)
        } else {
            database = .sqlite(path: dataDir.appendingPathComponent("app.sqlite").path)
        }

        var apps = Set<Product>()
        for name in env.string("APPS") == nil ? ["helppet", "autodetail"] : env.list("APPS") {
            guard let product = Product(rawValue: name.lowercased()) else {
                throw ConfigurationError("APPS may contain only helppet and autodetail, got '\(name)'")
            }
            apps.insert(product)
        }
        if apps.isEmpty { throw ConfigurationError("APPS must name at least one of helppet, autodetail") }

        var publicBaseURL = env.string("PUBLIC_BASE_URL")
        if let base = publicBaseURL {
            guard let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ConfigurationError("PUBLIC_BASE_URL must be an absolute http(s) URL, got '\(base)'")
            }
            while publicBaseURL!.hasSuffix("/") { publicBaseURL!.removeLast() }
        } else if production {
            throw ConfigurationError("PUBLIC_BASE_URL is required in production")
        }

        let jwtSecret: [UInt8]
        if let secret = env.string("JWT_SECRET") {
            guard secret.utf8.count >= 32 else { throw ConfigurationError("JWT_SECRET must be at least 32 bytes") }
            jwtSecret = Array(secret.utf8)
        } else if production {
            throw ConfigurationError("JWT_SECRET is required in production")
        } else {
            jwtSecret = Array(try SecretFile.loadOrCreate(dataDir.appendingPathComponent("jwt-secret")).utf8)
        }

        let cors = env.list("CORS_ALLOWED_ORIGINS")
        if cors.contains("*") || cors.contains("null") {
            throw ConfigurationError("CORS_ALLOWED_ORIGINS must list exact origins; '*' and 'null' are refused")
        }

        let logLevelName = env.string("LOG_LEVEL") ?? "info"
        guard let logLevel = Logger.Level(rawValue: logLevelName.lowercased()) else {
            throw ConfigurationError("LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical")
        }

        let storage = try StorageSettings.load(env: env, dataDirectory: dataDir, production: production)
        let reconciler = ReconcilerSettings(
            intervalSeconds: try env.int("RECONCILER_INTERVAL_SECONDS", default: 60, range: 1...86_400),
            graceSeconds: try env.int("RECONCILER_GRACE_SECONDS", default: 60, range: 1...86_400))
        let transcription = try TranscriptionSettings.load(env: env)
        let autodetail = try AutoDetailSettings.load(env: env)
        var webConsoleRoot: Product?
        if let root = env.string("WEB_CONSOLE_ROOT") {
            guard let product = Product(rawValue: root.lowercased()), apps.contains(product) else {
                throw ConfigurationError("WEB_CONSOLE_ROOT must name an enabled product (helppet or autodetail), got '\(root)'")
            }
            webConsoleRoot = product
        }

        var config = AppConfig(
            environmentName: environmentName,
            host: env.string("HOST") ?? "127.0.0.1",
            port: try env.int("PORT", default: 8080, range: 1...65535),
            dataDirectory: dataDir,
            database: database,
            databasePoolSize: try env.int("DATABASE_POOL_SIZE", default: 8, range: 1...100),
            databasePreparedStatements: try env.bool("DATABASE_PREPARED_STATEMENTS", default: true),
            apps: apps,
            publicBaseURL: publicBaseURL,
            jwtSecret: jwtSecret,
            bcryptCost: try env.int("BCRYPT_COST", default: 12, range: production ? 12...15 : 4...15),
            corsAllowedOrigins: cors,
            trustedProxies: env.list("TRUSTED_PROXIES"),
            loginThrottle: .init(
                maxFailuresPerKey: try env.int("LOGIN_MAX_FAILURES", default: 5, range: 1...10_000),
                maxFailuresPerUser: try env.int("LOGIN_USER_MAX_FAILURES", default: 50, range: 1...100_000),
                maxFailuresPerIP: try env.int("LOGIN_IP_MAX_FAILURES", default: 50, range: 1...100_000),
                windowSeconds: try env.int("LOGIN_WINDOW_SECONDS", default: 900, range: 1...86_400),
                lockoutSeconds: try env.int("LOGIN_LOCKOUT_SECONDS", default: 900, range: 1...86_400)),
            seedDemoData: try env.bool("SEED_DEMO_DATA", default: !production),
            disableRateLimits: try env.bool("DISABLE_RATE_LIMITS", default: false),
            selfServicePractices: try env.bool("HELPPET_SELF_SERVICE_PRACTICES", default: false),
            logLevel: logLevel,
            requestBodyTimeoutSeconds: try env.double("REQUEST_BODY_TIMEOUT_SECONDS", default: 30, range: 0.1...3600),
            connectionIdleTimeoutSeconds: try env.double("HTTP_IDLE_TIMEOUT_SECONDS", default: 60, range: 1...3600),
            metricsToken: env.string("METRICS_TOKEN"),
            storage: storage,
            reconciler: reconciler,
            transcription: transcription,
            autodetail: autodetail,
            webConsoleRoot: webConsoleRoot
        )
        config.mail = try MailSettings.load(env: env, dataDirectory: dataDir, production: production)
        config.push = try PushSettings.load(env: env)
        return config
    }
}
