import LifeSignalCore

/// Reading the circle: the member and device folders, one device's log, every log at once
/// (`readCircle`), and the circle as this device sees it (`snapshot`, from the private cache
/// when nothing changed). Other devices' logs that cannot be read are skipped and reported,
/// and so are records of a newer lifesignal (`unknown`); this device's own log never is.
extension Store {
    /// A circle chosen with `init --circle` that is gone (a sync folder not mounted, moved) is
    /// an error for every command, never an empty circle; the default one, inside the data
    /// directory, is this machine's own and is published again by the next write.
    func checkCircleExists() throws(StoreError) {
        if identity.circle != nil, !Posix.isDirectory(circleDirectory) {
            throw StoreError.circleMissing(path: circleDirectory)
        }
    }

    /// Reads a circle folder that no data directory of ours uses yet (for `init --member`).
    public static func peek(circle: String) throws(StoreError) -> CircleRead {
        let visitor = Store(dataDirectory: "", identity: Identity(member: "", device: "", circle: circle))
        return try visitor.readCircle()
    }

    /// What reading the whole circle found: every readable log, and the other devices' logs
    /// that could not be read.
    public struct CircleRead: Sendable {
        /// This member's logs (`readMember`), or this device's own (`readCircle`).
        public var logs: [DeviceLog] = []
        /// The other devices' logs of `readCircle`, folded as they were read rather than
        /// kept: their state merged, their highest clock, and their records of a newer
        /// lifesignal.
        var others = CircleState()
        var othersClock: Int64 = 0
        var othersUnknown: [UnknownRecords] = []
        var othersForeign: [ForeignRecords] = []
        /// Other devices' files that are damaged, unreadable or from a newer lifesignal. They
        /// are skipped (with a warning) so that a half-synced or newer peer cannot stop this
        /// device from checking in; this device's own files are never skipped.
        public var skipped: [StoreError] = []
        /// The first log left unread once the run had read all it reads of others (see
        /// `ReadBudget`): said first among the skipped, for every one after it.
        var notRead: StoreError?
        /// Members some of whose records could not be read, with when the file was last changed
        /// (when that could be told): a dependent among them needs attention.
        public var unreadable: [String: Timestamp] = [:]
        /// The key of every directory and log read, for the cache.
        var entries: [CircleCache.Entry] = []
        /// Whose logs count, for every member whose logs were checked (see CircleTrust.swift).
        public var speakers: [String: Speakers] = [:]
        /// What this read verified that the reader's memory did not hold yet (TrustMemory.swift).
        var learned: [String: TrustSeen] = [:]

        /// What another part of the same read found.
        mutating func add(_ part: CircleRead) {
            speakers.merge(part.speakers) { $1 }
            learned.merge(part.learned) { $1 }
            logs += part.logs
            others.merge(part.others)
            othersClock = max(othersClock, part.othersClock)
            othersUnknown += part.othersUnknown
            othersForeign += part.othersForeign
            skipped += part.skipped
            notRead = notRead ?? part.notRead
            unreadable.merge(part.unreadable, uniquingKeysWith: min)
            entries += part.entries
        }

        mutating func fold(_ log: DeviceLog) {
            others.merge(log.state)
            othersClock = max(othersClock, log.clock)
            if let unknown = log.unknownRecords { othersUnknown.append(unknown) }
            if let foreign = log.foreign { othersForeign.append(foreign) }
        }

        mutating func skip(_ error: StoreError, member: String, since key: Posix.FileKey) {
            skipped.append(error)
            markUnreadable(member, since: key)
        }

        /// Since when `member`'s records could not be read: the last change of the file that
        /// could not be, or the epoch when that is unknown (a folder that is gone), which the
        /// status says as unknown (see `DependentStatus`).
        mutating func markUnreadable(_ member: String, since key: Posix.FileKey) {
            let changed = Timestamp(seconds: key == .missing ? 0 : key.modified / 1_000_000_000)
            unreadable[member] = min(unreadable[member] ?? changed, changed)
        }
        /// How the circle's copy of this device's log stands against its private copy.
        public var publication: Publication = .current
        /// This device's private log was damaged, and a copy it signed was read in its place.
        public var ownDamage: OwnDamage?
        /// What this device verified before (`verified.bin`) was damaged: not believed, and every
        /// log was verified again.
        public var trustMemoryDamaged = false

