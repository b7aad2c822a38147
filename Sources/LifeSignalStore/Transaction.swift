import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing: one read-modify-write of this device's log (and, when asked, its feed) under the
/// data directory's lock, creating the profile on the first write, then refreshing the cache.

/// One read-modify-write of this device's log, under the data directory's lock.
public struct Transaction {
    public let store: Store
    public internal(set) var log: DeviceLog
    /// Every other log in the circle (this member's other devices and everyone else's),
    /// merged, as read under the lock (or taken from the cache when none had changed).
    public let others: CircleState
    /// The highest Lamport clock among the other logs.
    let othersClock: Int64
    /// Other devices' logs that could not be read and were left out.
    public let skipped: [StoreError]
    /// Members some of whose records could not be read, and since when.
    public internal(set) var unreadable: [String: Timestamp] = [:]
    /// Other devices' logs holding records of a newer lifesignal.
    let othersUnknown: [UnknownRecords]
    /// Other devices' logs that claimed something of another member, left out.
    public internal(set) var foreign: [ForeignRecords] = []
    /// Whose logs count, for every member whose logs were checked (see CircleTrust.swift).
    public internal(set) var speakers: [String: Speakers] = [:]
    /// This transaction enrolled or revoked a device of mine, set my recovery key, or took a
    /// member's key from their code: whose logs count was worked out before it, and is not for
    /// the cache to keep.
    var rosterChanged = false
    /// Logs whose new version did not verify; what was verified of them before stands.
    public internal(set) var rejected: [Store.Rejected] = []
    /// True when this transaction created the profile (the directory's first write).
    public internal(set) var createdProfile = false
    /// True when it also created the circle folder it was given (`init --circle DIR`).
    public internal(set) var createdCircle = false
    /// How the circle's copy of this device's records stood when the transaction began; when
    /// not `.current`, this transaction published them again.
    public internal(set) var publication: Store.Publication = .current
    /// Whether (and since when) an earlier write could not publish this device's records: this
    /// one publishes them all again (see CircleBehind.swift).
    public internal(set) var circleBehind: Store.CircleBehind?
    /// This device's private log was damaged and a copy it signed was read in its place; the
    /// commit keeps the damaged file aside and writes the log again.
    public internal(set) var ownDamage: OwnDamage?
    /// What this device verified before was damaged, and every log was verified again.
    public internal(set) var trustMemoryDamaged = false
    var changed = false
    /// Nothing of this transaction will be written (a dry run): it hands out nothing that
    /// counts only once recorded, such as a button's token.
    public internal(set) var dryRun = false
    /// The key this device signs its files with.
    public internal(set) var signer: SigningKey
    /// This member's feed, merged from all their devices, and this device's own part of it;
    /// loaded only for transactions that asked for it (see `Store.Need`). With `digest`
    /// set, `feed` is only the digest's part (nothing in it is to be noticed or sent).
    public internal(set) var feed = Feed()
    public internal(set) var ownFeed = Feed()
    var feedLoaded = false
    var digest: FeedDigest?
    /// The keys of the feed's files before they were read, when every one of them was read:
    /// what a digest made from this feed is valid for.
    var feedRead: [CircleCache.Entry]?
    var feedChanged = false

    /// Logs holding records of a newer lifesignal (kept, not counted), this device's included.
    public var unknown: [UnknownRecords] {
        guard let own = log.unknownRecords else { return othersUnknown }
        return othersUnknown + [own]
    }

    /// Adds a notification to this device's feed unless the member's feed has it already.
    @discardableResult
    public mutating func notice(_ notification: Notification) -> Bool {
        guard feed.notifications[notification.id] == nil, !(digest?.has(notification.id) ?? false) else {
            return false
        }
        feed.add(notification)
        ownFeed.add(notification)
        feedChanged = true
        return true
    }

    /// Notices everything that exists by `now` for this member and their external contacts.
    @discardableResult
    public mutating func noticeDue(now: Timestamp) -> [Notification] {
        Notifications.due(circle: circle, feed: feed, me: member, now: now, unreadable: unreadable).filter {
            notice($0)
        }
    }

    public mutating func markRead(_ ids: [String]) {
        feed.read.formUnion(ids)
        ownFeed.read.formUnion(ids)
        feedChanged = true
    }

    public mutating func markCleared(_ ids: [String]) {
        feed.cleared.formUnion(ids)
        ownFeed.cleared.formUnion(ids)
        feedChanged = true
    }

    public mutating func recordDelivery(_ attempt: DeliveryAttempt, at time: Timestamp) {
        feed.record(attempt, at: time)
        ownFeed.record(attempt, at: time)
        feedChanged = true
    }

    /// The whole circle, including what this transaction recorded.
    public var circle: CircleState {
        var state = others
        state.merge(log.state)
        return state
    }

    /// This member's state across all their devices, including what this transaction recorded.
    public var memberState: MemberState {
        var state = log.memberState
        if let mine = others.members[log.member] { state.merge(mine) }
        return state
    }

    /// This data directory's member.
    public var member: String { log.member }

