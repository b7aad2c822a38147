import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SystemError {
    /// The store's view of a failed system call on an existing file: a file this process
    /// cannot read (permissions, a directory in its place) is unreadable; a machine in trouble
    /// (too many open files, out of memory, an I/O error, a failed listing) is an I/O error —
    /// never a damaged file, and never a reason to restore a backup.
    func asReadError(backup: String?) -> StoreError {
        if isMachineTrouble { return .io(path: path, operation: operation, reason: reason) }
        return .unreadable(path: path, reason: reason, backup: backup)
    }

    var isMachineTrouble: Bool {
        operation == "readdir" || [EMFILE, ENFILE, ENOMEM, EIO, ENOSPC, ENOBUFS, EAGAIN, EINTR].contains(code)
    }
}
