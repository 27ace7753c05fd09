import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `main` of both CLIs: parses (global options may come first), runs, prints errors, and exits with the
/// documented codes: 0 success, 1 API or runtime error (message on stderr), 2 usage error.
package enum CommandLineMain {
    /// Runs `Root` with the process's arguments and exits. `describeAPIError` renders the kit's own error type (nil
    /// for any other error), with what to run next where the answer is obvious. Runs on the caller's actor (the
    /// main actor), as ArgumentParser's own `main` does.
    package static func run<Root: ParsableCommand>(
        _ root: Root.Type, isolation: isolated (any Actor)? = #isolation,
        describeAPIError: @Sendable (any Error) -> String?
    ) async -> Never {
        let status: Int32
        do {
            var command = try Root.parseAsRoot(hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            status = 0
        } catch let error as CLIFailure {
            Terminal.error(error.message)
            status = 1
        } catch let error as ExitCode {
            status = error.rawValue
        } catch {
            if let message = describeAPIError(error) {
                Terminal.error(message)
                status = 1
            } else if Root.exitCode(for: error) == .success {
                print(Root.fullMessage(for: error))  // --help, --version
                status = 0
            } else {
                Terminal.note(Root.fullMessage(for: error))
                status = 2
            }
        }
        Terminal.flush()
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }

    /// Lets the global options come before the subcommand (`helppet --json today`, `autodetail --server URL
    /// services`): the options that precede the first subcommand word are moved to the end (before a `--`, if
    /// any), where every subcommand accepts them.
    package static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--json" || argument.hasPrefix("--server=") {
                leading.append(argument)
                index += 1
            } else if argument == "--server", index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        var rest = Array(arguments[index...])
        if let separator = rest.firstIndex(of: "--") {
            rest.insert(contentsOf: leading, at: separator)
        } else {
            rest += leading
        }
        return rest
    }
}
