import LifeSignalCore

/// A private summary of the circle as last read, so that a run does not parse every device's
/// log when nothing changed — the cost of `status` must not grow with the circle's history.
///
/// It lives in the data directory (never in the circle) as two files in the compact format of
/// `CacheCodec` (see CacheFiles.swift). It holds this device's folded state, everyone else's merged, and the key
/// (inode, size, modification and change times) of every directory and log it was built from. It is used only when every key
/// still matches; anything else — a changed or new file, a damaged or newer cache — means a
/// full read. It is never written from a read that skipped an unreadable log, so warnings
/// about that log keep appearing. Losing it costs one full read, so it is written without fsync.
struct CircleCache: Sendable {
    struct OwnFacts: Sendable {
        /// `own.facts` as loaded.
        var facts: CircleState
        var record: ArraySlice<UInt8>
        /// The member's pins as loaded: with the facts, what decides whom a check-in looks at.
        var pins: [String: [String: Pin]]?

        /// Whether `own` holds the facts and pins loaded, given whether it holds the facts
        /// (`sameFacts`, which the caller tests once: the own log is decoded from its text on
        /// every run, so equal facts no longer share their storage, and a test is a comparison
        /// of every relation and pin).
        func holds(_ own: CircleState, member: String, sameFacts: Bool) -> Bool {
            sameFacts && pins == own.members[member]?.pins
        }
    }

    /// A path relative to the circle, and the key it had when the cache was built. For another
    /// device's log, also its last sequence number and its member's check-in count in it: what
    /// a refresh needs to fold in a newer version of that log alone (see CircleRefresh.swift).
    struct Entry: Equatable, Sendable {
        var path: String
        var key: Posix.FileKey
        var seq: Int64 = 0
        var count: Int64 = 0

        init(path: String, key: Posix.FileKey) {
            self.path = path
            self.key = key
        }

        /// The entry of another device's log (nil: none there yet).
        init(logOf member: String, device: String, key: Posix.FileKey, log: DeviceLog?) {
            path = "members/\(member)/\(device)/log.json"
            self.key = key
            seq = log?.lastSeq ?? 0
            count = log?.memberState.checkInCount ?? 0
        }
    }

    var circle: String
    var member: String
    var device: String
    var entries: [Entry] {
        didSet { circleFile = nil }
    }
    var own: CircleState
    var others: CircleState {
        didSet { circleFile = nil }
    }
    /// The checksum of `cache-circle.bin` as loaded, while everyone else's part is as that file
    /// holds it (their entries, whose logs count, their state): a write that changed only this
    /// device's part saves `cache.bin` alone, and `entries` need then hold only its own.
    var circleFile: UInt64?
    /// The checksum of `cache-linked.bin`, the part of everyone else a check-in reads (nil: none
    /// usable), and the fingerprint of whom it covers (see CacheLinked.swift).
    var linkedFile: UInt64?
    var linkedFor: UInt64 = 0
    /// For a check-in that read `cache-circle.bin` without it: the members it decoded whole and
    /// their files' entries, from which it makes that file (not saved).
    var linkedSource: LinkedSource?
    /// The facts of `own` as loaded, and the record they were read from: a write that left them
    /// as they were (a check-in) saves that record again rather than coding a hundred relations,
    /// and keeps the part of everyone else a check-in reads without working out again whom it
    /// covers (not saved).
    var ownFacts: OwnFacts?
    var othersClock: Int64
    /// Every log read that holds records of a newer lifesignal (the warning outlives the read).
    var unknown: [UnknownRecords] = []
    /// Every log read that claimed something of another member (the warning outlives the read).
    var foreign: [ForeignRecords] = []
    /// Whose logs count, for every member whose logs were checked (see CircleTrust.swift).
    var speakers: [String: Speakers] = [:] {
        didSet { circleFile = nil }
    }
    /// Logs whose new version did not verify, found by this run's refresh: what was verified of
    /// them before stands (not saved: each run finds them again).
    var rejected: [Store.Rejected] = []
    /// What this reader verified before, while a refresh runs (see TrustMemory.swift), and what
    /// the refresh verified besides.
    var seen: [String: TrustSeen] = [:]
    var learned: [String: TrustSeen] = [:]
    /// This member's unread notifications, valid while every feed file of theirs still has the
    /// key in `feedEntries` (so `status` need not parse the feed).
    var unread: Int? = nil
    /// The digest of this member's feed (see `FeedDigest`), valid on the same terms.
    var digest: StoredDigest? = nil
    var feedEntries: [Entry] = []
    /// Decoded for a dashboard only: `others` lacks the members it does not read.
    var partial = false

    /// The unread count, when the feed files it was counted from are unchanged.
    var currentUnread: Int? { feedIsUnchanged ? unread : nil }

    /// The feed's digest, when the feed files it was made from are unchanged.
    var currentDigest: StoredDigest? { feedIsUnchanged ? digest : nil }

    /// Keeps an unread count made from the feed files with `feedEntries`; the digest stays
    /// only if it was made from those same files.
    mutating func remember(unread count: Int, feedEntries entries: [Entry]) {
        unread = count
        if feedEntries != entries { digest = nil }
        feedEntries = entries
    }

    private var feedIsUnchanged: Bool {
        let keys = Posix.KeyReader(circle)
        return !feedEntries.isEmpty && feedEntries.allSatisfy { keys.key($0.path) == $0.key }
    }

    /// Where an entry's file is: relative paths are in the circle; this device's private
    /// copies are named by their absolute path.
    func location(_ path: String) -> String { path.hasPrefix("/") ? path : Paths.join(circle, path) }

