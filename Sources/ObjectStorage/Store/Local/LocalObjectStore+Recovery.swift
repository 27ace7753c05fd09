import Foundation
import Vapor
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalObjectStore {
    /// Runs at start, before this store claims its own temporary directory: creates the directories, then for
    /// every store instance that is no longer running (its lock is free) completes any publish a crash
    /// interrupted after the object was linked, and removes its temporary files (contract §7.1: "temporary
    /// upload files left by a crash are removed at start"). Live neighbours sharing the root are left alone.
    static func recoverAndCleanUp(layout: LocalObjectLayout, buckets: [String], io: StorageFileIO, logger: Logger) async throws {
        let (finished, removed) = try await io.run { () throws -> (Int, Int) in
            try POSIXFile.makeDirectories(layout.tempDirectory)
            for bucket in buckets {
                try POSIXFile.makeDirectories(layout.bucketDirectory(bucket))
                try POSIXFile.makeDirectories(layout.metaRoot + "/" + bucket)
            }
            var finished = 0, removed = 0
            let temp = layout.tempDirectory

            // Instances that are gone: their lock file is no longer locked.
            for name in try POSIXFile.entries(of: temp) where name.hasSuffix(".lock") && !name.hasPrefix(".") {
                let instance = String(name.dropLast(".lock".count))
                guard StoreInstanceLease.isAbandoned(lockPath: temp + "/" + name) else { continue }
                let counts = try cleanUp(directory: layout.instanceDirectory(instance), layout: layout, removeDirectory: true)
                finished += counts.finished
                removed += counts.removed
                try POSIXFile.removeFile(temp + "/" + name)
            }
            // Leftovers without an owner: instance directories whose lock file is gone, lock files that were never
            // renamed into place, and upload files directly in .tmp (the layout before instances existed).
            for name in try POSIXFile.entries(of: temp) {
                let path = temp + "/" + name
                if name.hasPrefix("."), name.hasSuffix(".lock-new") {
                    if StoreInstanceLease.isAbandoned(lockPath: path) { try POSIXFile.removeFile(path) }
                } else if !name.hasSuffix(".lock"), let status = try POSIXFile.status(path), status.isDirectory,
                          try POSIXFile.status(layout.instanceLockPath(name)) == nil {
                    let counts = try cleanUp(directory: path, layout: layout, removeDirectory: true)
                    finished += counts.finished
                    removed += counts.removed
                }
            }
            let counts = try cleanUp(directory: temp, layout: layout, removeDirectory: false)
            return (finished + counts.finished, removed + counts.removed)
        }
        if finished > 0 || removed > 0 {
            logger.notice("embedded store recovered after restart",
                          metadata: ["publishes_finished": "\(finished)", "temporary_files_removed": "\(removed)"])
        }
    }

    /// Finishes interrupted publishes found in `directory`, then removes its upload files (and the directory).
    private static func cleanUp(directory: String, layout: LocalObjectLayout, removeDirectory: Bool) throws
        -> (finished: Int, removed: Int)
    {
        var finished = 0, removed = 0
        let names = try POSIXFile.entries(of: directory)
        for name in names where name.hasPrefix("upload-") && name.hasSuffix(".meta") {
            let id = String(name.dropFirst("upload-".count).dropLast(".meta".count))
            if try finishInterruptedPublish(LocalObjectLayout.uploadPaths(in: directory, uploadID: id), layout: layout) {
                finished += 1
            }
        }
        for name in try POSIXFile.entries(of: directory) where name.hasPrefix("upload-") {
            try POSIXFile.removeFile(directory + "/" + name)
            removed += 1
        }
        if removeDirectory { rmdir(directory) }
        return (finished, removed)
    }

    /// True when the temporary data file and the object are the same inode, i.e. the link happened but the
    /// metadata was not yet renamed into place; the rename is then done now.
    private static func finishInterruptedPublish(_ temp: (data: String, meta: String), layout: LocalObjectLayout) throws -> Bool {
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
