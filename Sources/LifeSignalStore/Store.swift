import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which member and device this data directory is, and where its circle is. Private to this
/// machine: `identity.json` in the data directory, outside the circle.
public struct Identity: Equatable, Sendable {
    public static let schemaVersion: Int64 = 1
    public var member: String
    public var device: String
    /// The circle folder chosen with `init --circle`; nil means `<data directory>/circle`.
    public var circle: String?

    func encoded() -> [UInt8] {
        let json: JSON = .object(
            JSONObject([
                ("schemaVersion", .int(Self.schemaVersion)), ("member", .string(member)),
                ("device", .string(device)), ("circle", .optional(circle)),
            ]))
        return json.serializedBytes() + [0x0A]
    }

    static func decode(_ bytes: [UInt8], path: String, backup: String?) throws(StoreError) -> Identity {
        let root = try Files.parse(bytes, path: path, backup: backup, supported: schemaVersion)
        do throws(JSONShapeError) {
            let o = try JSONCursor(root).object()
            try Files.checkVersion(o)
            let member = try o.required("member")
            let device = try o.required("device")
            let identity = Identity(
                member: try member.string(), device: try device.string(), circle: try o.optional("circle")?.string())
            guard Identifier.isValid(identity.member) else { throw member.fail("is not a lifesignal id") }
            guard Identifier.isValid(identity.device) else { throw device.fail("is not a lifesignal id") }
            if let circle = identity.circle, !circle.hasPrefix("/") {
                throw JSONShapeError(path: "circle", message: "must be an absolute path")
            }
            return identity
        } catch {
            throw .damaged(path: path, problem: "at \(error.path): \(error.message)", backup: backup)
        }
    }
}

/// What a profile created by the first writing command starts with.
public struct NewProfile: Equatable, Sendable {
    public var name: String
    public var interval: TimeSpan
    public var reminder: TimeSpan?
    public var circle: String?
    /// Set when this directory becomes another device of an existing member of the circle:
    /// it then takes that member's id and records no profile of its own.
    public var joining: String?

    public init(name: String, interval: TimeSpan, reminder: TimeSpan?, circle: String?, joining: String? = nil) {
        self.name = name
        self.interval = interval
        self.reminder = reminder
        self.circle = circle
        self.joining = joining
    }
}

/// A data directory opened for reading: its identity and its view of the circle. Reads need
/// no lock, because every file is replaced atomically.
public struct Store: Sendable {
    public let dataDirectory: String
    public let identity: Identity

    public var circleDirectory: String { identity.circle ?? Paths.join(dataDirectory, "circle") }
    public var identityPath: String { Store.identityPath(dataDirectory) }

    static func identityPath(_ dataDirectory: String) -> String { Paths.join(dataDirectory, "identity.json") }

    /// Whether `dataDirectory` has a profile (its identity file exists, readable or not).
    public static func hasProfile(_ dataDirectory: String) -> Bool { Posix.exists(identityPath(dataDirectory)) }
    static func lockPath(_ dataDirectory: String) -> String { Paths.join(dataDirectory, "lock") }

    public func memberDirectory(_ member: String) -> String { Paths.join(circleDirectory, "members", member) }

    /// How records are written in the circle. Private (0700 folders, 0600 files) unless the
    /// circle folder itself grants its group access — a circle shared between the accounts of
    /// one machine, set up with e.g. `install -d -m 2750 -g family DIR` — in which case folders
    /// take the circle's group bits and files are group-readable, so the family can read each
    /// other's records. Only the owner ever writes them; nothing outside the circle changes.
    public var sharing: (directories: mode_t, files: mode_t) {
        guard let mode = Posix.directoryMode(circleDirectory), mode & 0o040 != 0 else { return (0o700, 0o600) }
        return (0o700 | (mode & 0o2070), 0o640)
    }
    public func deviceDirectory(member: String, device: String) -> String {
        Paths.join(memberDirectory(member), device)
    }
    public func logPath(member: String, device: String) -> String {
        Paths.join(deviceDirectory(member: member, device: device), "log.json")
    }

