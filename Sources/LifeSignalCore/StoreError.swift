/// Everything that can go wrong with the files of a data directory or circle, as data: each case
/// keeps the path it concerns and what was found there. The store reports these; the CLI turns a
/// case into a message and an exit code in one place.
public enum StoreError: Error, Equatable, Sendable {
    /// No profile yet: nothing has been recorded in this data directory.
    case notInitialized(dataDirectory: String)
    /// A file exists but its content is not acceptable: bad JSON (with line and column), the
    /// wrong shape (with a JSON path), or facts that contradict each other.
    case damaged(path: String, problem: String, backup: String?)
    /// Written by a newer lifesignal; refusing to read or rewrite it protects its data.
    case newerSchema(path: String, found: Int64, supported: Int64)
    /// The file exists but cannot be read: a directory in its place, a symlink, no permission.
    case unreadable(path: String, reason: String, backup: String?)
    /// A directory or file could not be created.
    case cannotCreate(path: String, reason: String)
    /// Reading or writing failed part-way.
    case io(path: String, operation: String, reason: String)
    /// Another lifesignal kept the lock longer than the wait allows.
    case lockBusy(path: String, waitedSeconds: Int)
}
