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
    /// The file's size, for a file refused for its size (EFBIG).
    public var size: Int64? = nil

    public var reason: String {
        if code == EINVAL && operation == "read" { return "it is not a regular file" }
        if code == ELOOP { return "it is a symbolic link, and lifesignal follows none in the circle" }
        if code == EFBIG, let size {
            return
                "it is \(Self.mebibytes(size)), over the \(Self.mebibytes(Int64(Posix.fileLimit))) a lifesignal file may hold; it was not read"
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

    /// What identifies one version of a file or directory: a replaced file has a new inode, a
    /// file changed in place a new size or times, a directory whose entries changed a new
    /// mtime; ctime cannot be set back by any tool. `missing` keys an absent path.
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
    public static func read(_ path: String, limit: Int = fileLimit, key: inout FileKey) throws(SystemError)
        -> ReadResult
    {
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
            throw SystemError(operation: "read", path: path, code: EFBIG, size: Int64(info.st_size))
        }
        // Read straight into a buffer of the file's size (plus one byte, to notice growth),
        // without zeroing a scratch buffer first.
        var bytes: [UInt8] = []
        var capacity = Int(info.st_size) + 1
        while true {
            if bytes.count + 1 > limit {
                throw SystemError(operation: "read", path: path, code: EFBIG, size: Int64(bytes.count))
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
            throw SystemError(operation: "read", path: path, code: EFBIG, size: Int64(bytes.count))
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

    /// Replaces `path` with `bytes` so that a crash at any instant leaves either the old or the
    /// new file: a temporary file in the same directory (O_EXCL|O_NOFOLLOW, mode 0600), every
    /// byte written, fsync, close, rename over the target, fsync of the directory. With
    /// `backup`, the old file is first hard-linked to `backup` (the last good copy), or, where
    /// `replaceThroughBackup` can, the two names are swapped instead.
    ///
    /// `durable: false` skips both fsyncs, for a copy that may be lost but must never be torn.
    public static func replace(
        _ path: String, with bytes: [UInt8], backup: String? = nil, durable: Bool = true, mode: mode_t = 0o600
    ) throws(SystemError) {
        let directory = Paths.parent(of: path)
        if let backup, try replaceThroughBackup(path, with: bytes, backup: backup, durable: durable, mode: mode) {
            // Swapped: nothing else to do but make the swap durable.
        } else {
            try replaceThroughTemporary(path, with: bytes, backup: backup, durable: durable, mode: mode)
        }
        // After the rename the new text is in place; only its durability is in doubt.
        if durable {
            do {
                try syncDirectory(directory)
            } catch {
                throw SystemError(operation: "fsync after rename", path: error.path, code: error.code)
            }
        }
    }

    private static func replaceThroughTemporary(
        _ path: String, with bytes: [UInt8], backup: String?, durable: Bool, mode: mode_t
    ) throws(SystemError) {
        let temp = Paths.join(
            Paths.parent(of: path),
            ".\(Paths.lastComponent(of: path)).tmp.\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        let fd = retrying { open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        if fd < 0 { throw SystemError(operation: "create", path: temp, code: errno) }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do throws(SystemError) {
            if fchmod(fd, mode) != 0 { throw SystemError(operation: "chmod", path: temp, code: errno) }
            try writeAll(bytes, to: fd, path: temp)
            if durable, fullSync(fd) != 0 { throw SystemError(operation: "fsync", path: temp, code: errno) }
            closed = true
            if close(fd) != 0 { throw SystemError(operation: "close", path: temp, code: errno) }
            if let backup, exists(path) {
                let backupTemp = backup + ".tmp"
                _ = unlink(backupTemp)
                if link(path, backupTemp) != 0 { throw SystemError(operation: "link", path: backupTemp, code: errno) }
                if rename(backupTemp, backup) != 0 { throw SystemError(operation: "rename", path: backup, code: errno) }
                // When the backup already is the file (a writer killed after making the backup
                // but before replacing the file), both names are links to one inode and rename
                // does nothing, leaving the temporary name behind.
                _ = unlink(backupTemp)
            }
            if rename(temp, path) != 0 { throw SystemError(operation: "rename", path: path, code: errno) }
        } catch {
            _ = unlink(temp)
            throw error
        }
    }

    /// A replacement that reuses the backup's file, two writes behind, rather than freeing it
    /// and creating a new one: the bytes are written over it (and synced, when durable), then
    /// its name and `path` are swapped in one rename (RENAME_EXCHANGE), so the old file becomes
    /// the backup. `path` never holds a partly written file. It spares an inode created and one
    /// freed, which on ext4 cost a check-in a sixth of its time, and writeback started at the
    /// rename (auto_da_alloc).
    ///
    /// Returns false, having changed nothing, unless both are regular files on one file system
    /// and the backup is a file of its own (not a second name of `path`'s: a writer killed
    /// between link and rename leaves that) already large enough on disk to take the bytes, so
    /// that a full disk fails before anything is changed; and, having written the backup, when
    /// the file system cannot swap names: the caller's temporary file then makes the backup the
    /// old file again. A write that fails midway (EIO, or a full disk on a copy-on-write file
    /// system, which needs new blocks even to write over old ones) or a crash meanwhile leaves
    /// the backup torn and `path` whole; the next write makes a new backup.
    private static func replaceThroughBackup(
        _ path: String, with bytes: [UInt8], backup: String, durable: Bool, mode: mode_t
    ) throws(SystemError) -> Bool {
        #if canImport(Glibc)
            var target = stat()
            guard lstat(path, &target) == 0, target.st_mode & S_IFMT == S_IFREG else { return false }
            let fd = retrying { open(backup, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var spare = stat()
            guard fstat(fd, &spare) == 0, spare.st_mode & S_IFMT == S_IFREG, spare.st_nlink == 1,
                spare.st_dev == target.st_dev, spare.st_ino != target.st_ino,
                Int(spare.st_blocks) * 512 >= bytes.count
            else { return false }
            if fchmod(fd, mode) != 0 { throw SystemError(operation: "chmod", path: backup, code: errno) }
            try writeAll(bytes, to: fd, path: backup)
            if ftruncate(fd, off_t(bytes.count)) != 0 {
                throw SystemError(operation: "truncate", path: backup, code: errno)
            }
            if durable, fullSync(fd) != 0 { throw SystemError(operation: "fsync", path: backup, code: errno) }
            return renameat2(AT_FDCWD, backup, AT_FDCWD, path, UInt32(LIFESIGNAL_RENAME_EXCHANGE)) == 0
        #else
            return false
        #endif
    }

    /// Writes all of `bytes` to `fd`, the first at `start`.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, at start: Int = 0, path: String) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return retrying { pwrite(fd, base + done, buffer.count - done, off_t(start + done)) }
            }
            if n < 0 { throw SystemError(operation: "write", path: path, code: errno) }
            done += n
        }
    }

    /// Writes `bytes` over the file at `path` in place (creating it if need be), then cuts it
    /// to their length. Not atomic: a reader meanwhile may see old and new bytes mixed. Only for
    /// a file whose readers detect that (the cache's checksum) and can do without it; it spares
    /// the new inode, rename and freed inode of a replacement, which on ext4 also starts
    /// writeback of the new file (auto_da_alloc) — a fifth of a check-in's own time.
    static func overwrite(_ path: String, with bytes: [UInt8]) throws(SystemError) {
        try overwrite(path, with: [bytes])
    }

    /// The same, for a file that comes in parts, written one after the other.
    static func overwrite(_ path: String, with parts: [[UInt8]]) throws(SystemError) {
        // O_NONBLOCK: a FIFO put in the file's place must not hang the command; only a regular
        // file is written.
        let fd = retrying { open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600) }
        if fd < 0 { throw SystemError(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError(operation: "stat", path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SystemError(operation: "read", path: path, code: EINVAL) }
        var offset = 0
        for bytes in parts {
            try writeAll(bytes, to: fd, at: offset, path: path)
            offset += bytes.count
        }
        if ftruncate(fd, off_t(offset)) != 0 { throw SystemError(operation: "truncate", path: path, code: errno) }
    }

    public static func syncDirectory(_ path: String) throws(SystemError) {
        let fd = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd < 0 { throw SystemError(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        if fsync(fd) != 0 {
            let code = errno
            // Some file systems cannot fsync a directory; the rename itself still happened.
            if code != EINVAL && code != EBADF { throw SystemError(operation: "fsync", path: path, code: code) }
        }
    }

    private static func fullSync(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(fd)
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
