import LifeSignalCore

/// The part of everyone else a check-in reads: `cache-linked.bin`, beside the two cache files.
///
/// A check-in records only about its member and shows only what concerns those linked with
/// them (see `Store.Need.checkIn`), yet `cache-circle.bin` holds everyone: in a circle of
/// a thousand, reading, checking and stepping through it was most of a check-in's time. This
/// file holds only what a check-in needs — the circle's facts, the whole state of the member
/// and of everyone who watches over them (or says so) and the keys of their files, whose logs
/// count for the members linked, and the names of the others linked. `cache.bin` names it by
/// its checksum, as it names `cache-circle.bin`, and lets go of it when everyone else or the
/// people it covers change. A check-in that finds none it can use (missing, damaged, let go
/// of) reads the linked members from `cache-circle.bin` as before, then makes it from
/// what it read: a read of the whole circle never pays for it.
extension CircleCache {
    static func linkedPath(_ dataDirectory: String) -> String { DataFile.linkedCache.path(in: dataDirectory) }

    /// Whom a check-in of `member` looks at: `linked`, every member it keeps something of (their
    /// dashboard's members and those trust upkeep looks at); `full`, those whose whole state it
    /// needs and whose files it checks (the member, across their devices, and every member who
    /// watches over them or says so). Of the other linked members — the people the member
    /// watches over — it keeps only the name and whose logs count, as the last read of the
    /// whole circle found them: a check-in records only about its member and warns only of what
    /// could stop their responders hearing of them, and a change in the files of the people they
    /// watch over is read, and warned of, by the next run that reads the whole circle (`status`,
    /// or cron's `notify deliver`, which every alarm is) — one of them now saying they watch over
    /// the member included. Checking those files' keys was a
    /// check-in's largest cost when watching over many: 200 `stat`s for 100 people.
    struct CheckInView: Equatable {
        var linked: Set<String>
        var full: Set<String>

        /// A fingerprint of the two sets, which `cache.bin` keeps to tell when the file must be
        /// made again.
        var digest: UInt64 {
            var text: [UInt8] = []
            for id in linked.sorted() + ["|"] + full.sorted() { text += Array(id.utf8) + [0x0A] }
            return CacheCodec.checksum(text[...])
        }
    }

    /// What a check-in of `member` looks at, from the facts of `own` and `others` (their
    /// members' states are not merged: only who is linked with whom counts here). Nil when
    /// nobody watches over the member: "nobody watches over you" is not said from a partial
    /// read (one may just have linked from their side, in a log it does not cover), so such a
    /// check-in reads everyone.
    static func checkInView(of member: String, own: CircleState, others: CircleState) -> CheckInView? {
        var facts = others
        facts.members = [:]
        facts.merge(own)
        let responders = Notifications.responders(of: member, in: facts)
        guard !responders.isEmpty else { return nil }
        var full: Set<String> = [member]
        for case .member(let id) in responders { full.insert(id) }
        let linked = facts.dashboardMembers(of: member).union(trustRequired(of: member, in: [own, others]))
        return CheckInView(linked: linked, full: full)
    }

    /// What a check-in decoded of `cache-circle.bin` when it had no file of its own to read.
    struct LinkedSource: Sendable {
        var members: Set<String>
        var entries: [Entry]
    }

    /// The file `cache.bin` names as the part a check-in reads, and whom it was made for: let go
    /// of when everyone else or the people a check-in looks at changed, and made by the
    /// check-in that did without it (a read of the whole circle need not pay for it).
    /// `sameFacts`: whether this device's facts are those loaded (`ownFacts`).
    func linkedToName(_ dataDirectory: String, sameFacts: Bool) -> (file: UInt64?, for: UInt64) {
        var (linked, linkedFor) = (circleFile == nil ? nil : linkedFile, self.linkedFor)
        // (Whom it covers changes with this device's facts and pins, and with everyone else's
        // facts, which a linked write holds as that file does.)
        if linked != nil, !partial || !(ownFacts?.holds(own, member: member, sameFacts: sameFacts) ?? false),
            Self.checkInView(of: member, own: own, others: others)?.digest != linkedFor
        {
            linked = nil
        }
        if linked == nil, let source = linkedSource, let view = Self.checkInView(of: member, own: own, others: others),
            view.linked.isSubset(of: source.members)
        {
            linked = saveLinked(dataDirectory, for: view, entries: source.entries)
            linkedFor = view.digest
        }
        return (linked, linkedFor)
    }

    /// Writes the file for `view` from this cache; its checksum, or nil when it could
    /// not be written (a check-in then reads `cache-circle.bin`).
    func saveLinked(_ dataDirectory: String, for view: CheckInView, entries picked: some Collection<Entry>)
        -> UInt64?
    {
        var kept = others
        kept.members = [:]
        for id in view.linked {
            guard let state = others.members[id] else { continue }
            if view.full.contains(id) {
                kept.members[id] = state
            } else {
                var named = MemberState()
                named.name = state.name
                kept.members[id] = named
            }
        }
        var w = BinaryWriter()
        w.string(circle)
        w.string(member)
        w.string(device)
        w.speakers(speakers.filter { view.linked.contains($0.key) })
        var section = BinaryWriter()
        section.circleByMember(kept)
        w.count(section.writtenSize)
        // (The few entries a check-in read: only those of the members it checks are kept.)
        let entries = picked.filter { entry in
            guard entry.path.hasPrefix("members/") else { return true }
            return view.full.contains(String(entry.path.dropFirst("members/".count).prefix { $0 != "/" }))
        }
        let parts = CacheCodec.parts(w, entries: entries, then: section)
        guard (try? Posix.overwrite(Self.linkedPath(dataDirectory), with: parts)) != nil else { return nil }
        return CacheCodec.storedChecksum(parts[0])
    }

    /// This device's part (`cache`) completed from the file a check-in reads (`reference`: its
    /// checksum, as `cache.bin` names it), and whether every key it holds still matches; nil
    /// when the file is not that one.
    static func loadLinked(_ cache: CircleCache, reference: UInt64, store: Store) -> (CircleCache, Bool)? {
        let (circle, member, device) = (store.circleDirectory, store.identity.member, store.identity.device)
        guard reference != 0, case .contents(let bytes)? = try? Posix.read(linkedPath(store.dataDirectory)),
            CacheCodec.storedChecksum(bytes) == reference
        else { return nil }
        do throws(CacheCodec.Damaged) {
            let entries = try CacheCodec.entries(bytes)
            let ownPrefix = Array(Self.ownPrefix(member: member, device: device).utf8)
            let check = SharedWork(count: entries.count, chunk: 64) { chunks in
                checkKeys(entries, taking: chunks, in: circle, ownPrefix: ownPrefix, checking: .others)
            }
            defer { check.cancel() }
            var r = try CacheCodec.reader(bytes, after: entries)
            guard try r.string() == circle, try r.string() == member, try r.string() == device else { return nil }
            var loaded = cache
            loaded.speakers = try r.speakers()
            guard try r.count() == bytes.count - r.offset else { return nil }
            var s = try BinaryReader(bytes, from: r.offset)
            loaded.others = try s.circleByMember()
            guard s.atEnd else { return nil }
            // (Whom it covers is not worked out again: every save of `cache.bin` that names this
            // file made sure it covers whom this device's part makes a check-in look at.)
            // (Setting everyone else let go of the circle file's checksum: they are as it holds them.)
            (loaded.circleFile, loaded.partial) = (cache.circleFile, true)
            _ = check.finish()
            return (loaded, !check.chunks.wasStopped)
        } catch {
            return nil
        }
    }
}
