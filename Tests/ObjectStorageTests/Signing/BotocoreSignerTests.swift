import Foundation
import Testing
import Vapor
@testable import ObjectStorage

/// The Swift signers reproduce botocore's output for every committed vector: the same canonical request, string
/// to sign and signature, over botocore's exact policy strings and URL/header forms.
@Suite struct BotocoreSignerTests {
    let vectors = BotocoreVectors.shared
    static let authFields: Set<String> = ["x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-security-token"]

    @Test func fixturesArePresent() {
        #expect(BotocoreVectors.of(kind: "post").count >= 4)
        #expect(BotocoreVectors.of(kind: "query").count >= 7)
        #expect(BotocoreVectors.of(kind: "header").count >= 5)
    }

    @Test(arguments: BotocoreVectors.of(kind: "post"))
    func postSignatureOverBotocorePolicy(_ vector: BotocoreVectors.Vector) throws {
        let fields = Dictionary(uniqueKeysWithValues: vector.fields!.map { ($0.name, $0.value) })
        let (_, scope) = try #require(SigV4Scope.parseCredential(fields["x-amz-credential"]!))
        let key = SigV4.signingKey(secretAccessKey: vectors.secret_access_key, scope: scope)
        #expect(SigV4.signature(of: fields["policy"]!, signingKey: key) == fields["x-amz-signature"])
        // botocore's base64 is standard base64 (with padding) of the UTF-8 policy JSON.
        #expect(fields["policy"] == Data(vector.policy_json!.utf8).base64EncodedString())
    }

    /// Swift's policy for the same conditions (in botocore's order) is the same JSON document, and every field
    /// except `policy`/`x-amz-signature` (which depend on JSON whitespace) is identical.
    @Test(arguments: BotocoreVectors.of(kind: "post"))
    func postPolicyMatchesBotocoreSemantically(_ vector: BotocoreVectors.Vector) throws {
        let botocorePolicy = try #require(
            try JSONSerialization.jsonObject(with: Data(vector.policy_json!.utf8)) as? [String: Any])
        let conditions = try #require(botocorePolicy["conditions"] as? [Any])
        var swiftConditions: [PostPolicyCondition] = []
        for condition in conditions {
            if let object = condition as? [String: String], let (field, value) = object.first {
                if Self.authFields.contains(field) { continue }  // added by the signer itself
                swiftConditions.append(.equals(field: field, value: value))
            } else if let list = condition as? [Any], let op = list.first as? String {
                if op == "content-length-range" {
                    swiftConditions.append(.contentLengthRange(min: (list[1] as! NSNumber).int64Value, max: (list[2] as! NSNumber).int64Value))
                } else {
                    swiftConditions.append(.startsWith(field: String((list[1] as! String).dropFirst()), prefix: list[2] as! String))
                }
            }
        }
        let clientFields = vector.fields!.filter { !Self.authFields.contains($0.name) && $0.name != "policy" && $0.name != "x-amz-signature" }
            .map { PresignedPost.Field(name: $0.name, value: $0.value) }
        let signer = PostPolicySigner(credentials: vectors.credentials(sessionToken: vector.session_token), region: vector.region)
        let post = signer.sign(url: vector.url!, conditions: swiftConditions, fields: clientFields, expiresIn: 3600, date: vector.signingDate)

        let swiftPolicy = try #require(
            try JSONSerialization.jsonObject(with: Data(base64Encoded: post.value(of: "policy")!)!) as? NSDictionary)
        #expect(swiftPolicy == botocorePolicy as NSDictionary)
        let ignored: Set<String> = ["policy", "x-amz-signature"]
        let swiftFields = Set(post.fields.filter { !ignored.contains($0.name) }.map { "\($0.name)=\($0.value)" })
        let botoFields = Set(vector.fields!.filter { !ignored.contains($0.name) }.map { "\($0.name)=\($0.value)" })
        #expect(swiftFields == botoFields)
    }

    @Test(arguments: BotocoreVectors.of(kind: "query"))
    func presignedURLMatchesBotocore(_ vector: BotocoreVectors.Vector) throws {
        var parameters: [(name: String, value: String)] = []
        if let type = vector.overrides?["ResponseContentType"] { parameters.append(("response-content-type", type)) }
        if let disposition = vector.overrides?["ResponseContentDisposition"] {
            parameters.append(("response-content-disposition", disposition))
        }
        let headers = (vector.headers ?? [:]).map { (name: $0.key.lowercased(), value: $0.value) }
        let signed = PresignedURLSigner(credentials: vectors.credentials(sessionToken: vector.session_token), region: vector.region)
            .presign(method: vector.method!, scheme: vector.scheme!, host: vector.host!,
                     path: try #require(AWSURIEncoding.decode(vector.path!)), parameters: parameters,
                     signedHeaders: headers, expiresIn: vector.expires_in!, date: vector.signingDate)
        #expect(signed.canonicalRequest.text == vector.canonical_request)
        #expect(signed.stringToSign == vector.string_to_sign)
        #expect(signed.signature == vector.signature)

        // Same URL up to parameter order (botocore puts response-* first; Swift sorts them canonically).
        let swiftURL = try #require(URLComponents(string: signed.request.url))
        let botoURL = try #require(URLComponents(string: vector.url!))
        #expect(swiftURL.scheme == botoURL.scheme && swiftURL.percentEncodedHost == botoURL.percentEncodedHost)
        #expect(swiftURL.port == botoURL.port && swiftURL.percentEncodedPath == botoURL.percentEncodedPath)
        let swiftQuery = Set((swiftURL.percentEncodedQuery ?? "").split(separator: "&").map(String.init))
        let botoQuery = Set((botoURL.percentEncodedQuery ?? "").split(separator: "&").map(String.init))
        #expect(swiftQuery == botoQuery)
        #expect(signed.request.headers.count == headers.count)
    }

    @Test(arguments: BotocoreVectors.of(kind: "header"))
    func headerSignatureMatchesBotocore(_ vector: BotocoreVectors.Vector) throws {
        let signed = RequestHeaderSigner(credentials: vectors.credentials(sessionToken: vector.session_token), region: vector.region)
            .sign(method: vector.method!, host: vector.host!, path: try #require(AWSURIEncoding.decode(vector.path!)),
                  headers: (vector.request_headers ?? [:]).map { (name: $0.key, value: $0.value) },
                  payloadHash: vector.payload_hash!, date: vector.signingDate)
        #expect(signed.canonicalRequest.text == vector.canonical_request)
        #expect(signed.stringToSign == vector.string_to_sign)
        #expect(signed.authorization == vector.authorization)
        // Every header botocore added is added with the same value.
        let added = Dictionary(uniqueKeysWithValues: signed.addedHeaders.map { ($0.name.lowercased(), $0.value) })
        for (name, value) in vector.signed_headers! where !(vector.request_headers ?? [:]).keys.contains(name) {
            #expect(added[name.lowercased()] == value, "\(name)")
        }
    }
}
