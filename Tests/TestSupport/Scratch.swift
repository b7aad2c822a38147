import Foundation

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Where the tests make their temporary folders. On Linux, a RAM file system (`/dev/shm`) when
/// it is there with room to spare: every record lifesignal writes is fsync'd, and on this
/// project's 2-core VMs the fsyncs of the unit suite's writes to disk took half its time
/// (37 s against 18 s) while proving nothing a test asserts (a crash test kills a process, which
/// loses no data the page cache holds). `TMPDIR`, when set, is used as it is.
public enum Scratch {
    public static let root: URL = {
        let fallback = FileManager.default.temporaryDirectory
        guard getenv("TMPDIR") == nil else { return fallback }
        let shm = "/dev/shm"
        var info = statvfs()
        guard access(shm, W_OK | X_OK) == 0, statvfs(shm, &info) == 0,
            UInt64(info.f_bavail) * UInt64(info.f_frsize) >= 2 << 30
        else { return fallback }
        return URL(fileURLWithPath: shm, isDirectory: true)
    }()

    /// A new folder's URL under `root` (not created), named `prefix-<uuid>`.
    public static func folder(_ prefix: String) -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }
}
