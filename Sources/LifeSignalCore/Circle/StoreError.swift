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
    case cannotCreate(path: String, reason: String, cause: IOCause = .other)
    /// Reading or writing failed part-way.
    case io(path: String, operation: String, reason: String, cause: IOCause = .other)
    /// Another lifesignal kept the lock longer than the wait allows.
    case lockBusy(path: String, waitedSeconds: Int)
    /// The file was written and renamed into place, but the disk did not confirm that it is
    /// stored durably (the directory's fsync failed): written, not lost, not confirmed.
    case notDurable(path: String, reason: String)
    /// The circle folder this data directory uses (chosen with `init --circle`) is not there:
    /// a sync folder not mounted, or moved. Never recreated silently.
    case circleMissing(path: String)
    /// identity.json names another member or device than the records this data directory
    /// wrote (`records`, its private copy): one of them was changed by hand or damaged.
    /// `recordsBackup` is the copy of the records that does match the identity, if any.
    indirect case identityMismatch(
        identity: String, records: String, expected: DeviceName, found: DeviceName, recordsBackup: String?)
    /// What was asked was recorded in this machine's own copy (`privateCopy`), but writing its
    /// copy in the circle (`path`) failed: it is not visible to the circle until a later write
    /// publishes it.
    case notPublished(path: String, reason: String, privateCopy: String)
    /// What was asked was recorded in this machine's own log, but its feed (`path`: the
    /// notifications it raised, the deliveries it made) could not be written (`reason`, a full
    /// disk say): what is due is noticed again from the log and sent by the next delivery.
    case feedNotWritten(path: String, reason: String, cause: IOCause)
    /// The circle folder given with `init --circle` cannot take this device's records (`path`
    /// could not be made: another account's folder, a read-only one). Nothing was set up.
    case circleRefused(circle: String, path: String, reason: String, cause: IOCause)
    /// `init --circle DIR` found this device's records in DIR (`published`), written by another
    /// data directory: moving there would replace them. Nothing is chosen for the person.
    case heldElsewhere(published: String, publishedSeq: Int64)
    /// This device's signing key (`path`, private to the data directory) is missing, damaged, or
    /// not the key its records are signed with (`problem`): what it writes would count for
    /// nothing, so nothing is written until the key is restored or the machine set up again.
    case deviceKey(path: String, problem: String)
}

/// Why a write failed, as far as it tells the way out: each cause has its own advice.
public enum IOCause: Equatable, Sendable {
    /// The disk (or the account's quota) is full.
    case noSpace
    /// This process, or the system, has as many files open as it may.
    case tooManyFiles
    /// This account (user id `user`) may not write there; the file or folder belongs to `owner`.
    case permission(owner: UInt32?, user: UInt32)
    /// The file system is mounted read-only.
    case readOnly
    case other
}

/// A member and one of their devices, as a file names them.
public struct DeviceName: Equatable, Sendable {
    public var member: String
    public var device: String

    public init(member: String, device: String) {
        self.member = member
        self.device = device
    }
}
