import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// The store through its API, on a temporary directory: creation, archiving of old events
/// into segments, and history read back across segments.
@Suite struct StoreTests {
    let directory: String

    init() {
        directory =
            Scratch.root.appendingPathComponent("lifesignal-store-\(UUID().uuidString)").path
    }

    static let profile = NewProfile(name: "Ana", interval: .hours(24), reminder: .minutes(30), circle: nil)
    static let t0 = Timestamp(seconds: 1_772_355_600)

    /// Records `count` check-ins one hour apart, `batch` per transaction.
    func checkIn(count: Int, batch: Int, start: Int64 = 0) throws {
        var done = 0
        while done < count {
            let n = min(batch, count - done)
            _ = try Store.update(
                dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(Self.profile), now: Self.t0
            ) { transaction in
                for i in 0..<n {
                    transaction.record(
                        CheckedIn(note: "n\(done + i)"),
                        at: Timestamp(seconds: Self.t0.seconds + (start + Int64(done + i)) * 3600))
                }
            }
            done += n
        }
    }

    @Test func createsProfileOnceWithPrivateFiles() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Store.update(
            dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(Self.profile), now: Self.t0
        ) { $0.createdProfile }
        let second = try Store.update(
            dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(Self.profile), now: Self.t0
        ) { $0.createdProfile }
        #expect(first.value && first.created)
        #expect(!second.value && !second.created)
        let store = try Store.open(dataDirectory: directory)
        let state = try store.readCircle().state.members[store.identity.member] ?? MemberState()
        #expect(state.name?.value == "Ana")
        #expect(state.effectiveInterval == .hours(24))
        let attributes = try FileManager.default.attributesOfItem(atPath: store.identityPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let dirAttributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((dirAttributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func openingAnEmptyDirectoryIsNotInitialized() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: StoreError.notInitialized(dataDirectory: directory)) {
            try Store.open(dataDirectory: directory)
        }
    }

    @Test func oldEventsMoveToSegmentsAndHistoryReadsThem() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try checkIn(count: 1000, batch: 37)
        let store = try Store.open(dataDirectory: directory)
        let member = store.identity.member
        let read = try store.readCircle()
        let logs = read.logs.filter { $0.member == member }
        #expect(logs.count == 1)
        let log = try #require(logs.first)
        // The tail stays short; everything else is in segments of at most 200 events.
        #expect(log.events.count <= DeviceLog.tailLimit)
        #expect(log.memberState.checkInCount == 1000)
        let archive = store.deviceDirectory(member: member, device: log.device) + "/archive"
        let segments = try FileManager.default.contentsOfDirectory(atPath: archive).compactMap(
            ArchiveSegment.init(fileName:))
        #expect(!segments.isEmpty)
        #expect(segments.allSatisfy { $0.lastSeq - $0.firstSeq + 1 <= Int64(DeviceLog.tailLimit) })
        #expect(segments.map(\.lastSeq).max() == log.archivedThrough)

        let all = try store.checkIns(of: member, in: read, limit: nil, since: nil).checkIns
        #expect(all.count == 1000)
        #expect(all.first?.note == "n999")
        #expect(all.last?.note == "n0")
        let newest = try store.checkIns(of: member, in: read, limit: 5, since: nil).checkIns
        #expect(newest.map(\.note) == ["n999", "n998", "n997", "n996", "n995"])
        let deep = try store.checkIns(
            of: member, in: read, limit: 3, since: Timestamp(seconds: Self.t0.seconds + 10 * 3600)
        ).checkIns
        #expect(deep.map(\.note) == ["n999", "n998", "n997"])
        let since = try store.checkIns(
            of: member, in: read, limit: nil, since: Timestamp(seconds: Self.t0.seconds + 990 * 3600)
        ).checkIns
        #expect(since.count == 10)
    }