    /// Reads this member's feed into the transaction, for one that notices or records delivery.
    mutating func loadFeed() throws(StoreError) {
        let keys = try store.feedEntries()
        let loaded = try store.memberFeed(speakers: speakers[member])
        // What this transaction added to its own part before the whole feed was needed.
        var own = loaded.own
        own.merge(ownFeed)
        feed = loaded.feed
        feed.merge(ownFeed)
        ownFeed = own
        feedLoaded = true
        digest = nil
        feedRead = loaded.skipped.isEmpty ? keys : nil
    }

    /// Records a fact, with a Lamport clock above every clock in the circle as read.
    public mutating func record(_ body: any EventBody, at time: Timestamp) {
        log.append(body, at: time, clock: max(log.clock, othersClock) + 1)
        changed = true
        if body is DeviceEnrolled || body is DeviceRevoked || body is RecoveryKeySet { rosterChanged = true }
        // A key taken from a member's code settles who speaks for them: read them whole next.
        if let pin = body as? KeyPinned, pin.fromCode { rosterChanged = true }
    }

    /// Records that `notify deliver` ran. A record that only follows the previous one replaces
    /// it (the state keeps the latest run anyway): liveness every few minutes must not grow the
    /// history by thousands of events a month.
    public mutating func recordDeliverRun(at time: Timestamp) {
        if log.events.last?.body is DeliverRan { log.events.removeLast() }
        record(DeliverRan(), at: time)
    }
}

extension Store {
    public enum Creation: Sendable {
        /// The profile is created with these settings if this directory has none.
        case ifMissing(NewProfile)
        /// The command only works on an existing profile.
        case never
    }

    /// Runs `body` on this device's log under the lock and writes what it recorded
    /// crash-safely. Returns the body's value and whether a new profile was created.
    /// With `dryRun`, the body runs on what is there but nothing is locked, created or written:
    /// what a command would do, shown without doing it.
    /// With `unfinished`, a write whose log was recorded but could not be finished (its copy in
    /// the circle, `.notPublished`, or its feed, `.feedNotWritten`) is handed to it rather than
    /// thrown: its value is returned, so a caller can still act on it (send what it made due)
    /// and say afterwards what is missing.
    public static func update<T>(
        dataDirectory: String, lockTimeout: Int, creation: Creation, now: Timestamp, needs need: Need = .circle,
        dryRun: Bool = false, unfinished: ((StoreError) -> Void)? = nil,
        _ body: (inout Transaction) throws -> T
    ) throws -> (value: T, created: Bool) {
        // Nothing is created, not even the directory, for a command that needs a profile. (The
        // identity is read under the lock; one whose backup is left is damage, said then.)
        let identity = identityPath(dataDirectory)
        if case .never = creation, !Posix.exists(identity), !Posix.exists(identity + ".bak") {
            throw StoreError.notInitialized(dataDirectory: dataDirectory)
        }
        let lock = dryRun ? nil : try lock(dataDirectory, timeout: lockTimeout)
        defer { lock?.release() }
        let (store, created, own, createdCircle, cache) = try openDevice(
            dataDirectory, creation: creation, dryRun: dryRun, others: need.others)
        let signer = try store.signingKey(signedWith: own.log?.key, dryRun: dryRun)
        let others = try store.othersForWriting(cache)
        var transaction = Transaction(
            store: store,
            log: own.log ?? DeviceLog(member: store.identity.member, device: store.identity.device),
            others: others.snapshot.others, othersClock: others.snapshot.othersClock,
            skipped: others.snapshot.skipped, othersUnknown: others.snapshot.unknown, signer: signer)
        transaction.createdProfile = created
        transaction.dryRun = dryRun
        transaction.createdCircle = createdCircle
        transaction.unreadable = others.snapshot.unreadable
        transaction.foreign = others.snapshot.foreign
        transaction.speakers = others.snapshot.speakers
        transaction.rejected = others.snapshot.rejected
        if let log = own.log, let bytes = own.bytes {
            transaction.publication = store.publication(of: log, bytes: bytes)
        }
        transaction.circleBehind = store.circleBehind()
        transaction.ownDamage = own.damage
        transaction.trustMemoryDamaged = others.snapshot.trustMemoryDamaged
        switch need.feed {
        case .none: break
        case .whole: try transaction.loadFeed()
        case .digest(let sync):
            if let digest = others.digest?.decoded,
                digest.showsNothingToDo(
                    me: store.identity.member, device: store.identity.device, circle: transaction.circle, now: now,
                    unreadable: transaction.unreadable, sync: sync,
                    local: store.localChannels(circle: transaction.circle))
            {
                transaction.feed = digest.part
                transaction.digest = digest
            } else {
                try transaction.loadFeed()
            }
        }
        if created, case .ifMissing(let profile) = creation { transaction.start(profile, at: now) }
        let value = try body(&transaction)
        if dryRun { return (value, created) }
        let finished = try store.commit(&transaction, own: own, now: now, unfinished: unfinished)
        TrustMemory.remember(others.learned, in: dataDirectory)
        // (Not over an unfinished write: a reader trusting the cache would not see what is missing.)
        if finished, !created, own.log != nil { store.refreshCache(after: transaction, others: others, now: now) }
        return (value, created)
    }

