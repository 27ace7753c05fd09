import Crypto
import Foundation
import HelpPetKit

/// Hand-made credentials signed with the test server's known secrets: expired tokens and expired upload forms,
/// which the real clock would only produce after hours.
enum Forgery {
    /// An HS256 JWT for `subject` with the given issue and expiry times, at token version 0 (a demo user's).
    static func token(subject: String, issuedAt: Date, expires: Date, secret: String = TestServer.jwtSecret) -> String {
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = base64URL(
            Data(
                #"{"sub":"\#(subject)","iat":\#(Int(issuedAt.timeIntervalSince1970)),"exp":\#(Int(expires.timeIntervalSince1970)),"ver":0}"#
                    .utf8))
        let signingInput = header + "." + payload
        let mac = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return signingInput + "." + base64URL(Data(mac))
    }

    /// `ticket` with its policy's `expiration` moved into the past and re-signed with the store's secret: a form
    /// exactly like the server's own after its hour has passed.
    static func expired(_ ticket: AudioUploadResponse, secret: String = TestServer.storageSecret) throws -> AudioUploadResponse {
        guard let policy = ticket.uploadFields["policy"], let data = Data(base64Encoded: policy),
              var document = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let credential = ticket.uploadFields["x-amz-credential"]
        else { throw TestFailure("unexpected upload form: \(ticket.uploadFields.keys.sorted())") }
        document["expiration"] = HelpPetCoding.formatDate(Date().addingTimeInterval(-120))
        let newPolicy = try JSONSerialization.data(withJSONObject: document).base64EncodedString()
        let scope = credential.split(separator: "/").map(String.init)  // key/date/region/s3/aws4_request
        guard scope.count == 5 else { throw TestFailure("unexpected credential \(credential)") }
        var key = SymmetricKey(data: Data(("AWS4" + secret).utf8))
        for part in [scope[1], scope[2], scope[3], scope[4]] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = HMAC<SHA256>.authenticationCode(for: Data(newPolicy.utf8), using: key)
            .map { String(format: "%02x", $0) }.joined()
        var fields = ticket.uploadFields
        fields["policy"] = newPolicy
        fields["x-amz-signature"] = signature
        return AudioUploadResponse(
            visitId: ticket.visitId, uploadUrl: ticket.uploadUrl, uploadFields: fields, s3Key: ticket.s3Key,
            bucket: ticket.bucket, expiresIn: ticket.expiresIn)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
