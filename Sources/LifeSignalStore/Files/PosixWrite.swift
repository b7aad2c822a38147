import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
    import CGlibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing files: the crash-safe replacement (through a temporary file, or the backup's own
/// file swapped in), the in-place overwrite of a cache, and the directory's fsync.
extension Posix {
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
        try replace(path, with: bytes, backup: backup, durable: durable, mode: mode, swapping: swapNames)
    }

    /// The same, with the call that swaps two names given (a test makes it fail).
    static func replace(
        _ path: String, with bytes: [UInt8], backup: String?, durable: Bool, mode: mode_t,
        swapping: (String, String) -> Bool
    ) throws(SystemError) {
        let directory = Paths.parent(of: path)
        // Only a durable file is swapped with its backup: without the fsync before the swap, a
        // power cut could leave the name pointing at old blocks partly written over.
        var swap = Swap.untouched
        if let backup, durable {
            swap = replaceThroughBackup(path, with: bytes, backup: backup, mode: mode, swapping: swapping)
            // A backup written over but not swapped in holds text that was never saved: it goes,
            // and the temporary file's way makes the current file the backup again, on fresh
            // blocks (a failing sector under the old ones is not written to again).
            if swap == .spoiled { _ = unlink(backup) }
        }
        if swap != .done {
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

    /// Replaces `path` with `bytes`, never torn but not durable: for a copy that may be lost (the
    /// circle's copy of a private file). The bytes go over `spare`, the version before last,
    /// which is then renamed over `path` while the old file takes the spare's name (a link, then
    /// a rename): no inode is made or freed. On ext4 making one in a crowded folder, then freeing
    /// the old one, cost a check-in in a circle of 1,000 0.34 ms of its 4.1 (0.11 of 2.4 alone).
    /// The spare is cut to nothing before it is written, so its blocks are new ones, as a
    /// temporary file's are: the file system writes them before it commits the rename, as it
    /// does for a temporary file renamed over an existing one. Where the spare is missing, is not
    /// a plain file of its own, or cannot be written or linked, a temporary file is used as
    /// before, keeping the old file as the spare when a link can.
    static func replaceCopy(_ path: String, with bytes: [UInt8], spare: String, mode: mode_t) throws(SystemError) {
        switch replaceOverSpare(path, with: bytes, spare: spare, mode: mode) {
        case .done: return
        case .spoiled: _ = unlink(spare)
        case .untouched: break
        }
        try replaceThroughTemporary(path, with: bytes, backup: nil, durable: false, mode: mode, spare: spare)
    }

    /// `replaceCopy`'s way over the spare; `.untouched` when it cannot be taken.
    ///
    /// Only on a local file system of those `swapsNames` knows, keeping times finer than a second:
    /// elsewhere another machine may hold the old file open by its handle (NFS), or two versions
    /// of one size written within a second would share a key. The spare is locked while it is
    /// written and renamed, so another data directory writing as this device (see
    /// `Publication.notOurs`) cannot write it meanwhile. A reader that had the file open when it
    /// became the spare may find it written over: it reads the name again (`Store.readStill`).
    private static func replaceOverSpare(_ path: String, with bytes: [UInt8], spare: String, mode: mode_t) -> Swap {
        #if canImport(Glibc)
            let local = { (info: stat, fd: Int32) in info.st_mtim.tv_nsec != 0 && swapsNames(fd) }
            guard let fd = openSpare(spare, beside: path, mode: mode, accepting: local) else { return .untouched }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return .untouched }
            guard overwrite(fd, with: bytes, path: spare, fresh: true, synced: false) else { return .spoiled }
            // The old file keeps a name of its own before the spare takes its place.
            let kept = spare + ".tmp"
            _ = unlink(kept)
            guard link(path, kept) == 0 else { return .spoiled }
            guard rename(spare, path) == 0 else {
                _ = unlink(kept)
                return .spoiled
            }
            if rename(kept, spare) != 0 { _ = unlink(kept) }
            return .done
        #else
            return .untouched
        #endif
    }

    /// With `spare`, the file replaced is kept under that name when a link can do it (best
    /// effort: a copy needs no backup).
    private static func replaceThroughTemporary(
        _ path: String, with bytes: [UInt8], backup: String?, durable: Bool, mode: mode_t, spare: String? = nil
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
            if let spare, exists(path) {
                let kept = spare + ".tmp"
                _ = unlink(kept)
                // (A spare that already is the file leaves `kept` in place: rename does nothing.)
                if link(path, kept) == 0 { _ = rename(kept, spare) }
                _ = unlink(kept)
            }
            if rename(temp, path) != 0 { throw SystemError(operation: "rename", path: path, code: errno) }
        } catch {
            _ = unlink(temp)
            throw error
        }
    }

    /// How `replaceThroughBackup` left things.
    private enum Swap {
        /// The new text is in place and the old file is the backup.
        case done
        /// Nothing was changed.
        case untouched
        /// The backup was written over (wholly or in part) but not swapped in.
        case spoiled
    }

    /// A replacement that reuses the backup's file, two writes behind, rather than freeing it
    /// and creating a new one: the bytes are written over it and synced, then its name and
    /// `path` are swapped in one rename (RENAME_EXCHANGE), so the old file becomes the backup.
    /// `path` never holds a partly written file. It spares an inode created and one freed,
    /// which on ext4 cost a check-in a sixth of its time.
    ///
    /// Leaves things `.untouched` unless both are regular files on one file system and the
    /// backup is a file of its own (not a second name of `path`'s: a writer killed between link
    /// and rename leaves that) already large enough on disk to take the bytes, so that a full
    /// disk fails before anything is changed. A write, sync or swap that fails (EIO, a full
    /// copy-on-write file system, which needs new blocks even to write over old ones, a file
    /// system that cannot swap names) leaves it `.spoiled`; a crash meanwhile leaves the backup
    /// torn and `path` whole.
    private static func replaceThroughBackup(
        _ path: String, with bytes: [UInt8], backup: String, mode: mode_t, swapping: (String, String) -> Bool
    ) -> Swap {
        #if canImport(Glibc)
            let fits = { (info: stat, fd: Int32) in Int(info.st_blocks) * 512 >= bytes.count && swapsNames(fd) }
            guard let fd = openSpare(backup, beside: path, mode: mode, accepting: fits) else { return .untouched }
            let written = overwrite(fd, with: bytes, path: backup, fresh: false, synced: true)
            guard close(fd) == 0, written else { return .spoiled }
            return swapping(backup, path) ? .done : .spoiled
        #else
            return .untouched
        #endif
    }

    /// `spare` open for writing, in `mode`, when it and `path` are plain files on one file system
    /// and the spare is a file of its own (not a second name of `path`'s: a writer killed between
    /// link and rename leaves that) that `accepting` takes; nil, nothing changed, otherwise.
    private static func openSpare(
        _ spare: String, beside path: String, mode: mode_t, accepting: (stat, Int32) -> Bool = { _, _ in true }
    ) -> Int32? {
        var target = stat()
        guard lstat(path, &target) == 0, target.st_mode & S_IFMT == S_IFREG else { return nil }
        let fd = retrying { open(spare, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1,
            info.st_dev == target.st_dev, info.st_ino != target.st_ino, accepting(info, fd), fchmod(fd, mode) == 0
        else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Writes `bytes` over the file open at `fd`: cut to nothing first with `fresh` (so its
    /// blocks are new), else cut to their length after; synced with `synced`.
    private static func overwrite(_ fd: Int32, with bytes: [UInt8], path: String, fresh: Bool, synced: Bool) -> Bool {
        (!fresh || ftruncate(fd, 0) == 0) && (try? writeAll(bytes, to: fd, path: path)) != nil
            && (fresh || ftruncate(fd, off_t(bytes.count)) == 0) && (!synced || fullSync(fd) == 0)
    }

    /// Whether the file system holding `fd` is one known to swap two names in one step. On any
    /// other (NFS, CIFS, a USB stick's vfat or exFAT, ZFS before 2.2, most FUSE) the text would
    /// be written and synced over the backup only for the swap to fail, and then written again
    /// through a temporary file: twice the I/O, on the slowest disks.
    private static func swapsNames(_ fd: Int32) -> Bool {
        #if canImport(Glibc)
            var info = statfs()
            guard fstatfs(fd, &info) == 0 else { return false }
            switch UInt32(truncatingIfNeeded: info.f_type) {
            // ext2/3/4, btrfs, XFS, tmpfs, F2FS, overlayfs (a container's), bcachefs. (ext2 under
            // its own driver, which shares ext4's number, cannot: the swap fails and the text
            // goes through a temporary file after all, as on any file system not listed.)
            case 0xEF53, 0x9123_683E, 0x5846_5342, 0x0102_1994, 0xF2F5_2010, 0x794C_7630, 0xCA45_1A4E: return true
            default: return false
            }
        #else
            return false
        #endif
    }

    /// Swaps two names in one step (RENAME_EXCHANGE); false where the file system cannot.
    static func swapNames(_ a: String, _ b: String) -> Bool {
        #if canImport(Glibc)
            renameat2(AT_FDCWD, a, AT_FDCWD, b, UInt32(LIFESIGNAL_RENAME_EXCHANGE)) == 0
        #else
            false
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

    static func fullSync(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(fd)
    }
}
