/// Everything that can go wrong with the files of a data directory or circle. Each case keeps
/// the path it concerns; the CLI turns a case into a message and an exit code in one place.
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

extension StoreError {
    public var message: String {
        switch self {
        case .notInitialized(let dir):
            return
                "no lifesignal profile in \(dir) yet; run 'lifesignal checkin' to record your first check-in, or 'lifesignal init' to set up first"
        case .damaged(let path, let problem, let backup):
            return "\(path) is damaged: \(problem). Nothing was changed. \(backupAdvice(path: path, backup: backup))"
        case .newerSchema(let path, let found, let supported):
            return
                "\(path) was written by a newer lifesignal (schema \(found); this one understands up to \(supported)). Nothing was changed; upgrade lifesignal to use this data"
        case .unreadable(let path, let reason, let backup):
            return "cannot read \(path): \(reason). Nothing was changed. \(backupAdvice(path: path, backup: backup))"
        case .cannotCreate(let path, let reason):
            return
                "cannot create \(path): \(reason); check that the parent directory exists and is writable, or choose another place with --home"
        case .io(let path, let operation, let reason):
            return "\(operation) failed for \(path): \(reason); nothing was recorded, try again once the disk is fixed"
        case .lockBusy(let path, let waited):
            return
                "another lifesignal has held the lock \(path) for over \(waited)s; nothing was recorded. Try again; if it persists, find the process holding it with 'fuser \(path)'"
        }
    }

    /// The path and what is wrong with it, without advice: for another device's file, which
    /// that device (or the sync) will rewrite, and which is not ours to restore.
    public var summary: String {
        switch self {
        case .damaged(let path, let problem, _): return "\(path): \(problem)"
        case .newerSchema(let path, let found, let supported):
            return
                "\(path): written by a newer lifesignal (schema \(found); this one understands up to \(supported)); upgrade lifesignal to read it"
        case .unreadable(let path, let reason, _): return "\(path): \(reason)"
        default: return message
        }
    }

    private func backupAdvice(path: String, backup: String?) -> String {
        if let backup {
            return "The last good copy is \(backup); to restore it: cp '\(backup)' '\(path)'"
        }
        return "There is no backup of it; repair the file by hand or move it aside"
    }
}

extension SystemError {
    /// The store's view of a failed system call on an existing file.
    func asReadError(backup: String?) -> StoreError {
        .unreadable(path: path, reason: reason, backup: backup)
    }
}
