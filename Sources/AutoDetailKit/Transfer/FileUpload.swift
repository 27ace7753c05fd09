import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One upload of a file to a presigned URL on its own `URLSession` with a delegate, so progress is reported as
/// bytes move and the file is streamed, never loaded into memory. Cancelling the calling task cancels the upload.
final class FileUpload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Result: Sendable {
        let response: HTTPURLResponse
        let body: Data
    }

    private let lock = NSLock()
    private let progress: (@Sendable (_ sent: Int64, _ expected: Int64) -> Void)?
    private var continuation: CheckedContinuation<Result, any Error>?
    private var body = Data()
    private var task: URLSessionTask?
    private var cancelled = false

    private init(progress: (@Sendable (Int64, Int64) -> Void)?) {
        self.progress = progress
    }

    /// Sends `request` once with the contents of `file` as its body.
    static func run(
        _ request: URLRequest, file: URL, timeout: TimeInterval, progress: (@Sendable (Int64, Int64) -> Void)?
    ) async throws -> Result {
        let upload = FileUpload(progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = 24 * 3600
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: upload, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.uploadTask(with: request, fromFile: file)
                let start = upload.lock.withLock { () -> Bool in
                    upload.continuation = continuation
                    upload.task = task
                    return !upload.cancelled
                }
                if start { task.resume() } else { upload.finish(.failure(CancellationError())) }
            }
        } onCancel: {
            let task = upload.lock.withLock { () -> URLSessionTask? in
                upload.cancelled = true
                return upload.task
            }
            task?.cancel()
        }
    }

    private func finish(_ result: Swift.Result<Result, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<Result, any Error>? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progress?(totalBytesSent, totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Only error bodies (small S3 XML) are expected; cap what is kept.
        lock.withLock { if body.count < 65_536 { body.append(data.prefix(65_536 - body.count)) } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { return finish(.failure(error)) }
        guard let response = task.response as? HTTPURLResponse else { return finish(.failure(URLError(.badServerResponse))) }
        let body = lock.withLock { self.body }
        finish(.success(Result(response: response, body: body)))
    }
}