        /// Logs holding records of a newer lifesignal, kept but not counted.
        public var unknown: [UnknownRecords] { othersUnknown + logs.compactMap { $0.unknownRecords } }
        /// Logs that claimed something of another member than their own, left out.
        public var foreign: [ForeignRecords] { othersForeign + logs.compactMap { $0.foreign } }

        public var state: CircleState {
            var state = others
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
        /// Members some of whose records could not be read (see `CircleRead.unreadable`).
        public var unreadable: [String: Timestamp] = [:]
        /// Logs holding records of a newer lifesignal, kept but not counted.
        public var unknown: [UnknownRecords]
        /// Logs that claimed something of another member than their own, left out.
        public var foreign: [ForeignRecords] = []
        /// This member's unread count, when the cache had it current (else see `unreadCount`).
        public var unread: Int? = nil
        /// Whose logs count, for every member whose logs were checked (see CircleTrust.swift).
        public var speakers: [String: Speakers] = [:]
        /// Logs whose new version did not verify; what was verified of them before stands.
        public var rejected: [Rejected] = []
        /// How the circle's copy of this device's log stands against its private copy.
        public var publication: Publication = .current
        /// This device's private log was damaged, and a copy it signed was read in its place.
        public var ownDamage: OwnDamage?
        /// What this device verified before (`verified.bin`) was damaged: not believed, and every
        /// log was verified again.
        public var trustMemoryDamaged = false

        /// The state `own` and `others` make together, when it was made once already.
        var merged: CircleState? = nil

        public var state: CircleState {
            if let merged { return merged }
            var state = others
            state.merge(own)
            return state
        }

        /// A snapshot for reading, from the cache.
        static func forReading(_ cache: consuming CircleCache, unread: Int?) -> Snapshot {
            var snapshot = Snapshot(
                own: cache.own, others: cache.others, othersClock: cache.othersClock, skipped: [],
                unknown: cache.unknown, foreign: cache.foreign, unread: unread)
            snapshot.speakers = cache.speakers
            snapshot.rejected = cache.rejected
            cache.others = CircleState()
            snapshot.mergeForReading()
            return snapshot
        }

        /// Makes `state` once: `others` merged with `own` in place, without copying a large
        /// circle's state, and left empty (a snapshot for reading is read through `state`).
        mutating func mergeForReading() {
            var state = others
            others = CircleState()
            state.merge(own)
            merged = state
        }
    }

    /// The circle's state for reading, from the private cache when no file changed since it
    /// was built, else from every log (and then the cache is rebuilt).
    ///
    /// For the `dashboard`, a current cache is decoded only for the members `me`'s dashboard
    /// reads (`CircleState.dashboardMembers`): a large circle's other members are skipped.
    public func snapshot(for reading: Reading = .everything) throws(StoreError) -> Snapshot {
        let dashboardOnly = reading == .dashboard
        var loaded = CircleCache.load(self, checkingExceptOwn: false, scope: dashboardOnly ? .dashboard : .all)
        let isCurrent = loaded?.isCurrent ?? false
        var cache = loaded.take()?.cache
        if isCurrent, let current = cache.take() {
            let unread = current.currentUnread
            return .forReading(consume current, unread: unread)
        }
        if dashboardOnly { cache = CircleCache.load(self) }
        // A log changed, but the feeds may not have: their count is kept while they are not.
        // A dashboard needs the count anyway: it is made here (on a second thread while the
        // logs are read), to go into the cache saved now.
        var unread = cache?.currentUnread
        let store = self
        let counting =
            unread == nil && dashboardOnly
            ? Background { () -> UnreadCount? in
                guard let made = try? store.countUnread(), made.skipped.isEmpty else { return nil }
                return UnreadCount(count: made.count, entries: made.entries)
            } : nil
        if let loaded = cache, var refreshed = refreshed(loaded, exceptOwn: false) {
            cache = nil
            if let counted = counting?.join() ?? nil {
                unread = counted.count
                refreshed.remember(unread: counted.count, feedEntries: counted.entries)
            }
            refreshed.unread = unread
            refreshed.save(dataDirectory)
            TrustMemory.remember(refreshed.learned, in: dataDirectory)
            return .forReading(refreshed, unread: unread)
        }
        let read = try readCircle()
        Posix.returnFreedMemory()  // the read's buffers, before the peak: snapshot and cache
        TrustMemory.remember(read.learned, in: dataDirectory)
        var snapshot = split(read)
        let counted = counting?.join() ?? nil
        if let counted { unread = counted.count }
        // A cache built while something is wrong would hide it from the next runs.
        if read.skipped.isEmpty, read.publication == .current, read.ownDamage == nil,
            CircleCache.mayKeep(read, member: identity.member)
        {
            var fresh = CircleCache(
                circle: circleDirectory, member: identity.member, device: identity.device, entries: read.entries,
                own: snapshot.own, others: snapshot.others, othersClock: snapshot.othersClock,
                unknown: snapshot.unknown, foreign: snapshot.foreign)
            fresh.speakers = read.speakers
            if let cache {
                fresh.digest = cache.digest
                fresh.feedEntries = cache.feedEntries
            }
            fresh.unread = unread
            if let counted { fresh.remember(unread: counted.count, feedEntries: counted.entries) }
            fresh.save(dataDirectory)
        }
        snapshot.mergeForReading()
        snapshot.unread = unread
        return snapshot
    }

