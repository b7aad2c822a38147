import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// Logs written by a newer lifesignal: an event type and a field of the state this version
/// does not know are read without calling the log damaged, reported once per log with the
/// device and the version that wrote them, skipped by the fold, and kept byte for byte when
/// this device writes again — in the log's tail and in an archive segment alike.
@Suite struct NewerVersionTests {
    let root = Scratch.root.appendingPathComponent("lifesignal-newer-\(UUID().uuidString)")
        .path
    var home: String { root + "/ana" }
    static let t0 = Timestamp(seconds: 1_772_355_600)
    static let profile = NewProfile(name: "Ana", interval: .hours(24), reminder: nil, circle: nil)

    /// The event of a type this version does not know, spelled as no lifesignal of ours would
    /// (spaces, an escaped é, a decimal): it must come back exactly so.
    static func vacationEvent(seq: Int) -> String {
        #"{"seq": \#(seq), "at": "2026-03-01T08:00:00Z", "clock": \#(seq), "type": "vacationSet", "until": "2026-04-01T00:00:00Z", "note": "caf\u00e9", "ratio": 1.50}"#
    }

    /// A field of the state this version does not know, as its text.
    static let vacationState = #"{"until": "2026-04-01T00:00:00Z", "at": "2026-03-01T08:00:00Z", "clock": 2, "seq": 2}"#

    static func checkInEvent(seq: Int) -> String {
        #"{"seq":\#(seq),"at":"\#(Timestamp(seconds: t0.seconds - 86_400 + Int64(seq)).rfc3339)","clock":\#(seq),"type":"checkIn"}"#
    }

    /// A log as lifesignal 9.9.9 would write it: a name, the unknown event as event 2, then
    /// `checkIns` check-ins.
    static func newerLog(member: String, device: String, checkIns: Int) -> String {
        let last = checkIns + 2
        let events =
            [#"{"seq":1,"at":"2026-03-01T07:00:00Z","clock":1,"type":"nameSet","name":"Ana"}"#, vacationEvent(seq: 2)]
            + (3...last).map { checkInEvent(seq: $0) }
        let lastAt = Timestamp(seconds: t0.seconds - 86_400 + Int64(last)).rfc3339
        return """
            {
            "schemaVersion": 1,
            "writer": "lifesignal 9.9.9",
            "member": "\(member)",
            "device": "\(device)",
            "lastSeq": \(last),
            "archivedThrough": 0,
            "clock": \(last),
            "state": {"name":{"value":"Ana","at":"2026-03-01T07:00:00Z","clock":1,"seq":1},"vacation": \(vacationState),"lastCheckIn":{"at":"\(lastAt)","clock":\(last),"seq":\(last)},"checkIns":\(checkIns),"relations":[],"externals":[],"pings":[]},
            "events": [
              \(events.joined(separator: ",\n  "))
            ]
            }

            """
    }

    func checkIn(_ directory: String, note: String, creation: Store.Creation = .never) throws -> [UnknownRecords] {
        try Store.update(dataDirectory: directory, lockTimeout: 5, creation: creation, now: Self.t0) { transaction in
            transaction.record(CheckedIn(note: note), at: Self.t0)
            return transaction.unknown
        }.value
    }

    /// Makes a profile, then replaces its log with one written by lifesignal 9.9.9.
    func newerStore(checkIns: Int) throws -> (store: Store, log: String) {
        _ = try checkIn(home, note: "first", creation: .ifMissing(Self.profile))
        let store = try Store.open(dataDirectory: home)
        let member = store.identity.member
        let device = store.identity.device
        // Both copies: the private one this device reads, and the one it published.
        let log = store.ownDirectory + "/log.json"
        for path in [log, store.logPath(member: member, device: device)] {
            try Data(Self.newerLog(member: member, device: device, checkIns: checkIns).utf8).write(
                to: URL(fileURLWithPath: path))
        }
        return (store, log)
    }

    func expected(_ store: Store, events: Int) -> UnknownRecords {
        UnknownRecords(
            member: store.identity.member, device: store.identity.device, writer: "lifesignal 9.9.9", events: events,
            fields: ["vacation"])
    }

    @Test func unknownRecordsAreReportedSkippedAndKept() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, log) = try newerStore(checkIns: 1)
        let member = store.identity.member

