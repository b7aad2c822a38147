import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// What a writer may skip, and only while the files say it may: a check-in reads only the
/// members linked with it (the rest carried over, for the next reader to check), and a writer
/// appends to its own log as it lies while the cache holds that file's key.
@Suite struct WriterShortcutTests: SharedCircle {
    let root = Scratch.root.appendingPathComponent("lifesignal-writer-\(UUID().uuidString)")
        .path

    var carl: String { root + "/carl" }

    /// A linked write's view of everyone else: whose state it decoded, and Bea's last note.
    func linkedCheckIn(_ directory: String, at time: Timestamp) throws -> (members: Set<String>, note: String?) {
        let beaId = try Store.open(dataDirectory: bea).identity.member
        return try Store.update(
            dataDirectory: directory, lockTimeout: 5, creation: .never, now: time, needs: .checkIn
        ) { transaction in
            transaction.record(CheckedIn(note: "linked"), at: time)
            return (Set(transaction.others.members.keys), transaction.others.members[beaId]?.lastCheckIn?.note)
        }.value
    }

    /// Ana and Bea, each checked in once: Ana's store and Bea's id.
    func anaAndBea() throws -> (store: Store, bea: String) {
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        return (try Store.open(dataDirectory: ana), try Store.open(dataDirectory: bea).identity.member)
    }

    @Test func aLinkedWriteReadsOnlyTheLinkedAndTheNextReaderSeesTheRest() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        try checkIn(carl, "Carl", note: "c1")
        let beaId = try Store.open(dataDirectory: bea).identity.member
        let carlId = try Store.open(dataDirectory: carl).identity.member
        // Ana and Bea watch over each other; Carl shares the circle but not with Ana.
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(RelationSet(member: beaId, roles: Roles(responder: true, dependent: true)), at: Self.t0)
        }
        let store = try Store.open(dataDirectory: ana)
        #expect(try store.snapshot().state.members[carlId]?.lastCheckIn?.note == "c1")

        // Carl checks in: Ana's check-in neither reads nor checks his log…
        try checkIn(carl, "Carl", note: "c2", at: Self.t0 + .hours(1))
        let first = try linkedCheckIn(ana, at: Self.t0 + .hours(2))
        #expect(first.members == [beaId], "only the linked member is decoded")
        #expect(first.note == "b1")
        // …and the cache it leaves keeps Carl's old key, so the next reader reads him again.
        let after = try store.snapshot().state
        #expect(after.members[carlId]?.lastCheckIn?.note == "c2")
        #expect(after.members[store.identity.member]?.lastCheckIn?.note == "linked")
        #expect(CircleCache.load(store)?.others.members[carlId]?.lastCheckIn?.note == "c2", "the whole cache again")

        // Bea checks in: a linked member changed, so the check-in reads the circle as any write.
        try checkIn(bea, "Bea", note: "b2", at: Self.t0 + .hours(3))
        let second = try linkedCheckIn(ana, at: Self.t0 + .hours(4))
        #expect(second.note == "b2")
        #expect(second.members.contains(carlId), "read whole, as any write")
        #expect(try store.snapshot().state.members[beaId]?.lastCheckIn?.note == "b2")
    }

    /// A check-in that changed only this device's part rewrites `cache.bin` alone, and the
    /// pair it leaves is used as it is by the next reader.
    @Test func aCheckInRewritesOnlyItsOwnPartOfTheCache() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(RelationSet(member: beaId, roles: Roles(responder: true, dependent: true)), at: Self.t0)
        }
        _ = try store.snapshot()
        let everyoneElse = Posix.key(CircleCache.circlePath(ana))
        let mine = Posix.key(CircleCache.path(ana))
        _ = try linkedCheckIn(ana, at: Self.t0 + .hours(1))
        #expect(Posix.key(CircleCache.circlePath(ana)) == everyoneElse, "everyone else's part is not rewritten")
        #expect(Posix.key(CircleCache.path(ana)) != mine)
        let loaded = try #require(CircleCache.load(store, checkingExceptOwn: false))
        #expect(loaded.isCurrent, "the pair is used as it is")
        #expect(loaded.cache.own.members[store.identity.member]?.lastCheckIn?.note == "linked")
        #expect(loaded.cache.others.members[beaId]?.lastCheckIn?.note == "b1")
    }

    /// Every write writes the log whole, and the file is what decoding it and writing it
    /// again gives, across an archive and delivery runs that replace each other.
    @Test func aWriteWritesTheWholeLogAcrossAnArchiveAndDeliveryRuns() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        let store = try Store.open(dataDirectory: ana)
        _ = try store.snapshot()
        // Past the tail's limit, so that one write archives; a delivery run right after another
        // replaces it.
        for i in 1...(DeviceLog.tailLimit + 100) {
            let time = Self.t0 + .minutes(Int64(i))
            _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: time) { transaction in
                if i % 5 >= 3 {
                    transaction.recordDeliverRun(at: time)
                } else {
                    transaction.record(CheckedIn(note: "n\(i)"), at: time)
                }
            }
        }
        let bytes = try Files.read(store.ownLogPath)
        let log = try DeviceLog.decode(bytes, path: store.ownLogPath, member: nil, device: nil, backup: nil)
        #expect(log.archivedThrough > 0, "one write archived")
        #expect(log.events.count <= DeviceLog.tailLimit)
        let runs = zip(log.events, log.events.dropFirst()).filter { $0.body is DeliverRan && $1.body is DeliverRan }
        #expect(runs.isEmpty, "a delivery run still replaces the one before it")
        let signer = try store.signingKey(signedWith: log.key, dryRun: true)
        #expect(log.encoded(signer: signer) == bytes, "the same bytes as decoding and writing it again")
        #expect(try Files.read(store.publishedLogPath) == bytes)
        let history = try store.checkIns(of: store.identity.member, in: store.readCircle(), limit: nil, since: nil)
        #expect(history.checkIns.count == 1 + (1...(DeviceLog.tailLimit + 100)).filter { $0 % 5 < 3 }.count)
        #expect(history.gaps.isEmpty)
    }
}