    /// This directory's device, made ready for a write: its identity (new when there is none
    /// and `creation` allows one), its own log, and its folders. The own records are read (and
    /// checked against the identity) before anything is created for that identity in the
    /// circle; a new device has none anywhere. A new identity is written last, so a circle that
    /// refuses this device leaves no profile behind pointing at it.
    private static func openDevice(_ dataDirectory: String, creation: Creation, dryRun: Bool, others: OthersUse)
        throws(StoreError)
        -> (store: Store, created: Bool, own: OwnLog, createdCircle: Bool, cache: CircleCache.Loaded?)
    {
        let (store, created) = try openOrCreate(dataDirectory, creation: creation)
        let cache =
            created ? nil : CircleCache.load(store, checkingExceptOwn: true, scope: others == .linked ? .linked : .all)
        var ownKey = Posix.FileKey.missing
        let own =
            created
            ? OwnLog(log: nil, bytes: nil, adopted: false) : try store.readOwnLog(key: &ownKey)
        let circleExisted = Posix.exists(store.circleDirectory)
        if !dryRun {
            try store.prepareDeviceDirectory(newProfile: created, sweeping: others != .linked)
            if created { try Store.write(store.identity.encoded(), to: store.identityPath, backup: false) }
        }
        return (store, created, own, created && !circleExisted && store.identity.circle != nil, cache)
    }

    /// Creates the data directory if need be and takes its lock.
    private static func lock(_ dataDirectory: String, timeout: Int) throws(StoreError) -> FileLock {
        do {
            try Posix.makeDirectories(dataDirectory)
        } catch {
            if error.code == EEXIST || error.code == ENOTDIR {
                throw StoreError.cannotCreate(
                    path: dataDirectory, reason: "a part of that path is a file, not a directory")
            }
            throw error.asCreateError
        }
        do {
            return try FileLock.acquire(lockPath(dataDirectory), timeout: timeout)
        } catch let busy as FileLock.Busy {
            throw StoreError.lockBusy(path: busy.path, waitedSeconds: busy.waitedSeconds)
        } catch let error as SystemError {
            if error.code == EISDIR || error.code == ELOOP || error.code == ENXIO {
                // Something other than a plain file sits where the lock file belongs.
                throw StoreError.unreadable(
                    path: error.path,
                    reason: "\(error.reason); it must be a plain file (lifesignal creates it again if it is removed)",
                    backup: nil)
            }
            throw error.asIOError
        } catch {
            throw StoreError.io(path: lockPath(dataDirectory), operation: "lock", reason: "\(error)")
        }
    }

    /// The directory's store, with a new identity (not yet written) when it has none and
    /// `creation` allows one.
    private static func openOrCreate(_ dataDirectory: String, creation: Creation) throws(StoreError)
        -> (store: Store, created: Bool)
    {
        if let identity = try readIdentity(dataDirectory) {
            return (Store(dataDirectory: dataDirectory, identity: identity), false)
        }
        guard case .ifMissing(let profile) = creation else {
            throw StoreError.notInitialized(dataDirectory: dataDirectory)
        }
        var generator = SystemRandomNumberGenerator()
        let identity = Identity(
            member: profile.joining ?? Identifier.make(using: &generator),
            device: Identifier.make(using: &generator), circle: profile.circle)
        return (Store(dataDirectory: dataDirectory, identity: identity), true)
    }

    /// Creates this device's private and published folders (a circle chosen with `--circle`
    /// is created for a new profile, never recreated for an existing one), and, `sweeping`,
    /// clears what a killed writer left in them and in the data directory. A check-in, the write
    /// someone waits for, leaves that to the next other write (cron's delivery run, within
    /// minutes): such a file is never read, and listing five folders was 2% of a check-in.
    ///
    /// An existing profile whose folder in the circle is gone and cannot be made again (a sync
    /// tool removed it, and the circle is full or read-only) still writes: what it records is
    /// kept here, the run's sends go out, and publishing reports the circle behind, as it does
    /// for a folder that is there but cannot be written.
    private func prepareDeviceDirectory(newProfile: Bool, sweeping: Bool) throws(StoreError) {
        if !newProfile { try checkCircleExists() }
        if sweeping { Store.sweepTemporaryFiles(in: dataDirectory) }
        // The circle's folder first: one that refuses this device leaves nothing behind here.
        for directory in [publishedDirectory, ownDirectory] {
            do {
                try Posix.makeDirectories(
                    directory, mode: directory == ownDirectory ? 0o700 : sharing.directories)
            } catch {
                if directory == publishedDirectory, !newProfile { continue }
                if directory == publishedDirectory, identity.circle != nil {
                    throw StoreError.circleRefused(
                        circle: circleDirectory, path: error.path, reason: error.reason, cause: error.cause)
                }
                throw error.asCreateError
            }
            guard sweeping else { continue }
            Store.sweepTemporaryFiles(in: directory)
            // Segments are written through temporary files too; a writer killed while writing
            // one leaves it in archive/, where nothing else would ever remove it.
            Store.sweepTemporaryFiles(in: Paths.join(directory, "archive"))
        }
    }
}
