import Foundation

/// Runs the fixture scripts with the system's `python3`; used only where botocore must recompute something.
enum PythonBotocore {
    /// True when `python3` exists and can import botocore; locally the tests skip with a message. `.ci/run`
    /// installs the tools and sets `REQUIRE_PYTHON_TOOLS=1`, which makes this true regardless, so that a missing
    /// tool fails the run instead of silently skipping the cross-checks.
    static let isAvailable: Bool = {
        if requiredByCI { return true }
        return (try? run(["-c", "import botocore"]).status) == 0
    }()

    static var requiredByCI: Bool { ProcessInfo.processInfo.environment["REQUIRE_PYTHON_TOOLS"] == "1" }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
