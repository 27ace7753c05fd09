import Foundation

/// A fresh directory under the system temp dir, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init(_ label: String = "objectstorage") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.lowercased())", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Every regular file below the directory, relative paths, sorted.
    func files(under relative: String = "") -> [String] {
        let base = relative.isEmpty ? url : url.appendingPathComponent(relative)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var result: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                result.append(path)
            }
        }
        return result.sorted()
    }

    /// Temporary upload files of an embedded store rooted here (`.tmp/**/upload-*`), wherever the root is.
    func uploadFiles(root: String = "") -> [String] {
        files(under: root.isEmpty ? ".tmp" : root + "/.tmp").filter { $0.split(separator: "/").last?.hasPrefix("upload-") == true }
    }
}
