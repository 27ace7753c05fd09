import Foundation

/// AutoDetail's side of the shared `ServerProcess`: AutoDetail Hub only, with the fixed JWT secret and admin
/// password, and its HTTP test client.
extension ServerProcess {
    var client: HTTPTestClient { HTTPTestClient(baseURL: baseURL) }

    static func environment(_ database: TestDatabase, _ overrides: [String: String] = [:]) -> [String: String] {
        environment(
            base: [
                "JWT_SECRET": TestEnvironment.jwtSecret, "APPS": "autodetail",
                "ADMIN_PASSWORD": TestEnvironment.adminPassword,
            ], database, overrides)
    }
}

/// Runs `body` with a fresh test database for `server` processes started with AutoDetail's environment.
func withServerDatabase<T>(_ body: (TestDatabase, ServerGroup) async throws -> T) async throws -> T {
    try await ServerTestSupport.withServerDatabase(environment: { ServerProcess.environment($0, $1) }, body)
}
