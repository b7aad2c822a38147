import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// `cache-linked.bin`, the part of everyone else a check-in reads: made by the check-in that
/// found none it could use, used only while it covers whom the check-in looks at, and never in
/// the way of a correct read when it does not.
@Suite struct LinkedCacheTests: SharedCircle {
    let root = Scratch.root.appendingPathComponent("lifesignal-linked-\(UUID().uuidString)")
        .path

    var carl: String { root + "/carl" }
    var dee: String { root + "/dee" }

    /// Ana and Bea watch over each other and Ana watches over Dee; Carl shares the circle with
    /// nobody. Ana's cache is built from all four. The members' ids, by name.
    func circleOfFour() throws -> [String: String] {
        for (directory, name) in [(ana, "Ana"), (bea, "Bea"), (carl, "Carl"), (dee, "Dee")] {
            try checkIn(directory, name, note: name.lowercased() + "1")
        }
        var ids: [String: String] = [:]
        for (directory, name) in [(ana, "Ana"), (bea, "Bea"), (carl, "Carl"), (dee, "Dee")] {
            ids[name] = try Store.open(dataDirectory: directory).identity.member
        }
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(
                RelationSet(member: ids["Bea"] ?? "", roles: Roles(responder: true, dependent: true)), at: Self.t0)
            transaction.record(
                RelationSet(member: ids["Dee"] ?? "", roles: Roles(responder: false, dependent: true)), at: Self.t0)
        }
        _ = try Store.open(dataDirectory: ana).snapshot()
        return ids
    }

    /// What a check-in of Ana sees of everyone else.
    func checkIn(at time: Timestamp, recording extra: (any EventBody)? = nil) throws -> CircleState {
        try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: time, needs: .checkIn) {
            transaction in
            transaction.record(CheckedIn(note: "linked"), at: time)
            if let extra { transaction.record(extra, at: time) }
            return transaction.others
        }.value
    }

    @Test func aCheckInReadsTheLinkedPartAloneAndKeepsTheOthersByName() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let ids = try circleOfFour()
        #expect(!FileManager.default.fileExists(atPath: CircleCache.linkedPath(ana)), "a read does not make it")
        _ = try checkIn(at: Self.t0 + .minutes(30))
        #expect(FileManager.default.fileExists(atPath: CircleCache.linkedPath(ana)), "the first check-in does")
        // Without everyone else's file a check-in that needed it would read every log.
        try FileManager.default.removeItem(atPath: CircleCache.circlePath(ana))
        let others = try checkIn(at: Self.t0 + .hours(1))
        #expect(Set(others.members.keys) == [ids["Bea"], ids["Dee"]], "only those linked with Ana")
        #expect(others.members[ids["Bea"] ?? ""]?.lastCheckIn?.note == "bea1", "her responder, whole")
        #expect(others.members[ids["Dee"] ?? ""]?.name?.value == "Dee")
        #expect(others.members[ids["Dee"] ?? ""]?.lastCheckIn == nil, "whom she watches over, by name only")
        // The next reader reads the whole circle again.
        let state = try Store.open(dataDirectory: ana).snapshot().state
        #expect(state.members[ids["Carl"] ?? ""]?.lastCheckIn?.note == "carl1")
        #expect(state.members[ids["Dee"] ?? ""]?.lastCheckIn?.note == "dee1")
    }

    @Test func aLinkMadeSinceLetsGoOfThePartAndTheNextCheckInMakesItAgain() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let ids = try circleOfFour()
        _ = try checkIn(at: Self.t0 + .minutes(30))
        let before = Posix.key(CircleCache.linkedPath(ana))
        _ = try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(
                RelationSet(member: ids["Carl"] ?? "", roles: Roles(responder: true, dependent: false)), at: Self.t0)
        }
        #expect(Posix.key(CircleCache.linkedPath(ana)) == before, "a write that reads everyone does not make it")
        // Carl's logs were never checked: the first check-in reads everyone, the next makes the part.
        let first = try checkIn(at: Self.t0 + .hours(1))
        #expect(first.members[ids["Carl"] ?? ""]?.lastCheckIn?.note == "carl1")
        _ = try checkIn(at: Self.t0 + .hours(2))
        #expect(Posix.key(CircleCache.linkedPath(ana)) != before, "made again for Ana's new responder")
        try FileManager.default.removeItem(atPath: CircleCache.circlePath(ana))
        let others = try checkIn(at: Self.t0 + .hours(3))
        #expect(others.members[ids["Carl"] ?? ""]?.lastCheckIn?.note == "carl1")
    }

    @Test func aPartThatDoesNotCoverTheCheckInIsNotUsed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let ids = try circleOfFour()
        _ = try checkIn(at: Self.t0 + .minutes(30))
        // Dee made Ana's responder by a linked write: the part, made before, holds Dee's name only.
        let dee = RelationSet(member: ids["Dee"] ?? "", roles: Roles(responder: true, dependent: true))
        _ = try checkIn(at: Self.t0 + .hours(1), recording: dee)
        let before = Posix.key(CircleCache.linkedPath(ana))
        let others = try checkIn(at: Self.t0 + .hours(2))
        #expect(others.members[ids["Dee"] ?? ""]?.lastCheckIn?.note == "dee1", "read from everyone else's file")
        #expect(others.members[ids["Carl"] ?? ""] == nil, "still only those linked with Ana")
        #expect(Posix.key(CircleCache.linkedPath(ana)) != before, "and made again from what it read")
        try FileManager.default.removeItem(atPath: CircleCache.circlePath(ana))
        let after = try checkIn(at: Self.t0 + .hours(3))
        #expect(after.members[ids["Dee"] ?? ""]?.lastCheckIn?.note == "dee1")
    }

    /// What the part covers is worked out from this device's part of the cache: a log of this
    /// device's changed since (a write that could not save the cache) leaves the part unused.
    @Test func aPartIsNotUsedWhileThisDevicesOwnPartIsBehind() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let ids = try circleOfFour()
        _ = try checkIn(at: Self.t0 + .minutes(30))
        try FileManager.default.removeItem(atPath: CircleCache.circlePath(ana))
        let store = try Store.open(dataDirectory: ana)
        let log = store.logPath(member: store.identity.member, device: store.identity.device)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: log)
        let others = try checkIn(at: Self.t0 + .hours(1))
        #expect(others.members[ids["Carl"] ?? ""]?.lastCheckIn?.note == "carl1", "everyone read again")
    }

    @Test func aDamagedOrMissingPartIsReadAround() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let ids = try circleOfFour()
        _ = try checkIn(at: Self.t0 + .minutes(30))
        let path = CircleCache.linkedPath(ana)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let damaged = try checkIn(at: Self.t0 + .hours(1))
        #expect(damaged.members[ids["Bea"] ?? ""]?.lastCheckIn?.note == "bea1")
        #expect(damaged.members[ids["Dee"] ?? ""]?.lastCheckIn?.note == "dee1", "everyone else's file, as before")
        try FileManager.default.removeItem(atPath: path)
        let missing = try checkIn(at: Self.t0 + .hours(2))
        #expect(missing.members[ids["Bea"] ?? ""]?.lastCheckIn?.note == "bea1")
    }
}

