#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The exclusive lock held around every read-modify-write of a data directory's files.
///
/// It is an `flock` on a separate file that is never renamed (locking a file that is then
/// replaced locks the old inode and lets a second writer in). The kernel drops the lock when
/// the process dies, so there are no stale locks; the descriptor is close-on-exec so no child
/// process inherits it.
public final class FileLock {
    public let path: String
    private var fd: Int32

    public struct Busy: Error, Equatable, Sendable {
        public var path: String
        public var waitedSeconds: Int
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Waits up to `timeout` seconds, polling with growing, jittered sleeps (1 ms up to 50 ms),
    /// as git's lock does, so that 200 processes started at once all get their turn.
    public static func acquire(_ path: String, timeout: Int) throws -> FileLock {
        let fd = Posix.retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        if fd < 0 { throw SystemError(operation: "open", path: path, code: errno) }
        var waitedMicroseconds: Int = 0
        var sleep = 1000
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                close(fd)
                throw SystemError(operation: "lock", path: path, code: code)
            }
            if waitedMicroseconds >= timeout * 1_000_000 {
                close(fd)
                throw Busy(path: path, waitedSeconds: timeout)
            }
            let jittered = sleep * Int.random(in: 75...125) / 100
            usleep(UInt32(jittered))
            waitedMicroseconds += jittered
            sleep = min(sleep * 2, 50_000)
        }
        return FileLock(path: path, fd: fd)
    }

    public func release() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
