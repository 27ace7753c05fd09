import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The outcome of one HTTP exchange of a file transfer.
package struct TransferResult: Sendable {
    package let response: HTTPURLResponse
    /// The response body for uploads; for downloads only an error body (a 2xx body went to the destination file).
    package let body: Data
}

/// A local file could not be read or written; each kit reports it as its own `.file(path:reason:)`.
package struct LocalFileError: Error, Sendable {
    package let path: String
    package let reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// One upload from a file or one download to a file, on its own `URLSession` with a delegate, so progress is
/// reported as bytes move and nothing is buffered in memory. Bridged to async/await; cancelling the calling task
/// cancels the transfer. Used by both kits: HelpPet's recording upload and download, AutoDetail's photo PUT.
package final class FileTransfer: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    package enum Mode: Sendable {
        case upload(fromFile: URL)
        case download(toFile: URL)
    }

    private let lock = NSLock()
    private let mode: Mode
    private let progress: (@Sendable (_ done: Int64, _ expected: Int64) -> Void)?
    private var continuation: CheckedContinuation<TransferResult, any Error>?
    private var body = Data()
    private var downloadProblem: (any Error)?
    private var task: URLSessionTask?
    private var cancelled = false

    /// How much of a response body is kept (only error bodies are expected; a kit may keep less).
    private let maxBufferedBody: Int

    private init(mode: Mode, maxBufferedBody: Int, progress: (@Sendable (Int64, Int64) -> Void)?) {
        self.mode = mode
        self.maxBufferedBody = maxBufferedBody
        self.progress = progress
    }

    /// Runs `request` once. Progress is reported as (bytes sent or received, bytes expected).
    package static func run(
        _ request: URLRequest, mode: Mode, timeout: TimeInterval, maxBufferedBody: Int = 1 << 20,
        progress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) async throws -> TransferResult {
        let transfer = FileTransfer(mode: mode, maxBufferedBody: maxBufferedBody, progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = 24 * 3600
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task: URLSessionTask
                switch mode {
                case let .upload(file): task = session.uploadTask(with: request, fromFile: file)
                case .download: task = session.downloadTask(with: request)
                }
                let start = transfer.lock.withLock { () -> Bool in
                    transfer.continuation = continuation
                    transfer.task = task
                    return !transfer.cancelled
                }
                if start {
                    task.resume()
                } else {
                    transfer.finish(.failure(CancellationError()))
                }
            }
        } onCancel: {
            let task = transfer.lock.withLock { () -> URLSessionTask? in
                transfer.cancelled = true
                return transfer.task
            }
            task?.cancel()
        }
    }

    private func finish(_ result: Result<TransferResult, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<TransferResult, any Error>? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: result)
    }

    // MARK: URLSession delegate

    package func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progress?(totalBytesSent, totalBytesExpectedToSend)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            if body.count < maxBufferedBody { body.append(data.prefix(maxBufferedBody - body.count)) }
        }
    }

    package func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        progress?(totalBytesWritten, totalBytesExpectedToWrite)
    }

    package func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        // The file at `location` is removed when this method returns: move it (2xx) or keep its text (errors).
        guard case let .download(destination) = mode else { return }
        let status = (downloadTask.response as? HTTPURLResponse)?.statusCode ?? 0
        if (200..<300).contains(status) {
            do {
                let manager = FileManager.default
                if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
                try manager.moveItem(at: location, to: destination)
            } catch {
                let problem = LocalFileError(path: destination.path, reason: error.localizedDescription)
                lock.withLock { downloadProblem = problem }
            }
        } else {
            let text = (try? FileHandle(forReadingFrom: location)).flatMap { handle -> Data? in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 64 * 1024)
            }
            lock.withLock { body = text ?? Data() }
        }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            finish(.failure(error))
            return
        }
        guard let response = task.response as? HTTPURLResponse else {
            finish(.failure(URLError(.badServerResponse)))
            return
        }
        let (body, problem) = lock.withLock { (self.body, downloadProblem) }
        if let problem {
            finish(.failure(problem))
            return
        }
        finish(.success(TransferResult(response: response, body: body)))
    }
}
