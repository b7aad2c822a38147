import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

extension Store {
    /// The private folder of this device's records.
    public var ownDirectory: String { Paths.join(dataDirectory, "own") }
    var ownLogPath: String { Paths.join(ownDirectory, "log.json") }
    var ownFeedPath: String { Paths.join(ownDirectory, "feed.json") }
    var ownArchiveDirectory: String { Paths.join(ownDirectory, "archive") }
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
    }

    /// Reads this device's log from its private copy (or adopts the published one when there
    /// is none), checking that it is the identity's. When `cached` (the cache) holds the key
    /// the private copy has, the file is byte for byte what this device last wrote, and the
    /// cache holds its state: only the header is read, and the tail is appended to as it lies
    /// (`DeviceLog.forAppending`). Anything else, or any doubt, reads it in full.
    func readOwnLog(key: inout Posix.FileKey, cached: CircleCache? = nil) throws(StoreError) -> OwnLog {
        let path = ownLogPath
        guard case .contents(let bytes) = try readFile(path, key: &key, restoreFrom: bestBackup(of:)) else {
            var circleKey = Posix.FileKey.missing
            let published = try readLog(member: identity.member, device: identity.device, key: &circleKey)
            return OwnLog(log: published, bytes: nil, adopted: published != nil)
        }
        var log: DeviceLog
        // (Not while the log holds records of a newer lifesignal, whose version string may be
        // this one's: those are kept by a full read and write only.)
        if let cached, key != .missing, cached.entries.last(where: { $0.path == path })?.key == key,
            !cached.unknown.contains(where: { isOwn(member: $0.member, device: $0.device) }),
            let known = DeviceLog.forAppending(bytes, state: cached.own, parts: cached.ownParts, path: path)
        {
            log = known
        } else {
            do {
                log = try DeviceLog.decode(bytes, path: path, member: nil, device: nil, backup: nil)
            } catch {
                throw error.withBackup(bestBackup(of: path))
            }
        }
        guard isOwn(member: log.member, device: log.device) else {
            throw .identityMismatch(
                identity: identityPath, records: path,
                expected: DeviceName(member: identity.member, device: identity.device),
                found: DeviceName(member: log.member, device: log.device), recordsBackup: bestBackup(of: path))
        }
        return OwnLog(log: log, bytes: bytes, adopted: false)
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

    /// How the published copy of this device's log stands against the private one.
    public enum Publication: Equatable, Sendable {
        case current
        case missing
        /// Holds fewer records (a rollback by a sync engine or a restore).
        case older(publishedSeq: Int64, ownSeq: Int64)
        case damaged(StoreError)
        /// Not a copy of this data directory's records: ahead of the private copy, or differing
        /// from it where both have events (another data directory writes as this device, this
        /// one was restored from an older backup, or someone who can write the circle folder
        /// changed it). A writer publishes its own copy over it; a reader (which holds no lock,
        /// and may have read the private copy just before a writer replaced both) reads again,
        /// then says so.
        case notOurs(publishedSeq: Int64)
        /// The device's folder in the circle is a symbolic link (or a file): nothing is read or
        /// written through it; a writer puts a real folder in its place.
        case notAFolder
    }

    /// Compares the published log with the private one (`own`, whose text is `bytes`).
    func publication(of own: DeviceLog, bytes: [UInt8]) -> Publication {
        var own = own
        for folder in [publishedDirectory, Paths.join(publishedDirectory, "archive")]
        where !Posix.isRealDirectory(folder) && Posix.exists(folder) {
            return .notAFolder
        }
        let path = publishedLogPath
        var key = Posix.FileKey.missing
        let read: (log: DeviceLog?, bytes: [UInt8])?
        do throws(StoreError) {
            read = try Self.readStill(
                path, key: &key,
                reading: { (key: inout Posix.FileKey) throws(StoreError) in
                    do throws(SystemError) {
                        return try Posix.read(path, key: &key)
                    } catch {
                        throw error.asReadError(backup: nil)
                    }
                },
                decode: { published throws(StoreError) in
                    published == bytes
                        ? (nil, published)
                        : (
                            try DeviceLog.decode(
                                published, path: path, member: identity.member, device: identity.device, backup: nil),
                            published
                        )
                })
        } catch {
            return .damaged(error)
        }
        guard let read else { return .missing }
        guard let theirs = read.log else { return .current }
        // Older is only a prefix of this history: the same event where both have it. One that
        // differs there was written by another data directory with this device's identity.
        guard (try? own.decodeWritten(path: ownLogPath)) != nil else { return .notOurs(publishedSeq: theirs.lastSeq) }
        if theirs.lastSeq < own.lastSeq, Self.samePrefix(theirs, own) {
            return .older(publishedSeq: theirs.lastSeq, ownSeq: own.lastSeq)
        }
        return .notOurs(publishedSeq: theirs.lastSeq)
    }

    /// Whether `older`'s last event is the one `own` has at that sequence number (true when
    /// `own` no longer holds it in its log: archived events were written here).
    static func samePrefix(_ older: DeviceLog, _ own: DeviceLog) -> Bool {
        guard let theirs = older.events.last, let mine = own.events.first(where: { $0.seq == theirs.seq }) else {
            return true
        }
        return theirs.at == mine.at && theirs.clock == mine.clock
            && type(of: theirs.body).typeName == type(of: mine.body).typeName
    }

    /// Writes `bytes` as the published copy of one of this device's files (not fsync'd: the
    /// private copy is the durable one, and a lost publication is published again). Called
    /// once the private copy is written, so a failure here means "recorded, not published".
    func publish(_ bytes: [UInt8], as relative: String, moving circle: String? = nil) throws(StoreError) {
        do {
            try publishing(bytes, as: relative)
        } catch {
            // A move into `circle` is refused; anything else leaves the circle behind.
            guard let circle else {
                throw StoreError.notPublished(path: error.path, reason: error.reason, privateCopy: ownDirectory)
            }
            throw StoreError.circleRefused(circle: circle, path: error.path, reason: error.reason, cause: error.cause)
        }
    }

    private func publishing(_ bytes: [UInt8], as relative: String) throws(SystemError) {
        let path = Paths.join(publishedDirectory, relative)
        do {
            try makePublishedFolders(Paths.parent(of: path))
            // A segment is written once; a log or feed is replaced over its spare (see `replaceCopy`).
            if relative.hasPrefix("archive/") {
                try Posix.replace(path, with: bytes, durable: false, mode: sharing.files)
            } else {
                try Posix.replaceCopy(path, with: bytes, spare: path + ".bak", mode: sharing.files)
            }
        } catch {
            // The file named, not the temporary file beside it that the write went through.
            guard Paths.parent(of: error.path) == Paths.parent(of: path) else { throw error }
            throw SystemError(operation: error.operation, path: path, code: error.code)
        }
    }

    /// `publish`, remembering in `failure` that the circle could not be written rather than
    /// throwing it: a transaction writes everything private first (the log, its segments, the
    /// feed, with the deliveries it recorded), then says once that the circle is behind.
    func publish(_ bytes: [UInt8], as relative: String, failure: inout StoreError?) {
        do {
            try publish(bytes, as: relative)
        } catch {
            failure = failure ?? error
        }
    }

    /// Creates the folders from the circle down to `directory` (in this device's folder), each a
    /// real folder: nothing is written through a link. A link or file where this device's own
    /// folders belong is removed (only this device writes there); one higher up, where other
    /// devices' folders are, is an error for a person to look at.
    private func makePublishedFolders(_ directory: String) throws(SystemError) {
        let circle = circleDirectory
        guard directory.hasPrefix(circle + "/") else { return try Posix.makeDirectories(directory) }
        var path = circle
        for part in directory.dropFirst(circle.count + 1).split(separator: "/") {
            path = Paths.join(path, String(part))
            if Posix.isRealDirectory(path) { continue }
            if Posix.exists(path) {
                guard path.hasPrefix(publishedDirectory) else {
                    throw SystemError(operation: "open", path: path, code: Posix.isSymbolicLink(path) ? ELOOP : ENOTDIR)
                }
                Posix.remove(path)
            }
            try Posix.makeDirectories(path, mode: sharing.directories)
        }
    }

    /// Copies the published archive segments into the private folder, for a directory written
    /// before private copies existed (once, when it adopts its published log).
    func adoptPublishedSegments() throws(StoreError) {
        let published = Paths.join(publishedDirectory, "archive")
        let names: [String]
        do {
            names = try Posix.list(published) ?? []
        } catch {
            throw error.asReadError(backup: nil)
        }
        guard !names.isEmpty else { return }
        do {
            try Posix.makeDirectories(ownArchiveDirectory)
        } catch {
            throw error.asCreateError
        }
        for name in names where ArchiveSegment(fileName: name) != nil {
            let target = Paths.join(ownArchiveDirectory, name)
            if !Posix.exists(target) {
                try Store.write(try Files.read(Paths.join(published, name)), to: target, backup: false)
            }
        }
    }

    /// Publishes the private archive segments the circle lacks.
    func publishMissingSegments(moving circle: String? = nil) throws(StoreError) {
        let own: [String]
        do {
            own = try Posix.list(ownArchiveDirectory) ?? []
        } catch {
            throw error.asReadError(backup: nil)
        }
        let archive = Paths.join(publishedDirectory, "archive")
        // What lies behind a link is not the circle's: everything is published into a real folder.
        let published = Set(Posix.isRealDirectory(archive) ? ((try? Posix.list(archive)) ?? nil) ?? [] : [])
        for name in own where ArchiveSegment(fileName: name) != nil && !published.contains(name) {
            try publish(try Files.read(Paths.join(ownArchiveDirectory, name)), as: "archive/" + name, moving: circle)
        }
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
        if transaction.changed || own.adopted || resign {
            try save(
                &transaction.log, hadValidFile: own.bytes != nil, signer: transaction.signer, unpublished: &unpublished)
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
