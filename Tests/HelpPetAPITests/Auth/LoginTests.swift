import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /api/v1/auth/token` success paths (contract §4.1, §2.1).
@Suite struct LoginTests {
    @Test func jsonLoginReturnsABearerToken() async throws {
        try await withTestApp { app in
            let response = try await app.post(
                "/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(response.status == .ok)
            #expect(response.json.keys == ["access_token", "token_type", "expires_in"])
            #expect(response.json["token_type"].string == "bearer")
            #expect(response.json["expires_in"].int == 28_800)
            let token = try #require(response.json["access_token"].string)
            let me = try await app.get("/api/v1/auth/me", token: token)
            #expect(me.status == .ok)
            #expect(me.json["username"].string == "vet1")
        }
    }

    @Test func formLoginIsAccepted() async throws {
        try await withTestApp { app in
            let body = Body.form([("grant_type", "password"), ("username", "vet1"), ("password", "password123"),
                                  ("scope", ""), ("client_id", "ios"), ("client_secret", "x")])
            let response = try await app.sendRaw(
                .POST, "/api/v1/auth/token", body: body, contentType: .urlEncodedForm)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["token_type"].string == "bearer")
        }
    }

    @Test func formValuesArePercentDecodedAndPlusIsASpace() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let created = try await app.post("/api/v1/users", token: admin, json: [
                "username": "form.user", "password": "p@ss word+1%", "email": "form.user@example.com",
                "full_name": "Form User", "role": "ADMIN",
            ])
            #expect(created.status == .created, "\(created)")
            // `+` is a space and `%2B` a plus sign.
            let body = "username=form.user&password=p%40ss+word%2B1%25"
            let response = try await app.sendRaw(.POST, "/api/v1/auth/token", body: body, contentType: .urlEncodedForm)
            #expect(response.status == .ok, "\(response)")
        }
    }

    @Test func jsonWithCharsetParameterIsAccepted() async throws {
        try await withTestApp { app in
            let response = try await app.sendRaw(
                .POST, "/api/v1/auth/token", body: #"{"username":"vet1","password":"password123"}"#,
                contentType: HTTPMediaType(type: "application", subType: "json", parameters: ["charset": "utf-8"]))
            #expect(response.status == .ok, "\(response)")
        }
    }

    @Test func usernameIsTrimmedAndMatchedCaseInsensitively() async throws {
        try await withTestApp { app in
            let response = try await app.post(
                "/api/v1/auth/token", json: ["username": "  VeT1 ", "password": "password123"])
            #expect(response.status == .ok, "\(response)")
            let token = try #require(response.json["access_token"].string)
            let me = try await app.get("/api/v1/auth/me", token: token)
            #expect(me.json["id"].string == Demo.vet1.id.uuidString.lowercased())
        }
    }

    @Test func passwordIsNotTrimmed() async throws {
        try await withTestApp { app in
            let response = try await app.post(
                "/api/v1/auth/token", json: ["username": "vet1", "password": " password123 "])
            expectError(response, .unauthorized, "Incorrect username or password")
        }
    }

    @Test func grantTypePasswordAndIgnoredFieldsAreAccepted() async throws {
        try await withTestApp { app in
            let response = try await app.post("/api/v1/auth/token", json: [
                "username": "vet1", "password": "password123", "grant_type": "password", "scope": "anything",
                "client_id": "x", "client_secret": "y", "unknown_key": [1, 2, 3],
            ])
            #expect(response.status == .ok, "\(response)")
        }
    }

    @Test func tokenIsHS256WithSubIatVersionAndEightHourExpiry() async throws {
        try await withTestApp { app in
            let token = try await app.login(Demo.vet1)
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            try #require(parts.count == 3)
            let header = try JSONNode(data: try #require(base64URLDecode(String(parts[0]))))
            let payload = try JSONNode(data: try #require(base64URLDecode(String(parts[1]))))
            #expect(header["alg"].string == "HS256")
            #expect(header["typ"].string == "JWT")
            #expect(payload.keys == ["sub", "iat", "exp", "ver"])
            #expect(payload["ver"].int == 0)
            #expect(payload["sub"].string == Demo.vet1.id.uuidString.lowercased())
            let iat = try #require(payload["iat"].int)
            #expect(payload["exp"].int == iat + 28_800)
            #expect(abs(Double(iat) - Date().timeIntervalSince1970) < 60)
        }
    }

    @Test func everyDemoUserCanLogIn() async throws {
        try await withTestApp { app in
            for user in [Demo.admin, Demo.vet1, Demo.vet2, Demo.owner1] {
                let token = try await app.login(user)
                let me = try await app.get("/api/v1/auth/me", token: token)
                #expect(me.json["username"].string == user.username)
            }
        }
    }
}

func base64URLDecode(_ text: String) -> Data? {
    var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while s.count % 4 != 0 { s += "=" }
    return Data(base64Encoded: s)
}
