import Foundation
import Testing
import VaporTesting

/// Shared steps of the onboarding suites: a signup as the app sends it.
enum Onboarding {
    static let signupPath = "/api/v1/auth/signup"
    static let joinPath = "/api/v1/auth/me/practice"

    static func body(_ username: String, role: String? = "VET_STAFF") -> [String: Any?] {
        var body: [String: Any?] = [
            "username": username, "password": "long-enough-pw", "email": "\(username)@example.com",
            "full_name": "New \(username)",
        ]
        if let role { body["role"] = role }
        return body
    }

    /// Signs up and answers the new user's id and token.
    static func signUp(_ app: Application, _ username: String, role: String? = "VET_STAFF") async throws
        -> (id: String, token: String)
    {
        let response = try await app.post(signupPath, json: body(username, role: role))
        #expect(response.status == .created, "\(response)")
        let id = try #require(response.json["id"].string)
        let token = try #require(response.json["access_token"].string)
        return (id, token)
    }
}
