import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// The cache as an index of the circle's logs and of the feed: used only while every file it
/// was made from has the key it had, and never able to hide a change. Each test makes the
/// cache say something the files do not (a marker name, a planted id) so that using a cache it
/// must not use shows up in what is read.
@Suite struct IndexTests: SharedCircle {
    let root = Scratch.root.appendingPathComponent("lifesignal-index-\(UUID().uuidString)")
        .path

    /// A delivery run's first half: what it noticed, and whether the feed's digest sufficed.
    func notice(_ directory: String, at now: Timestamp) throws -> (noticed: [String], usedDigest: Bool) {
        try Store.update(
            dataDirectory: directory, lockTimeout: 5, creation: .never, now: now, needs: .delivery(.direct(now: now))
        ) {
            transaction in
            let usedDigest = transaction.digest != nil
            return (transaction.noticeDue(now: now).map(\.kind.rawValue), usedDigest)
        }.value
    }

    func beaLog() throws -> String {
        let store = try Store.open(dataDirectory: bea)
        return store.logPath(member: store.identity.member, device: store.identity.device)
    }

    /// Plants the marker for Bea (see `SharedCircle.plantMarker`) and checks it shows.
    func plantMarker() throws -> String {
        let store = try Store.open(dataDirectory: ana)
        let beaId = try Store.open(dataDirectory: bea).identity.member
        _ = try store.snapshot()
        try plantMarker(bea: beaId)
        #expect(try store.snapshot().state.members[beaId]?.name?.value == "CACHED", "the cache is in use")
        return beaId
    }

