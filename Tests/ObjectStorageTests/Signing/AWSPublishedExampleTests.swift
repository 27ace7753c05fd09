import Crypto
import Foundation
import Testing
import Vapor
@testable import ObjectStorage

/// AWS's own published SigV4 examples (S3 API Reference, "Signature Calculations for the Authorization Header",
/// "Authenticating Requests: Using Query Parameters", "Example: Browser-Based Upload using HTTP POST").
@Suite struct AWSPublishedExampleTests {
    static let example = SigV4Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")

    @Test func signingKeyDerivation() {
        // "Examples of how to derive a signing key for Signature Version 4".
        let key = SigV4.signingKey(
            secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            scope: SigV4Scope(day: "20120215", region: "us-east-1", service: "iam"))
        let hex = key.withUnsafeBytes { Data($0).map { String(format: "%02x", $0) }.joined() }
        #expect(hex == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }

    @Test func presignedGetQueryExample() {
        let signed = PresignedURLSigner(credentials: Self.example, region: "us-east-1").presign(
            method: "GET", scheme: "https", host: "examplebucket.s3.amazonaws.com", path: "/test.txt",
            expiresIn: 86400, date: AmzDate.parseTimestamp("20130524T000000Z")!)
        #expect(SigV4.sha256Hex(signed.canonicalRequest.text) == "3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04")
        #expect(signed.signature == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        #expect(signed.request.url == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func presignedGetQueryExampleVerifies() throws {
        let verifier = SigV4Verifier(credentials: Self.example, region: "us-east-1") {
            AmzDate.parseTimestamp("20130524T010000Z")!
        }
        let query = QueryAuthRequest.parseQuery("X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")!
        let result = try verifier.verifyQuery(QueryAuthRequest(
            method: "GET", canonicalURI: "/test.txt", query: query,
            headers: HTTPHeaders([("Host", "examplebucket.s3.amazonaws.com")])))
        #expect(result.expiresIn == 86400)
    }

    @Test func headerSignedGetWithRangeExample() {
        let signed = RequestHeaderSigner(credentials: Self.example, region: "us-east-1").sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt",
            headers: [("Range", "bytes=0-9")], payloadHash: SigV4.emptyPayloadHash,
            date: AmzDate.parseTimestamp("20130524T000000Z")!)
        #expect(signed.canonicalRequest.text == """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        #expect(signed.signature == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(signed.authorization == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    /// The POST policy of AWS's browser-upload example, base64 exactly as published (CRLF line ends).
    static let postPolicy = "eyAiZXhwaXJhdGlvbiI6ICIyMDE1LTEyLTMwVDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW9ucyI6IFsNCiAgICB7ImJ1Y2tldCI6ICJzaWd2NGV4YW1wbGVidWNrZXQifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRrZXkiLCAidXNlci91c2VyMS8iXSwNCiAgICB7ImFjbCI6ICJwdWJsaWMtcmVhZCJ9LA0KICAgIHsic3VjY2Vzc19hY3Rpb25fcmVkaXJlY3QiOiAiaHR0cDovL3NpZ3Y0ZXhhbXBsZWJ1Y2tldC5zMy5hbWF6b25hd3MuY29tL3N1Y2Nlc3NmdWxfdXBsb2FkLmh0bWwifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRDb250ZW50LVR5cGUiLCAiaW1hZ2UvIl0sDQogICAgeyJ4LWFtei1tZXRhLXV1aWQiOiAiMTQzNjUxMjM2NTEyNzQifSwNCiAgICB7IngtYW16LXNlcnZlci1zaWRlLWVuY3J5cHRpb24iOiAiQUVTMjU2In0sDQogICAgWyJzdGFydHMtd2l0aCIsICIkeC1hbXotbWV0YS10YWciLCAiIl0sDQoNCiAgICB7IngtYW16LWNyZWRlbnRpYWwiOiAiQUtJQUlPU0ZPRE5ON0VYQU1QTEUvMjAxNTEyMjkvdXMtZWFzdC0xL3MzL2F3czRfcmVxdWVzdCJ9LA0KICAgIHsieC1hbXotYWxnb3JpdGhtIjogIkFXUzQtSE1BQy1TSEEyNTYifSwNCiAgICB7IngtYW16LWRhdGUiOiAiMjAxNTEyMjlUMDAwMDAwWiIgfQ0KICBdDQp9"
    static let postSignature = "8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699e"

    /// The example form's fields, with the field-name spellings AWS uses (`X-Amz-Credential`, `Policy`).
    static let postForm: [(String, String)] = [
        ("key", "user/user1/${filename}"), ("acl", "public-read"),
        ("success_action_redirect", "http://sigv4examplebucket.s3.amazonaws.com/successful_upload.html"),
        ("Content-Type", "image/jpeg"), ("x-amz-meta-uuid", "14365123651274"),
        ("x-amz-server-side-encryption", "AES256"),
        ("X-Amz-Credential", "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request"),
        ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Date", "20151229T000000Z"),
        ("x-amz-meta-tag", ""), ("Policy", postPolicy), ("X-Amz-Signature", postSignature),
    ]

    @Test func browserUploadPolicySignature() {
        let key = SigV4.signingKey(
            secretAccessKey: Self.example.secretAccessKey, scope: SigV4Scope(day: "20151229", region: "us-east-1"))
        #expect(SigV4.signature(of: Self.postPolicy, signingKey: key) == Self.postSignature)
    }

    @Test func browserUploadFormVerifies() throws {
        let verifier = SigV4Verifier(credentials: Self.example, region: "us-east-1") {
            AmzDate.parseISO8601("2015-12-29T10:00:00Z")!
        }
        let grant = try verifier.verifyPostForm(bucket: "sigv4examplebucket", fields: PostFormFields(Self.postForm))
        #expect(grant.key == "user/user1/${filename}")
        #expect(grant.contentType == "image/jpeg")
        #expect(grant.contentLength == nil)
    }

    @Test func browserUploadFormRejections() {
        func verify(bucket: String = "sigv4examplebucket", at time: String = "2015-12-29T10:00:00Z",
                    change: (inout [(String, String)]) -> Void = { _ in }) -> StorageError? {
            var form = Self.postForm
            change(&form)
            let verifier = SigV4Verifier(credentials: Self.example, region: "us-east-1") { AmzDate.parseISO8601(time)! }
            do {
                _ = try verifier.verifyPostForm(bucket: bucket, fields: PostFormFields(form))
                return nil
            } catch {
                return error
            }
        }
        #expect(verify(at: "2015-12-30T12:00:00Z") == .policyExpired)
        #expect(verify(at: "2015-12-28T23:44:59Z") == .requestNotYetValid)
        #expect(verify(bucket: "otherbucket")?.code == "AccessDenied")
        #expect(verify { $0[0].1 = "user/user2/photo.jpg" }?.code == "AccessDenied")
        #expect(verify { $0[3].1 = "text/html" }?.code == "AccessDenied")
        #expect(verify { $0[1].1 = "private" }?.code == "AccessDenied")
        #expect(verify { $0.append(("x-amz-meta-extra", "1")) } == .policyViolation("Extra input fields: x-amz-meta-extra"))
        #expect(verify { $0.append(("x-ignore-this", "1")) } == nil)
        #expect(verify { $0[11].1 = String($0[11].1.dropLast()) + "0" } == .signatureDoesNotMatch)
        #expect(verify { $0[10].1 = "f" + $0[10].1.dropFirst() } == .signatureDoesNotMatch)
        #expect(verify { $0[8].1 = "20151229T000001Z" }?.code == "AccessDenied")
        #expect(verify { $0[6].1 = "AKIAIOSFODNN7EXAMPLE/20151229/eu-west-1/s3/aws4_request" } == .invalidAccessKeyId)
        #expect(verify { $0[6].1 = "AKIAOTHERKEY0000000/20151229/us-east-1/s3/aws4_request" } == .invalidAccessKeyId)
        #expect(verify { $0[7].1 = "AWS4-HMAC-SHA1" } == .invalidAccessKeyId)
        #expect(verify { $0.remove(at: 11) }?.code == "InvalidArgument")
    }
}
