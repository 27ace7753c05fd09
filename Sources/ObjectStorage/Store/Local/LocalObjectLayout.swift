import Foundation

/// Where the embedded store keeps things under its root:
///
///     {root}/{bucket}/{key}         the object's bytes, a plain file (what an operator expects to find)
///     {root}/.meta/{bucket}/{key}   its metadata (content type, size, ETag) as JSON
///     {root}/.tmp/{instance}/       uploads in progress of one running store, removed once it is gone
///
/// Bucket names cannot start with a dot, so `.meta` and `.tmp` never collide with a bucket.
struct LocalObjectLayout: Sendable {
    let root: String

    init(rootDirectory: URL) {
        var path = rootDirectory.standardizedFileURL.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        root = path
    }

    var tempDirectory: String { root + "/.tmp" }
    var metaRoot: String { root + "/.meta" }

    func bucketDirectory(_ bucket: String) -> String { root + "/" + bucket }

    /// The data file of a key, or nil when the key is unsafe or its path would leave the store root.
    func dataPath(bucket: String, key: String) -> String? {
        guard ObjectKeyRules.validate(key) == nil else { return nil }
        let path = root + "/" + bucket + "/" + key
        // Defence in depth: the key rules already exclude `.`/`..`, but the resolved path is checked too.
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard standardized == path, standardized.hasPrefix(root + "/" + bucket + "/") else { return nil }
        return path
    }

    func metaPath(bucket: String, key: String) -> String { metaRoot + "/" + bucket + "/" + key }

    /// `.tmp/{instance}`: the uploads in progress of one running store (see `StoreInstanceLease`).
    func instanceDirectory(_ instance: String) -> String { tempDirectory + "/" + instance }
    func instanceLockPath(_ instance: String) -> String { tempDirectory + "/" + instance + ".lock" }

    /// The temporary data and metadata files of one upload inside `directory`.
    static func uploadPaths(in directory: String, uploadID: String) -> (data: String, meta: String) {
        (directory + "/upload-\(uploadID).data", directory + "/upload-\(uploadID).meta")
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
