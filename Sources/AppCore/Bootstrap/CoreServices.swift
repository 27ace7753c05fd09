import Vapor

/// The shared services every product uses, created once at start and kept in `Application.storage`.
public struct CoreServices: Sendable {
    public let config: AppConfig
    public let clock: any AppClock
    public let passwordHasher: PasswordHasher
    public let tokens: TokenService
    public let metrics: MetricsRegistry
    public let clientAddress: ClientAddress
    public let readiness: ReadinessChecks
    /// Login throttles and request rate limits of both products (in memory on SQLite, shared on PostgreSQL).
    public let attempts: any AttemptLedger
    /// Routes that stream their request bodies (exempt from the request body deadline).
    public let streamingBodyPaths = StreamingBodyPaths()
    /// The web consoles' session tokens and CSRF tokens.
    public let consoleCredentials: ConsoleCredentials

    public init(
        config: AppConfig, clock: any AppClock, passwordHasher: PasswordHasher, tokens: TokenService,
        metrics: MetricsRegistry, readiness: ReadinessChecks, attempts: any AttemptLedger
    ) {
        self.config = config
        self.clock = clock
        self.passwordHasher = passwordHasher
        self.tokens = tokens
        self.metrics = metrics
        self.clientAddress = ClientAddress(trustedProxies: config.trustedProxies)
        self.readiness = readiness
        self.attempts = attempts
        self.consoleCredentials = ConsoleCredentials(secret: config.jwtSecret)
    }
}

extension Application {
    private struct CoreServicesKey: StorageKey { typealias Value = CoreServices }

    public var core: CoreServices {
        get {
            guard let services = storage[CoreServicesKey.self] else {
                fatalError("CoreBootstrap.configure must run before the core services are used")
            }
            return services
        }
        set { storage[CoreServicesKey.self] = newValue }
    }
}

extension Request {
    public var core: CoreServices { application.core }
    public var now: Date { WireTime.truncated(application.core.clock.now()) }
}
