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
        if isMachineTrouble { return asIOError }
        return .unreadable(path: path, reason: reason, backup: backup)
    }

    /// A failed write, lock or listing, with its cause.
    var asIOError: StoreError { .io(path: path, operation: operation, reason: reason, cause: cause) }

    /// A file or folder that could not be created, with its cause.
    var asCreateError: StoreError { .cannotCreate(path: path, reason: reason, cause: cause) }

    var cause: IOCause {
        switch code {
        case ENOSPC, EDQUOT: return .noSpace
        case EMFILE, ENFILE: return .tooManyFiles
        case EROFS: return .readOnly
        case EACCES, EPERM:
            // Whose the file is, or else the folder it would be made in.
            var info = stat()
            let owner =
                lstat(path, &info) == 0 || lstat(Paths.parent(of: path), &info) == 0 ? UInt32(info.st_uid) : nil
            return .permission(owner: owner, user: UInt32(geteuid()))
        default: return .other
        }
    }

    var isMachineTrouble: Bool {
        operation == "readdir" || [EMFILE, ENFILE, ENOMEM, EIO, ENOSPC, ENOBUFS, EAGAIN, EINTR].contains(code)
    }
}

extension StoreError {
    /// A failure to write the feed at `path` once the log is recorded: the disk's trouble,
    /// said as "recorded, but its notifications could not be written".
    func feedNotWritten(_ path: String) -> StoreError {
        switch self {
        case .io(_, _, let reason, let cause), .cannotCreate(_, let reason, let cause):
            return .feedNotWritten(path: path, reason: reason, cause: cause)
        default: return self
        }
    }
}
