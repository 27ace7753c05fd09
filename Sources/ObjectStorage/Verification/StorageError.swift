import Vapor

/// An S3-style failure: HTTP status, S3 error code and message. Every check of the store returns one of these as
/// a value, so a bad request can never surface as a 500.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: HTTPResponseStatus
    public var code: String
    public var message: String

    public init(status: HTTPResponseStatus, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(status.code) \(code): \(message)" }
}

extension StorageError {
    public static func accessDenied(_ message: String = "Access Denied") -> StorageError {
        .init(status: .forbidden, code: "AccessDenied", message: message)
    }
    public static let requestExpired = accessDenied("Request has expired")
    public static let requestNotYetValid = accessDenied("Request is not yet valid")
    public static let policyExpired = accessDenied("Invalid according to Policy: Policy expired.")
    /// Write-once: the key already holds an object.
    public static let objectExists = accessDenied("Access Denied. An object already exists at this key and objects are write-once.")
    /// The product that issued the URL no longer expects an upload to this key (its record was deleted or the
    /// upload intent has ended; see `UploadAdmission`).
    public static let noUploadExpected = accessDenied("Access Denied. No upload is expected for this key.")

    public static func policyViolation(_ detail: String) -> StorageError {
        accessDenied("Invalid according to Policy: \(detail)")
    }

    public static let signatureDoesNotMatch = StorageError(
        status: .forbidden, code: "SignatureDoesNotMatch",
        message: "The request signature we calculated does not match the signature you provided. Check your key and signing method.")
    public static let invalidAccessKeyId = StorageError(
        status: .forbidden, code: "InvalidAccessKeyId",
        message: "The AWS Access Key Id you provided does not exist in our records.")

    public static func authorizationQueryParametersError(_ message: String) -> StorageError {
        .init(status: .badRequest, code: "AuthorizationQueryParametersError", message: message)
    }
    public static func invalidArgument(_ message: String) -> StorageError {
        .init(status: .badRequest, code: "InvalidArgument", message: message)
    }
    public static func invalidPolicyDocument(_ message: String) -> StorageError {
        .init(status: .badRequest, code: "InvalidPolicyDocument", message: "Invalid Policy: \(message)")
    }

    public static let noSuchBucket = StorageError(
        status: .notFound, code: "NoSuchBucket", message: "The specified bucket does not exist")
    public static let noSuchKey = StorageError(
        status: .notFound, code: "NoSuchKey", message: "The specified key does not exist.")
    public static let methodNotAllowed = StorageError(
        status: .methodNotAllowed, code: "MethodNotAllowed",
        message: "The specified method is not allowed against this resource.")

    /// The declared request is too large (413, checked before the body is read).
    public static let requestTooLarge = StorageError(
        status: .payloadTooLarge, code: "EntityTooLarge", message: "Your proposed upload exceeds the maximum allowed size")
    /// A POST file above the policy's `content-length-range` (S3 answers these with 400).
    public static let fileTooLarge = StorageError(
        status: .badRequest, code: "EntityTooLarge", message: "Your proposed upload exceeds the maximum allowed size")
    public static let fileTooSmall = StorageError(
        status: .badRequest, code: "EntityTooSmall", message: "Your proposed upload is smaller than the minimum allowed size")
    public static let missingContentLength = StorageError(
        status: .lengthRequired, code: "MissingContentLength", message: "You must provide the Content-Length HTTP header.")
    public static let incompleteBody = StorageError(
        status: .badRequest, code: "IncompleteBody",
        message: "You did not provide the number of bytes specified by the Content-Length HTTP header.")
    public static let formFieldsTooLarge = StorageError(
        status: .badRequest, code: "MaxPostPreDataLengthExceeded",
        message: "Your POST request fields preceding the upload file were too large.")
    public static let malformedPOSTRequest = StorageError(
        status: .badRequest, code: "MalformedPOSTRequest",
        message: "The body of your POST request is not well-formed multipart/form-data.")
    public static let invalidRange = StorageError(
        status: .rangeNotSatisfiable, code: "InvalidRange", message: "The requested range is not satisfiable")
    public static let keyTooLong = StorageError(
        status: .badRequest, code: "KeyTooLongError", message: "Your key is too long")

    /// The store itself failed (disk full, permissions). Reported as S3 does, without internal details.
    public static let internalError = StorageError(
        status: .internalServerError, code: "InternalError",
        message: "We encountered an internal error. Please try again.")
    public static let serviceUnavailable = StorageError(
        status: .serviceUnavailable, code: "ServiceUnavailable", message: "Please reduce your request rate.")
}