    /// Reads a circle folder that no data directory of ours uses yet (for `init --member`).
    public static func peek(circle: String) throws(StoreError) -> CircleRead {
        let visitor = Store(dataDirectory: "", identity: Identity(member: "", device: "", circle: circle))
        return try visitor.readCircle()
    }

    /// Opens an existing data directory; `notInitialized` when nothing was ever recorded.
    public static func open(dataDirectory: String) throws(StoreError) -> Store {
        guard let identity = try readIdentity(dataDirectory) else {
            throw .notInitialized(dataDirectory: dataDirectory)
        }
        return Store(dataDirectory: dataDirectory, identity: identity)
    }

    /// nil when there is no identity and no backup of one (a first run); an error for a
    /// missing identity whose backup exists, since that is a damaged directory, not a new one.
    static func readIdentity(_ dataDirectory: String) throws(StoreError) -> Identity? {
        let path = identityPath(dataDirectory)
        let backup = path + ".bak"
        let bytes: [UInt8]
        do {
            switch try Posix.read(path) {
            case .contents(let b): bytes = b
            case .missing:
                if Posix.exists(backup) {
                    throw StoreError.damaged(
                        path: path, problem: "it is missing although its backup exists", backup: backup)
                }
                return nil
            }
        } catch let error as SystemError {
            if error.code == ENOTDIR {
                // A part of the data directory's path is a file: it cannot exist there at all.
                throw StoreError.cannotCreate(
                    path: dataDirectory, reason: "a part of that path is a file, not a directory")
            }
            throw error.asReadError(backup: Posix.exists(backup) ? backup : nil)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .io(path: path, operation: "read", reason: "\(error)")
        }
        return try Identity.decode(bytes, path: path, backup: Posix.exists(backup) ? backup : nil)
    }

    /// The devices of `member` that have a folder in the circle.
    public func devices(of member: String) throws(StoreError) -> [String] {
        let directory = memberDirectory(member)
        do {
            return (try Posix.list(directory) ?? []).filter(Identifier.isValid)
        } catch {
            throw error.asReadError(backup: nil)
        }
    }

    /// A device's log, or nil when that device has not written one yet.
    public func readLog(member: String, device: String) throws(StoreError) -> DeviceLog? {
        var key = Posix.FileKey.missing
        return try readLog(member: member, device: device, key: &key)
    }

    func readLog(member: String, device: String, key: inout Posix.FileKey) throws(StoreError) -> DeviceLog? {
        let path = logPath(member: member, device: device)
        let backup = path + ".bak"
        let result: Posix.ReadResult
        do {
            result = try Posix.read(path, key: &key)
        } catch {
            throw error.asReadError(backup: Posix.exists(backup) ? backup : nil)
        }
        switch result {
        case .missing:
            if Posix.exists(backup) {
                throw .damaged(path: path, problem: "it is missing although its backup exists", backup: backup)
            }
            return nil
        case .contents(let bytes):
            return try DeviceLog.decode(
                bytes, path: path, member: member, device: device, backup: Posix.exists(backup) ? backup : nil)
        }
    }

    /// The members that have a folder in the circle.
    public func members() throws(StoreError) -> [String] {
        let directory = Paths.join(circleDirectory, "members")
        do {
            return (try Posix.list(directory) ?? []).filter(Identifier.isValid)
        } catch {
            throw error.asReadError(backup: nil)
        }
    }

    /// What reading the whole circle found: every readable log, and the other devices' logs
    /// that could not be read.
    public struct CircleRead: Sendable {
        public var logs: [DeviceLog] = []
        /// Other devices' files that are damaged, unreadable or from a newer lifesignal. They
        /// are skipped (with a warning) so that a half-synced or newer peer cannot stop this
        /// device from checking in; this device's own files are never skipped.
        public var skipped: [StoreError] = []
        /// The key of every directory and log read, for the cache.
        var entries: [CircleCache.Entry] = []

