import AppCore
import Foundation
import Testing

/// `AppConfig.load`: every variable validated at start with a clear `ConfigurationError` (ARCHITECTURE
/// "One server, one configuration"; contract Appendix B).
@Suite struct ConfigurationTests {
    /// Loads with `values` plus a fresh `DATA_DIR`; the folder is removed afterwards.
    static func load(_ values: [String: String], environment: String = "development") throws -> AppConfig {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("helppet-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var env = ["DATA_DIR": dir.path]
        env.merge(values) { _, new in new }
        return try AppConfig.load(environmentName: environment, env: EnvironmentReader(env))
    }

    static func error(_ values: [String: String], environment: String = "development") -> String? {
        do {
            _ = try load(values, environment: environment)
            return nil
        } catch let error as ConfigurationError {
            return error.message
        } catch {
            return "unexpected \(type(of: error)): \(error)"
        }
    }

    /// The variables production cannot start without (the embedded store's keys included).
    static let production = [
        "JWT_SECRET": String(repeating: "s", count: 32), "PUBLIC_BASE_URL": "https://api.helppet.ai",
        "STORAGE_ACCESS_KEY_ID": "AKIDEXAMPLE", "STORAGE_SECRET_ACCESS_KEY": String(repeating: "k", count: 40),
    ]

    @Test(arguments: [
        (["PORT": "abc"], "PORT"),
        (["PORT": "0"], "PORT"),
        (["PORT": "65536"], "PORT"),
        (["PORT": "80.5"], "PORT"),
        (["DATABASE_URL": "mysql://x"], "DATABASE_URL"),
        (["DATABASE_URL": "sqlite:///tmp/x.db"], "DATABASE_URL"),
        (["DATABASE_URL": "postgres://"], "DATABASE_URL"),
        (["CORS_ALLOWED_ORIGINS": "*"], "CORS_ALLOWED_ORIGINS"),
        (["CORS_ALLOWED_ORIGINS": "null"], "CORS_ALLOWED_ORIGINS"),
        (["CORS_ALLOWED_ORIGINS": "https://app.helppet.ai, *"], "CORS_ALLOWED_ORIGINS"),
        (["JWT_SECRET": "too-short"], "JWT_SECRET"),
        (["BCRYPT_COST": "3"], "BCRYPT_COST"),
        (["BCRYPT_COST": "32"], "BCRYPT_COST"),
        (["BCRYPT_COST": "twelve"], "BCRYPT_COST"),
        (["LOG_LEVEL": "loud"], "LOG_LEVEL"),
        (["APPS": "helppet,crm"], "APPS"),
        (["APPS": ","], "APPS"),
        (["SEED_DEMO_DATA": "maybe"], "SEED_DEMO_DATA"),
        (["DISABLE_RATE_LIMITS": "sometimes"], "DISABLE_RATE_LIMITS"),
        (["PUBLIC_BASE_URL": "ftp://files.example"], "PUBLIC_BASE_URL"),
        (["PUBLIC_BASE_URL": "api.helppet.ai"], "PUBLIC_BASE_URL"),
        (["DATABASE_POOL_SIZE": "0"], "DATABASE_POOL_SIZE"),
        (["LOGIN_MAX_FAILURES": "0"], "LOGIN_MAX_FAILURES"),
        (["LOGIN_WINDOW_SECONDS": "-1"], "LOGIN_WINDOW_SECONDS"),
    ])
    func badValuesAreRefused(_ values: [String: String], _ variable: String) {
        let message = Self.error(values)
        #expect(message != nil, "\(values) was accepted")
        #expect(message?.contains(variable) == true, "\(values): \(message ?? "")")
    }

    @Test func productionRequiresAJWTSecret() {
        var values = Self.production
        values["JWT_SECRET"] = nil
        #expect(Self.error(values, environment: "production") == "JWT_SECRET is required in production")
        values["JWT_SECRET"] = String(repeating: "s", count: 31)
        #expect(Self.error(values, environment: "production") == "JWT_SECRET must be at least 32 bytes")
    }

    @Test func productionRequiresAPublicBaseURL() {
        var values = Self.production
        values["PUBLIC_BASE_URL"] = nil
        #expect(Self.error(values, environment: "production") == "PUBLIC_BASE_URL is required in production")
    }

    @Test func productionRefusesWildcardCORS() {
        var values = Self.production
        values["CORS_ALLOWED_ORIGINS"] = "*"
        #expect(Self.error(values, environment: "production")?.contains("CORS_ALLOWED_ORIGINS") == true)
    }

    @Test func productionWithItsRequiredValuesLoads() throws {
        let config = try Self.load(Self.production, environment: "production")
        #expect(config.isProduction)
        #expect(config.seedDemoData == false)
        #expect(config.publicBaseURL == "https://api.helppet.ai")
        #expect(config.bcryptCost == 12)
    }

    @Test func errorDescriptionNamesItself() {
        #expect(ConfigurationError("PORT must be an integer").description == "configuration error: PORT must be an integer")
    }

    @Test func developmentDefaults() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("helppet-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try AppConfig.load(environmentName: "development", env: EnvironmentReader(["DATA_DIR": dir.path]))
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 8080)
        #expect(config.database == .sqlite(path: dir.appendingPathComponent("app.sqlite").standardizedFileURL.path))
        #expect(config.apps == [.helppet, .autodetail])
        #expect(config.publicBaseURL == nil)
        #expect(config.corsAllowedOrigins.isEmpty)
        #expect(config.trustedProxies.isEmpty)
        #expect(config.seedDemoData == true)
        #expect(config.disableRateLimits == false)
        #expect(config.bcryptCost == 12)
        #expect(config.logLevel == .info)
        #expect(config.metricsToken == nil)
        #expect(config.loginThrottle.maxFailuresPerKey == 5)
        #expect(config.loginThrottle.maxFailuresPerUser == 50)
        #expect(config.loginThrottle.maxFailuresPerIP == 50)
        #expect(config.loginThrottle.windowSeconds == 900)
        #expect(config.loginThrottle.lockoutSeconds == 900)

        // The generated JWT secret is kept in DATA_DIR with mode 0600 and reused by the next start.
        let secretFile = dir.appendingPathComponent("jwt-secret")
        let attributes = try FileManager.default.attributesOfItem(atPath: secretFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(config.jwtSecret.count >= 32)
        let again = try AppConfig.load(environmentName: "development", env: EnvironmentReader(["DATA_DIR": dir.path]))
        #expect(again.jwtSecret == config.jwtSecret)
    }

    @Test func valuesAreParsed() throws {
        let config = try Self.load([
            "PORT": "9090", "HOST": "0.0.0.0", "DATABASE_URL": "postgresql://u:p@db.example:5433/helppet",
            "APPS": "HelpPet", "PUBLIC_BASE_URL": "https://api.example.com//", "CORS_ALLOWED_ORIGINS": " https://a.example ,https://b.example",
            "SEED_DEMO_DATA": "false", "DISABLE_RATE_LIMITS": "1", "LOG_LEVEL": "DEBUG", "BCRYPT_COST": "4",
            "TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2", "METRICS_TOKEN": "m", "JWT_SECRET": String(repeating: "j", count: 40),
        ])
        #expect(config.port == 9090)
        #expect(config.host == "0.0.0.0")
        #expect(config.database == .postgres(url: "postgresql://u:p@db.example:5433/helppet"))
        #expect(config.apps == [.helppet])
        #expect(config.publicBaseURL == "https://api.example.com")
        #expect(config.corsAllowedOrigins == ["https://a.example", "https://b.example"])
        #expect(config.seedDemoData == false)
        #expect(config.disableRateLimits == true)
        #expect(config.logLevel == .debug)
        #expect(config.bcryptCost == 4)
        #expect(config.trustedProxies == ["10.0.0.1", "10.0.0.2"])
        #expect(config.metricsToken == "m")
        #expect(config.jwtSecret == Array(String(repeating: "j", count: 40).utf8))
    }

    @Test func emptyValuesMeanUnset() throws {
        let config = try Self.load(["PORT": "", "DATABASE_URL": "  ", "APPS": "", "CORS_ALLOWED_ORIGINS": ""])
        #expect(config.port == 8080)
        if case .postgres = config.database { Issue.record("an empty DATABASE_URL must select SQLite") }
        #expect(config.apps == [.helppet, .autodetail])
    }
}
