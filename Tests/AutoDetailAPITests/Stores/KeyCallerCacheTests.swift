import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing
import VaporTesting

/// The key-check cache: at most one second old, cleared by every change in this process, never storing an answer
/// read before a change.
@Suite struct KeyCallerCacheTests {
    static let caller = KeyCaller(keyID: UUID(), kind: .org, fullAccess: false, installID: nil)

    @Test func entriesExpireAfterTheirTimeToLive() async throws {
        let cache = KeyCallerCache(timeToLive: .milliseconds(50))
        cache.remember(Self.caller, forHash: "h", lookedUpAt: cache.generation)
        #expect(cache.caller(forHash: "h")?.keyID == Self.caller.keyID)
        try await Task.sleep(for: .milliseconds(80))
        #expect(cache.caller(forHash: "h") == nil)
    }

    @Test func timeToLiveIsCappedAtOneSecond() {
        #expect(KeyCallerCache(timeToLive: .seconds(30)).timeToLive == .seconds(1))
    }

    @Test func anAnswerReadBeforeAnInvalidationIsNotStored() {
        let cache = KeyCallerCache()
        let generation = cache.generation
        cache.invalidateAll()
        cache.remember(Self.caller, forHash: "h", lookedUpAt: generation)
        #expect(cache.caller(forHash: "h") == nil)
    }

    /// In-process revocation and blocking apply from the next request, even right after the key was cached.
    @Test func revokingOrBlockingInThisProcessAppliesToTheNextRequest() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let admin = try await app.adminToken()
            let org = try await app.newOrgKey()
            #expect(try await app.get("/api/client/appointments", key: org.key).status == .ok)  // now cached
            #expect(try await app.delete("/api/admin/api-keys/\(org.id)", bearer: admin).status == .noContent)
            expectError(try await app.get("/api/client/appointments", key: org.key), .unauthorized, "Invalid API key")

            let install = try await app.newInstall()
            #expect(try await app.get("/api/ios/profile", key: install.key).status == .ok)  // now cached
            #expect(try await app.put("/api/admin/ios-users/\(install.id)/priority", bearer: admin, ["priority": "blocked"])
                .status == .ok)
            expectError(try await app.get("/api/ios/profile", key: install.key), .forbidden,
                        "This app installation has been blocked")
            #expect(try await app.put("/api/admin/ios-users/\(install.id)/priority", bearer: admin, ["priority": "normal"])
                .status == .ok)
            #expect(try await app.get("/api/ios/profile", key: install.key).status == .ok)
            #expect(try await app.delete("/api/admin/ios-users/\(install.id)", bearer: admin).status == .noContent)
            expectError(try await app.get("/api/ios/profile", key: install.key), .unauthorized, "Invalid API key")
        }
    }
}
