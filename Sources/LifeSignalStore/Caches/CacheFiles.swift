import LifeSignalCore

/// The cache's two files in the data directory. `cache.bin` is this device's part: its own
/// entries and state, what the warnings need, the feed's count and digest. `cache-circle.bin`
/// is everyone else's: their files' entries and keys, whose logs count, and their state, a
/// record a member. `cache.bin` names the other file by its checksum, so two files that do not
/// belong together (one written, the other not yet, or by another run) are not used. A write
/// that changed only this device's part, as a check-in in a circle of any size does, rewrites
/// `cache.bin` alone.
extension CircleCache {
    static func path(_ dataDirectory: String) -> String { DataFile.cache.path(in: dataDirectory) }
    static func circlePath(_ dataDirectory: String) -> String { DataFile.circleCache.path(in: dataDirectory) }

    static func load(_ store: Store) -> CircleCache? { decode(store, checking: nil, scope: .all)?.cache }

    /// `cache.bin`'s entries, and a reader past its header, which names the files beside it; nil
    /// when there is none, or it was made for another circle or identity.
    private static func openOwnFile(_ store: Store) throws(CacheCodec.Damaged) -> (
        entries: CacheEntries, reader: BinaryReader, files: Named
    )? {
        guard case .contents(let bytes)? = try? Posix.read(path(store.dataDirectory)) else { return nil }
        let entries = try CacheCodec.entries(bytes)
        var r = try CacheCodec.reader(bytes, after: entries)
        guard try r.string() == store.circleDirectory, try r.string() == store.identity.member,
            try r.string() == store.identity.device
        else { return nil }
        let files = Named(circle: try r.uint(), linked: try r.uint(), linkedFor: try r.uint())
        return (entries, r, files)
    }

    /// How much of the cache a run decodes.
    enum Scope {
        case all
        /// The members this member's dashboard reads (`partial`): for a reader, which never
        /// saves the cache, so neither everyone else's entries nor their file are kept.
        case dashboard
        /// The same members, for a write that records only about this member (a check-in):
        /// only their files' keys (and the folders above them) are checked, and everyone else
        /// is carried over as `cache-circle.bin` holds them, so the next run that reads the
        /// whole circle checks them as before.
        case linked
    }

    typealias Loaded = (cache: CircleCache, isCurrent: Bool)

    /// The cache, and whether every key it holds still matches (see `isCurrent`). The keys of
    /// a large circle take thousands of `stat` calls: they are checked on a second thread
    /// while the rest of the cache is decoded. With a `scope` other than `.all`, only the
    /// members this member's dashboard reads are decoded (`partial`).
    static func load(_ store: Store, checkingExceptOwn exceptOwn: Bool, scope: Scope = .all) -> Loaded? {
        guard let (cache, current) = decode(store, checking: exceptOwn, scope: scope) else { return nil }
        return (cache, (current ?? false) && cache.coversTrust)
    }

    /// A check-in of someone nobody watches over, as far as the cache knows, decodes nobody
    /// (so the cache is loaded whole): one may just have linked from their side, and "nobody
    /// watches over you" is not said from a partial read.
    private static func decode(_ store: Store, checking exceptOwn: Bool?, scope: Scope) -> (
        cache: CircleCache, current: Bool?
    )? {
        let (circle, member, device) = (store.circleDirectory, store.identity.member, store.identity.device)
        // Nor while what this device verified before is damaged: the full read verifies again.
        if TrustMemory.isDamaged(store.dataDirectory) { return nil }
        do throws(CacheCodec.Damaged) {
            // A cache made for another circle or identity is not used.
            guard let (ownEntries, reader, files) = try openOwnFile(store) else { return nil }
            var r = reader
            // This device's own keys, for a reader (a writer reads its own log itself).
            let ownCurrent = {
                exceptOwn ?? true || keysMatch(ownEntries.all[...], in: circle, ownPrefix: "", checking: .all)
            }
            // This device's part: for a check-in at once (decoding it before the helper threads
            // that check the few keys it reads start measured faster: 3.6 against 3.9 ms in a
            // circle of 1,000), else once the check of everyone else's keys is under way.
            var ownPart: CircleCache?
            func own() throws(CacheCodec.Damaged) -> CircleCache {
                if let ownPart { return ownPart }
                var cache = try part(
                    &r, circle: circle, member: member, device: device, files: files, digest: scope != .dashboard)
                (cache.entries, cache.circleFile) = (ownEntries.all, files.circle)
                ownPart = cache
                return cache
            }
            // A check-in reads the part of everyone else made for it: every save of this device's
            // part made sure it covers whom that part makes a check-in look at, so it is read only
            // while that part is as this device last wrote it (a write that could not save the
            // cache leaves it behind; review H).
            if scope == .linked, exceptOwn != nil {
                let ownHeld = keysMatch(ownEntries.all[...], in: circle, ownPrefix: "", checking: .all)
                if ownHeld, let (loaded, unchanged) = loadLinked(try own(), reference: files.linked, store: store) {
                    return (loaded, ownCurrent() && unchanged)
                }
                // Missing, damaged or made for other links: this check-in makes it again.
                ownPart?.linkedFile = nil
            }
            guard case .contents(let theirs)? = try? Posix.read(circlePath(store.dataDirectory)),
                files.circle == CacheCodec.storedChecksum(theirs)
            else { return nil }
            return try decode(
                theirs, own: own, ownEntries: ownEntries, store: store, checking: exceptOwn, scope: scope,
                ownCurrent: ownCurrent)
        } catch {
            return nil
        }
    }

