import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
    import CGlibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed: which, on what, and errno.
public struct SystemError: Error, Equatable, Sendable {
    public var operation: String
    public var path: String
    public var code: Int32
    /// The file's size, for a file refused for its size (EFBIG), and the limit it was over.
    public var size: Int64? = nil
    public var limit: Int64? = nil

    public var reason: String {
        if code == EINVAL && operation == "read" { return "it is not a regular file" }
        if code == ELOOP { return "it is a symbolic link, and lifesignal follows none in the circle" }
        if code == EFBIG, let size {
            return
                "it is \(Self.mebibytes(size)), over the \(Self.mebibytes(limit ?? Int64(Posix.fileLimit))) such a lifesignal file may hold; it was not read"
        }
        return String(cString: strerror(code))
    }

    static func mebibytes(_ bytes: Int64) -> String {
        bytes >= 1 << 30 ? "\(bytes >> 30) GiB" : "\(max(1, bytes >> 20)) MiB"
    }
}

/// Thin, checked wrappers over the POSIX calls the store needs. Every call retries on EINTR
/// and reports errno immediately; nothing here traps.
public enum Posix {
    public enum ReadResult: Equatable, Sendable {
        case missing
        case contents([UInt8])
    }

    /// What identifies one version of a file or directory: a file replaced or changed in place
    /// has new times (and usually a new inode or size: a file swapped with its backup takes
    /// the backup's inode, two writes old), a directory whose entries changed a new mtime;
    /// ctime cannot be set back by any tool. `missing` keys an absent path.
    public struct FileKey: Equatable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        public var modified: Int64
        public var changed: Int64

        public static let missing = FileKey(device: 0, inode: 0, size: -1, modified: 0, changed: 0)

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }

        public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modified = modified
            self.changed = changed
        }
    }

    /// The key of whatever is at `path` now (not following a final symlink).
    public static func key(_ path: String) -> FileKey {
        var info = stat()
        return lstat(path, &info) == 0 ? FileKey(info) : .missing
    }

    /// Keys of many paths under one directory, each looked up from that directory rather than
    /// from the root: checking a circle of a thousand members walks a few path components per
    /// file, not a dozen. A directory that cannot be opened gives `.missing` for every path.
    public final class KeyReader {
        private let fd: Int32

        public init(_ directory: String) { fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        deinit { if fd >= 0 { close(fd) } }

        /// The key of `path`: relative to the directory, or absolute.
        public func key(_ path: String) -> FileKey {
            path.withCString { key(cPath: $0, absolute: path.hasPrefix("/")) }
        }

        /// The key of a path given as C bytes (see `CacheEntries`), absolute or relative to
        /// the directory.
        func key(cPath path: UnsafePointer<CChar>, absolute: Bool) -> FileKey {
            guard absolute || fd >= 0 else { return .missing }
            var info = stat()
            return fstatat(absolute ? AT_FDCWD : fd, path, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileKey(info) : .missing
        }
    }

    /// The largest file lifesignal reads: far above the ten-year benchmark store, far below what
    /// a crafted (sparse) file in the circle could make a reader allocate.
    public static let fileLimit = 64 << 20

    /// The file's bytes, `.missing` when it does not exist (ENOENT), or an error for anything
    /// else — a directory, a symlink, no permission, over `limit` — so that "unreadable" is
    /// never taken for "first run".
    public static func read(_ path: String, limit: Int = fileLimit) throws(SystemError) -> ReadResult {
        var key: FileKey = .missing
        return try read(path, limit: limit, key: &key)
    }

    /// As `read`, also giving the key of the version read — taken from the open file before
    /// reading, so a change during the read makes the key look stale, never the bytes.
    ///
    /// With `settling`, for a file that may be written over in place while it is read (a
    /// private file with a backup: a replacement reuses the backup's file, so the file a
    /// reader without the lock opened may be written over two writes on): when the open file's
    /// key is not the same after the read as before, the path is read again, so torn bytes are
    /// not taken for damage.
    public static func read(_ path: String, limit: Int = fileLimit, key: inout FileKey, settling: Bool = false)
        throws(SystemError) -> ReadResult
    {
        var attempts = 0
        while true {
            attempts += 1
            var changed = false
            let result = try readOnce(path, limit: limit, key: &key, settling: settling, changed: &changed)
            if !changed || attempts == 3 { return result }
        }
    }

    private static func readOnce(
        _ path: String, limit: Int, key: inout FileKey, settling: Bool, changed: inout Bool
    ) throws(SystemError) -> ReadResult {
        key = .missing
        // O_NONBLOCK: a FIFO put in a file's place must not hang the command.
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        if fd < 0 {
            let code = errno
            if code == ENOENT { return .missing }
            throw SystemError(operation: "open", path: path, code: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError(operation: "stat", path: path, code: errno) }
        key = FileKey(info)
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw SystemError(operation: "read", path: path, code: EISDIR)
        default: throw SystemError(operation: "read", path: path, code: EINVAL)
        }
        // Refused unread, before anything is allocated for it.
        if Int64(info.st_size) > Int64(limit) {
            throw SystemError(
                operation: "read", path: path, code: EFBIG, size: Int64(info.st_size), limit: Int64(limit))
        }
        // Read straight into a buffer of the file's size (plus one byte, to notice growth),
        // without zeroing a scratch buffer first.
        var bytes: [UInt8] = []
        var capacity = Int(info.st_size) + 1
        while true {
            if bytes.count + 1 > limit {
                throw SystemError(
                    operation: "read", path: path, code: EFBIG, size: Int64(bytes.count), limit: Int64(limit))
            }
            let start = bytes.count
            var failure: Int32 = 0
            var ended = false
            let chunk = [UInt8](unsafeUninitializedCapacity: max(capacity, 4096)) { buffer, initialized in
                let n = retrying { systemRead(fd, buffer.baseAddress, buffer.count) }
                if n < 0 { failure = errno } else if n == 0 { ended = true }
                initialized = max(0, n)
            }
            // The first chunk is normally the whole file: taken as it is, not copied.
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            if failure != 0 { throw SystemError(operation: "read", path: path, code: failure) }
            if ended || bytes.count == start { break }
            capacity = 64 * 1024
        }
        if bytes.count > limit {
            throw SystemError(operation: "read", path: path, code: EFBIG, size: Int64(bytes.count), limit: Int64(limit))
        }
        if settling {
            var after = stat()
            changed = fstat(fd, &after) == 0 && FileKey(after) != key
        }
        return .contents(bytes)
    }

    /// Why an existing file cannot be opened for writing (nil: it can, or it does not exist).
    static func openingForWriting(_ path: String) -> SystemError? {
        let fd = retrying { open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        if fd >= 0 {
            close(fd)
            return nil
        }
        return errno == ENOENT ? nil : SystemError(operation: "open", path: path, code: errno)
    }

    public static func remove(_ path: String) {
        _ = unlink(path)
    }

    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }
}

// `read` and `write` are shadowed by the enum's own names inside `Posix`.
@inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

extension Posix {
    /// Hands freed heap pages back to the system (glibc keeps them for reuse otherwise), so a
    /// short run's peak memory is what it holds, not what it once held. After a cold read of
    /// the circle, before its snapshot and cache are made: scripts/bench's cold 1,000-member
    /// status peaked about 0.3 MiB lower (max of 15 runs, /usr/bin/time), in the same time.
    static func returnFreedMemory() {
        #if canImport(Glibc)
            _ = malloc_trim(0)
        #endif
    }
}
