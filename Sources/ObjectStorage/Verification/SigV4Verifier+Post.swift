import Foundation

extension SigV4Verifier {
    /// Fields that must be present in every POST form (names compared ignoring case).
    static let requiredPostFields = ["key", "policy", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature"]

    /// Verifies a POST policy form for `bucket` (the bucket of the request path), in the contract's order (§7.3):
    /// required fields, safe key, algorithm and credential, clock skew, signature, expiration, conditions.
    /// The write-once and file-size checks follow in the store, because they need the disk and the file.
    public func verifyPostForm(bucket: String, fields: PostFormFields) throws(StorageError) -> PostUploadGrant {
        for name in Self.requiredPostFields where fields.value(of: name) == nil {
            throw .invalidArgument("Bucket POST must contain a field named '\(name)'.")
        }
        let key = fields.value(of: "key")!
        if let problem = ObjectKeyRules.validate(key) { throw problem }

        guard fields.value(of: "x-amz-algorithm") == SigV4.algorithm,
              let (accessKeyID, scope) = SigV4Scope.parseCredential(fields.value(of: "x-amz-credential")!),
              accessKeyID == credentials.accessKeyID, scope.region == region, scope.service == "s3"
        else { throw .invalidAccessKeyId }

        guard let signedAt = AmzDate.parseTimestamp(fields.value(of: "x-amz-date")!) else {
            throw .invalidArgument("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
        }
        let current = now()
        guard signedAt <= current.addingTimeInterval(maxClockSkew) else { throw .requestNotYetValid }

        let policy = fields.value(of: "policy")!
        let expected = SigV4.signature(
            of: policy, signingKey: SigV4.cachedSigningKey(secretAccessKey: credentials.secretAccessKey, scope: scope))
        guard SigV4.signaturesMatch(expected, fields.value(of: "x-amz-signature")!) else { throw .signatureDoesNotMatch }

        let document = try PolicyDocument.parse(base64: policy)
        guard current < document.expiration else { throw .policyExpired }

        return try evaluate(document, bucket: bucket, key: key, fields: fields)
    }

    /// Every condition must hold, and every submitted field except `policy`, `x-amz-signature`, `file` and
    /// `x-ignore-*` must be named by a condition.
    private func evaluate(_ document: PolicyDocument, bucket: String, key: String, fields: PostFormFields)
        throws(StorageError) -> PostUploadGrant
    {
        func actual(_ field: String) -> String? {
            field.lowercased() == "bucket" ? bucket : fields.value(of: field)
        }
        var covered: Set<String> = []
        var range: ClosedRange<Int64>?
        for condition in document.conditions {
            switch condition {
            case let .equals(field, value):
                covered.insert(field.lowercased())
                // An absent field reads as empty, so only `{"field": ""}` accepts its absence.
                guard (actual(field) ?? "") == value else {
                    throw .policyViolation("Policy Condition failed: [\"eq\", \(JSONText.string("$" + field)), \(JSONText.string(value))]")
                }
            case let .startsWith(field, prefix):
                covered.insert(field.lowercased())
                guard (actual(field) ?? "").hasPrefix(prefix) else {
                    throw .policyViolation("Policy Condition failed: [\"starts-with\", \(JSONText.string("$" + field)), \(JSONText.string(prefix))]")
                }
            case let .contentLengthRange(min, max):
                // Several ranges all have to hold, so the accepted sizes are their intersection.
                let lower = Swift.max(min, range?.lowerBound ?? min), upper = Swift.min(max, range?.upperBound ?? max)
                guard lower <= upper else { throw .policyViolation("Policy Condition failed: [\"content-length-range\", \(min), \(max)]") }
                range = lower...upper
            }
        }
        let exempt: Set<String> = ["policy", "x-amz-signature", "file"]
        let extra = fields.entries.map { $0.name.lowercased() }
            .filter { !exempt.contains($0) && !$0.hasPrefix("x-ignore-") && !covered.contains($0) }
        if !extra.isEmpty {
            throw .policyViolation("Extra input fields: \(extra.joined(separator: ", "))")
        }
        return PostUploadGrant(key: key, contentType: fields.value(of: "Content-Type"), contentLength: range)
    }
}
