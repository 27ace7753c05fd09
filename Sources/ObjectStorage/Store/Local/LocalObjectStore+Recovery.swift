import Foundation

extension LocalObjectStore {
    /// Runs once at start: creates the directories, completes any publish that a crash interrupted after the
    /// object was linked (its metadata is still in `.tmp`), then removes every temporary file (contract §7.1:
    /// "temporary upload files left by a crash are removed at start").
    func recoverAndCleanUp() async throws {
        let layout = self.layout
        let buckets = configuration.buckets.map(\.name)
        let (finished, removed) = try await io.run { () throws -> (Int, Int) in
            try POSIXFile.makeDirectories(layout.tempDirectory)
            for bucket in buckets {
                try POSIXFile.makeDirectories(layout.bucketDirectory(bucket))
                try POSIXFile.makeDirectories(layout.metaRoot + "/" + bucket)
            }
            var finished = 0
            let names = try POSIXFile.entries(of: layout.tempDirectory)
            for name in names where name.hasPrefix("upload-") && name.hasSuffix(".meta") {
                let id = String(name.dropFirst("upload-".count).dropLast(".meta".count))
                if try Self.finishInterruptedPublish(layout: layout, uploadID: id) { finished += 1 }
            }
            var removed = 0
            for name in try POSIXFile.entries(of: layout.tempDirectory) {
                try POSIXFile.removeFile(layout.tempDirectory + "/" + name)
                removed += 1
            }
            return (finished, removed)
        }
        if finished > 0 || removed > 0 {
            logger.notice("embedded store recovered after restart",
                          metadata: ["publishes_finished": "\(finished)", "temporary_files_removed": "\(removed)"])
        }
    }

    /// True when the temporary data file and the object are the same inode, i.e. the link happened but the
    /// metadata was not yet renamed into place; the rename is then done now.
    private static func finishInterruptedPublish(layout: LocalObjectLayout, uploadID: String) throws -> Bool {
        let temp = layout.tempPaths(uploadID: uploadID)
        guard let data = FileManager.default.contents(atPath: temp.meta), let meta = ObjectMetadata.decode(data),
              let dataPath = layout.dataPath(bucket: meta.bucket, key: meta.key),
              let tempStatus = try POSIXFile.status(temp.data), let objectStatus = try POSIXFile.status(dataPath),
              tempStatus.inode == objectStatus.inode, tempStatus.device == objectStatus.device
        else { return false }
        let metaPath = layout.metaPath(bucket: meta.bucket, key: meta.key)
        try POSIXFile.makeDirectories(LocalObjectLayout.parentDirectory(of: metaPath))
        try POSIXFile.check(rename(temp.meta, metaPath), "rename", metaPath)
        try POSIXFile.fsyncDirectory(LocalObjectLayout.parentDirectory(of: metaPath))
        return true
    }
}