    /// The rest of `decode`: everyone else from `cache-circle.bin` (`theirs`), with this device's
    /// part (`own`, decoded once the keys' check is under way).
    private static func decode(
        _ theirs: [UInt8], own: () throws(CacheCodec.Damaged) -> CircleCache, ownEntries: CacheEntries, store: Store,
        checking exceptOwn: Bool?, scope: Scope, ownCurrent: () -> Bool
    ) throws(CacheCodec.Damaged) -> (cache: CircleCache, current: Bool?)? {
        let (circle, member, device) = (store.circleDirectory, store.identity.member, store.identity.device)
        let entries = try CacheCodec.entries(theirs)
        // Everyone else's keys are checked by helper threads while the rest is decoded, then
        // by this one too (a linked write's few, once it knows whose: see `wanted`).
        let ownPrefix = Array(Self.ownPrefix(member: member, device: device).utf8)
        let check = SharedWork(count: exceptOwn == nil || scope == .linked ? 0 : entries.count, chunk: 64) {
            chunks in checkKeys(entries, taking: chunks, in: circle, ownPrefix: ownPrefix, checking: .others)
        }
        defer { check.cancel() }
        var cache = try own()
        var o = try CacheCodec.reader(theirs, after: entries)
        guard try o.string() == circle, try o.string() == member, try o.string() == device else { return nil }
        cache.speakers = try o.speakers()
        // Everyone else's state: the rest of the file, with a string table of its own.
        guard try o.count() == theirs.count - o.offset else { return nil }
        var s = try BinaryReader(theirs, from: o.offset)
        let found = Wanted()
        defer { found.check?.cancel() }
        cache.others = try s.circleByMember(
            wanted: wanted(scope, of: cache, entries: entries, ownPrefix: ownPrefix, into: found))
        guard s.atEnd else { return nil }
        cache.entries = ownEntries.all + (scope == .all ? entries.all : [])
        cache.partial = scope != .all
        cache.circleFile = scope == .dashboard ? nil : CacheCodec.storedChecksum(theirs)
        guard exceptOwn != nil else { return (cache, nil) }
        if scope == .linked {
            // Every member trust upkeep looks at must have been decoded (a pin made by another
            // device of mine is known only now): else the cache is loaded whole.
            let unchanged =
                found.check.map {
                    _ = $0.finish()
                    return !$0.chunks.wasStopped
                } ?? false
            // What this decode holds of the linked members can make the file a check-in reads.
            cache.linkedSource = LinkedSource(members: found.members, entries: found.picked.map(entries.entry))
            return (cache, ownCurrent() && cache.trustRequired.isSubset(of: found.members) && unchanged)
        }
        _ = check.finish()
        return (cache, ownCurrent() && !check.chunks.wasStopped)
    }

    /// The members a partial decode reads, known once the circle's facts are decoded, and for a
    /// linked write the check of their keys, started on helper threads then, while the members
    /// decode.
    private final class Wanted: @unchecked Sendable {
        var members: Set<String> = []
        var picked: [Int] = []
        var check: SharedWork<Void>?
    }

