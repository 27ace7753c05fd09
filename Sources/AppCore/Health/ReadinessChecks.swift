import NIOConcurrencyHelpers
import Vapor

/// The parts `/health/ready` reports. Components register a check when they are configured.
public final class ReadinessChecks: Sendable {
    public enum Outcome: String, Sendable { case ok, unavailable, off }

    public struct Check: Sendable {
        public let name: String
        /// A failing critical part makes the answer 503; a non-critical one only `degraded`.
        public let critical: Bool
        /// Past this the part counts as `unavailable`; the contract's 2 s for the critical parts.
        public let timeoutSeconds: Double
        public let run: @Sendable (Application) async -> Outcome
        public init(
            name: String, critical: Bool, timeoutSeconds: Double = 2,
            run: @escaping @Sendable (Application) async -> Outcome
        ) {
            self.name = name
            self.critical = critical
            self.timeoutSeconds = timeoutSeconds
            self.run = run
        }
    }

    private let checks = NIOLockedValueBox<[Check]>([])

    public init() {}

    public func register(_ check: Check) { checks.withLockedValue { $0.append(check) } }

    public var all: [Check] { checks.withLockedValue { $0 } }
}
