import LifeSignalCore

/// How the store's errors read to a person: what happened, to which file, what was kept, and
/// the way out. The store reports them as data (`StoreError`); this is the one place they are
/// worded.
extension StoreError {
    var message: String {
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
        case .cannotCreate(let path, let reason, let cause):
            guard cause != .other else {
                return
                    "cannot create \(path): \(reason); check that the parent directory exists and is writable, or choose another place with --home"
            }
            return "cannot create \(path): \(reason); nothing was recorded. \(Self.advice(cause, path: path))"
        case .io(let path, let operation, let reason, let cause):
            guard cause != .other else {
                return
                    "\(operation) failed for \(path): \(reason); nothing was recorded, try again once the disk is fixed"
            }
            return "\(operation) failed for \(path): \(reason); nothing was recorded. \(Self.advice(cause, path: path))"
        case .lockBusy(let path, let waited):
            return
                "another lifesignal has held the lock \(path) for over \(waited)s; nothing was recorded. Try again; if it persists, find the process holding it with 'fuser \(path)'"
        case .feedNotWritten(let path, let reason, let cause):
            let advice = cause == .other ? "" : " " + Self.advice(cause, path: path)
            return
                "it was recorded on this machine, but its notifications could not be written to \(path): \(reason). 'lifesignal notify deliver' notices them again and sends what is due.\(advice)"
        case .notDurable, .circleMissing, .identityMismatch, .circleRefused, .heldElsewhere, .notPublished, .deviceKey:
            return ownRecordsMessage
        }
    }

    /// The doubts about this device's own records, its identity and its circle.
    private var ownRecordsMessage: String {
        switch self {
        case .notDurable(let path, let reason):
            return
                "\(path) was written, but the disk did not confirm it is stored durably (\(reason)). It is probably kept; check the disk (dmesg, df) and run the command again to be sure"
        case .circleMissing(let path):
            return
                "the circle folder \(path) is missing. Nothing was changed and nothing was recreated. If it is a sync folder, make sure it is mounted and the sync is running; if you moved it, run 'lifesignal init --circle NEW-FOLDER'"
        case .identityMismatch(let identity, let records, let expected, let found, let recordsBackup):
            let restore =
                recordsBackup.map {
                    "if the records are wrong, the copy that matches the identity is \($0): cp '\($0)' '\(records)'"
                }
                ?? "if the records are wrong, there is no copy that matches the identity"
            return
                "\(identity) names member \(expected.member) device \(expected.device), but this data directory's own records (\(records)) are member \(found.member) device \(found.device). Nothing was changed. One of the two was edited or damaged: if identity.json is wrong, restore \(identity).bak or write back the ids of the records; \(restore)"
        case .circleRefused(let circle, let path, let reason, let cause):
            let way: String
            if case .permission(let owner, let user) = cause, owner != user {
                way =
                    "It belongs to \(owner.map { "user \($0)" } ?? "another account") and is not shared with this one (user \(user)): for a circle shared between the accounts of one machine, its administrator creates it with a common group — install -d -m 2770 -g family \(circle) — as the README's \"A circle of people\" shows; or choose another folder with 'lifesignal init --circle DIR'"
            } else {
                way = Self.advice(cause, path: path) + "; or choose another folder with 'lifesignal init --circle DIR'"
            }
            return
                "the circle folder \(circle) cannot take this device's records (\(path): \(reason)). Nothing was set up here. \(way)"
        case .heldElsewhere(let published, let publishedSeq):
            return
                "that circle already holds records of this device (\(published), \(publishedSeq) events) that this data directory did not write. Nothing was changed. Another data directory writes as this same device, or this one was restored from an older backup. Give every data directory its own device ('lifesignal init --circle DIR --member CODE' in a new --home), then compare the two; lifesignal will not choose between them for you"
        case .notPublished(let path, let reason, let privateCopy):
            return
                "it was recorded on this machine (\(privateCopy)), but its copy in the circle could not be written (\(path): \(reason)), so the people in your circle cannot see it yet. Fix that, then any lifesignal command that writes ('lifesignal checkin', 'lifesignal notify deliver') publishes it"
        case .deviceKey(let path, let problem):
            return
                "this device's signing key \(path) \(problem). Without it nothing this device writes counts for anyone in your circle, so nothing was written. \(Self.deviceKeyRemedy)"
        case .notInitialized, .damaged, .newerSchema, .unreadable, .cannotCreate, .io, .lockBusy, .feedNotWritten:
            return message
        }
    }

    /// What to do about a device key that cannot be used.
    static let deviceKeyRemedy =
        "Restore device.key from a backup of this data directory; or set this machine up again in a new --home as a new device, with an enrollment code from another of your devices ('lifesignal circle enroll') or your recovery code"

    /// The path and what is wrong with it, without advice: for another device's file, which
    /// that device (or the sync) will rewrite, and which is not ours to restore.
    var summary: String {
        switch self {
        case .damaged(let path, let problem, _): return "\(path): \(problem)"
        case .newerSchema(let path, let found, let supported):
            return
                "\(path): written by a newer lifesignal (schema \(found); this one understands up to \(supported)); upgrade lifesignal to read it"
        case .unreadable(let path, let reason, _): return "\(path): \(reason)"
        case .notInitialized, .cannotCreate, .io, .lockBusy, .notDurable, .circleMissing, .identityMismatch,
            .notPublished, .feedNotWritten, .circleRefused, .heldElsewhere, .deviceKey:
            return message
        }
    }

    /// The way out of a failed write, by its cause.
    static func advice(_ cause: IOCause, path: String) -> String {
        switch cause {
        case .noSpace:
            return
                "The disk holding it is full: free some space (see 'df -h \(Paths.parent(of: path))'), then run the command again"
        case .tooManyFiles:
            return
                "Too many files are open, in this process (its limit is 'ulimit -n') or in the whole system: raise the limit or end other programs, then run the command again"
        case .permission(let owner, let user):
            let whose =
                owner.map { $0 == user ? "belongs to this account but is not writable" : "belongs to user \($0)" }
                ?? "is not writable by this account"
            return
                "This is a permission problem, not a broken disk: lifesignal runs as user \(user) here, and it \(whose). Run lifesignal as the account whose data directory this is, or fix the owner or mode (see 'ls -ld \(path) \(Paths.parent(of: path))')"
        case .readOnly:
            return
                "The file system holding it is mounted read-only: remount it read-write, or choose another place with --home"
        case .other:
            return "Check the disk (dmesg, df) and run the command again"
        }
    }

    private func backupAdvice(path: String, backup: String?) -> String {
        if let backup {
            return "The last good copy is \(backup); to restore it: cp '\(backup)' '\(path)'"
        }
        return "There is no backup of it; repair the file by hand or move it aside"
    }
}

extension DataLocation.Problem {
    var message: String {
        switch self {
        case .emptyHomeFlag: return "--home needs a directory, but the value is empty"
        case .relativeHomeFlag(let flag):
            return "--home \(flag) is relative and the working directory is unknown; give an absolute path"
        case .relativeLifesignalHome(let value):
            return "LIFESIGNAL_HOME must be an absolute path, but it is \"\(value)\"; set it to a path starting with /"
        case .noHomeDirectory:
            return
                "cannot tell where to keep data: HOME is not set and the account has no home directory; set LIFESIGNAL_HOME or pass --home DIR"
        case .nulInPath(let name):
            return
                "\(name) holds a NUL character, which no path can contain (only the part before it would be used); set it to a plain path"
        }
    }
}