        public var state: CircleState {
            var state = CircleState()
            for log in logs { state.merge(log.state) }
            return state
        }
    }

    /// The circle as one device sees it: its own log's state and everyone else's, merged.
    public struct Snapshot: Sendable {
        public var own: CircleState
        public var others: CircleState
        /// The highest Lamport clock among the other logs.
        public var othersClock: Int64
        public var skipped: [StoreError]
        /// This member's unread count, when the cache had it current (else see `unreadCount`).
        public var unread: Int? = nil

        public var state: CircleState {
            var state = others
            state.merge(own)
            return state
        }
    }

    /// The circle's state for reading, from the private cache when no file changed since it
    /// was built, else from every log (and then the cache is rebuilt).
    public func snapshot() throws(StoreError) -> Snapshot {
        if let cache = CircleCache.load(self), cache.isCurrent(exceptOwn: false) {
            return Snapshot(
                own: cache.own, others: cache.others, othersClock: cache.othersClock, skipped: [],
                unread: cache.currentUnread)
        }
        let read = try readCircle()
        let snapshot = split(read)
        if read.skipped.isEmpty {
            CircleCache(
                circle: circleDirectory, member: identity.member, device: identity.device, entries: read.entries,
                own: snapshot.own,
                others: snapshot.others, othersClock: snapshot.othersClock
            ).save(dataDirectory)
        }
        return snapshot
    }

    /// Separates this device's log from the others'.
    func split(_ read: CircleRead) -> Snapshot {
        var own = CircleState()
        var others = CircleState()
        var clock: Int64 = 0
        for log in read.logs {
            if log.member == identity.member && log.device == identity.device {
                own = log.state
            } else {
                others.merge(log.state)
                clock = max(clock, log.clock)
            }
        }
        return Snapshot(own: own, others: others, othersClock: clock, skipped: read.skipped)
    }

    /// Every log in the circle. This device's own log must be readable; another device's log
    /// that is not is reported in `skipped`.
    public func readCircle() throws(StoreError) -> CircleRead {
        var read = CircleRead()
        // Every key is taken before the listing or read it stands for: a change made meanwhile
        // can only make the cache look stale.
        read.entries.append(CircleCache.Entry(path: "members", key: Posix.key(Paths.join(circleDirectory, "members"))))
        for member in try members() {
            let devices: [String]
            read.entries.append(CircleCache.Entry(path: "members/\(member)", key: Posix.key(memberDirectory(member))))
            do {
                devices = try self.devices(of: member)
            } catch {
                if member == identity.member { throw error }
                read.skipped.append(error)
                continue
            }
            for device in devices {
                let relative = "members/\(member)/\(device)"
                read.entries.append(
                    CircleCache.Entry(path: relative, key: Posix.key(deviceDirectory(member: member, device: device))))
                var key = Posix.FileKey.missing
                do {
                    if let log = try readLog(member: member, device: device, key: &key) { read.logs.append(log) }
                    read.entries.append(CircleCache.Entry(path: relative + "/log.json", key: key))
                } catch {
                    if member == identity.member && device == identity.device { throw error }
                    read.skipped.append(error)
                }
            }
        }
        return read
    }

