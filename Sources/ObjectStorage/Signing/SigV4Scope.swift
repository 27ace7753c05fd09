/// `<YYYYMMDD>/<region>/<service>/aws4_request`: the part of a credential that says where and when a signature is valid.
public struct SigV4Scope: Sendable, Equatable, CustomStringConvertible {
    public var day: String
    public var region: String
    public var service: String

    public init(day: String, region: String, service: String = "s3") {
        self.day = day
        self.region = region
        self.service = service
    }

    public var description: String { "\(day)/\(region)/\(service)/aws4_request" }

    /// `<access key id>/<scope>`, the value of `x-amz-credential` / `X-Amz-Credential`.
    public func credential(accessKeyID: String) -> String { "\(accessKeyID)/\(self)" }

    /// Splits a credential into its access key id and scope; nil unless it has exactly five parts ending in `aws4_request`.
    public static func parseCredential(_ credential: String) -> (accessKeyID: String, scope: SigV4Scope)? {
        let parts = credential.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[4] == "aws4_request", !parts[0].isEmpty, parts[1].utf8.count == 8,
              parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { return nil }
        return (parts[0], SigV4Scope(day: parts[1], region: parts[2], service: parts[3]))
    }
}