    @Test func historyIsExactWhenTimesAreOutOfOrder() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 300 check-ins at recent times, then a "what if" run recorded one far in the future,
        // then 300 more at old times: the newest by time lies in an archived segment.
        try checkIn(count: 300, batch: 100, start: 1000)
        _ = try Store.update(dataDirectory: directory, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(CheckedIn(note: "future"), at: Timestamp(seconds: Self.t0.seconds + 100_000 * 3600))
        }
        try checkIn(count: 300, batch: 100, start: 0)
        let store = try Store.open(dataDirectory: directory)
        let newest = try store.checkIns(of: store.identity.member, in: store.readCircle(), limit: 2, since: nil)
            .checkIns
        #expect(newest.map(\.note) == ["future", "n299"])
    }

    /// Check-ins in one second (a fixed clock): history takes the newest from the tail, and
    /// opens no segment of the same device, whose events of that second are all older.
    @Test func historyOpensNoSegmentItCannotNeedWithinOneSecond() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for i in 0..<260 {
            _ = try Store.update(
                dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(Self.profile), now: Self.t0
            ) { transaction in transaction.record(CheckedIn(note: "n\(i)"), at: Self.t0) }
        }
        let store = try Store.open(dataDirectory: directory)
        let read = try store.readCircle()
        let log = try #require(read.logs.first)
        #expect(log.archivedThrough > 0)
        // Every segment damaged: one opened would fail the history.
        for directory in [
            store.ownArchiveDirectory, store.deviceDirectory(member: log.member, device: log.device) + "/archive",
        ] {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                try Data("damaged".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
            }
        }
        let newest = try store.checkIns(of: log.member, in: read, limit: 3, since: nil).checkIns
        #expect(newest.map(\.note) == ["n259", "n258", "n257"])
        #expect(throws: StoreError.self) { try store.checkIns(of: log.member, in: read, limit: 300, since: nil) }
    }

    @Test func aSegmentLeftByACrashBeforeTheLogWasRewrittenIsIgnored() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try checkIn(count: 10, batch: 10)
        let store = try Store.open(dataDirectory: directory)
        let member = store.identity.member
        let device = store.identity.device
        // A segment claiming events 1–5 while the log still holds them (archivedThrough 0).
        let archive = store.deviceDirectory(member: member, device: device) + "/archive"
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
        let log = try #require(try store.readLog(member: member, device: device))
        let orphan = ArchiveSegment(firstSeq: 1, lastSeq: 5, newest: Self.t0)
        try Data(ArchiveSegment.encode(Array(log.events.prefix(5)), member: member, device: device, signer: nil)).write(
            to: URL(fileURLWithPath: archive + "/" + orphan.fileName))
        #expect(try store.checkIns(of: member, in: store.readCircle(), limit: nil, since: nil).checkIns.count == 10)
    }
}

/// The private read cache: used while no file changed, dropped as soon as one did, and never
/// able to break a command.
@Suite struct CircleCacheTests: SharedCircle {
    let root = Scratch.root.appendingPathComponent("lifesignal-cache-\(UUID().uuidString)")
        .path

