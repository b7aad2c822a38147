import LifeSignalCore

/// What a write reads of everyone else — the cache when no other log changed, else the logs —
/// and the cache it leaves behind, so the next run reads nothing again.
extension Store {
    /// Everyone else's logs as a writer sees them, and what of the cache a write may carry on.
    struct OthersRead {
        var snapshot: Snapshot
        /// The keys of everything but this device's own folder and log; empty when the cache
        /// must not be rebuilt from this read.
        var entries: [CircleCache.Entry]
        /// The cached unread count stays valid only while no feed file changes; its own keys
        /// say so, so it can be carried over by a write that does not touch the feed.
        var unread: Int?
        var digest: StoredDigest?
        var feedEntries: [CircleCache.Entry]
        /// The cache, when it was current as loaded (not refreshed).
        var current: CircleCache? = nil
        /// What a full read verified that the reader's memory did not hold (kept after the write).
        var learned: [String: TrustSeen] = [:]
    }

    /// Everyone else's logs: from the cache (`loaded`, as the writer loaded it) when none
    /// changed, else read (this device's own log is read by the writer itself, strictly). A
    /// cache loaded for a linked write stands only when current; else it is loaded whole and
    /// refreshed as for any write.
    func othersForWriting(_ loaded: CircleCache.Loaded?) throws(StoreError) -> OthersRead {
        let own = "members/\(identity.member)/\(identity.device)"
        var loaded = loaded
        if let partial = loaded, partial.cache.partial, !partial.isCurrent {
            loaded = CircleCache.load(self, checkingExceptOwn: true)
        }
        if let (loaded, isCurrent) = loaded,
            let cache = isCurrent ? loaded : refreshed(loaded, exceptOwn: true)
        {
            let unknown = cache.unknown.filter { $0.member != identity.member || $0.device != identity.device }
            var snapshot = Snapshot(
                own: CircleState(), others: cache.others, othersClock: cache.othersClock, skipped: [],
                unknown: unknown, foreign: cache.foreign)
            snapshot.speakers = cache.speakers
            snapshot.rejected = cache.rejected
            return OthersRead(
                snapshot: snapshot,
                entries: cache.entries.filter { !$0.path.hasPrefix(own) && !$0.path.hasPrefix("/") },
                unread: cache.unread, digest: cache.currentDigest,
                feedEntries: cache.feedEntries, current: isCurrent ? cache : nil, learned: cache.learned)
        }
        let read = try readCircle()
        var snapshot = split(read)
        snapshot.unknown = snapshot.unknown.filter { $0.member != identity.member || $0.device != identity.device }
        let keep =
            read.skipped.isEmpty && CircleCache.mayKeep(read, member: identity.member)
        let entries = keep ? read.entries.filter { !$0.path.hasPrefix(own) && !$0.path.hasPrefix("/") } : []
        return OthersRead(
            snapshot: snapshot, entries: entries, unread: nil, digest: nil, feedEntries: [], learned: read.learned)
    }

    /// Refreshes the cache with what this write knows: everyone else as read before it, and
    /// this device's directory and log as they are now. The directories above this device's
    /// keep their earlier keys (a write does not change them), except on the first write,
    /// which creates them — then the next read rebuilds the cache instead.
    func refreshCache(after transaction: Transaction, others: OthersRead, now: Timestamp) {
        // A device of mine enrolled or revoked: the next run reads the circle whole, and works
        // out again which of my devices count (a revoked one's later check-ins counted here).
        if transaction.rosterChanged {
            for file in DataFile.allCases where file.kind == .cache { Posix.remove(file.path(in: dataDirectory)) }
            return
        }
        // (A cache loaded whole always has entries; one loaded for a linked write keeps
        // everyone else's in its file, which it names.)
        guard transaction.skipped.isEmpty, !others.entries.isEmpty || others.current?.circleFile != nil else {
            return
        }
        // A run that read nothing new and wrote nothing (a quiet delivery run): the cache
        // already says all this, and this device's files still have the keys it holds.
        if let current = others.current, transaction.feedRead == nil, !transaction.feedChanged,
            current.ownIsCurrent
        {
            return
        }
        let member = identity.member
        let device = identity.device
        let own = "members/\(member)/\(device)"
        var entries = others.entries
        entries.append(CircleCache.Entry(path: own, key: Posix.key(deviceDirectory(member: member, device: device))))
        entries.append(
            CircleCache.Entry(path: own + "/log.json", key: Posix.key(logPath(member: member, device: device))))
        entries.append(CircleCache.Entry(path: ownLogPath, key: Posix.key(ownLogPath)))
        var cache = CircleCache(
            circle: circleDirectory, member: member, device: device, entries: entries, own: transaction.log.state,
            others: transaction.others, othersClock: transaction.othersClock, unknown: transaction.unknown,
            foreign: transaction.foreign)
        cache.speakers = transaction.speakers
        // Everyone else is as the current cache had them: their file stays as it is (a partial
        // cache, from a linked write, is saved only so).
        cache.circleFile = others.current?.circleFile
        (cache.linkedFile, cache.linkedFor) = (others.current?.linkedFile, others.current?.linkedFor ?? 0)
        cache.linkedSource = others.current?.linkedSource
        cache.ownFacts = others.current?.ownFacts
        cache.partial = others.current?.partial ?? false
        if let read = transaction.feedRead {
            // The feed as this transaction left it, for the next runs.
            // (A write prunes the feed's old entries: the count is made again from the files.)
            cache.unread = transaction.feedChanged ? nil : transaction.feed.unreadCount(for: .member(member))
            cache.digest = FeedDigest(
                of: transaction.feed, me: member, device: device, circle: transaction.circle, now: now,
                local: localChannels(circle: transaction.circle)
            ).map(StoredDigest.init)
            cache.feedEntries = transaction.feedChanged ? feedEntries(afterWriting: read) : read
        } else if !transaction.feedChanged {
            cache.unread = others.unread
            cache.digest = others.digest
            cache.feedEntries = others.feedEntries
        }
        cache.save(dataDirectory)
    }
}
