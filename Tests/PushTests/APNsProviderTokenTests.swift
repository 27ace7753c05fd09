import Crypto
import Foundation
import Testing

@testable import Push

@Suite struct APNsProviderTokenTests {
    static func configuration(key: P256.Signing.PrivateKey) -> APNsConfiguration {
        APNsConfiguration(privateKeyPEM: key.pemRepresentation, keyID: "KEY123ABCD", teamID: "TEAM456XYZ", topic: "com.helppet.app")
    }

    static func decode(_ part: Substring) throws -> Data {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return try #require(Data(base64Encoded: text))
    }

    @Test func signsAnES256TokenThePublicKeyVerifies() throws {
        let key = P256.Signing.PrivateKey()
        let signer = try APNsProviderToken.Signer(configuration: Self.configuration(key: key))
        let token = try signer.token(issuedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
        let header = try JSONSerialization.jsonObject(with: Self.decode(parts[0])) as? [String: String]
        #expect(header == ["alg": "ES256", "kid": "KEY123ABCD"])
        let claims = try JSONSerialization.jsonObject(with: Self.decode(parts[1])) as? [String: Any]
        #expect(claims?["iss"] as? String == "TEAM456XYZ")
        #expect(claims?["iat"] as? Int == 1_800_000_000)
        #expect(claims?.count == 2)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.decode(parts[2]))
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        #expect(key.publicKey.isValidSignature(signature, for: signed))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: signed))
    }

    @Test func readsAPKCS8PEMKey() throws {
        let key = P256.Signing.PrivateKey()
        #expect(key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let signer = try APNsProviderToken.Signer(configuration: Self.configuration(key: key))
        #expect(signer.key.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        var broken = Self.configuration(key: key)
        broken.privateKeyPEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        #expect(throws: (any Error).self) { try APNsProviderToken.Signer(configuration: broken) }
    }

    final class TestClock: @unchecked Sendable {
        let lock = NSLock()
        var instant = Date(timeIntervalSince1970: 1_800_000_000)
        func now() -> Date { lock.withLock { instant } }
        func advance(_ seconds: TimeInterval) { lock.withLock { instant += seconds } }
    }

    @Test func reusesTheTokenAndRenewsItBeforeTheHour() async throws {
        let clock = TestClock()
        let signer = try APNsProviderToken.Signer(configuration: Self.configuration(key: P256.Signing.PrivateKey()))
        let provider = APNsProviderToken(signer: signer, now: { clock.now() })
        let first = try await provider.token()
        clock.advance(49 * 60)
        #expect(try await provider.token() == first)
        clock.advance(60)
        let renewed = try await provider.token()
        #expect(renewed != first)
        await provider.invalidate(first)
        #expect(try await provider.token() == renewed)
        clock.advance(1)
        await provider.invalidate(renewed)
        #expect(try await provider.token() != renewed)
    }
}