    @Test func usedWhileNothingChangedAndDroppedWhenAPeerChanges() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea(cached: false)
        #expect(try store.snapshot().state.members[beaId]?.name?.value == "Bea")
        try plantMarker(bea: beaId)
        #expect(
            try store.snapshot().state.members[beaId]?.name?.value == "CACHED",
            "an unchanged circle is read from the cache")
        // Bea checks in: her log grew, so Ana's next read reads that log alone and folds it in.
        try checkIn(bea, "Bea", note: "b2")
        let grown = try store.snapshot().state
        #expect(grown.members[beaId]?.lastCheckIn?.note == "b2")
        #expect(grown.members[beaId]?.checkInCount == 2, "her count is not taken twice")
        #expect(grown.members[beaId]?.name?.value == "CACHED", "only the changed log was read")
        // A sync puts back an earlier copy of her log: not growth, so everything is read again.
        let path = store.logPath(member: beaId, device: try Store.open(dataDirectory: bea).identity.device)
        let earlier = try Data(contentsOf: URL(fileURLWithPath: path))
        try checkIn(bea, "Bea", note: "b3")
        #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b3")
        try earlier.write(to: URL(fileURLWithPath: path), options: .atomic)
        let rebuilt = try store.snapshot().state
        #expect(rebuilt.members[beaId]?.name?.value == "Bea", "a log that went back means a full read")
        #expect(rebuilt.members[beaId]?.lastCheckIn?.note == "b2")
        #expect(rebuilt.members[beaId]?.checkInCount == 2)
    }

    @Test func aNewMemberInvalidatesIt() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        let store = try Store.open(dataDirectory: ana)
        #expect(try store.snapshot().state.members.count == 1)
        try checkIn(root + "/carl", "Carl", note: "c1")
        #expect(try store.snapshot().state.members.count == 2)
    }

    @Test func aWriterKeepsItCurrentAndUsesItForOthers() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        try plantMarker(bea: beaId)
        // Ana's write takes Bea from the cache and rewrites it with Ana's new check-in.
        try checkIn(ana, "Ana", note: "a2")
        let state = try store.snapshot().state
        #expect(state.members[beaId]?.name?.value == "CACHED")
        #expect(state.members[store.identity.member]?.lastCheckIn?.note == "a2")
        #expect(state.members[store.identity.member]?.checkInCount == 2)
    }

    /// A write that changed only this device's log saves the cache with everyone else's file
    /// left as it loaded it; a read that folded in another member's change writes it again. Either way the cache is what a full read of the circle builds.
    @Test func aWriteSavesEveryoneElseAsAFullReadWould() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        try checkIn(root + "/carl", "Carl", note: "c1")
        _ = try store.snapshot()
        let loaded = try #require(CircleCache.load(store))
        #expect(loaded.circleFile != nil)
        for (who, name, note) in [(ana, "Ana", "a2"), (bea, "Bea", "b2"), (ana, "Ana", "a3"), (ana, "Ana", "a4")] {
            try checkIn(who, name, note: note)
            // Ana's next read folds Bea's grown log into the cache and saves it.
            if who == bea { _ = try store.snapshot() }
            let cache = try #require(CircleCache.load(store))
            let full = store.split(try store.readCircle())
            #expect(cache.others == full.others, "after \(note)")
            #expect(cache.own == full.own, "after \(note)")
            #expect(cache.othersClock == full.othersClock, "after \(note)")
        }
        #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b2")
    }

    /// What can happen to a cache file: damage anywhere, truncation, another format, another
    /// circle, or an old JSON cache. Each is ignored (a full read) and then replaced.
    static let damages: [(name: String, change: @Sendable ([UInt8]) -> [UInt8])] = [
        ("empty", { _ in [] }),
        ("JSON of an earlier lifesignal", { _ in Array(#"{"schemaVersion": 1, "circle": "/elsewhere"}"#.utf8) }),
        ("NUL-filled", { Array(repeating: 0, count: $0.count) }),
        ("truncated to its header", { Array($0.prefix(CacheCodec.headerSize)) }),
        ("last byte cut", { Array($0.dropLast()) }),
        ("a byte appended", { $0 + [0] }),
        (
            "a body byte flipped",
            {
                var b = $0
                b[b.count / 2] ^= 0x40
                return b
            }
        ),
        (
            // The entries are read before the checksum is checked: a length that runs past
            // the end must be damage, not a read out of bounds.
            "an entry's path length past the end",
            {
                var b = $0
                guard b.count > CacheCodec.headerSize + 5 else { return b }
                b.replaceSubrange(
                    (CacheCodec.headerSize + 1)...(CacheCodec.headerSize + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
                return b
            }
        ),
        (
            "an entry count larger than the file",
            {
                var b = $0
                guard b.count > CacheCodec.headerSize + 4 else { return b }
                b.replaceSubrange(CacheCodec.headerSize...(CacheCodec.headerSize + 3), with: [0xFF, 0xFF, 0xFF, 0x7F])
                return b
            }
        ),
        (
            "a key byte flipped",
            {
                var b = $0
                b[CacheCodec.headerSize + 40] ^= 0x01
                return b
            }
        ),
        (
            "another format (its id one bit off)",
            {
                var b = $0
                b[CacheCodec.magic.count + 1] ^= 0x01
                return b
            }
        ),
        (
            "a format number of the lifesignal before ids",
            {
                var b = $0
                b[CacheCodec.magic.count] = 21
                return b
            }
        ),
    ]

    /// Either file of the cache: this device's part, or everyone else's.
    @Test(arguments: 0..<damages.count, [false, true])
    func aDamagedOrForeignCacheIsIgnored(damage: Int, everyoneElse: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        try plantMarker(bea: beaId)
        let path = everyoneElse ? CircleCache.circlePath(ana) : CircleCache.path(ana)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        try Data(Self.damages[damage].change(Array(bytes))).write(to: URL(fileURLWithPath: path))
        #expect(CircleCache.load(store) == nil, "\(Self.damages[damage].name)")
        // A full read: Bea's real name, not the marker the damaged cache held.
        let state = try store.snapshot().state
        #expect(state.members[beaId]?.name?.value == "Bea")
        #expect(state.members[store.identity.member]?.lastCheckIn?.note == "a1")
        #expect(CircleCache.load(store) != nil, "the full read rebuilt the cache")
        try checkIn(ana, "Ana", note: "a2")
        #expect(try store.snapshot().state.members[store.identity.member]?.lastCheckIn?.note == "a2")
    }

    /// The cache is written in place: a run reading it while another writes it (or a writer
    /// that died halfway) sees the start of the new cache over the rest of the old one.
    @Test(arguments: [false, true]) func aTornCacheIsIgnored(everyoneElse: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        let path = everyoneElse ? CircleCache.circlePath(ana) : CircleCache.path(ana)
        let older = try #require(FileManager.default.contents(atPath: path))
        try checkIn(bea, "Bea", note: "b2")
        _ = try store.snapshot()
        let newer = try #require(FileManager.default.contents(atPath: path))
        #expect(older != newer)
        for cut in [CacheCodec.headerSize, newer.count / 2, newer.count - 1] {
            let torn = newer.prefix(cut) + older.dropFirst(cut)
            // (Where the two files end alike, a cut near the end is the newer file whole.)
            guard torn != newer else { continue }
            try torn.write(to: URL(fileURLWithPath: path))
            #expect(CircleCache.load(store) == nil, "torn at \(cut) of \(newer.count) bytes")
            let state = try store.snapshot().state
            #expect(state.members[beaId]?.lastCheckIn?.note == "b2", "torn at \(cut)")
            #expect(state.members[beaId]?.checkInCount == 2, "torn at \(cut)")
        }
        // The last full read wrote it whole again, no longer than what it holds (a byte more
        // would fail the checksum, which covers the whole file).
        #expect(CircleCache.load(store) != nil)
    }

    /// Two whole files that were not written together: this device's part names everyone
    /// else's by its checksum, so an older or newer file beside it is not used.
    @Test func cacheFilesThatDoNotBelongTogetherAreIgnored() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        let mine = CircleCache.path(ana)
        let theirs = CircleCache.circlePath(ana)
        let (olderMine, olderTheirs) = (try Files.read(mine), try Files.read(theirs))
        try checkIn(bea, "Bea", note: "b2")
        _ = try store.snapshot()
        let (newerMine, newerTheirs) = (try Files.read(mine), try Files.read(theirs))
        #expect(olderTheirs != newerTheirs)
        for (a, b) in [(olderMine, newerTheirs), (newerMine, olderTheirs)] {
            try Data(a).write(to: URL(fileURLWithPath: mine))
            try Data(b).write(to: URL(fileURLWithPath: theirs))
            #expect(CircleCache.load(store) == nil)
            #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b2")
        }
        #expect(CircleCache.load(store)?.others.members[beaId]?.lastCheckIn?.note == "b2", "rebuilt")
    }

    @Test func aCacheOfAnotherCircleIsIgnored() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        let store = try Store.open(dataDirectory: ana)
        _ = try store.snapshot()
        var cache = try #require(CircleCache.load(store))
        cache.circle = "/elsewhere"
        cache.save(ana)
        #expect(CircleCache.load(store) == nil)
        #expect(try store.snapshot().state.members[store.identity.member]?.lastCheckIn?.note == "a1")
    }
}

/// The unread count kept in the cache: used while the feed files are unchanged, recounted when
/// one changes.
@Suite struct UnreadCacheTests {
    let root = Scratch.root.appendingPathComponent("lifesignal-unread-\(UUID().uuidString)")
        .path
    static let t0 = Timestamp(seconds: 1_772_355_600)

    func notify(_ directory: String, _ count: Int, markAllRead: Bool = false) throws {
        _ = try Store.update(
            dataDirectory: directory, lockTimeout: 5,
            creation: .ifMissing(NewProfile(name: "Ana", interval: .hours(24), reminder: nil, circle: nil)),
            now: Self.t0, needs: .circleAndFeed
        ) { transaction in
            for i in 0..<count {
                transaction.notice(
                    Notification(
                        kind: .system, cause: "test \(i) \(UUID())", message: "m\(i)", at: Self.t0,
                        subject: transaction.member, recipient: .member(transaction.member)))
            }
            if markAllRead { transaction.markRead(Array(transaction.feed.notifications.keys)) }
        }
    }

    @Test func cachedWhileTheFeedIsUnchangedAndRecountedAfter() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try notify(root, 3)
        let store = try Store.open(dataDirectory: root)
        _ = try store.snapshot()
        #expect(try store.unreadCount().count == 3)
        // Plant a different number: an unchanged feed is not read again.
        var cache = try #require(CircleCache.load(store))
        #expect(cache.unread == 3)
        cache.unread = 41
        cache.save(root)
        #expect(try store.unreadCount().count == 41)
        // A change to the feed file makes it count again.
        try notify(root, 2)
        #expect(try store.unreadCount().count == 5)
        try notify(root, 0, markAllRead: true)
        #expect(try store.unreadCount().count == 0)
    }
}

/// `feed.json` is written a notification at a time; the text must be what the whole tree
/// would serialize to, and read back as the same feed.
@Suite struct FeedFileTests {
    @Test func writtenFeedIsCanonicalAndReadsBack() throws {
        let me = "0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f"
        let owner = "1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70"
        var feed = Feed()
        for i in 0..<25 {
            let recipient: LifeSignalCore.Notification.Recipient =
                i % 3 == 0 ? .external(owner: owner, id: "2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081") : .member(me)
            feed.add(
                LifeSignalCore.Notification(
                    kind: LifeSignalCore.Notification.Kind.allCases[
                        i % LifeSignalCore.Notification.Kind.allCases.count], cause: "cause \(i)",
                    message: "message \(i): “quoted” \"escaped\"\n",
                    at: Timestamp(seconds: 1_772_355_600 + Int64(i % 7) * 60), subject: owner,
                    recipient: recipient))
        }
        let ids = feed.notifications.keys.sorted()
        feed.read = Set(ids.prefix(10))
        feed.cleared = Set(ids.suffix(3))
        feed.record(
            DeliveryAttempt(
                notification: ids[0], channel: "ntfy:https://ntfy.sh/x", succeeded: false, error: "HTTP 500"),
            at: Timestamp(seconds: 1_772_355_700))
        feed.record(
            DeliveryAttempt(notification: ids[1], channel: "desktop:", succeeded: true, error: nil),
            at: Timestamp(seconds: 1_772_355_800))
        let bytes = FeedFile.encode(feed, signer: nil)
        let root = try JSONParser.parse(bytes)
        #expect(bytes == root.serializedBytes(pretty: true) + [0x0A])
        #expect(try FeedFile.decode(bytes, path: "feed.json", backup: nil) == feed)
        let empty = FeedFile.encode(Feed(), signer: nil)
        #expect(try FeedFile.decode(empty, path: "feed.json", backup: nil) == Feed())
        #expect(
            String(decoding: empty, as: UTF8.self)
                == "{\n  \"schemaVersion\": 1,\n  \"notifications\": [],\n  \"read\": [],\n  \"cleared\": [],\n  \"deliveries\": []\n}\n"
        )
    }
}
