import ArgumentParser
import CLISupport
import Foundation
import HelpPetKit

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in and keep the token in the config folder (mode 0600).")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "User name (prompted for when missing).")
    var username: String?

    @Flag(name: .long, help: "Read the password from the first line of stdin instead of prompting (no echo).")
    var passwordStdin = false

    func run() async throws {
        guard let username = username ?? Terminal.prompt("Username: "), !username.isEmpty else {
            throw ValidationError("No username: pass --username NAME (no terminal to prompt on)")
        }
        let password: String
        if passwordStdin {
            guard let line = readLine(strippingNewline: true) else { throw ValidationError("--password-stdin: stdin is empty") }
            password = line
        } else {
            guard let secret = Terminal.readSecret("Password for \(username): ") else {
                throw ValidationError("No terminal to prompt for the password: use --password-stdin")
            }
            password = secret
        }
        let client = global.makeClient()
        let login = try await client.login(username: username, password: password)
        let user = try await client.me()
        if global.json {
            try global.printJSON(LoginOutput(server: global.serverURL, tokenType: login.tokenType, expiresIn: login.expiresIn, user: user))
        } else {
            Terminal.out("Logged in to \(global.serverURL) as \(user.username) (\(user.fullName), \(user.role.rawValue)).")
        }
    }

    struct LoginOutput: Encodable {
        let server: String
        let tokenType: String
        let expiresIn: Int?
        let user: User

        enum CodingKeys: String, CodingKey {
            case server, user
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Forget the token of this server.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.makeClient().logout()
        if global.json {
            try global.printJSON(["server": global.serverURL, "status": "logged_out"])
        } else {
            Terminal.out("Logged out of \(global.serverURL).")
        }
    }
}

struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the logged-in user.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let user = try await global.makeClient().me()
        if global.json { return try global.printJSON(user) }
        Terminal.out(
            keyValues([
                ("Username", user.username), ("Name", user.fullName), ("Email", user.email), ("Role", user.role.rawValue),
                ("Practice", user.practiceId ?? "-"), ("Active", user.isActive ? "yes" : "no"), ("Id", user.id),
                ("Server", global.serverURL),
            ]))
    }
}
