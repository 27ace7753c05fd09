import NIOPosix
import Vapor

/// bcrypt on a thread pool of its own: never on an event loop, never on the pool SQLite uses, so a login
/// storm cannot stall other requests.
public final class PasswordHasher: Sendable {
    public let cost: Int
    private let pool: NIOThreadPool

    /// A fixed hash verified for unknown usernames so timing does not reveal which usernames exist.
    private let dummyHash: String

    public init(cost: Int, threads: Int = max(1, System.coreCount)) {
        self.cost = cost
        self.pool = NIOThreadPool(numberOfThreads: threads)
        self.pool.start()
        self.dummyHash = (try? Bcrypt.hash("dummy-password-for-timing", cost: cost)) ?? ""
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await pool.runIfActive { try Bcrypt.hash(password, cost: cost) }
    }

    /// bcrypt only reads 72 bytes; longer passwords never match (contract §4.1).
    public func verify(_ password: String, against hash: String?) async throws -> Bool {
        let target = hash ?? dummyHash
        let tooLong = password.utf8.count > 72
        let matched = try await pool.runIfActive { (try? Bcrypt.verify(password, created: target)) ?? false }
        return hash != nil && !tooLong && matched
    }

    public func shutdown() async throws { try await pool.shutdownGracefully() }
}