extension WriterShortcutTests {
    /// A log holding records of a newer lifesignal that did not change the version string:
    /// the newer build's state field is kept through writes and still reported.
    @Test func aLogWithRecordsOfANewerBuildKeepsThemThroughWrites() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        let store = try Store.open(dataDirectory: ana)
        let (member, device) = (store.identity.member, store.identity.device)
        let text = NewerVersionTests.newerLog(member: member, device: device, checkIns: 1)
            .replacingOccurrences(of: "lifesignal 9.9.9", with: Release.writer)
        for path in [store.ownLogPath, store.logPath(member: member, device: device)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        for note in ["a2", "a3", "a4"] {
            let unknown = try Store.update(
                dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0, needs: .checkIn
            ) { transaction in
                transaction.record(CheckedIn(note: note), at: Self.t0)
                return transaction.unknown
            }.value
            #expect(unknown.count == 1, "its newer records are still reported (\(note))")
            #expect(try String(contentsOfFile: store.ownLogPath, encoding: .utf8).contains("\"vacation\":"))
        }
    }
}

extension WriterShortcutTests {
    /// A member whose relation with me ended is no longer on my dashboard, but trust upkeep
    /// still looks at them: a check-in decodes them too (from the review). It checks the files
    /// of my responders only: Carl's change is seen by the next run that reads the whole circle.
    @Test func aCheckInDecodesTheMembersTrustUpkeepLooksAtAsTheLastFullReadFoundThem() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        try checkIn(carl, "Carl", note: "c1")
        try checkIn(root + "/dan", "Dan", note: "d1")
        let beaId = try Store.open(dataDirectory: bea).identity.member
        let carlId = try Store.open(dataDirectory: carl).identity.member
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(RelationSet(member: beaId, roles: Roles(responder: true, dependent: true)), at: Self.t0)
            transaction.record(
                RelationSet(member: carlId, roles: Roles(responder: false, dependent: true)), at: Self.t0)
            transaction.record(
                RelationSet(member: carlId, roles: Roles(responder: false, dependent: false)), at: Self.t0)
        }
        let store = try Store.open(dataDirectory: ana)
        _ = try store.snapshot()
        #expect(try !store.snapshot().state.dashboardMembers(of: store.identity.member).contains(carlId))
        #expect(try linkedCheckIn(ana, at: Self.t0 + .hours(1)).members == [beaId, carlId], "Dan is not read")
        // Carl changes his name: the check-in does not check his file's key…
        _ = try Store.update(dataDirectory: carl, lockTimeout: 5, creation: .never, now: Self.t0 + .hours(2)) {
            transaction in transaction.record(NameSet(name: "Carlos"), at: Self.t0 + .hours(2))
        }
        func carlsName(at time: Timestamp) throws -> String? {
            try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: time, needs: .checkIn) {
                transaction in transaction.others.members[carlId]?.name?.value
            }.value
        }
        #expect(try carlsName(at: Self.t0 + .hours(3)) == "Carl", "as the last read of the whole circle found him")
        // …the next run that reads the whole circle does, and the check-in after it has it.
        #expect(try store.snapshot().state.members[carlId]?.name?.value == "Carlos")
        #expect(try carlsName(at: Self.t0 + .hours(4)) == "Carlos")
    }
}

