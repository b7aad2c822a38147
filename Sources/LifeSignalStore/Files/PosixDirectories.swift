import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directories: what is at a path, creating folders, and listing them — including telling a
/// real folder from a link to one, since nothing in the circle is opened through a link.
extension Posix {
    /// Seconds since `path` was last modified, by the real clock; nil when it does not exist.
    public static func secondsSinceModified(_ path: String) -> Double? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Double(time(nil) - info.st_mtim.tv_sec)
    }

    /// Does anything (file, directory, dangling symlink) exist at `path`?
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a directory or a link to one.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` is a directory itself, not a link to one.
    public static func isRealDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path`, links followed, names anything: a link to nothing does not.
    public static func resolves(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Creates `path` and missing parents with `mode` (0700 unless a shared circle asks for
    /// group access). Existing directories keep their mode.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(SystemError) {
        if isDirectory(path) { return }
        let parent = Paths.parent(of: path)
        if parent != path { try makeDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0 {
            let code = errno
            if code == EEXIST, isDirectory(path) { return }
            throw SystemError(operation: "mkdir", path: path, code: code)
        }
        _ = chmod(path, mode)
    }

    /// The permission bits of a directory (nil when it is not one).
    public static func directoryMode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return info.st_mode & 0o7777
    }

    /// Names in a directory (without `.` and `..`), sorted; nil when it does not exist.
    public static func list(_ path: String) throws(SystemError) -> [String]? {
        try entries(path, hiddenOnly: false).map { $0.map(\.name).sorted() }
    }

    /// The entries of a directory in the circle, split into the real directories among them
    /// and anything else (a symbolic link, a file); names starting with a dot are left out.
    /// Sorted; nil when the directory does not exist.
    public static func subdirectories(_ path: String) throws(SystemError) -> (folders: [String], others: [String])? {
        guard let listed = try entries(path, hiddenOnly: false) else { return nil }
        var folders: [String] = []
        var others: [String] = []
        for (name, type) in listed where !name.hasPrefix(".") {
            var isFolder = type == UInt8(DT_DIR)
            if type == UInt8(DT_UNKNOWN) {
                // Some file systems do not say; ask without following a link.
                isFolder = isRealDirectory(Paths.join(path, name))
            }
            if isFolder { folders.append(name) } else { others.append(name) }
        }
        return (folders.sorted(), others.sorted())
    }

    /// The names in a directory that start with a dot (without `.` and `..`), unsorted: what
    /// a sweep for temporary files needs, without making a string of every other name.
    public static func hiddenNames(_ path: String) -> [String] {
        ((try? entries(path, hiddenOnly: true)) ?? nil)?.map(\.name) ?? []
    }

    /// A directory's entries with their types as `readdir` gives them, unsorted.
    private static func entries(_ path: String, hiddenOnly: Bool) throws(SystemError) -> [(
        name: String, type: UInt8
    )]? {
        guard let dir = opendir(path) else {
            let code = errno
            if code == ENOENT { return nil }
            throw SystemError(operation: "opendir", path: path, code: code)
        }
        defer { closedir(dir) }
        var entries: [(name: String, type: UInt8)] = []
        while true {
            // readdir returns NULL both at the end and on an error; only errno tells them
            // apart, and a listing cut short by an error must never pass for a whole one.
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw SystemError(operation: "readdir", path: path, code: errno) }
                break
            }
            if hiddenOnly, entry.pointee.d_name.0 != 0x2E { continue }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { entries.append((name, entry.pointee.d_type)) }
        }
        return entries
    }
}