    /// The member's check-ins, newest first, at or after `since`, at most `limit` of them.
    /// Reads the archive segments only as far back as the request needs.
    public func checkIns(of member: String, in read: CircleRead, limit: Int?, since: Timestamp?) throws(StoreError)
        -> [MemberState.CheckIn]
    {
        let logs = read.logs.filter { $0.member == member }
        var found: [MemberState.CheckIn] = []
        func take(_ events: [Event], device: String) {
            for event in events {
                guard case .checkIn(let note) = event.body, since.map({ event.at >= $0 }) ?? true else { continue }
                found.append(
                    MemberState.CheckIn(
                        stamp: Stamp(clock: event.clock, at: event.at, device: device, seq: event.seq), note: note))
            }
        }
        var segments: [(log: DeviceLog, segment: ArchiveSegment)] = []
        for log in logs {
            take(log.events, device: log.device)
            let directory = Paths.join(deviceDirectory(member: member, device: log.device), "archive")
            let names: [String]
            do { names = try Posix.list(directory) ?? [] } catch { throw error.asReadError(backup: nil) }
            for name in names {
                // A segment past `archivedThrough` was left by a crash before the log was
                // rewritten; its events are still in the log's tail.
                if let segment = ArchiveSegment(fileName: name), segment.lastSeq <= log.archivedThrough {
                    segments.append((log, segment))
                }
            }
        }
        segments.sort { $0.segment.newest > $1.segment.newest }
        for (log, segment) in segments {
            if let since, segment.newest < since { break }
            if let limit, found.count >= limit {
                let sorted = found.sorted { Stamp.earlierInTime($1.stamp, $0.stamp) }
                if segment.newest < sorted[limit - 1].at { break }
            }
            let path = Paths.join(deviceDirectory(member: member, device: log.device), "archive", segment.fileName)
            let bytes: [UInt8]
            do {
                guard case .contents(let b) = try Posix.read(path) else {
                    throw StoreError.damaged(
                        path: path, problem: "the segment vanished while it was being read", backup: nil)
                }
                bytes = b
            } catch let error as SystemError {
                throw error.asReadError(backup: nil)
            } catch let error as StoreError {
                throw error
            } catch {
                throw .io(path: path, operation: "read", reason: "\(error)")
            }
            take(try segment.decode(bytes, path: path, member: member, device: log.device), device: log.device)
        }
        found.sort { Stamp.earlierInTime($1.stamp, $0.stamp) }
        if let limit, found.count > limit { found.removeLast(found.count - limit) }
        return found
    }
}

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
    /// True when this transaction created the profile (the directory's first write).
    public internal(set) var createdProfile = false
    var changed = false
    /// This member's feed, merged from all their devices, and this device's own part of it;
    /// loaded only for transactions that asked for it (`feed: true`).
    public internal(set) var feed = Feed()
    public internal(set) var ownFeed = Feed()
    var feedLoaded = false
    var feedChanged = false

    /// Adds a notification to this device's feed unless the member's feed has it already.
    @discardableResult
    public mutating func notice(_ notification: Notification) -> Bool {
        guard feed.notifications[notification.id] == nil else { return false }
        feed.add(notification)
        ownFeed.add(notification)
        feedChanged = true
        return true
    }

    /// Notices everything that exists by `now` for this member and their external contacts.
    @discardableResult
    public mutating func noticeDue(now: Timestamp) -> [Notification] {
        Notifications.due(circle: circle, feed: feed, me: member, now: now).filter { notice($0) }
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

    /// Records a fact, with a Lamport clock above every clock in the circle as read.
    public mutating func record(_ body: EventBody, at time: Timestamp) {
        log.append(body, at: time, clock: max(log.clock, othersClock) + 1)
        changed = true
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
    public static func update<T>(
        dataDirectory: String, lockTimeout: Int, creation: Creation, now: Timestamp, feed: Bool = false,
        _ body: (inout Transaction) throws -> T
    ) throws -> (value: T, created: Bool) {
        do {
            try Posix.makeDirectories(dataDirectory)
        } catch {
            if error.code == EEXIST || error.code == ENOTDIR {
                throw StoreError.cannotCreate(
                    path: dataDirectory, reason: "a part of that path is a file, not a directory")
            }
            throw StoreError.cannotCreate(path: error.path, reason: error.reason)
        }
        let lock: FileLock
        do {
            lock = try FileLock.acquire(lockPath(dataDirectory), timeout: lockTimeout)
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
            throw StoreError.io(path: error.path, operation: error.operation, reason: error.reason)
        }
        defer { lock.release() }
        sweepTemporaryFiles(in: dataDirectory)

        var created = false
        var store: Store
        if let identity = try readIdentity(dataDirectory) {
            store = Store(dataDirectory: dataDirectory, identity: identity)
        } else {
            guard case .ifMissing(let profile) = creation else {
                throw StoreError.notInitialized(dataDirectory: dataDirectory)
            }
            var generator = SystemRandomNumberGenerator()
            let identity = Identity(
                member: profile.joining ?? Identifier.make(using: &generator),
                device: Identifier.make(using: &generator), circle: profile.circle)
            store = Store(dataDirectory: dataDirectory, identity: identity)
            try write(identity.encoded(), to: store.identityPath, backup: false)
            created = true
        }
        let member = store.identity.member
        let device = store.identity.device
        let deviceDirectory = store.deviceDirectory(member: member, device: device)
        do {
            try Posix.makeDirectories(deviceDirectory, mode: store.sharing.directories)
        } catch {
            throw StoreError.cannotCreate(path: error.path, reason: error.reason)
        }
        sweepTemporaryFiles(in: deviceDirectory)
        // Segments are written through temporary files too; a writer killed while writing
        // one leaves it in archive/, where nothing else would ever remove it.
        sweepTemporaryFiles(in: Paths.join(deviceDirectory, "archive"))
        let existing = try store.readLog(member: member, device: device)
        // Everyone else's logs: from the cache when none changed, else read (this device's own
        // log was just read above, strictly).
        var others: Snapshot
        var entries: [CircleCache.Entry]
        // The cached unread count stays valid only while no feed file changes; its own keys
        // say so, so it can be carried over by a write that does not touch the feed.
        var carried: (unread: Int?, feedEntries: [CircleCache.Entry]) = (nil, [])
        if let cache = CircleCache.load(store), cache.isCurrent(exceptOwn: true) {
            others = Snapshot(own: CircleState(), others: cache.others, othersClock: cache.othersClock, skipped: [])
            entries = cache.entries.filter { !$0.path.hasPrefix(cache.ownPrefix) }
            carried = (cache.unread, cache.feedEntries)
        } else {
            let read = try store.readCircle()
            others = store.split(read)
            entries = read.entries.filter { !$0.path.hasPrefix("members/\(member)/\(device)") }
            if !read.skipped.isEmpty { entries = [] }
        }
        var transaction = Transaction(
            store: store, log: existing ?? DeviceLog(member: member, device: device), others: others.others,
            othersClock: others.othersClock, skipped: others.skipped)
        transaction.createdProfile = created
        if feed {
            let loaded = try store.memberFeed()
            transaction.feed = loaded.feed
            transaction.ownFeed = loaded.own
            transaction.feedLoaded = true
        }
        var generator = SystemRandomNumberGenerator()
        if created, case .ifMissing(let profile) = creation, profile.joining == nil {
            transaction.record(.nameSet(profile.name), at: now)
            transaction.record(.intervalSet(profile.interval), at: now)
            transaction.record(.reminderSet(profile.reminder), at: now)
            transaction.record(.codeSet(Identifier.make(using: &generator)), at: now)
        }
        let value = try body(&transaction)
        if transaction.changed {
            try store.save(&transaction.log, hadValidFile: existing != nil)
        }
        // Only a transaction that loaded the feed may write it (else it would replace the
        // feed with the few entries it added).
        if transaction.feedChanged, transaction.feedLoaded {
            // The feed after the log: a crash in between can only mean a notification noticed
            // again (and delivered again), never a fact lost.
            transaction.ownFeed.prune(now: now)
            let path = store.feedPath(member: member, device: device)
            try write(
                FeedFile.encode(transaction.ownFeed), to: path, backup: Posix.exists(path), mode: store.sharing.files)
        }
        // Refresh the cache with what this write knows: everyone else as read before it, and
        // this device's directory and log as they are now. The directories above this device's
        // keep their earlier keys (a write does not change them), except on the first write,
        // which creates them — then the next read rebuilds the cache instead.
        if transaction.skipped.isEmpty, !entries.isEmpty, !created, existing != nil {
            let own = "members/\(member)/\(device)"
            entries.append(CircleCache.Entry(path: own, key: Posix.key(deviceDirectory)))
            entries.append(
                CircleCache.Entry(
                    path: own + "/log.json", key: Posix.key(store.logPath(member: member, device: device))))
            var cache = CircleCache(
                circle: store.circleDirectory, member: member, device: device, entries: entries,
                own: transaction.log.state,
                others: transaction.others, othersClock: transaction.othersClock)
            if !transaction.feedChanged {
                cache.unread = carried.unread
                cache.feedEntries = carried.feedEntries
            }
            cache.save(dataDirectory)
        }
        return (value, created)
    }

    /// Moves old events to an archive segment when the tail is long, then replaces log.json.
    /// The segment is written first: a crash in between leaves a segment past
    /// `archivedThrough`, which readers ignore and the next save rewrites.
    func save(_ log: inout DeviceLog, hadValidFile: Bool) throws {
        let directory = deviceDirectory(member: log.member, device: log.device)
        if log.events.count > DeviceLog.tailLimit {
            // A segment starting past `archivedThrough` was left by a save that crashed before
            // replacing log.json; its events are still in the tail. Rewriting it by name is not
            // enough: when this save records a different number of events, its segment is cut
            // differently, and once `archivedThrough` passes the old one history would list
            // its events twice. Readers ignore it today, so removing it is safe.
            let archive = Paths.join(directory, "archive")
            for name in (try? Posix.list(archive)) ?? [] {
                if let segment = ArchiveSegment(fileName: name), segment.firstSeq > log.archivedThrough {
                    Posix.remove(Paths.join(archive, name))
                }
            }
        }
        while log.events.count > DeviceLog.tailLimit {
            let moving = Array(log.events.prefix(min(log.events.count - DeviceLog.tailKeep, DeviceLog.tailLimit)))
            guard let first = moving.first, let last = moving.last else { break }
            let newest = moving.map(\.at).max() ?? last.at
            let segment = ArchiveSegment(firstSeq: first.seq, lastSeq: last.seq, newest: newest)
            let archive = Paths.join(directory, "archive")
            do {
                try Posix.makeDirectories(archive, mode: sharing.directories)
            } catch {
                throw StoreError.cannotCreate(path: error.path, reason: error.reason)
            }
            try Store.write(
                ArchiveSegment.encode(moving, member: log.member, device: log.device),
                to: Paths.join(archive, segment.fileName), backup: false, mode: sharing.files)
            log.events.removeFirst(moving.count)
            log.archivedThrough = last.seq
        }
        let path = logPath(member: log.member, device: log.device)
        try Store.write(log.encoded(), to: path, backup: hadValidFile, mode: sharing.files)
    }

    static func write(_ bytes: [UInt8], to path: String, backup: Bool, mode: mode_t = 0o600) throws {
        do {
            try Posix.replace(path, with: bytes, backup: backup ? path + ".bak" : nil, mode: mode)
        } catch {
            if error.operation == "create" {
                throw StoreError.cannotCreate(path: error.path, reason: error.reason)
            }
            throw StoreError.io(path: error.path, operation: error.operation, reason: error.reason)
        }
    }

    /// Temporary files exist only while a writer holds the lock, so any found after taking
    /// it were left by a writer that died (kill -9, power loss) and can go.
    static func sweepTemporaryFiles(in directory: String) {
        guard let names = try? Posix.list(directory) else { return }
        for name in names where name.hasPrefix(".") && name.includes(".tmp.") {
            Posix.remove(Paths.join(directory, name))
        }
    }
}
