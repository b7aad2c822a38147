import LifeSignalCore

extension SystemError {
    /// The store's view of a failed system call on an existing file.
    func asReadError(backup: String?) -> StoreError {
        .unreadable(path: path, reason: reason, backup: backup)
    }
}
