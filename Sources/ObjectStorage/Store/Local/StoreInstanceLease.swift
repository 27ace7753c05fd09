import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Several server processes may share one store root (N API nodes on one disk, or the two-process tests).
/// Each open store therefore writes its uploads into its own `.tmp/{instance}/` directory and holds an
/// exclusive `flock` on `.tmp/{instance}.lock` for as long as it runs. The kernel drops that lock when the
/// process dies, even on SIGKILL, so start-up cleanup removes exactly the temporary files of dead instances and
/// never those of a live neighbour.
final class StoreInstanceLease: @unchecked Sendable {
    let id: String
    private let lock = NSLock()
    private var fd: Int32?

    private init(id: String, fd: Int32) {
        self.id = id
        self.fd = fd
    }

    /// Creates and locks the instance's lock file, then its directory. The lock file is created under a hidden
    /// name and renamed only after it is locked, so no other process can ever find it unlocked.
    static func acquire(layout: LocalObjectLayout) throws -> StoreInstanceLease {
        let id = UUID().uuidString.lowercased()
        let pending = layout.tempDirectory + "/.\(id).lock-new"
        let fd = try POSIXFile.createExclusive(pending)
        do {
            try POSIXFile.check(flock(fd, LOCK_EX | LOCK_NB), "flock", pending)
            try POSIXFile.check(rename(pending, layout.instanceLockPath(id)), "rename", pending)
            try POSIXFile.makeDirectories(layout.instanceDirectory(id))
        } catch {
            POSIXFile.closeFile(fd)
            try? POSIXFile.removeFile(pending)
            throw error
        }
        return StoreInstanceLease(id: id, fd: fd)
    }

    /// True when nobody holds the lock of the file at `path` (its instance is gone). Blocking; pool only.
    static func isAbandoned(lockPath path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// Removes the instance's (empty) directory and lock file and drops the lock. Safe to call twice.
    func release(layout: LocalObjectLayout) {
        lock.withLock {
            guard let fd else { return }
            self.fd = nil
            let directory = layout.instanceDirectory(id)
            for name in (try? POSIXFile.entries(of: directory)) ?? [] { try? POSIXFile.removeFile(directory + "/" + name) }
            rmdir(directory)
            try? POSIXFile.removeFile(layout.instanceLockPath(id))
            POSIXFile.closeFile(fd)
        }
    }
}