extension LinkedCacheTests {
    /// Someone Ana watches over who now says, from their side, that they watch over her: a
    /// check-in, which does not check the files of those she watches over, sees it once a run
    /// has read the whole circle (from the review of this shortcut).
    @Test func aDependentWhoNowWatchesOverMeIsSeenOnceTheWholeCircleIsRead() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let ids = try circleOfFour()
        let (anaId, beaId, deeId) = (ids["Ana"] ?? "", ids["Bea"] ?? "", ids["Dee"] ?? "")
        _ = try checkIn(at: Self.t0 + .minutes(30))
        let claim = RelationSet(member: anaId, roles: Roles(responder: true, dependent: true))
        _ = try Store.update(dataDirectory: dee, lockTimeout: 5, creation: .never, now: Self.t0 + .hours(1)) {
            transaction in transaction.record(claim, at: Self.t0 + .hours(1))
        }
        func responders(at time: Timestamp) throws -> [LifeSignalCore.Notification.Recipient] {
            try Store.update(dataDirectory: ana, lockTimeout: 5, creation: .never, now: time, needs: .checkIn) {
                transaction in
                transaction.record(CheckedIn(note: "linked"), at: time)
                return Notifications.responders(of: anaId, in: transaction.circle)
            }.value
        }
        #expect(try responders(at: Self.t0 + .hours(2)) == [.member(beaId)], "Dee's files are not checked")
        let whole = try Store.open(dataDirectory: ana).snapshot().state
        #expect(Notifications.responders(of: anaId, in: whole).contains(.member(deeId)))
        #expect(try responders(at: Self.t0 + .hours(3)).contains(.member(deeId)), "the next check-in sees it")
    }
}