    /// Changes one byte of a file in place (same size) and puts its modification time back
    /// to the nanosecond: only the change time (and the content) tell it changed.
    func changeInPlaceKeepingSizeAndTime(_ path: String, from old: String, to new: String) throws {
        #expect(old.utf8.count == new.utf8.count)
        var info = stat()
        #expect(stat(path, &info) == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(text.replacingOccurrences(of: old, with: new).utf8))
        try handle.close()
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_size == info.st_size && after.st_ino == info.st_ino)
        #expect(after.st_mtim.tv_sec == info.st_mtim.tv_sec && after.st_mtim.tv_nsec == info.st_mtim.tv_nsec)
    }

    @Test func aStaleIndexIsNotUsed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        let beaId = try plantMarker()
        // Bea's log changes under another name: the cache's key for it no longer matches.
        try checkIn(bea, "Bea", note: "b2")
        let state = try Store.open(dataDirectory: ana).snapshot().state
        #expect(state.members[beaId]?.lastCheckIn?.note == "b2")

        // The feed's digest: built by a run that read the whole feed, used while it holds.
        #expect(try notice(ana, at: Self.t0 + .hours(1)) == ([], false))
        #expect(try notice(ana, at: Self.t0 + .hours(2)) == ([], true), "nothing changed: the digest suffices")
        // Ana goes quiet past her deadline: something new is due, so the whole feed is read.
        #expect(try notice(ana, at: Self.t0 + .hours(25)) == (["receive_non_responsive_alert"], false))
        // The digest made after that run knows the miss; a later run has nothing new.
        #expect(try notice(ana, at: Self.t0 + .hours(26)) == ([], true))
    }

    /// A write that does not use the feed carries its digest over unparsed; a digest that does
    /// not parse costs a read of the feed, never a wrong answer.
    @Test func theDigestIsParsedOnlyWhereItIsUsed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        #expect(try notice(ana, at: Self.t0 + .hours(1)) == ([], false))
        let store = try Store.open(dataDirectory: ana)
        var cache = try #require(CircleCache.load(store))
        cache.digest?.text = "not a feed"
        cache.save(ana)
        try checkIn(ana, "Ana", note: "a2", at: Self.t0 + .hours(2))
        #expect(CircleCache.load(store)?.digest?.text == "not a feed", "carried over as it lay")
        #expect(try notice(ana, at: Self.t0 + .hours(27)) == (["receive_non_responsive_alert"], false))
        #expect(try notice(ana, at: Self.t0 + .hours(28)) == ([], true), "made again from the feed")
    }

    @Test func aDigestThatStopsMatchingTheFeedIsNotTrusted() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        #expect(try notice(ana, at: Self.t0 + .hours(25)) == (["receive_non_responsive_alert"], false))
        try checkIn(ana, "Ana", note: "a2", at: Self.t0 + .hours(26))
        #expect(try notice(ana, at: Self.t0 + .hours(27)) == ([], true))
        // Plant the next miss's id in the digest, as if it had been noticed already.
        let late = Self.t0 + .hours(51)
        let next = try Store.update(
            dataDirectory: ana, lockTimeout: 5, creation: .never, now: late, needs: .circleAndFeed, dryRun: true
        ) { $0.noticeDue(now: late) }.value
        #expect(next.map(\.kind) == [.missedCheckIn])
        let store = try Store.open(dataDirectory: ana)
        var cache = try #require(CircleCache.load(store))
        var digest = try #require(cache.digest)
        digest.ids = (digest.ids + next.compactMap { UInt64($0.id, radix: 16) }).sorted()
        cache.digest = digest
        cache.save(ana)
        // While the feed's files keep their keys, the digest is trusted (so this test can fail)…
        let trusted = try Store.update(
            dataDirectory: ana, lockTimeout: 5, creation: .never, now: late, needs: .delivery(.direct(now: late)),
            dryRun: true
        ) { ($0.noticeDue(now: late).count, $0.digest != nil) }.value
        #expect(trusted == (0, true))
        // …and once a feed file changes behind the cache's back, it is not.
        let text = try String(contentsOfFile: store.ownFeedPath, encoding: .utf8)
        try Data((text + " ").utf8).write(to: URL(fileURLWithPath: store.ownFeedPath))
        #expect(try #require(CircleCache.load(store)).currentDigest == nil)
        #expect(try notice(ana, at: late) == (["receive_non_responsive_alert"], false))
    }

    @Test func aDeletedIndexIsRebuilt() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        let store = try Store.open(dataDirectory: ana)
        #expect(try notice(ana, at: Self.t0 + .hours(1)) == ([], false))
        try FileManager.default.removeItem(atPath: CircleCache.path(ana))
        // Everything is read again, nothing is lost, and the index is there again after.
        #expect(try notice(ana, at: Self.t0 + .hours(25)) == (["receive_non_responsive_alert"], false))
        let cache = try #require(CircleCache.load(store))
        #expect(cache.currentDigest != nil)
        #expect(cache.isCurrent(exceptOwn: false))
        try FileManager.default.removeItem(atPath: CircleCache.path(ana))
        let beaId = try Store.open(dataDirectory: bea).identity.member
        #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b1")
        #expect(CircleCache.load(store) != nil)
    }

    @Test func aFileChangedWithTheSameSizeAndModificationTimeIsSeen() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        let beaId = try plantMarker()
        // A sync or a restore rewrites Bea's log in place: same size, same modification time.
        try changeInPlaceKeepingSizeAndTime(try beaLog(), from: "\"Bea\"", to: "\"Bex\"")
        let state = try Store.open(dataDirectory: ana).snapshot().state
        #expect(state.members[beaId]?.name?.value == "Bex")

        // The same for the feed: its digest is dropped and the feed is read.
        #expect(try notice(ana, at: Self.t0 + .hours(25)) == (["receive_non_responsive_alert"], false))
        let store = try Store.open(dataDirectory: ana)
        #expect(try #require(CircleCache.load(store)).currentDigest != nil)
        try changeInPlaceKeepingSizeAndTime(store.ownFeedPath, from: "Missed Check-in", to: "Missed Check-In")
        #expect(try #require(CircleCache.load(store)).currentDigest == nil)
    }

    @Test func aFileReplacedBySyncWhileItIsReadIsReadAgain() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        let beaId = try Store.open(dataDirectory: bea).identity.member
        let path = try beaLog()
        // Two versions of Bea's log, swapped in by rename (as Syncthing and git do) while Ana
        // reads the circle over and over.
        let first = try Data(contentsOf: URL(fileURLWithPath: path))
        try checkIn(bea, "Bea", note: "b2", at: Self.t0 + .hours(1))
        let second = try Data(contentsOf: URL(fileURLWithPath: path))
        let swapper = Task.detached {
            for i in 0..<300 {
                let temporary = path + ".sync-\(i)"
                try (i % 2 == 0 ? first : second).write(to: URL(fileURLWithPath: temporary))
                #expect(rename(temporary, path) == 0)
            }
        }
        let store = try Store.open(dataDirectory: ana)
        for _ in 0..<100 {
            let note = try store.snapshot().state.members[beaId]?.lastCheckIn?.note
            #expect(note == "b1" || note == "b2")
        }
        try await swapper.value
        // The last version in place is the first: whatever the cache took meanwhile, the read
        // after the sync settled shows it.
        try second.write(to: URL(fileURLWithPath: path + ".last"))
        #expect(rename(path + ".last", path) == 0)
        #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b2")
        try first.write(to: URL(fileURLWithPath: path + ".last"))
        #expect(rename(path + ".last", path) == 0)
        #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b1")
        #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b1")
    }

    @Test func aDashboardDecodesOnlyTheMembersItReadsAndNeverSavesThat() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        try checkIn(root + "/carl", "Carl", note: "c1")
        let beaId = try Store.open(dataDirectory: bea).identity.member
        let carlId = try Store.open(dataDirectory: root + "/carl").identity.member
        // Ana watches over Bea; Carl shares the circle but not with Ana.
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(RelationSet(member: beaId, roles: Roles(responder: false, dependent: true)), at: Self.t0)
        }
        let store = try Store.open(dataDirectory: ana)
        let whole = try store.snapshot().state
        #expect(whole.members[carlId]?.name?.value == "Carl")
        let loaded = try #require(CircleCache.load(store, checkingExceptOwn: false, scope: .dashboard))
        #expect(loaded.isCurrent)
        #expect(Set(loaded.cache.others.members.keys) == [beaId], "Carl's state is skipped, not decoded")
        let dashboard = try store.snapshot(for: .dashboard).state
        #expect(dashboard.members[beaId] == whole.members[beaId])
        #expect(dashboard.members[store.identity.member] == whole.members[store.identity.member])
        #expect(dashboard.relations == whole.relations)
        // A cache decoded for a dashboard is never written back in place of the whole one.
        loaded.cache.save(ana)
        #expect(CircleCache.load(store)?.others.members[carlId]?.name?.value == "Carl")
    }

    @Test func aLargeCircleReadInTwoHalvesMissesNobodyAndReportsADamagedLog() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        var ids: [String] = []
        for i in 0..<70 {
            try checkIn(root + "/m\(i)", "M\(i)", note: "n\(i)")
            ids.append(try Store.open(dataDirectory: root + "/m\(i)").identity.member)
        }
        // One log in each half of the listing is damaged.
        let damaged = ids.sorted().enumerated().filter { $0.offset == 3 || $0.offset == 60 }.map(\.element)
        for id in damaged {
            let store = try Store.open(dataDirectory: root + "/m\(try #require(ids.firstIndex(of: id)))")
            try Data("{".utf8).write(to: URL(fileURLWithPath: store.logPath(member: id, device: store.identity.device)))
        }
        let read = try Store.open(dataDirectory: ana).readCircle()
        #expect(read.skipped.count == 2)
        #expect(Set(read.unreadable.keys) == Set(damaged))
        let state = read.state
        for (i, id) in ids.enumerated() where !damaged.contains(id) {
            #expect(state.members[id]?.lastCheckIn?.note == "n\(i)")
        }
        // The 68 readable logs, and this device's published and private copies.
        #expect(read.entries.filter { $0.path.hasSuffix("/log.json") }.count == 70)
    }
}