    /// An unread count and the keys of the feed files it was made from.
    private struct UnreadCount: Sendable {
        var count: Int
        var entries: [CircleCache.Entry]
    }

    /// Separates this device's log from the others'.
    func split(_ read: CircleRead) -> Snapshot {
        var own = CircleState()
        var others = read.others
        var clock = read.othersClock
        for log in read.logs {
            if log.member == identity.member && log.device == identity.device {
                own = log.state
            } else {
                others.merge(log.state)
                clock = max(clock, log.clock)
            }
        }
        var snapshot = Snapshot(
            own: own, others: others, othersClock: clock, skipped: read.skipped, unknown: read.unknown,
            foreign: read.foreign)
        snapshot.publication = read.publication
        snapshot.ownDamage = read.ownDamage
        snapshot.trustMemoryDamaged = read.trustMemoryDamaged
        snapshot.unreadable = read.unreadable
        snapshot.speakers = read.speakers
        return snapshot
    }

    /// Every log in the circle. This device's own log must be readable; another device's log
    /// that is not is reported in `skipped`. Other devices' logs are read for their state only.
    public func readCircle() throws(StoreError) -> CircleRead {
        if !identity.member.isEmpty { try checkCircleExists() }
        var read = CircleRead()
        // Every key is taken before the listing or read it stands for: a change made meanwhile
        // can only make the cache look stale.
        read.entries.append(CircleCache.Entry(path: "members", key: Posix.key(Paths.join(circleDirectory, "members"))))
        // A large circle's logs are read by helper threads as well (see `SharedWork`), and
        // added in the members' order whichever thread read them.
        if !Posix.isRealDirectory(membersDirectory), Posix.exists(membersDirectory) {
            throw StoreError.unreadable(
                path: membersDirectory,
                reason: "it is not a folder but a symbolic link or a file; lifesignal follows no link in the circle",
                backup: nil)
        }
        let (listed, refused) = try folders(in: membersDirectory)
        for (member, error) in refused { read.skip(error, member: member, since: .missing) }
        // This reader's member first: what its devices state decides whose logs are checked.
        var basis = TrustBasis(me: "", device: "", state: CircleState())
        let memory = TrustMemory.readForFullRead(dataDirectory, damaged: &read.trustMemoryDamaged)
        if !identity.member.isEmpty {
            try readOwn(into: &read)
            let own = read.logs.first
            var mine = TrustBasis(me: identity.member, device: identity.device, own: own?.memberState)
            mine.seen = memory.members
            try readMemberFolder(identity.member, basis: mine, own: own, into: &read)
            var state = read.others
            if let own { state.merge(own.state) }
            basis = TrustBasis(me: identity.member, device: identity.device, state: state)
            basis.seen = memory.members
        }
        let members = readingOrder(listed, basis: basis)
        let store = self
        basis.budget = ReadBudget(bytes: ReadBudget.othersLimit)
        let others = basis
        let reading = SharedWork(count: members.count, chunk: 16) { chunks in
            var parts: [(Int, Result<CircleRead, StoreError>)] = []
            while let chunk = chunks.take() {
                let part = store.readLogs(of: members[chunk], basis: others)
                parts.append((chunk.lowerBound, part))
                if case .failure = part { chunks.stop() }
            }
            return parts
        }
        // Merged into one state in the members' order, each part let go once merged, into room
        // made once: a large circle's state is then held about once, not twice and a resize.
        var parts = reading.finish().joined().sorted(by: { $0.0 < $1.0 }).map(\.1)
        let total = parts.reduce(0) { sum, part in sum + ((try? part.get())?.others.members.count ?? 0) }
        read.others.members.reserveCapacity(read.others.members.count + total)
        for i in parts.indices {
            let part = try parts[i].get()
            parts[i] = .success(CircleRead())
            read.add(part)
        }
        if let notRead = read.notRead { read.skipped.insert(notRead, at: 0) }
        if !identity.member.isEmpty { noteVanished(from: &read, present: Set(listed)) }
        return read
    }

