import AppCore
import Foundation
import Testing
import VaporTesting

/// Every 400 of `POST /api/v1/auth/token` (contract §4.1, §1.3).
@Suite struct LoginValidationTests {
    static let contentTypeDetail = "Content-Type must be application/x-www-form-urlencoded or application/json"

    @Test(arguments: [
        HTTPMediaType.plainText, HTTPMediaType(type: "multipart", subType: "form-data", parameters: ["boundary": "x"]),
        HTTPMediaType.xml,
    ])
    func otherContentTypesAreRefused(_ type: HTTPMediaType) async throws {
        try await withTestApp { app in
            let response = try await app.sendRaw(
                .POST, "/api/v1/auth/token", body: "username=vet1&password=password123", contentType: type)
            expectError(response, .badRequest, Self.contentTypeDetail)
        }
    }

    @Test func missingContentTypeIsRefused() async throws {
        try await withTestApp { app in
            let response = try await app.sendRaw(
                .POST, "/api/v1/auth/token", body: #"{"username":"vet1","password":"password123"}"#, contentType: nil)
            expectError(response, .badRequest, Self.contentTypeDetail)
        }
    }

    @Test(arguments: [#"{"username": "vet1", "password": "#, "{", "not json", #"{"username":"vet1" "password":"x"}"#,
                      "{'username':'vet1'}"])
    func malformedJSONIsRefused(_ body: String) async throws {
        try await withTestApp { app in
            let response = try await app.sendRaw(.POST, "/api/v1/auth/token", body: body, contentType: .json)
            expectError(response, .badRequest, "Malformed JSON body")
        }
    }

    /// RFC 8259 has no trailing commas (Foundation's decoder tolerates them; the contract does not).
    @Test(arguments: [#"{"username":"vet1","password":"password123",}"#, #"{"username":["vet1",],"password":"x"}"#])
    func trailingCommaIsMalformedJSON(_ body: String) async throws {
        try await withTestApp { app in
            let response = try await app.sendRaw(.POST, "/api/v1/auth/token", body: body, contentType: .json)
            expectError(response, .badRequest, "Malformed JSON body")
        }
    }

    @Test func invalidUTF8IsMalformedJSON() async throws {
        try await withTestApp { app in
            var headers = HTTPHeaders()
            headers.contentType = .json
            var buffer = ByteBufferAllocator().buffer(capacity: 0)
            buffer.writeBytes(Array(#"{"username":""#.utf8) + [0xFF, 0xFE] + Array(#"","password":"x"}"#.utf8))
            let response = try await app.testing().performTest(request: TestingHTTPRequest(
                method: .POST, url: URI(string: "/api/v1/auth/token"), headers: headers, body: buffer))
            let data = Data(buffer: response.body)
            let parsed = TestResponse(status: response.status, headers: response.headers, body: data)
            expectError(parsed, .badRequest, "Malformed JSON body")
        }
    }

    @Test(arguments: ["[]", #""vet1""#, "42", "null", "true", #"[{"username":"vet1","password":"password123"}]"#])
    func nonObjectJSONIsRefused(_ body: String) async throws {
        try await withTestApp { app in
            let response = try await app.sendRaw(.POST, "/api/v1/auth/token", body: body, contentType: .json)
            expectError(response, .badRequest, "Request body must be a JSON object")
        }
    }

    @Test func emptyJSONBodyIsRefused() async throws {
        try await withTestApp { app in
            let response = try await app.sendRaw(.POST, "/api/v1/auth/token", body: "", contentType: .json)
            expectError(response, .badRequest, "Request body is required")
        }
    }

    @Test func usernameIsRequired() async throws {
        try await withTestApp { app in
            for body: [String: Any?] in [
                ["password": "password123"], ["username": "", "password": "password123"],
                ["username": "   ", "password": "password123"], ["username": nil, "password": "password123"], [:],
            ] {
                let response = try await app.post("/api/v1/auth/token", json: body)
                expectError(response, .badRequest, "username is required")
            }
        }
    }

    @Test func passwordIsRequired() async throws {
        try await withTestApp { app in
            for body: [String: Any?] in [["username": "vet1"], ["username": "vet1", "password": ""]] {
                let response = try await app.post("/api/v1/auth/token", json: body)
                expectError(response, .badRequest, "password is required")
            }
        }
    }

    @Test func formFieldsAreRequiredToo() async throws {
        try await withTestApp { app in
            let noUser = try await app.sendRaw(
                .POST, "/api/v1/auth/token", body: "password=password123", contentType: .urlEncodedForm)
            expectError(noUser, .badRequest, "username is required")
            let emptyPassword = try await app.sendRaw(
                .POST, "/api/v1/auth/token", body: "username=vet1&password=", contentType: .urlEncodedForm)
            expectError(emptyPassword, .badRequest, "password is required")
            let empty = try await app.sendRaw(.POST, "/api/v1/auth/token", body: "", contentType: .urlEncodedForm)
            expectError(empty, .badRequest, "username is required")
        }
    }

    @Test func credentialsMustBeStrings() async throws {
        try await withTestApp { app in
            for value: Any? in [5, true, ["vet1"], ["name": "vet1"] as [String: Any?], 1.5] {
                let badUser = try await app.post("/api/v1/auth/token", json: ["username": value, "password": "password123"])
                expectError(badUser, .badRequest, "username must be a string")
                let badPassword = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": value])
                expectError(badPassword, .badRequest, "password must be a string")
            }
        }
    }

    @Test func usernameIsCheckedBeforePassword() async throws {
        try await withTestApp { app in
            let response = try await app.post("/api/v1/auth/token", json: ["username": 5, "password": 5])
            expectError(response, .badRequest, "username must be a string")
        }
    }

    @Test func grantTypeMustBePassword() async throws {
        try await withTestApp { app in
            for grant: Any? in ["client_credentials", "PASSWORD", "", 1] {
                let response = try await app.post(
                    "/api/v1/auth/token", json: ["username": "vet1", "password": "password123", "grant_type": grant])
                expectError(response, .badRequest, "grant_type must be 'password'")
            }
            let form = try await app.sendRaw(
                .POST, "/api/v1/auth/token", body: "grant_type=refresh_token&username=vet1&password=password123",
                contentType: .urlEncodedForm)
            expectError(form, .badRequest, "grant_type must be 'password'")
        }
    }

    @Test func validationComesBeforeCredentials() async throws {
        try await withTestApp { app in
            // A wrong password with a bad grant type is a 400, not a 401, and does not count as a failure.
            for _ in 0..<6 {
                let response = try await app.post(
                    "/api/v1/auth/token", json: ["username": "vet1", "password": "wrong", "grant_type": "code"])
                expectError(response, .badRequest, "grant_type must be 'password'")
            }
            let ok = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(ok.status == .ok, "\(ok)")
        }
    }
}
