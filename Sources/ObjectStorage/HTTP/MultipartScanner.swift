import Foundation
import Vapor

/// An incremental `multipart/form-data` parser that never holds more than one chunk plus a delimiter's worth of
/// bytes. Body data is handed out as slices of the incoming buffers (no copies), so a 100 MiB file part costs
/// no more memory than a small one.
///
/// Why not MultipartKit's `MultipartParser`: it reports through synchronous callbacks (the file writes here are
/// async and need back-pressure) and it splits binary data at every CR byte into small copied buffers.
public struct MultipartScanner: Sendable {
    public enum Event: Sendable {
        /// A part starts; header names are lower-cased.
        case partHeaders([(name: String, value: String)])
        case bodyChunk(ByteBuffer)
        case partEnd
        /// The closing delimiter was seen; anything after it is the epilogue and is ignored.
        case end
    }

    public enum Failure: Error { case malformed, headersTooLarge }

    private enum State {
        /// Before the first delimiter (`--boundary`, optionally preceded by a preamble).
        case preamble
        /// After a delimiter: the next bytes say whether another part follows (`\r\n`) or the body ends (`--`).
        case afterDelimiter
        case headers
        case body
        case finished
    }

    static let maxHeaderBytes = 16 * 1024

    /// `\r\n--boundary`: what ends every part's body.
    private let delimiter: [UInt8]
    private var state: State = .preamble
    /// Bytes not yet consumed: a partial delimiter, partial headers or the start of the stream.
    private var pending = ByteBuffer()

    public init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // The first delimiter may be at the very start, without the CRLF; pretending the stream began with
        // CRLF lets one search handle both cases.
        pending.writeBytes([13, 10])
    }

    public var isFinished: Bool { if case .finished = state { return true } else { return false } }

    /// The boundary parameter of a `multipart/form-data` content type, or nil if the type is anything else.
    public static func boundary(contentType: HTTPMediaType?) -> String? {
        guard let type = contentType, type.type.lowercased() == "multipart", type.subType.lowercased() == "form-data",
              let boundary = type.parameters.first(where: { $0.key.lowercased() == "boundary" })?.value,
              (1...200).contains(boundary.utf8.count)
        else { return nil }
        return boundary
    }

    public mutating func feed(_ chunk: ByteBuffer) throws -> [Event] {
        var events: [Event] = []
        if case .finished = state { return events }
        var input = chunk
        if pending.readableBytes > 0 {
            // The unconsumed tail is joined with the new chunk. This copies, but a tail only exists when the
            // previous chunk ended inside a possible delimiter or inside a header block, which is rare in a body.
            var joined = pending
            joined.writeBuffer(&input)
            pending = ByteBuffer()
            input = joined
        }
        try scan(&input, into: &events)
        if input.readableBytes > 0 { pending = input }
        return events
    }

    private mutating func scan(_ input: inout ByteBuffer, into events: inout [Event]) throws {
        while input.readableBytes > 0 {
            switch state {
            case .finished:
                input.moveReaderIndex(to: input.writerIndex)
                return
            case .preamble:
                guard let index = find(delimiter, in: input) else {
                    // Keep only what could still be a delimiter prefix; the rest is preamble.
                    let keep = min(input.readableBytes, delimiter.count - 1)
                    input.moveReaderIndex(forwardBy: input.readableBytes - keep)
                    return
                }
                input.moveReaderIndex(forwardBy: index + delimiter.count)
                state = .afterDelimiter
            case .afterDelimiter:
                guard input.readableBytes >= 2 else { return }
                let view = input.readableBytesView
                let first = view[view.startIndex], second = view[view.startIndex + 1]
                if first == UInt8(ascii: "-"), second == UInt8(ascii: "-") {
                    input.moveReaderIndex(to: input.writerIndex)
                    state = .finished
                    events.append(.end)
                    return
                }
                // RFC 2046 allows transport padding (spaces, tabs) before the CRLF.
                guard let lineEnd = find([13, 10], in: input) else {
                    if input.readableBytes > 256 { throw Failure.malformed }
                    return
                }
                let padding = input.readableBytesView.prefix(lineEnd)
                guard padding.allSatisfy({ $0 == 32 || $0 == 9 }) else { throw Failure.malformed }
                input.moveReaderIndex(forwardBy: lineEnd + 2)
                state = .headers
            case .headers:
                guard input.readableBytes >= 2 else { return }
                if input.readableBytesView.starts(with: [13, 10]) {
                    // A part without headers starts directly with the blank line.
                    input.moveReaderIndex(forwardBy: 2)
                    events.append(.partHeaders([]))
                    state = .body
                    continue
                }
                guard let end = find([13, 10, 13, 10], in: input) else {
                    if input.readableBytes > Self.maxHeaderBytes { throw Failure.headersTooLarge }
                    return
                }
                let block = input.readSlice(length: end)!
                input.moveReaderIndex(forwardBy: 4)
                events.append(.partHeaders(try Self.parseHeaders(block)))
                state = .body
            case .body:
                if let index = find(delimiter, in: input) {
                    if index > 0 { events.append(.bodyChunk(input.readSlice(length: index)!)) }
                    input.moveReaderIndex(forwardBy: delimiter.count)
                    events.append(.partEnd)
                    state = .afterDelimiter
                } else {
                    // Everything except a possible delimiter prefix at the very end is body data.
                    let keep = partialDelimiterLength(at: input)
                    let emit = input.readableBytes - keep
                    if emit > 0 { events.append(.bodyChunk(input.readSlice(length: emit)!)) }
                    return
                }
            }
        }
    }

    /// Offset of the first occurrence of `needle` in the readable bytes. The first byte is located with
    /// `memchr`, so scanning binary data runs at memory speed.
    private func find(_ needle: [UInt8], in buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { raw -> Int? in
            guard let base = raw.baseAddress, raw.count >= needle.count else { return nil }
            let first = Int32(needle[0])
            var offset = 0
            let lastStart = raw.count - needle.count
            while offset <= lastStart {
                guard let hit = memchr(base + offset, first, lastStart - offset + 1) else { return nil }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, needle, needle.count) == 0 { return position }
                offset = position + 1
            }
            return nil
        }
    }

    /// How many bytes at the end of `buffer` are a proper prefix of the delimiter (so they must wait for more data).
    private func partialDelimiterLength(at buffer: ByteBuffer) -> Int {
        buffer.withUnsafeReadableBytes { raw -> Int in
            let count = raw.count
            // The delimiter starts with CR and contains no other CR, so only the last CR can start a prefix.
            var start = max(0, count - (delimiter.count - 1))
            while start < count {
                if raw[start] == 13 {
                    let length = count - start
                    var matches = true
                    for i in 0..<length where raw[start + i] != delimiter[i] {
                        matches = false
                        break
                    }
                    if matches { return length }
                }
                start += 1
            }
            return 0
        }
    }

    private static func parseHeaders(_ block: ByteBuffer) throws -> [(name: String, value: String)] {
        guard let text = block.getString(at: block.readerIndex, length: block.readableBytes, encoding: .utf8) else {
            throw Failure.malformed
        }
        var headers: [(name: String, value: String)] = []
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            if line.first == " " || line.first == "\t", !headers.isEmpty {
                // Obsolete line folding: continue the previous header's value.
                headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { throw Failure.malformed }
            headers.append((name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return headers
    }
}
