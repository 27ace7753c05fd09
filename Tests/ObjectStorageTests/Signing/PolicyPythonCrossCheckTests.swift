import Foundation
import Testing
@testable import ObjectStorage

/// Swift's own POST policies, checked by botocore: `Fixtures/verify_policy.py` recomputes the signature with
/// botocore's signer over the exact bytes Swift produced and checks the decoded policy covers every field.
@Suite(.enabled(if: PythonBotocore.isAvailable, "python3 with botocore is required (pip install botocore); .ci/run installs it"))
struct PolicyPythonCrossCheckTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var region: String
        var sessionToken: String?
        var bucket: String
        var key: String
        var contentType: String
        var range: ClosedRange<Int64>
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "contract-default", region: "us-east-1", bucket: "helppetai-visit-recordings",
             key: "visit-recordings/2025/01/15/pet-d3000000-0000-4000-8000-000000000001/6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3-1.m4a",
             contentType: "audio/m4a", range: 1...104_857_600),
        Case(name: "session-token", region: "eu-central-1", sessionToken: "FwoGZXIvYXdzEJr//////////wEaDFake+/==",
             bucket: "helppet-prod", key: "visit-recordings/a.wav", contentType: "audio/wav", range: 1...5),
        Case(name: "json-escaping", region: "ap-southeast-2", bucket: "odd-bucket",
             key: "photos/\"quoted\" \u{00dc}n\u{00ef}c\u{00f6}de \\ tab\tline\u{2028}end \u{1F436}.jpg",
             contentType: "image/jpeg; charset=\"x\"", range: 0...0),
    ]

    @Test(arguments: cases)
    func botocoreRecomputesSwiftSignature(_ testCase: Case) throws {
        let credentials = SigV4Credentials(
            accessKeyID: "HPLOCALDEMOKEY000001", secretAccessKey: "hpDemoSecret/Key+With=Symbols0123456789ab",
            sessionToken: testCase.sessionToken)
        let post = PostPolicySigner(credentials: credentials, region: testCase.region).presign(
            url: "https://example.invalid/", bucket: testCase.bucket, key: testCase.key, contentType: testCase.contentType,
            contentLength: testCase.range, date: AmzDate.parseISO8601("2025-01-15T17:12:04Z")!)

        let request: [String: Any] = [
            "secret_access_key": credentials.secretAccessKey, "bucket": testCase.bucket, "fields": post.fieldMap,
        ]
        let directory = TemporaryDirectory("policy-check")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("request.json")
        try JSONSerialization.data(withJSONObject: request).write(to: file)

        let script = BotocoreVectors.fixturesDirectory.appendingPathComponent("verify_policy.py").path
        let output = try PythonBotocore.run([script, file.path])
        #expect(output.status == 0, "verify_policy.py: \(output.stdout) \(output.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(result["signature"] as? String == post.value(of: "x-amz-signature"))
        #expect(result["matches"] as? Bool == true)
        #expect((result["problems"] as? [String])?.isEmpty == true)

        // Python's JSON parser reads back exactly the key, type and range Swift meant.
        let policy = try #require(result["policy"] as? [String: Any])
        let conditions = try #require(policy["conditions"] as? [Any])
        #expect((conditions[0] as? [String: String])?["bucket"] == testCase.bucket)
        #expect((conditions[1] as? [String: String])?["key"] == testCase.key)
        #expect((conditions[2] as? [String: String])?["Content-Type"] == testCase.contentType)
        let range = try #require(conditions[3] as? [Any])
        #expect(range[0] as? String == "content-length-range")
        #expect((range[1] as? NSNumber)?.int64Value == testCase.range.lowerBound)
        #expect((range[2] as? NSNumber)?.int64Value == testCase.range.upperBound)
        #expect(policy["expiration"] as? String == "2025-01-15T18:12:04Z")
        #expect(conditions.count == (testCase.sessionToken == nil ? 7 : 8))
    }

    /// The policy is exactly the contract's shape (§7.3): compact JSON, conditions in the contract's order.
    @Test func policyBytesHaveTheContractShape() throws {
        let post = PostPolicySigner(
            credentials: SigV4Credentials(accessKeyID: "HPLOCALDEMOKEY000001", secretAccessKey: "secret"), region: "us-east-1"
        ).presign(url: "http://localhost:8080/storage/helppetai-visit-recordings/", bucket: "helppetai-visit-recordings",
                  key: "visit-recordings/2025/01/15/pet-d3000000-0000-4000-8000-000000000001/6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3-1.m4a",
                  contentType: "audio/m4a", contentLength: 1...104_857_600, date: AmzDate.parseISO8601("2025-01-15T17:12:04Z")!)
        let json = String(decoding: Data(base64Encoded: post.value(of: "policy")!)!, as: UTF8.self)
        #expect(json == #"{"expiration":"2025-01-15T18:12:04Z","conditions":[{"bucket":"helppetai-visit-recordings"},{"key":"visit-recordings/2025/01/15/pet-d3000000-0000-4000-8000-000000000001/6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3-1.m4a"},{"Content-Type":"audio/m4a"},["content-length-range",1,104857600],{"x-amz-algorithm":"AWS4-HMAC-SHA256"},{"x-amz-credential":"HPLOCALDEMOKEY000001/20250115/us-east-1/s3/aws4_request"},{"x-amz-date":"20250115T171204Z"}]}"#)
        // The contract's example `upload_fields.policy` starts with these bytes.
        #expect(post.value(of: "policy")!.hasPrefix("eyJleHBpcmF0aW9uIjoiMjAyNS0wMS0xNVQxODoxMjowNFoiLCJjb25kaXRp"))
        #expect(post.fields.map(\.name) == ["key", "Content-Type", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "policy", "x-amz-signature"])
    }
}
