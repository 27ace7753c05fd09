import Foundation
import Vapor

/// Replaces Vapor's `{"error":true,"reason":...}` body with the products' formats, turns database outages into
/// 503 + `Retry-After: 1`, and never lets an internal error text reach a client.
public struct APIErrorMiddleware: AsyncMiddleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let style = ErrorBodyStyle(path: request.url.path)
        let response: Response
        do {
            response = try await next.respond(to: request)
        } catch {
            response = Self.response(for: error, request: request, style: style)
        }
        Self.applyCacheControl(response, path: request.url.path, style: style)
        return response
    }

    /// `no-store` on every `/api/v1` response (HelpPet); on every other non-storage response unless the handler chose
    /// its own policy (AutoDetail §1.9: e.g. `public, max-age=300` on the service catalogue).
    static func applyCacheControl(_ response: Response, path: String, style: ErrorBodyStyle) {
        if style == .detail, path.hasPrefix("/api/v1") {
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        } else if style != .s3XML, !response.headers.contains(name: .cacheControl) {
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        }
    }

    static func response(for error: any Error, request: Request, style: ErrorBodyStyle) -> Response {
        var status: HTTPResponseStatus
        var message: String
        var extra: [String: JSONValue] = [:]
        var headers = HTTPHeaders()

        if ClientDisconnect.isDisconnect(error) {
            // The client went away mid-body: not a server fault, so no 500 and no error log.
            request.markClientAbort()
            request.logger.debug("client disconnected: \(String(reflecting: type(of: error)))")
            return render(
                status: .badRequest, message: ClientDisconnect.reason, extra: [:],
                headers: ["Connection": "close"], style: style, request: request)
        }
        switch error {
        case let apiError as APIError:
            status = apiError.status
            message = apiError.message
            extra = apiError.extraFields
            headers = apiError.headers
        case let abort as any AbortError:
            status = abort.status
            headers = abort.headers
            switch status {
            case .notFound: message = style.notFoundMessage
            case .payloadTooLarge: message = "Request body too large"
            case .methodNotAllowed: status = .notFound; message = style.notFoundMessage
            case .unsupportedMediaType, .badRequest: message = abort.reason
            case .requestTimeout: message = "Request timed out"
            default:
                if status.code >= 500 {
                    request.logger.error("unhandled abort", metadata: ["status": "\(status.code)"])
                    status = .internalServerError
                    message = "Internal server error"
                    if style == .detail { extra["request_id"] = .string(request.requestID) }
                } else {
                    message = abort.reason
                }
            }
        default:
            if DatabaseFailure.isUnavailable(error) {
                request.logger.warning("database unavailable", metadata: ["error": "\(String(reflecting: type(of: error)))"])
                status = .serviceUnavailable
                message = "Service temporarily unavailable"
                headers.replaceOrAdd(name: "Retry-After", value: "1")
            } else {
                request.logger.error("internal error: \(String(reflecting: error))")
                status = .internalServerError
                message = "Internal server error"
                if style == .detail { extra["request_id"] = .string(request.requestID) }
            }
        }
        return render(status: status, message: message, extra: extra, headers: headers, style: style, request: request)
    }

    static func render(
        status: HTTPResponseStatus, message: String, extra: [String: JSONValue], headers: HTTPHeaders,
        style: ErrorBodyStyle, request: Request
    ) -> Response {
        var headers = headers
        let body: ByteBuffer
        switch style {
        case .detail, .error:
            var object = extra
            object[style == .detail ? "detail" : "error"] = .string(message)
            body = ByteBuffer(data: (try? JSONCoding.encoder.encode(JSONValue.object(object))) ?? Data())
            headers.replaceOrAdd(name: .contentType, value: "application/json; charset=utf-8")
        case .s3XML:
            let code = status == .notFound ? "NoSuchBucket" : status == .serviceUnavailable ? "ServiceUnavailable" : "InternalError"
            body = ByteBuffer(string: S3ErrorXML.render(code: code, message: message, requestID: request.requestID))
            headers.replaceOrAdd(name: .contentType, value: "application/xml")
        }
        return Response(status: status, headers: headers, body: .init(buffer: body))
    }
}
