import Foundation
import Testing
import Vapor
@testable import ObjectStorage

@Suite struct MultipartScannerTests {
    struct Part: Equatable {
        var headers: [String]
        var body: Data
    }

    /// Feeds `body` in the given chunk sizes (cycled) and collects the parts.
    func parse(_ body: Data, boundary: String, chunkSizes: [Int]) throws -> (parts: [Part], ended: Bool) {
        var scanner = MultipartScanner(boundary: boundary)
        var parts: [Part] = []
        var ended = false
        var offset = 0, turn = 0
        while offset < body.count {
            let size = max(1, chunkSizes[turn % chunkSizes.count])
            turn += 1
            let chunk = body[offset..<min(body.count, offset + size)]
            offset += chunk.count
            for event in try scanner.feed(ByteBuffer(data: Data(chunk))) {
                switch event {
                case let .partHeaders(headers): parts.append(Part(headers: headers.map { "\($0.name): \($0.value)" }, body: Data()))
                case let .bodyChunk(buffer): parts[parts.count - 1].body += Data(buffer.readableBytesView)
                case .partEnd: break
                case .end: ended = true
                }
            }
        }
        return (parts, ended)
    }

    /// A file whose bytes contain near-misses of the delimiter (CR, CRLF, `--`, boundary prefixes).
    static let trickyFile: Data = {
        var data = Data("\r\r\n\r\n-\r\n--\r\n--Bound\r\n--Boundar".utf8)
        data += testBytes(3000)
        // (A real delimiter never occurs inside a part: clients choose a boundary absent from the content.)
        data += Data("\r\n--Boundar\u{7f}\r\n-Boundary\n--Boundary".utf8)
        data += Data("\r".utf8)
        return data
    }()

    static func body(boundary: String = "Boundary") -> Data {
        var body = Data("preamble to ignore\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nuploads/a.bin\r\n".utf8)
        body += Data("--\(boundary)   \r\nContent-Disposition: form-data; name=\"Content-Type\"\r\n\r\n\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += trickyFile
        body += Data("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"after\"\r\n\r\nignored\r\n--\(boundary)--\r\nepilogue".utf8)
        return body
    }

    @Test func parsesFieldsAndBinaryFileForEveryChunking() throws {
        let body = Self.body()
        let expected = try parse(body, boundary: "Boundary", chunkSizes: [body.count])
        #expect(expected.ended)
        #expect(expected.parts.count == 4)
        #expect(expected.parts[0] == Part(headers: ["content-disposition: form-data; name=\"key\""], body: Data("uploads/a.bin".utf8)))
        #expect(expected.parts[1].body == Data())
        #expect(expected.parts[2].body == Self.trickyFile)
        #expect(expected.parts[2].headers.count == 2)
        for size in [1, 2, 3, 5, 7, 11, 13, 64, 1000] {
            #expect(try parse(body, boundary: "Boundary", chunkSizes: [size]).parts == expected.parts, "chunk size \(size)")
        }
        for split in 1..<body.count where split % 3 == 0 {
            #expect(try parse(body, boundary: "Boundary", chunkSizes: [split, body.count]).parts == expected.parts, "split at \(split)")
        }
    }

    @Test func bodyStartingWithDelimiterAndPartWithoutHeaders() throws {
        let body = Data("--b\r\n\r\nno headers\r\n--b--".utf8)
        let result = try parse(body, boundary: "b", chunkSizes: [4])
        #expect(result.parts == [Part(headers: [], body: Data("no headers".utf8))])
        #expect(result.ended)
    }

    @Test func malformedInputThrows() {
        #expect(throws: MultipartScanner.Failure.self) {
            _ = try parse(Data("--b\r\nno colon header\r\n\r\nx\r\n--b--".utf8), boundary: "b", chunkSizes: [100])
        }
        #expect(throws: MultipartScanner.Failure.self) {
            _ = try parse(Data("--bXYZ\r\n".utf8), boundary: "b", chunkSizes: [100])
        }
        let hugeHeaders = Data(("--b\r\nX-Long: " + String(repeating: "a", count: 20_000)).utf8)
        #expect(throws: MultipartScanner.Failure.headersTooLarge) {
            _ = try parse(hugeHeaders, boundary: "b", chunkSizes: [1000])
        }
    }

    @Test func boundaryFromContentType() {
        #expect(MultipartScanner.boundary(contentType: HTTPMediaType(type: "multipart", subType: "form-data", parameters: ["boundary": "abc"])) == "abc")
        #expect(MultipartScanner.boundary(contentType: .json) == nil)
        #expect(MultipartScanner.boundary(contentType: HTTPMediaType(type: "multipart", subType: "form-data")) == nil)
    }

    @Test func contentDispositionParameters() {
        #expect(FormDataDisposition.parse(#"form-data; name="file"; filename="a \"b\".m4a""#) == .init(name: "file", filename: #"a "b".m4a"#))
        #expect(FormDataDisposition.parse("form-data;name=key") == .init(name: "key", filename: nil))
        #expect(FormDataDisposition.parse(#"form-data; filename="x;y"; name="File""#) == .init(name: "File", filename: "x;y"))
        #expect(FormDataDisposition.parse("attachment") == .init(name: nil, filename: nil))
    }
}
