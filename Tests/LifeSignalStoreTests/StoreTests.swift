import Foundation
import LifeSignalCore
import Testing

@testable import LifeSignalStore

/// The store through its API, on a temporary directory: creation, archiving of old events
/// into segments, and history read back across segments.
@Suite struct StoreTests {
    let directory: String

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-store-\(UUID().uuidString)").path
    }

    static let profile = NewProfile(name: "Ana", interval: .hours(24), reminder: .minutes(30), circle: nil)
    static let t0 = Timestamp(seconds: 1_772_355_600)

    /// Records `count` check-ins one hour apart, `batch` per transaction.
    func checkIn(count: Int, batch: Int, start: Int64 = 0) throws {
        var done = 0
        while done < count {
            let n = min(batch, count - done)
            _ = try Store.update(dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(Self.profile), now: Self.t0) { transaction in
                for i in 0..<n {
                    transaction.record(.checkIn(note: "n\(done + i)"), at: Timestamp(seconds: Self.t0.seconds + (start + Int64(done + i)) * 3600))
                }
            }
            done += n
        }
    }

    @Test func createsProfileOnceWithPrivateFiles() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Store.update(dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(Self.profile), now: Self.t0) { $0.createdProfile }
        let second = try Store.update(dataDirectory: directory, lockTimeout: 5, creation: .ifMissing(Self.profile), now: Self.t0) { $0.createdProfile }
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
        #expect(throws: StoreError.notInitialized(dataDirectory: directory)) { try Store.open(dataDirectory: directory) }
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
        let segments = try FileManager.default.contentsOfDirectory(atPath: archive).compactMap(ArchiveSegment.init(fileName:))
        #expect(!segments.isEmpty)
        #expect(segments.allSatisfy { $0.lastSeq - $0.firstSeq + 1 <= Int64(DeviceLog.tailLimit) })
        #expect(segments.map(\.lastSeq).max() == log.archivedThrough)

        let all = try store.checkIns(of: member, in: read, limit: nil, since: nil)
        #expect(all.count == 1000)
        #expect(all.first?.note == "n999")
        #expect(all.last?.note == "n0")
        let newest = try store.checkIns(of: member, in: read, limit: 5, since: nil)
        #expect(newest.map(\.note) == ["n999", "n998", "n997", "n996", "n995"])
        let deep = try store.checkIns(of: member, in: read, limit: 3, since: Timestamp(seconds: Self.t0.seconds + 10 * 3600))
        #expect(deep.map(\.note) == ["n999", "n998", "n997"])
        let since = try store.checkIns(of: member, in: read, limit: nil, since: Timestamp(seconds: Self.t0.seconds + 990 * 3600))
        #expect(since.count == 10)
    }

    @Test func historyIsExactWhenTimesAreOutOfOrder() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 300 check-ins at recent times, then a "what if" run recorded one far in the future,
        // then 300 more at old times: the newest by time lies in an archived segment.
        try checkIn(count: 300, batch: 100, start: 1000)
        _ = try Store.update(dataDirectory: directory, lockTimeout: 5, creation: .never, now: Self.t0) { transaction in
            transaction.record(.checkIn(note: "future"), at: Timestamp(seconds: Self.t0.seconds + 100_000 * 3600))
        }
        try checkIn(count: 300, batch: 100, start: 0)
        let store = try Store.open(dataDirectory: directory)
        let newest = try store.checkIns(of: store.identity.member, in: store.readCircle(), limit: 2, since: nil)
        #expect(newest.map(\.note) == ["future", "n299"])
    }

    @Test func aSegmentLeftByACrashBeforeTheLogWasRewrittenIsIgnored() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try checkIn(count: 10, batch: 10)
        let store = try Store.open(dataDirectory: directory)
        let member = store.identity.member, device = store.identity.device
        // A segment claiming events 1–5 while the log still holds them (archivedThrough 0).
        let archive = store.deviceDirectory(member: member, device: device) + "/archive"
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
        let log = try #require(try store.readLog(member: member, device: device))
        let orphan = ArchiveSegment(firstSeq: 1, lastSeq: 5, newest: Self.t0)
        try Data(ArchiveSegment.encode(Array(log.events.prefix(5)), member: member, device: device)).write(to: URL(fileURLWithPath: archive + "/" + orphan.fileName))
        #expect(try store.checkIns(of: member, in: store.readCircle(), limit: nil, since: nil).count == 10)
    }
}
