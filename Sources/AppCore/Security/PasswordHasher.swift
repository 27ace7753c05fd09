import NIOPosix
import Vapor

#if canImport(Glibc)
    import Glibc
#endif

/// bcrypt on a thread pool of its own: never on an event loop, never on the pool SQLite uses, and at a lower CPU
/// priority (nice 10), so a login storm uses the cores the event loops leave idle instead of competing with them.
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
        return try await pool.runIfActive {
            Self.lowerCurrentThreadPriority()
            return try Bcrypt.hash(password, cost: cost)
        }
    }

    /// bcrypt only reads 72 bytes; longer passwords never match (contract §4.1).
    public func verify(_ password: String, against hash: String?) async throws -> Bool {
        let target = hash ?? dummyHash
        let tooLong = password.utf8.count > 72
        let matched = try await pool.runIfActive {
            Self.lowerCurrentThreadPriority()
            return (try? Bcrypt.verify(password, created: target)) ?? false
        }
        return hash != nil && !tooLong && matched
    }

    public func shutdown() async throws { try await pool.shutdownGracefully() }

    /// Linux keeps a nice value per thread, and `setpriority(PRIO_PROCESS, 0, …)` sets the calling thread's: the
    /// pool's threads only. Cheap next to a bcrypt run, so it is simply repeated for every job.
    static func lowerCurrentThreadPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }
}
