import AppCore
import Foundation
import Testing
import VaporTesting

/// The phone-receptionist service's routes the app calls (call analysis, a practice's voice agent) are not served:
/// 404 before authentication, with a detail that says so.
@Suite struct PhoneServiceRoutesTests {
    static let detail =
        "Not Found: call analysis and the voice agent belong to the phone-receptionist service, which this server does not provide"

    @Test func theAppsPhoneServiceCallsAnswer404WithAClearDetail() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            let practice = Demo.practiceID.lowercased
            let calls: [(HTTPMethod, String)] = [
                (.GET, "/api/v1/call-analysis/practice/\(practice)/calls?limit=20&offset=0"),
                (.GET, "/api/v1/call-analysis/practice/\(practice)/calls/call_123"),
                (.GET, "/api/v1/practices/\(practice)/voice-agent"),
                (.POST, "/api/v1/practices/\(practice)/voice-agent"),
                (.GET, "/api/v1/practices/\(practice)/voice-agent/node/Welcome%20Node/message"),
                (.PATCH, "/api/v1/practices/\(practice)/voice-agent/node/Welcome%20Node/message"),
            ]
            for (method, path) in calls {
                for credential in [token, nil, "garbage"] {
                    let response = try await app.send(method, path, token: credential, body: "{}", contentType: .json)
                    expectError(response, .notFound, Self.detail)
                }
            }
            // Neighbouring routes are untouched.
            #expect(try await app.get("/api/v1/practices/\(practice)", token: token).status == .ok)
            UnknownRouteTests.expectNotFound(try await app.get("/api/v1/practices/\(practice)/voice", token: token))
        }
    }
}
