import Foundation
import Testing
import Vapor
@testable import ObjectStorage

/// The verifier accepts every botocore vector at its signing time and rejects it when any single field, the key,
/// the host or the clock is changed. (Body sizes are checked over HTTP in `LocalStorePostTests`.)
@Suite struct BotocoreVerifierTests {
    let vectors = BotocoreVectors.shared

    func verifier(_ vector: BotocoreVectors.Vector, at offset: TimeInterval = 60) -> SigV4Verifier {
        let time = vector.signingDate.addingTimeInterval(offset)
        return SigV4Verifier(credentials: vectors.credentials(), region: vector.region) { time }
    }

    // MARK: POST

    func verifyPost(_ vector: BotocoreVectors.Vector, at offset: TimeInterval = 60, bucket: String? = nil,
                    fields: [(String, String)]? = nil) -> Result<PostUploadGrant, StorageError> {
        let form = fields ?? vector.fields!.map { ($0.name, $0.value) }
        do {
            return .success(try verifier(vector, at: offset).verifyPostForm(
                bucket: bucket ?? vector.bucket!, fields: PostFormFields(form)))
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: BotocoreVectors.of(kind: "post"))
    func postAccepted(_ vector: BotocoreVectors.Vector) throws {
        let grant = try verifyPost(vector).get()
        #expect(grant.key == vector.key)
        #expect(grant.contentType == vector.fields!.first { $0.name == "Content-Type" }?.value)
        #expect(grant.contentLength == vector.content_length_range![0]...vector.content_length_range![1])
        // Field names are case-insensitive.
        let upper = vector.fields!.map { ($0.name.uppercased(), $0.value) }
        #expect((try? verifyPost(vector, fields: upper).get()) != nil)
    }

    @Test(arguments: BotocoreVectors.of(kind: "post"))
    func postRejectsEverySingleFieldChange(_ vector: BotocoreVectors.Vector) {
        let form = vector.fields!.map { ($0.name, $0.value) }
        for index in form.indices {
            var changed = form
            changed[index].1 = Self.tamper(changed[index].1)
            guard case .failure = verifyPost(vector, fields: changed) else {
                Issue.record("changing \(form[index].0) was accepted")
                continue
            }
            var removed = form
            removed.remove(at: index)
            if case .success = verifyPost(vector, fields: removed) { Issue.record("removing \(form[index].0) was accepted") }
        }
        var extra = form
        extra.append(("x-amz-meta-injected", "1"))
        #expect(verifyPost(vector, fields: extra) == .failure(.policyViolation("Extra input fields: x-amz-meta-injected")))
        var duplicateKey = form
        duplicateKey.append(("KEY", "other/key"))
        // A second `key` field is refused when the form is read (PostFormFields keeps the first); the verifier
        // never sees two values.
        #expect(PostFormFields(duplicateKey).entries.count == form.count)
    }

    @Test(arguments: BotocoreVectors.of(kind: "post"))
    func postRejectsOtherKeyBucketAndClock(_ vector: BotocoreVectors.Vector) {
        var otherKey = vector.fields!.map { ($0.name, $0.value) }
        let keyIndex = otherKey.firstIndex { $0.0 == "key" }!
        otherKey[keyIndex].1 += ".exe"
        #expect(verifyPost(vector, fields: otherKey).failureCode == "AccessDenied")
        #expect(verifyPost(vector, bucket: "another-bucket").failureCode == "AccessDenied")
        #expect(verifyPost(vector, at: 3600) == .failure(.policyExpired))
        #expect(verifyPost(vector, at: 3599).failureCode == nil)
        #expect(verifyPost(vector, at: -901) == .failure(.requestNotYetValid))
        #expect(verifyPost(vector, at: -900).failureCode == nil)
    }

    // MARK: Query

    func verifyQuery(_ vector: BotocoreVectors.Vector, at offset: TimeInterval = 1, method: String? = nil,
                     path: String? = nil, query: [(name: String, value: String)]? = nil,
                     headers: HTTPHeaders? = nil) -> Result<VerifiedQueryAuth, StorageError> {
        var requestHeaders = HTTPHeaders([("Host", vector.host!)])
        for (name, value) in vector.headers ?? [:] { requestHeaders.add(name: name, value: value) }
        let canonicalURI = AWSURIEncoding.encodePath(AWSURIEncoding.decode(path ?? vector.path!)!)
        let request = QueryAuthRequest(
            method: method ?? vector.method!, canonicalURI: canonicalURI,
            query: query ?? QueryAuthRequest.parseQuery(vector.raw_query)!, headers: headers ?? requestHeaders)
        do {
            return .success(try verifier(vector, at: offset).verifyQuery(request))
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: BotocoreVectors.of(kind: "query"))
    func queryAccepted(_ vector: BotocoreVectors.Vector) throws {
        let result = try verifyQuery(vector).get()
        #expect(result.expiresIn == vector.expires_in)
        #expect(try verifyQuery(vector, at: TimeInterval(vector.expires_in!)).get().expiresIn == vector.expires_in)
    }

    @Test(arguments: BotocoreVectors.of(kind: "query"))
    func queryRejectsEverySingleChange(_ vector: BotocoreVectors.Vector) {
        let query = QueryAuthRequest.parseQuery(vector.raw_query)!
        for index in query.indices {
            var changed = query
            changed[index].value = Self.tamper(changed[index].value)
            if case .success = verifyQuery(vector, query: changed) { Issue.record("changing \(query[index].name) was accepted") }
            var removed = query
            removed.remove(at: index)
            if case .success = verifyQuery(vector, query: removed) { Issue.record("removing \(query[index].name) was accepted") }
        }
        #expect(verifyQuery(vector, query: query + [("response-cache-control", "no-store")]) == .failure(.signatureDoesNotMatch))
        #expect(verifyQuery(vector, method: vector.method == "GET" ? "HEAD" : "GET") == .failure(.signatureDoesNotMatch))
        #expect(verifyQuery(vector, path: vector.path! + "x") == .failure(.signatureDoesNotMatch))
        #expect(verifyQuery(vector, headers: HTTPHeaders([("Host", "evil.example.com")])) == .failure(.signatureDoesNotMatch))
        for (name, value) in vector.headers ?? [:] {
            var headers = HTTPHeaders([("Host", vector.host!)])
            for (other, otherValue) in vector.headers! where other != name { headers.add(name: other, value: otherValue) }
            headers.add(name: name, value: Self.tamper(value))
            #expect(verifyQuery(vector, headers: headers) == .failure(.signatureDoesNotMatch), "\(name)")
        }
        #expect(verifyQuery(vector, at: TimeInterval(vector.expires_in!) + 1) == .failure(.requestExpired))
        #expect(verifyQuery(vector, at: -901) == .failure(.requestNotYetValid))
        #expect(verifyQuery(vector, at: -900).failureCode == nil)
    }

    @Test func queryParameterErrorsInContractOrder() {
        let vector = BotocoreVectors.of(kind: "query").first { $0.name == "get-local-playback" }!
        let query = QueryAuthRequest.parseQuery(vector.raw_query)!
        func replacing(_ name: String, with value: String?) -> [(name: String, value: String)] {
            var result = query.filter { $0.name != name }
            if let value { result.append((name, value)) }
            return result
        }
        #expect(verifyQuery(vector, query: [("response-content-type", "audio/mp4")]) == .failure(.accessDenied()))
        for name in ["X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature"] {
            #expect(verifyQuery(vector, query: replacing(name, with: nil)).failureCode == "AuthorizationQueryParametersError", "\(name)")
        }
        #expect(verifyQuery(vector, query: replacing("X-Amz-Algorithm", with: "AWS4-HMAC-SHA1")).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Expires", with: "0")).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Expires", with: "604801")).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Expires", with: "9e2")).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Date", with: "2025-01-15T17:12:04Z")).failureCode == "AuthorizationQueryParametersError")
        let credential = query.first { $0.name == "X-Amz-Credential" }!.value
        #expect(verifyQuery(vector, query: replacing("X-Amz-Credential", with: credential.replacingOccurrences(of: "us-east-1", with: "eu-west-1"))).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Credential", with: credential.replacingOccurrences(of: "/s3/", with: "/iam/"))).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Credential", with: credential.replacingOccurrences(of: "20250115", with: "20250114"))).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Credential", with: "garbage")).failureCode == "AuthorizationQueryParametersError")
        #expect(verifyQuery(vector, query: replacing("X-Amz-Credential", with: credential.replacingOccurrences(of: "HPLOCALDEMOKEY000001", with: "AKIAOTHER"))) == .failure(.invalidAccessKeyId))
        // Unknown key id is reported before expiry; expiry before the signature.
        #expect(verifyQuery(vector, at: 100_000, query: replacing("X-Amz-Credential", with: credential.replacingOccurrences(of: "HPLOCALDEMOKEY000001", with: "AKIAOTHER"))) == .failure(.invalidAccessKeyId))
        #expect(verifyQuery(vector, at: 100_000, query: replacing("X-Amz-Signature", with: String(repeating: "0", count: 64))) == .failure(.requestExpired))
    }

    /// Changes a value while keeping it plausible (same length class): the last character is altered.
    static func tamper(_ value: String) -> String {
        guard let last = value.last else { return "x" }
        return String(value.dropLast()) + (last == "0" ? "1" : "0")
    }
}

extension Result where Failure == StorageError {
    var failureCode: String? {
        if case let .failure(error) = self { return error.code }
        return nil
    }
}

extension Result: @retroactive Equatable where Success: Equatable, Failure: Equatable {}
