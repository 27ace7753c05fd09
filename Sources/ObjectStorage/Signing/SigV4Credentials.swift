/// The key pair (and, for temporary credentials, the session token) that signs or verifies SigV4 requests.
public struct SigV4Credentials: Sendable, Equatable {
    public var accessKeyID: String
    public var secretAccessKey: String
    /// Only with temporary credentials (`AWS_SESSION_TOKEN`); sent as `x-amz-security-token` / `X-Amz-Security-Token`.
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}
