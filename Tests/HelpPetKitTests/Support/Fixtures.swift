import Foundation
import HelpPetKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fixed ids of the demo data (contract §8).
enum Demo {
    static let practice = "d0000000-0000-4000-8000-000000000001"
    static let vet1 = "d1000000-0000-4000-8000-000000000002"
    static let bella = "d3000000-0000-4000-8000-000000000001"
    static let max = "d3000000-0000-4000-8000-000000000002"
    static let mittens = "d3000000-0000-4000-8000-000000000003"
    static let fluffy = "d3000000-0000-4000-8000-000000000004"
    static let rocky = "d3000000-0000-4000-8000-000000000005"
    static let bellaRecordV2 = "d4000000-0000-4000-8000-000000000002"
    static let maxRecord = "d4000000-0000-4000-8000-000000000003"
    static let manualVisit = "d5000000-0000-4000-8000-000000000001"
}

/// Records every retry and 401 the client reports, and can act before a request is sent.
final class RecordingDelegate: HelpPetClientDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _retries: [(RequestKind, HelpPetError)] = []
    private var _unauthorized: [HelpPetError] = []
    private let beforeSend: (@Sendable (URLRequest, RequestKind, Int) async -> Void)?

    init(beforeSend: (@Sendable (URLRequest, RequestKind, Int) async -> Void)? = nil) {
        self.beforeSend = beforeSend
    }

    var retries: [(RequestKind, HelpPetError)] { lock.withLock { _retries } }
    var unauthorized: [HelpPetError] { lock.withLock { _unauthorized } }

    func client(_ client: HelpPetClient, willSend request: inout URLRequest, kind: RequestKind, attempt: Int) async throws {
        await beforeSend?(request, kind, attempt)
    }

    func client(_ client: HelpPetClient, didReceiveUnauthorized error: HelpPetError) async {
        lock.withLock { _unauthorized.append(error) }
    }

    func client(
        _ client: HelpPetClient, willRetry kind: RequestKind, after error: HelpPetError, attempt: Int, delay: TimeInterval
    ) async {
        lock.withLock { _retries.append((kind, error)) }
    }
}

extension TestServer {
    /// A client for this server (fast retries so tests stay short).
    func client(
        retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: 0.1, maxDelay: 0.5),
        delegate: (any HelpPetClientDelegate)? = nil
    ) -> HelpPetClient {
        HelpPetClient(
            baseURL: baseURL,
            configuration: .init(
                retryPolicy: retryPolicy, requestTimeout: 30, transferTimeout: 60,
                temporaryDirectory: dataDirectory.appendingPathComponent("client-tmp")),
            delegate: delegate)
    }

    /// A client logged in as `username`.
    func loggedInClient(
        _ username: String = "vet1", password: String = "password123",
        retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: 0.1, maxDelay: 0.5),
        delegate: (any HelpPetClientDelegate)? = nil
    ) async throws -> HelpPetClient {
        let client = client(retryPolicy: retryPolicy, delegate: delegate)
        try await client.login(username: username, password: password)
        return client
    }
}

/// Temporary audio-like files with random content (distinct per pet, so a mix-up would show).
enum Recordings {
    static func make(bytes: Int, name: String = "recording.m4a") throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("helppetkit-recordings-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var generator = SystemRandomNumberGenerator()
        var remaining = bytes
        while remaining > 0 {
            let count = min(remaining, 1 << 20)
            var chunk = [UInt8](repeating: 0, count: count)
            for index in stride(from: 0, to: count, by: 8) {
                var value = generator.next() as UInt64
                withUnsafeBytes(of: &value) { raw in
                    for offset in 0..<min(8, count - index) { chunk[index + offset] = raw[offset] }
                }
            }
            try handle.write(contentsOf: chunk)
            remaining -= count
        }
        return url
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    static func sameContents(_ a: URL, _ b: URL) throws -> Bool {
        let first = try FileHandle(forReadingFrom: a)
        let second = try FileHandle(forReadingFrom: b)
        defer {
            try? first.close()
            try? second.close()
        }
        while true {
            let x = try first.read(upToCount: 1 << 20) ?? Data()
            let y = try second.read(upToCount: 1 << 20) ?? Data()
            if x != y { return false }
            if x.isEmpty { return true }
        }
    }
}

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    func advance(_ seconds: TimeInterval) { lock.withLock { offset += seconds } }
    func now() -> Date { Date().addingTimeInterval(lock.withLock { offset }) }
}

/// Asserts that `body` throws a `HelpPetError` matching `matches`, and returns it.
@discardableResult
func expectHelpPetError<T>(
    _ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation,
    _ matches: (HelpPetError) -> Bool
) async -> HelpPetError? {
    do {
        let value = try await body()
        Issue.record("expected a HelpPetError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as HelpPetError {
        #expect(matches(error), "unexpected error: \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a HelpPetError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
