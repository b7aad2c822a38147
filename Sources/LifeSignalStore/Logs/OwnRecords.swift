import LifeSignalCore

/// This device's own records: the authoritative copy in the data directory (`own/log.json`,
/// `own/feed.json`, `own/archive/`), written durably, and the copy published in the circle
/// (`members/<member>/<device>/`) for everyone else to read.
///
/// The circle is a shared folder that a sync engine may roll back, delete or fill with a
/// peer's damaged copy; the data directory is this machine's alone. So this device never takes
/// its own history from the circle: a published copy that is missing, older than the private
/// one, damaged, or not this data directory's at all (ahead of it, or changed by whoever can
/// write the circle folder) is replaced by this machine's own copy, and said so — nothing a
/// peer writes can stop this device from checking in. A directory written by a lifesignal that
/// kept no private copy adopts the published one once.
extension StoreError {
    /// The same error, pointing at `backup` as the copy to restore from.
    func withBackup(_ backup: String?) -> StoreError {
        switch self {
        case .damaged(let path, let problem, _): return .damaged(path: path, problem: problem, backup: backup)
        case .unreadable(let path, let reason, _): return .unreadable(path: path, reason: reason, backup: backup)
        case .identityMismatch(let identity, let records, let expected, let found, _):
            return .identityMismatch(
                identity: identity, records: records, expected: expected, found: found, recordsBackup: backup)
        case .notInitialized, .newerSchema, .cannotCreate, .io, .lockBusy, .notDurable, .circleMissing, .notPublished,
            .feedNotWritten, .circleRefused, .heldElsewhere, .deviceKey:
            return self
        }
    }
}

/// This device's private log was damaged, and a copy it signed was read in its place: the
/// backup or the circle's copy (`copy`, holding records through `seq`). A write keeps the
/// damaged file aside as `keptAs`.
public struct OwnDamage: Equatable, Sendable {
    public var path: String
    public var problem: String
    public var copy: String
    public var seq: Int64
    public var keptAs: String { path + ".damaged" }
}

extension Store {
    /// The private folder of this device's records.
    public var ownDirectory: String { Paths.join(dataDirectory, "own") }
    var ownLogPath: String { DataFile.ownLog.path(in: dataDirectory) }
    var ownFeedPath: String { DataFile.ownFeed.path(in: dataDirectory) }
    var ownArchiveDirectory: String { DataFile.ownArchive.path(in: dataDirectory) }
    /// The folder this device publishes to in the circle.
    var publishedDirectory: String { deviceDirectory(member: identity.member, device: identity.device) }
    public var publishedLogPath: String { logPath(member: identity.member, device: identity.device) }

    /// Whether (member, device) is this data directory's own device.
    func isOwn(member: String, device: String) -> Bool { member == identity.member && device == identity.device }

    /// This device's log as it stands: the private copy, its text, and whether it had to be
    /// taken from the circle (no private copy yet: written by an older lifesignal).
    struct OwnLog {
        var log: DeviceLog?
        var bytes: [UInt8]?
        var adopted: Bool
        /// The private copy was damaged, and `log` is the copy this device signed that was read in
        /// its place (see `readOwnLog`).
        var damage: OwnDamage? = nil
    }

