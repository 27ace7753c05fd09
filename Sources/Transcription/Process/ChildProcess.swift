import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended.
public struct ChildProcessResult: Sendable {
    public var status: Int32
    public var timedOut: Bool
    /// Killed by a signal (a memory limit hit usually ends in SIGSEGV/SIGABRT or an allocation error exit).
    public var signaled: Bool
    public var stdout: Data
    public var stderr: Data

    public var succeeded: Bool { status == 0 && !timedOut && !signaled }

    /// The last lines of stderr, for error messages (never the environment or arguments).
    public func stderrTail(_ limit: Int = 300) -> String {
        let text = String(decoding: stderr.suffix(4096), as: UTF8.self)
            .split(whereSeparator: \.isNewline).suffix(3).joined(separator: " | ")
        return String(text.suffix(limit))
    }
}

/// Runs one program (no shell unless asked for) with a wall-clock timeout; stdout and stderr go to files in
/// `workDirectory`, so a chatty child can never block on a full pipe. Cancelling the calling task kills the child.
public enum ChildProcess {
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        workDirectory: URL, timeout: TimeInterval
    ) async throws -> ChildProcessResult {
        try Task.checkCancellation()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = workDirectory
        if let environment { process.environment = environment }
        let tag = UUID().uuidString.prefix(8)
        let outURL = workDirectory.appendingPathComponent("stdout-\(tag).txt")
        let errURL = workDirectory.appendingPathComponent("stderr-\(tag).txt")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice

        let timedOut = NIOLockedValueBox(false)
        let exited = NIOLockedValueBox(false)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                process.terminationHandler = { _ in
                    exited.withLockedValue { $0 = true }
                    continuation.resume()
                }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                    return
                }
                let pid = process.processIdentifier
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    guard !exited.withLockedValue({ $0 }) else { return }
                    timedOut.withLockedValue { $0 = true }
                    kill(pid, SIGKILL)
                }
            }
        } onCancel: {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        try Task.checkCancellation()
        try? out.synchronize()
        try? err.synchronize()
        let stdout = (try? Data(contentsOf: outURL)) ?? Data()
        let stderr = (try? Data(contentsOf: errURL)) ?? Data()
        return ChildProcessResult(
            status: process.terminationStatus, timedOut: timedOut.withLockedValue { $0 },
            signaled: process.terminationReason == .uncaughtSignal, stdout: stdout, stderr: stderr)
    }

    /// The full path of `name` on `PATH`, or nil.
    public static func which(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
