import Foundation
import Testing
@testable import ObjectStorage

/// The fixtures produced by `Fixtures/make_vectors.py` (botocore, frozen clock, fixed credentials).
struct BotocoreVectors: Decodable {
    struct Field: Decodable, Equatable {
        var name: String
        var value: String
    }

    struct Vector: Decodable, CustomTestStringConvertible {
        var name: String
        var kind: String
        var local: Bool?
        var signing_time: String
        var region: String
        var session_token: String?
        // post
        var bucket: String?
        var key: String?
        var url: String?
        var fields: [Field]?
        var policy_json: String?
        var content_length_range: [Int64]?
        var valid_size: Int64?
        // query
        var method: String?
        var scheme: String?
        var host: String?
        var path: String?
        var raw_query: String?
        var expires_in: Int?
        var overrides: [String: String]?
        var headers: [String: String]?
        var canonical_request: String?
        var string_to_sign: String?
        var signature: String?
        // header
        var request_headers: [String: String]?
        var payload_hash: String?
        var signed_headers: [String: String]?
        var authorization: String?

        var signingDate: Date { AmzDate.parseISO8601(signing_time)! }
        var testDescription: String { name }
    }

    var botocore_version: String
    var access_key_id: String
    var secret_access_key: String
    var vectors: [Vector]

    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let shared: BotocoreVectors = {
        let url = fixturesDirectory.appendingPathComponent("botocore_vectors.json")
        do {
            return try JSONDecoder().decode(BotocoreVectors.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error) — run Fixtures/make_vectors.py")
        }
    }()

    static func of(kind: String) -> [Vector] { shared.vectors.filter { $0.kind == kind } }

    func credentials(sessionToken: String? = nil) -> SigV4Credentials {
        SigV4Credentials(accessKeyID: access_key_id, secretAccessKey: secret_access_key, sessionToken: sessionToken)
    }
}
