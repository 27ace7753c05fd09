import Foundation
import Vapor

/// Builds `multipart/form-data` bodies the way browsers and URLSession send them.
struct MultipartFormBody {
    var boundary = "----ObjectStorageTestBoundary\(UUID().uuidString.prefix(8))"
    private(set) var data = Data()

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func addField(_ name: String, _ value: String) {
        data += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    mutating func addFile(name: String = "file", filename: String = "upload.bin", contentType: String = "application/octet-stream", _ bytes: Data) {
        data += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        data += bytes
        data += Data("\r\n".utf8)
    }

    mutating func close() { data += Data("--\(boundary)--\r\n".utf8) }

    var buffer: ByteBuffer { ByteBuffer(data: data) }

    static func form(fields: [(String, String)], file: Data?, fieldsAfterFile: [(String, String)] = []) -> MultipartFormBody {
        var body = MultipartFormBody()
        for (name, value) in fields { body.addField(name, value) }
        if let file { body.addFile(file) }
        for (name, value) in fieldsAfterFile { body.addField(name, value) }
        body.close()
        return body
    }
}

/// Deterministic pseudo-random bytes (so sizes and hashes are reproducible).
func testBytes(_ count: Int, seed: UInt64 = 42) -> Data {
    var state = seed &+ 0x9E3779B97F4A7C15
    var bytes = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        bytes[i] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
}

func md5Hex(_ data: Data) -> String {
    Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
}
