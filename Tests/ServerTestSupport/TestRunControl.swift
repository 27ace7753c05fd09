import Foundation
import NIOConcurrencyHelpers
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Records which engine each database test ran on, so the CI can prove the PostgreSQL pass really ran database
/// tests. With `HELPPET_TEST_DB_LOG=<file>` set (scripts/test sets it), every database test appends one line
/// `<engine> <test name>`; scripts/test counts the lines and prints `DB tests on <engine>: N`.
public enum DatabaseTestLedger {
    public static func record(_ engine: TestDatabase.Engine) {
        guard let path = ProcessInfo.processInfo.environment["HELPPET_TEST_DB_LOG"], !path.isEmpty else { return }
        let name = Test.current.map { "\($0.id)" } ?? "unknown-test"
        let line = "\(engine.rawValue) \(name)\n"
        // O_APPEND writes of one short line are atomic, so parallel tests never interleave.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard fd >= 0 else { return }
        _ = line.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }
}

/// Bounds how many test applications (each with its own database, pools and threads) exist at once.
/// Swift Testing starts every test in parallel; on a 2-core machine an unbounded number of live applications
/// only causes pool timeouts. `TEST_PARALLEL_APPS` overrides the default.
public final class AsyncGate: Sendable {
    public static let applications = AsyncGate(
        limit: Int(ProcessInfo.processInfo.environment["TEST_PARALLEL_APPS"] ?? "") ?? 4)

    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>

    public init(limit: Int) { state = NIOLockedValueBox(State(available: max(1, limit))) }

    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLockedValue { s -> Bool in
                if s.available > 0 {
                    s.available -= 1
                    return true
                }
                s.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    public func release() {
        let next = state.withLockedValue { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.available += 1
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }

    public func withPermit<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
