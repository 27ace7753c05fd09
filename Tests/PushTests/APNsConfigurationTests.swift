import Crypto
import Foundation
import Testing

@testable import Push

@Suite struct APNsConfigurationTests {
    static func keyFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString).p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func offWithoutConfiguration() throws {
        #expect(try APNsConfiguration.fromEnvironment([:]) == nil)
        #expect(try APNsConfiguration.fromEnvironment(["APNS_ENVIRONMENT": "production"]) == nil)
    }

    @Test func readsTheConfigurationAndPicksTheHost() throws {
        let key = try Self.keyFile()
        defer { try? FileManager.default.removeItem(atPath: key) }
        let base = ["APNS_KEY_PATH": key, "APNS_KEY_ID": "K", "APNS_TEAM_ID": "T", "APNS_TOPIC": "com.helppet.app"]
        let sandbox = try #require(try APNsConfiguration.fromEnvironment(base))
        #expect(sandbox.baseURL == "https://api.sandbox.push.apple.com")
        #expect(sandbox.keyID == "K" && sandbox.teamID == "T" && sandbox.topic == "com.helppet.app")
        var production = base
        production["APNS_ENVIRONMENT"] = "production"
        #expect(try APNsConfiguration.fromEnvironment(production)?.baseURL == "https://api.push.apple.com")
        var local = base
        local["APNS_BASE_URL"] = "https://127.0.0.1:8443/"
        #expect(try APNsConfiguration.fromEnvironment(local)?.baseURL == "https://127.0.0.1:8443")
    }

    @Test func refusesPartialOrBrokenConfiguration() throws {
        let key = try Self.keyFile()
        defer { try? FileManager.default.removeItem(atPath: key) }
        let base = ["APNS_KEY_PATH": key, "APNS_KEY_ID": "K", "APNS_TEAM_ID": "T", "APNS_TOPIC": "com.helppet.app"]
        var cases: [[String: String]] = []
        var missing = base
        missing["APNS_TEAM_ID"] = nil
        cases.append(missing)
        cases.append(base.merging(["APNS_ENVIRONMENT": "staging"]) { $1 })
        cases.append(base.merging(["APNS_BASE_URL": "http://127.0.0.1:8443"]) { $1 })
        cases.append(base.merging(["APNS_KEY_PATH": "/nonexistent/key.p8"]) { $1 })
        cases.append(base.merging(["APNS_TLS_CA_FILE": "/nonexistent/ca.pem"]) { $1 })
        let notAKey = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString).p8").path
        try "not a key".write(toFile: notAKey, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: notAKey) }
        cases.append(base.merging(["APNS_KEY_PATH": notAKey]) { $1 })
        for env in cases {
            #expect(throws: APNsConfiguration.Invalid.self) { try APNsConfiguration.fromEnvironment(env) }
        }
    }
}