    private static func wanted(
        _ scope: Scope, of cache: CircleCache, entries: CacheEntries, ownPrefix: [UInt8], into found: Wanted
    ) -> ((CircleState) -> Set<String>)? {
        guard scope != .all else { return nil }
        let (own, member, circle) = (cache.own, cache.member, cache.circle)
        return { facts in
            guard scope == .linked else {
                var state = facts
                state.merge(own)
                found.members = state.dashboardMembers(of: member).union(trustRequired(of: member, in: [state]))
                return found.members
            }
            let view = checkInView(of: member, own: own, others: facts)
            found.members = view?.linked ?? []
            // Only the files of those a check-in needs whole are checked (see `CheckInView`).
            // Chunks of 64 `stat`s: the few keys of a small circle are checked on this thread,
            // where making two helper threads cost more than the checks.
            let picked = entries.indices(of: view?.full ?? [], ownPrefix: ownPrefix)
            found.picked = picked
            found.check = SharedWork(count: picked.count, chunk: 64) { chunks in
                entries.check(picked, taking: chunks, in: circle)
            }
            return found.members
        }
    }

    /// This device's part of `cache.bin`, after its entries: everything but everyone else. A
    /// dashboard steps over the feed's digest (see `BinaryReader.digest`).
    private static func part(
        _ r: inout BinaryReader, circle: String, member: String, device: String, files: Named, digest: Bool,
        facts decodingFacts: Bool = true
    ) throws(CacheCodec.Damaged) -> CircleCache {
        let (own, facts) = try r.circleKeepingFacts(decodingFacts: decodingFacts)
        var cache = CircleCache(
            circle: circle, member: member, device: device, entries: [], own: own, others: CircleState(),
            othersClock: try r.int(in: 0...Limits.counter))
        if decodingFacts { cache.ownFacts = OwnFacts(facts: own.facts, record: facts, pins: own.members[member]?.pins) }
        cache.unknown = try r.unknownRecords()
        cache.foreign = try r.foreignRecords()
        cache.unread = try r.bool() ? Int(try r.int(in: 0...Limits.counter)) : nil
        cache.digest = try r.digest(keeping: digest)
        cache.feedEntries = try r.entries()
        guard r.atEnd else { throw CacheCodec.Damaged() }
        (cache.linkedFile, cache.linkedFor) = (files.linked, files.linkedFor)
        return cache
    }

    /// The other files `cache.bin` names by their checksums (0: none), and whom the part of
    /// everyone else a check-in reads was made for.
    struct Named {
        var circle: UInt64
        var linked: UInt64
        var linkedFor: UInt64
    }

    /// Writes the cache: `cache-circle.bin` first, unless everyone else's part is as loaded
    /// (a partial cache is saved only so), then `cache.bin`, which names it. Best effort: a
    /// cache that cannot be written only means the next run reads everything.
    func save(_ dataDirectory: String) {
        // Whose each entry is, worked out once (the entries are written through filters, not
        // copied: a large circle has thousands).
        let prefix = ownPrefix
        let mine = entries.map { $0.path.hasPrefix(prefix) || $0.path.hasPrefix("/") }
        func picked(own: Bool) -> some Collection<Entry> {
            entries.indices.lazy.filter { mine[$0] == own }.map { entries[$0] }
        }
        var reference = circleFile
        if reference == nil {
            guard !partial else { return }
            var w = BinaryWriter()
            w.string(circle)
            w.string(member)
            w.string(device)
            w.speakers(speakers)
            var section = BinaryWriter()
            section.circleByMember(others)
            w.count(section.writtenSize)
            let parts = CacheCodec.parts(w, entries: picked(own: false), then: section)
            guard (try? Posix.overwrite(Self.circlePath(dataDirectory), with: parts)) != nil else { return }
            reference = CacheCodec.storedChecksum(parts[0])
        }
        // Whether this device's facts are as loaded, tested once for both uses below.
        let sameFacts = ownFacts.map { $0.facts == own.facts } ?? false
        let (linked, linkedFor) = linkedToName(dataDirectory, sameFacts: sameFacts)
        var w = BinaryWriter()
        w.string(circle)
        w.string(member)
        w.string(device)
        w.uint(reference ?? 0)
        w.uint(linked ?? 0)
        w.uint(linkedFor)
        w.circle(own, reusingFacts: sameFacts ? ownFacts?.record : nil)
        w.int(othersClock)
        w.unknownRecords(unknown)
        w.foreignRecords(foreign)
        w.bool(unread != nil)
        if let unread { w.int(Int64(unread)) }
        w.digest(digest)
        w.entries(feedEntries)
        try? Posix.overwrite(
            Self.path(dataDirectory), with: CacheCodec.file(w, entries: picked(own: true)))
    }
}