    /// Reads this device's log from its private copy (or adopts the published one when there
    /// is none), in full, checking that it is the identity's and that it is as this device
    /// signed it: its head's signature and the hash of its events.
    ///
    /// A private copy that is damaged (it does not read, or no longer matches its signature: an
    /// edit, a flipped bit) is never believed, and never signed again. The newest copy this
    /// device signed that still verifies, its backup (one write behind) or the circle's copy
    /// (usually the latest), is read in its place and the damage is said (`OwnLog.damage`); the
    /// next write keeps the damaged file aside and writes the log again from that copy. Only
    /// when there is no such copy does the damage stop the command, naming the file.
    func readOwnLog(key: inout Posix.FileKey) throws(StoreError) -> OwnLog {
        let path = ownLogPath
        do throws(StoreError) {
            guard case .contents(let bytes) = try readFile(path, key: &key, restoreFrom: bestBackup(of:)) else {
                var circleKey = Posix.FileKey.missing
                let published = try readLog(member: identity.member, device: identity.device, key: &circleKey)
                return OwnLog(log: published, bytes: nil, adopted: published != nil)
            }
            var log = try DeviceLog.decode(bytes, path: path, member: nil, device: nil, backup: nil)
            // (The signature first: a flipped bit in an id is damage, not another device's log.)
            log.checkSignature(bytes)
            if case .invalid(let problem) = log.signature {
                throw StoreError.damaged(path: path, problem: problem, backup: nil)
            }
            guard isOwn(member: log.member, device: log.device) else {
                throw StoreError.identityMismatch(
                    identity: identityPath, records: path,
                    expected: DeviceName(member: identity.member, device: identity.device),
                    found: DeviceName(member: log.member, device: log.device), recordsBackup: bestBackup(of: path))
            }
            return OwnLog(log: log, bytes: bytes, adopted: false)
        } catch .damaged(let damaged, let problem, _) where damaged == path {
            guard let copy = signedCopy(of: path) else {
                throw .damaged(path: path, problem: problem, backup: bestBackup(of: path))
            }
            return OwnLog(
                log: copy.log, bytes: copy.bytes, adopted: false,
                damage: OwnDamage(path: path, problem: problem, copy: copy.path, seq: copy.log.lastSeq))
        }
    }

    /// The newest copy of this device's log that this device signed and that still verifies:
    /// its backup or the circle's copy. Nil when neither does, or this device has no key.
    func signedCopy(of path: String) -> (path: String, log: DeviceLog, bytes: [UInt8])? {
        guard let key = (try? readDeviceKey()) ?? nil else { return nil }
        var best: (path: String, log: DeviceLog, bytes: [UInt8])? = nil
        for candidate in [path + ".bak", publishedLogPath] {
            guard case .contents(let bytes)? = try? Posix.read(candidate),
                var log = try? DeviceLog.decode(
                    bytes, path: candidate, member: identity.member, device: identity.device, backup: nil),
                log.key == key.publicKeyText
            else { continue }
            log.checkSignature(bytes)
            guard log.signature == .valid, best.map({ log.lastSeq > $0.log.lastSeq }) ?? true else { continue }
            best = (candidate, log, bytes)
        }
        return best
    }

    /// A file's bytes or `.missing`; a missing file whose backup (`.bak`) exists is damage, not
    /// absence. An error names the copy to restore from: `restoreFrom`'s choice, or the backup
    /// when there is one.
    func readFile(
        _ path: String, key: inout Posix.FileKey, limit: Int = Posix.fileLimit,
        restoreFrom: ((String) -> String?)? = nil
    ) throws(StoreError) -> Posix.ReadResult {
        let backup = path + ".bak"
        func restore() -> String? { restoreFrom.map { $0(path) } ?? (Posix.exists(backup) ? backup : nil) }
        let result: Posix.ReadResult
        do {
            // A private file may be written over in place while it is read (see Posix.read).
            result = try Posix.read(path, limit: limit, key: &key, settling: !path.hasPrefix(circleDirectory + "/"))
        } catch {
            throw error.asReadError(backup: restore())
        }
        if case .missing = result, Posix.exists(backup) {
            throw .damaged(path: path, problem: "it is missing although its backup exists", backup: restore())
        }
        return result
    }

    /// The copy to restore a damaged private log from: of its `.bak` (one write behind) and the
    /// published copy (usually the latest), the one that reads and holds the most records.
    func bestBackup(of path: String) -> String? {
        var best: (path: String, seq: Int64)? = nil
        for candidate in [path + ".bak", publishedLogPath] {
            guard case .contents(let bytes)? = try? Posix.read(candidate),
                let log = try? DeviceLog.decode(
                    bytes, path: candidate, member: identity.member, device: identity.device, backup: nil)
            else { continue }
            if best.map({ log.lastSeq > $0.seq }) ?? true { best = (candidate, log.lastSeq) }
        }
        return best?.path
    }
}