        let read = try store.readCircle()
        #expect(read.skipped.isEmpty)
        #expect(read.unknown == [expected(store, events: 1)])
        #expect(read.state.members[member]?.name?.value == "Ana")
        #expect(read.state.members[member]?.checkInCount == 1)
        // The warning outlives the read: the cache carries it.
        #expect(try store.snapshot().unknown == [expected(store, events: 1)])
        #expect(CircleCache.load(store)?.unknown == [expected(store, events: 1)])
        #expect(try store.snapshot().unknown == [expected(store, events: 1)])

        // This device writes again: the known events fold on, the unknown ones stay as written.
        #expect(try checkIn(home, note: "again") == [expected(store, events: 1)])
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("\n  " + Self.vacationEvent(seq: 2) + ",\n"))
        #expect(text.contains("\"vacation\":" + Self.vacationState))
        #expect(text.contains("\"writer\": \"lifesignal 9.9.9\",\n"))
        let again = try #require(try store.readLog(member: member, device: store.identity.device))
        #expect(again.memberState.checkInCount == 2)
        #expect(again.memberState.lastCheckIn?.note == "again")
        #expect(again.events.count == 4)
        #expect(again.unknownRecords == expected(store, events: 1))
        // The fold skips the unknown event: replaying the tail gives the known facts only.
        var folded = CircleState()
        for event in again.events { folded.apply(event, member: member, device: store.identity.device) }
        #expect(folded.members[member]?.checkInCount == 2)
        #expect(folded.members[member]?.name?.value == "Ana")
    }

    @Test func anUnknownEventMovedToASegmentIsKeptThere() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (store, _) = try newerStore(checkIns: DeviceLog.tailLimit)
        let member = store.identity.member
        let device = store.identity.device
        #expect(try checkIn(home, note: "archiving") == [expected(store, events: 1)])

        let log = try #require(try store.readLog(member: member, device: device))
        #expect(log.archivedThrough > 2)
        // The tail no longer holds the event, but the state keeps the field: still reported.
        #expect(log.unknownRecords == expected(store, events: 0))
        #expect(log.writer == "lifesignal 9.9.9")
        let archive = store.deviceDirectory(member: member, device: device) + "/archive"
        let names = try FileManager.default.contentsOfDirectory(atPath: archive)
        let first = try #require(names.first { ArchiveSegment(fileName: $0)?.firstSeq == 1 })
        let segment = try String(contentsOfFile: archive + "/" + first, encoding: .utf8)
        #expect(segment.contains("," + Self.vacationEvent(seq: 2) + ","))
        // History reads the segment past the unknown event.
        let history = try store.checkIns(of: member, in: store.readCircle(), limit: nil, since: nil).checkIns
        #expect(history.count == DeviceLog.tailLimit + 1)
        #expect(history.first?.note == "archiving")
    }

    @Test func anotherDevicesUnknownEventDoesNotStopACheckIn() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try checkIn(home, note: "first", creation: .ifMissing(Self.profile))
        let store = try Store.open(dataDirectory: home)
        let bea = "1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70"
        let phone = "3e8f5d84-af61-40b1-8243-4d5e6f708192"
        let directory = store.deviceDirectory(member: bea, device: phone)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let theirs = Data(Self.newerLog(member: bea, device: phone, checkIns: 3).utf8)
        try theirs.write(to: URL(fileURLWithPath: directory + "/log.json"))
        let report = UnknownRecords(
            member: bea, device: phone, writer: "lifesignal 9.9.9", events: 1, fields: ["vacation"])

        #expect(try checkIn(home, note: "second") == [report])
        #expect(try store.snapshot().unknown == [report])
        #expect(try store.snapshot().state.members[bea]?.checkInCount == 3)
        #expect(try store.snapshot().state.members[store.identity.member]?.lastCheckIn?.note == "second")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/log.json")) == theirs)
    }
}
