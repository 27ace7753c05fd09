import Foundation

/// Runs the fixture scripts with the system's `python3`; used only where botocore must recompute something.
enum PythonBotocore {
    /// True when `python3` exists and can import botocore (CI installs it; locally the tests skip with a message).
    static let isAvailable: Bool = {
        (try? run(["-c", "import botocore"]).status) == 0
    }()

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
