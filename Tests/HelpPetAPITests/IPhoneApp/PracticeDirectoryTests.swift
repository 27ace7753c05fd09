import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /practices/?active_only=true&accepting_patients=…` without a token: the onboarding's practice search.
@Suite struct PracticeDirectoryTests {
    static let search = "/api/v1/practices/?active_only=true&accepting_patients=false"

    /// Two more practices: an inactive one and one that does not accept new patients.
    static func addPractices(_ app: Application) async throws {
        let admin = try await app.token(for: Demo.admin)
        for body: [String: Any?] in [
            ["name": "Closed Clinic", "timezone": "UTC", "is_active": false, "phone": "555-0000"],
            ["name": "Full Clinic", "timezone": "UTC", "accepts_new_patients": false, "email": "full@example.com"],
        ] {
            let response = try await app.post("/api/v1/practices", token: admin, json: body)
            #expect(response.status == .created, "\(response)")
        }
    }

    @Test(arguments: ClientKind.allCases)
    func withoutATokenOnlyTheDirectoryOfActivePracticesIsShown(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            try await Self.addPractices(app)
            let client = AppClient(app: app, token: nil, kind: kind)
            let response = try await client.raw(.GET, Self.search)
            #expect(response.status == .ok, "\(response)")
            let items = try #require(try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]])
            #expect(items.compactMap { $0["name"] as? String } == ["Full Clinic", "HelpPet Demo Clinic"])
            for item in items {
                #expect(Set(item.keys) == ["id", "uuid", "name", "address", "phone", "email"])
                // What searchPractices reads: `uuid` and `name` as strings.
                #expect(item["uuid"] as? String == item["id"] as? String)
            }
            let accepting = try await client.raw(.GET, "/api/v1/practices/?active_only=true&accepting_patients=true")
            #expect(accepting.json.array?.compactMap { $0["name"].string } == ["HelpPet Demo Clinic"])
        }
    }

    @Test func withATokenTheListIsAsBefore() async throws {
        try await withTestApp { app in
            try await Self.addPractices(app)
            let admin = try await app.get(Self.search, token: try await app.token(for: Demo.admin))
            #expect(admin.status == .ok)
            #expect(admin.json.array?.count == 3, "the authenticated list keeps its filters (is_active), not the directory's")
            #expect(admin.json.array?.first?["timezone"].string != nil)
            let vet = try await AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: .legacy)
                .get(Self.search, as: [App.Practice].self)
            #expect(vet.map(\.id) == [Demo.practiceID.lowercased])
            expectError(try await app.get(Self.search, token: "garbage"), .unauthorized, "Could not validate credentials")
        }
    }

    @Test func theDirectoryIsRateLimitedPerClient() async throws {
        try await withTestApp { app in
            for _ in 0..<60 {
                let allowed = try await app.get(Self.search)
                #expect(allowed.status == .ok)
            }
            let refused = try await app.get(Self.search)
            #expect(refused.status == .tooManyRequests, "\(refused)")
            #expect(refused.headers.first(name: "Retry-After").flatMap(Int.init) != nil)
            // Authenticated lists are not counted against the directory's limit.
            #expect(try await app.get(Self.search, token: try await app.token(for: Demo.vet1)).status == .ok)
        }
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "true"]) { app in
            for _ in 0..<61 {
                let allowed = try await app.get(Self.search)
                #expect(allowed.status == .ok)
            }
        }
    }
}
