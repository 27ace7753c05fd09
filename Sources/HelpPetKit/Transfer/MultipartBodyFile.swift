import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `multipart/form-data` body written to a private temporary file: the text fields, then one file part whose
/// bytes are streamed from the source file in 1 MiB chunks. The audio is never held in memory, and the body can be
/// handed to `URLSession`'s upload-from-file (what iOS background uploads require) and re-sent on a retry.
struct MultipartBodyFile: Sendable {
    /// The body file (delete it with ``remove()``).
    let url: URL
    let boundary: String
    /// Size of the whole body.
    let length: Int64
    /// Offset of the first byte of the file part's content inside the body.
    let contentOffset: Int64
    /// Size of the source file.
    let contentLength: Int64

    var contentTypeHeader: String { "multipart/form-data; boundary=\(boundary)" }

    static let chunkSize = 1 << 20

    /// Writes the body into `directory`: every field as a text part in the given order, then the file part
    /// `fileField` (last) with `fileName` and `fileContentType`.
    static func make(
        fields: [(String, String)], fileField: String, fileName: String, fileContentType: String, source: URL,
        directory: URL
    ) throws(HelpPetError) -> MultipartBodyFile {
        let boundary = "HelpPetKit-\(UUID().uuidString)"
        var prefix = ""
        for (name, value) in fields {
            prefix += "--\(boundary)\r\n"
            prefix += "Content-Disposition: form-data; name=\"\(quoted(name))\"\r\n\r\n"
            prefix += "\(value)\r\n"
        }
        prefix += "--\(boundary)\r\n"
        prefix += "Content-Disposition: form-data; name=\"\(quoted(fileField))\"; filename=\"\(quoted(fileName))\"\r\n"
        prefix += "Content-Type: \(fileContentType)\r\n\r\n"
        let suffix = "\r\n--\(boundary)--\r\n"

        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .file(path: directory.path, reason: "cannot create folder: \(error.localizedDescription)")
        }
        let url = directory.appendingPathComponent("upload-\(UUID().uuidString).multipart")
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw .file(path: url.path, reason: String(cString: strerror(errno))) }
        close(fd)

        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: source)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw .file(path: source.path, reason: "cannot be read")
        }
        defer { try? input.close() }
        do {
            let output = try FileHandle(forWritingTo: url)
            defer { try? output.close() }
            try output.write(contentsOf: Data(prefix.utf8))
            var copied: Int64 = 0
            while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
                copied += Int64(chunk.count)
            }
            try output.write(contentsOf: Data(suffix.utf8))
            try output.synchronize()
            let prefixLength = Int64(prefix.utf8.count)
            return MultipartBodyFile(
                url: url, boundary: boundary, length: prefixLength + copied + Int64(suffix.utf8.count),
                contentOffset: prefixLength, contentLength: copied)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw .file(path: source.path, reason: "cannot be copied into the upload body: \(error.localizedDescription)")
        }
    }

    /// Deletes the body file.
    func remove() { try? FileManager.default.removeItem(at: url) }

    /// How many bytes of the source file a body offset covers.
    func contentBytes(forBodyBytes sent: Int64) -> Int64 {
        max(0, min(contentLength, sent - contentOffset))
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
