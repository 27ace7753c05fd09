import Foundation

/// Builds and signs presigned POST forms (contract §7.3).
public struct PostPolicySigner: Sendable {
    public var credentials: SigV4Credentials
    public var region: String

    public init(credentials: SigV4Credentials, region: String) {
        self.credentials = credentials
        self.region = region
    }

    /// The contract's form: conditions `bucket`, `key`, `Content-Type`, `content-length-range`, then the
    /// `x-amz-*` ones; `expiration` = `date` + `expiresIn`.
    public func presign(
        url: String, bucket: String, key: String, contentType: String, contentLength: ClosedRange<Int64>,
        expiresIn: Int = 3600, date: Date
    ) -> PresignedPost {
        sign(
            url: url,
            conditions: [
                .equals(field: "bucket", value: bucket), .equals(field: "key", value: key),
                .equals(field: "Content-Type", value: contentType),
                .contentLengthRange(min: contentLength.lowerBound, max: contentLength.upperBound),
            ],
            fields: [.init(name: "key", value: key), .init(name: "Content-Type", value: contentType)],
            expiresIn: expiresIn, date: date)
    }

    /// General form: the caller's conditions and fields, then the authentication conditions and fields appended
    /// in botocore's order (`x-amz-algorithm`, `x-amz-credential`, `x-amz-date`, `x-amz-security-token`).
    public func sign(
        url: String, conditions: [PostPolicyCondition], fields: [PresignedPost.Field], expiresIn: Int, date: Date
    ) -> PresignedPost {
        let scope = SigV4Scope(day: AmzDate.day(date), region: region)
        let credential = scope.credential(accessKeyID: credentials.accessKeyID)
        let timestamp = AmzDate.timestamp(date)
        var auth: [PresignedPost.Field] = [
            .init(name: "x-amz-algorithm", value: SigV4.algorithm),
            .init(name: "x-amz-credential", value: credential),
            .init(name: "x-amz-date", value: timestamp),
        ]
        if let token = credentials.sessionToken { auth.append(.init(name: "x-amz-security-token", value: token)) }

        let policy = PostPolicy(
            expiration: date.addingTimeInterval(TimeInterval(expiresIn)),
            conditions: conditions + auth.map { .equals(field: $0.name, value: $0.value) })
        let encoded = policy.base64
        let signature = SigV4.signature(
            of: encoded, signingKey: SigV4.cachedSigningKey(secretAccessKey: credentials.secretAccessKey, scope: scope))
        return PresignedPost(
            url: url,
            fields: fields + auth + [.init(name: "policy", value: encoded), .init(name: "x-amz-signature", value: signature)],
            expiresIn: expiresIn)
    }
}