extension Store {
    /// Writes what the transaction recorded: the log (privately and durably, then published),
    /// then the feed. A published copy that was missing, older or damaged is published again
    /// even when nothing was recorded, and a directory written before private copies existed
    /// gets one.
    func commit(
        _ transaction: inout Transaction, own: OwnLog, now: Timestamp, unfinished: ((StoreError) -> Void)?
    ) throws(StoreError) -> Bool {
        do {
            try commit(&transaction, own: own, now: now)
            return true
        } catch {
            switch (error, unfinished) {
            case (.notPublished, let unfinished?), (.feedNotWritten, let unfinished?):
                unfinished(error)
                return false
            default: throw error
            }
        }
    }

    private func commit(_ transaction: inout Transaction, own: OwnLog, now: Timestamp) throws(StoreError) {
        if own.adopted { try adoptPublishedSegments() }
        // A log not yet signed with this key (one of an older lifesignal, or signed before the
        // key was restored from elsewhere) is signed now, with its archive.
        let resign = own.log.map { $0.key != transaction.signer.publicKeyText } ?? false
        // The circle's copies are written after each private one; one that cannot be written
        // does not stop the private writes after it (the feed, with the deliveries just made,
        // above all), and is said at the end.
        var unpublished: StoreError?
        // Everything goes again while the circle is behind, or its copy of the log is not ours.
        let behind = transaction.publication != .current || transaction.circleBehind != nil
        if resign { try signSegments(with: transaction.signer, unpublished: &unpublished) }
        // A damaged private log is kept aside for a person to look at, and written again from
        // the signed copy read in its place: nothing damaged is signed.
        if let damage = own.damage { try keepAside(damage) }
        if transaction.changed || own.adopted || resign || own.damage != nil {
            // (Not over the backup when the file was damaged: the backup may be the copy read.)
            try save(
                &transaction.log, hadValidFile: own.bytes != nil && own.damage == nil, signer: transaction.signer,
                unpublished: &unpublished)
        } else if behind, let bytes = own.bytes {
            publish(bytes, as: "log.json", failure: &unpublished)
        }
        if behind || own.adopted {
            do {
                try publishMissingSegments()
            } catch .notPublished(let path, let reason, let privateCopy) {
                unpublished = unpublished ?? .notPublished(path: path, reason: reason, privateCopy: privateCopy)
            }
        }
        // Noted before the feed's private write, which may fail on the same full disk.
        noteCircleBehind(unpublished, now: now)
        // Only a transaction that loaded the feed may write it (else it would replace the
        // feed with the few entries it added); one that used the digest loads it now.
        if transaction.feedChanged, transaction.digest != nil { try transaction.loadFeed() }
        if transaction.feedChanged, transaction.feedLoaded {
            // The feed after the log: a crash in between can only mean a notification noticed
            // again (and delivered again), never a fact lost.
            transaction.ownFeed.prune(now: now)
            let bytes = FeedFile.encode(transaction.ownFeed, signer: transaction.signer)
            do {
                try Store.write(bytes, to: ownFeedPath, backup: Posix.exists(ownFeedPath))
            } catch {
                // After the log was recorded: it is kept, and said so.
                guard transaction.changed || own.adopted || resign else { throw error }
                throw error.feedNotWritten(ownFeedPath)
            }
            publish(bytes, as: "feed.json", failure: &unpublished)
        } else if behind, case .contents(let bytes)? = try? Posix.read(ownFeedPath) {
            // The circle's copy of the feed may be as far behind as the log's: it goes again with
            // it, so this member's other devices see what was delivered and read meanwhile, and
            // do not send it again.
            publish(bytes, as: "feed.json", failure: &unpublished)
        }
        noteCircleBehind(unpublished, now: now)
        if let unpublished { throw unpublished }
        if transaction.circleBehind != nil { clearCircleBehind() }
    }
}