    /// The other members in the order their folders are read: those linked with this reader
    /// first, as what one run reads of others is bounded (`ReadBudget`) and folders anyone
    /// could fill must not crowd them out.
    private func readingOrder(_ listed: [String], basis: TrustBasis) -> [String] {
        let first = { (member: String) in basis.linked.contains(member) || basis.pins[member] != nil }
        return listed.filter { $0 != identity.member && first($0) }
            + listed.filter { $0 != identity.member && !first($0) }
    }

    /// This member's logs only, each with its tail of events (what their history needs): this
    /// device's from its private copy, their other devices' from the circle (skipped and
    /// reported when unreadable). Their state holds the member's own fields, not the facts between
    /// members (this device's may come from the cache, read without them).
    public func readMember() throws(StoreError) -> CircleRead {
        try checkCircleExists()
        var read = CircleRead()
        let member = identity.member
        var siblings: [DeviceLog] = []
        for device in try devices(of: member) where !isOwn(member: member, device: device) {
            var key = Posix.FileKey.missing
            do {
                if let log = try readLog(member: member, device: device, key: &key, checked: true) {
                    siblings.append(log)
                }
            } catch {
                read.skip(error, member: member, since: key)
            }
        }
        try readOwn(into: &read)
        let speakers = ownSpeakers(own: read.logs.first, siblings: siblings)
        read.logs += siblings.filter { speakers.believed.contains($0.device) }
        read.speakers[member] = speakers
        // The member's own fields alone, however each log was read.
        for i in read.logs.indices {
            var fields = CircleState()
            fields.members = read.logs[i].state.members
            read.logs[i].state = fields
        }
        return read
    }

    /// This device's own log, from its private copy, and how its published copy stands (a
    /// reader only says so; the next write publishes again).
    private func readOwn(into read: inout CircleRead) throws(StoreError) {
        let relative = "members/\(identity.member)/\(identity.device)"
        read.entries.append(CircleCache.Entry(path: relative, key: Posix.key(publishedDirectory)))
        read.entries.append(CircleCache.Entry(path: relative + "/log.json", key: Posix.key(publishedLogPath)))
        var key = Posix.FileKey.missing
        var own = try readOwnLog(key: &key)
        var publication = Publication.current
        // A writer may replace both copies between the two reads: read again before saying
        // the published copy is not ours.
        for attempt in 0..<2 {
            guard let log = own.log, let bytes = own.bytes else { break }
            publication = self.publication(of: log, bytes: bytes)
            guard case .notOurs = publication, attempt == 0 else { break }
            own = try readOwnLog(key: &key)
        }
        if !own.adopted { read.entries.append(CircleCache.Entry(path: ownLogPath, key: key)) }
        read.ownDamage = own.damage
        guard let log = own.log else { return }
        read.logs.append(log)
        read.publication = publication
    }
}