    /// The prefix of this device's own paths, which a writer reads itself.
    var ownPrefix: String { Self.ownPrefix(member: member, device: device) }

    static func ownPrefix(member: String, device: String) -> String { "members/\(member)/\(device)" }

    /// True when every directory and log still has the key it had. With `exceptOwn`, this
    /// device's own directory and log are not checked (a writer reads its log itself).
    func isCurrent(exceptOwn: Bool) -> Bool {
        Self.keysMatch(entries[...], in: circle, ownPrefix: ownPrefix, checking: exceptOwn ? .others : .all)
    }

    /// True when this device's own directory, log and private copies still have their keys.
    var ownIsCurrent: Bool { Self.keysMatch(entries[...], in: circle, ownPrefix: ownPrefix, checking: .own) }

    /// Which entries a check of keys looks at: this device's own are its published folder and
    /// log (under `ownPrefix`) and its private copies (absolute paths).
    enum Checked {
        case all, others, own

        /// Whether this check looks at an entry that is (or is not) this device's own.
        func looks(atOwn own: Bool) -> Bool {
            switch self {
            case .all: true
            case .others: !own
            case .own: own
            }
        }
    }

    /// Whether every entry `checking` picks still has its key.
    static func keysMatch(_ entries: ArraySlice<Entry>, in circle: String, ownPrefix: String, checking: Checked)
        -> Bool
    {
        let keys = Posix.KeyReader(circle)
        return entries.allSatisfy { entry in
            !checking.looks(atOwn: entry.path.hasPrefix(ownPrefix) || entry.path.hasPrefix("/"))
                || keys.key(entry.path) == entry.key
        }
    }

    /// Checks the keys of the chunks of `entries` this thread takes from `chunks`, stopping it
    /// at the first that no longer matches. Run by the caller and a second thread alike.
    static func checkKeys(
        _ entries: CacheEntries, taking chunks: Chunks, in circle: String, ownPrefix: [UInt8], checking: Checked
    ) {
        let keys = Posix.KeyReader(circle)
        var buffer = [CChar](repeating: 0, count: 256)
        while let chunk = chunks.take() {
            for i in chunk
            where checking.looks(atOwn: entries.path(i, hasPrefix: ownPrefix) || entries.isAbsolute(i))
                && !entries.isUnchanged(i, keys: keys, buffer: &buffer)
            {
                chunks.stop()
                return
            }
        }
    }

}

extension BinaryWriter {
    mutating func entries(_ list: [CircleCache.Entry]) {
        count(list.count)
        for entry in list {
            string(entry.path)
            key(entry.key)
            int(entry.seq)
            int(entry.count)
        }
    }

    mutating func key(_ key: Posix.FileKey) {
        uint(key.device)
        uint(key.inode)
        int(key.size)
        int(key.modified)
        int(key.changed)
    }

    mutating func foreignRecords(_ list: [ForeignRecords]) {
        count(list.count)
        for records in list {
            string(records.member)
            string(records.device)
            for n in [
                records.members, records.relations, records.externals, records.pings, records.acknowledgements,
                records.deliveries, records.vouches,
            ] {
                int(Int64(n))
            }
        }
    }

    mutating func unknownRecords(_ list: [UnknownRecords]) {
        count(list.count)
        for records in list {
            string(records.member)
            string(records.device)
            bool(records.writer != nil)
            if let writer = records.writer { string(writer) }
            int(Int64(records.events))
            count(records.fields.count)
            for field in records.fields { string(field) }
        }
    }
}

extension BinaryReader {
    mutating func entries() throws(CacheCodec.Damaged) -> [CircleCache.Entry] {
        let n = try count()
        var list: [CircleCache.Entry] = []
        list.reserveCapacity(n)
        for _ in 0..<n {
            var entry = CircleCache.Entry(path: try string(), key: try key())
            entry.seq = try int(in: 0...Limits.counter)
            entry.count = try int(in: 0...Limits.counter)
            list.append(entry)
        }
        return list
    }

    mutating func key() throws(CacheCodec.Damaged) -> Posix.FileKey {
        Posix.FileKey(device: try uint(), inode: try uint(), size: try int(), modified: try int(), changed: try int())
    }

    mutating func foreignRecords() throws(CacheCodec.Damaged) -> [ForeignRecords] {
        let n = try count()
        var list: [ForeignRecords] = []
        for _ in 0..<n {
            var records = ForeignRecords()
            records.member = try id()
            records.device = try id()
            records.members = Int(try int(in: 0...Limits.counter))
            records.relations = Int(try int(in: 0...Limits.counter))
            records.externals = Int(try int(in: 0...Limits.counter))
            records.pings = Int(try int(in: 0...Limits.counter))
            records.acknowledgements = Int(try int(in: 0...Limits.counter))
            records.deliveries = Int(try int(in: 0...Limits.counter))
            records.vouches = Int(try int(in: 0...Limits.counter))
            list.append(records)
        }
        return list
    }

    mutating func unknownRecords() throws(CacheCodec.Damaged) -> [UnknownRecords] {
        let n = try count()
        var list: [UnknownRecords] = []
        for _ in 0..<n {
            let member = try id()
            let device = try id()
            let writer = try bool() ? try string() : nil
            let events = Int(try int(in: 0...Limits.counter))
            var fields: [String] = []
            for _ in 0..<(try count()) { fields.append(try string()) }
            list.append(UnknownRecords(member: member, device: device, writer: writer, events: events, fields: fields))
        }
        return list
    }
}