extension WriterShortcutTests {
    /// Someone nobody watches over, as far as their cache knows, may just have been added by a
    /// responder from the other side: their check-in reads everyone, so it sees the new link
    /// and does not say "nobody watches over you" from a partial read.
    @Test func aCheckInOfSomeoneNobodyWatchesReadsEveryone() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try checkIn(ana, "Ana", note: "a1")
        try checkIn(bea, "Bea", note: "b1")
        let anaId = try Store.open(dataDirectory: ana).identity.member
        let beaId = try Store.open(dataDirectory: bea).identity.member
        _ = try Store.open(dataDirectory: bea).snapshot()
        // Ana adds Bea as her dependent: only Ana's log says so.
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(RelationSet(member: beaId, roles: Roles(responder: false, dependent: true)), at: Self.t0)
        }
        let responders = try Store.update(
            dataDirectory: bea, lockTimeout: 5, creation: .never, now: Self.t0 + .hours(1), needs: .checkIn
        ) { transaction in Notifications.responders(of: beaId, in: transaction.circle) }.value
        #expect(responders == [.member(anaId)])
    }
}

extension WriterShortcutTests {
    /// A write copies this device's facts into `cache.bin` as it read them only while they are
    /// as they were: a relation it records is in the cache the next run loads.
    @Test func theCacheHoldsTheFactsAWriteChanged() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        let pair = Pair(store.identity.member, beaId)
        _ = try store.snapshot()
        try checkIn(ana, "Ana", note: "a2", at: Self.t0 + .hours(1))
        #expect(CircleCache.load(store)?.own.relations[pair] == nil)
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0 + .hours(2)) {
            transaction in
            transaction.record(RelationSet(member: beaId, roles: Roles(responder: true, dependent: true)), at: Self.t0)
        }
        #expect(CircleCache.load(store)?.own.relations[pair]?.value?.responder == true)
        // A check-in after it leaves the facts as they are, and copies them.
        try checkIn(ana, "Ana", note: "a3", at: Self.t0 + .hours(3))
        let cache = try #require(CircleCache.load(store))
        #expect(cache.own.relations[pair]?.value?.responder == true)
        #expect(cache.own.members[store.identity.member]?.lastCheckIn?.note == "a3")
    }
}

extension WriterShortcutTests {
    /// History reads this device's log whole, with or without the cache.
    @Test func historyReadsThisDevicesLogWithOrWithoutTheCache() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, beaId) = try anaAndBea()
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(RelationSet(member: beaId, roles: Roles(responder: true, dependent: true)), at: Self.t0)
        }
        for hour in 1...3 { try checkIn(ana, "Ana", note: "a\(hour + 1)", at: Self.t0 + .hours(Int64(hour))) }
        let whole = try DeviceLog.decode(
            try Files.read(store.ownLogPath), path: store.ownLogPath, member: nil, device: nil, backup: nil)
        let read = try store.readMember()
        #expect(read.logs.first?.events == whole.events)
        #expect(read.state.members[store.identity.member]?.checkInCount == 4)
        let history = try store.checkIns(of: store.identity.member, in: read, limit: 2, since: nil)
        #expect(history.checkIns.map(\.note) == ["a4", "a3"])
        // Without the cache, the file is read whole, to the same events and state.
        try FileManager.default.removeItem(atPath: CircleCache.path(ana))
        let cold = try store.readMember()
        #expect(cold.logs.first?.events == whole.events)
        #expect(cold.state == read.state)
    }
}
