import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Sends alert pushes to APNs over HTTP/2 (async-http-client negotiates h2 through ALPN, which APNs requires) with
/// a reused provider token. One client per process; `shutdown()` before exit.
public final class APNsClient: Sendable {
    public let configuration: APNsConfiguration
    let providerToken: APNsProviderToken
    let http: HTTPClient
    /// Per request; APNs answers in well under a second.
    static let timeout: TimeAmount = .seconds(20)

    public init(configuration: APNsConfiguration, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        providerToken = APNsProviderToken(signer: try APNsProviderToken.Signer(configuration: configuration), now: now)
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = configuration.trustedCAFile {
            tls.trustRoots = .file(caFile)
        }
        var http = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: .seconds(10), read: Self.timeout))
        http.httpVersion = .automatic
        self.http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    public func shutdown() async throws {
        try await http.shutdown()
    }

    /// Where the device name is a hex token; anything else is refused before it reaches a URL.
    public static func isWellFormed(deviceToken: String) -> Bool {
        !deviceToken.isEmpty && deviceToken.count <= 200 && deviceToken.allSatisfy(\.isHexDigit)
    }

    /// One push to one device. A `403 ExpiredProviderToken` renews the JWT and sends once more; transport failures
    /// come back as `.retryLater`.
    public func send(_ notification: APNsNotification, to deviceToken: String) async -> APNsOutcome {
        guard Self.isWellFormed(deviceToken: deviceToken) else {
            return .tokenInvalid(reason: "device token is not hexadecimal")
        }
        let first = await attempt(notification, to: deviceToken)
        guard case .providerTokenExpired = first.outcome else { return first.outcome }
        if let used = first.token { await providerToken.invalidate(used) }
        let second = await attempt(notification, to: deviceToken)
        if case .providerTokenExpired = second.outcome {
            return .retryLater(reason: "403 ExpiredProviderToken after renewing the provider token")
        }
        return second.outcome
    }

    func attempt(_ notification: APNsNotification, to deviceToken: String) async -> (outcome: APNsOutcome, token: String?) {
        let token: String
        do {
            token = try await providerToken.token()
        } catch {
            return (.rejected(reason: "cannot sign the provider token: \(error)"), nil)
        }
        do {
            var request = HTTPClientRequest(url: "\(configuration.baseURL)/3/device/\(deviceToken)")
            request.method = .POST
            request.headers.add(name: "authorization", value: "bearer \(token)")
            for (name, value) in notification.headers(topic: configuration.topic) {
                request.headers.add(name: name, value: value)
            }
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try notification.payload()))
            let response = try await http.execute(request, timeout: Self.timeout)
            let body = try await response.body.collect(upTo: 64 * 1024)
            let outcome = APNsOutcome.classify(
                status: Int(response.status.code), reason: APNsOutcome.reason(fromBody: Data(body.readableBytesView)),
                apnsID: response.headers.first(name: "apns-id"))
            return (outcome, token)
        } catch {
            return (.retryLater(reason: "connection: \(String(describing: error).prefix(200))"), token)
        }
    }
}
