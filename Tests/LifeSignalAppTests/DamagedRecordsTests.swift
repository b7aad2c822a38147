import Foundation
import LifeSignalApp
import LifeSignalCore
import LifeSignalStore
import Testing

/// Records that cannot be read: a dependent's damaged or vanished log needs attention (never a
/// calm "on time"), another device's damaged or oversized file is left out and said, never
/// changed; this device's own log is verified like everyone else's, and a damaged private copy
/// gives way to the newest copy it signed.
@Suite struct DamagedRecordsTests {
    static let noon = "2026-03-01T12:00:00Z"
    static let anaNotes = "ntfy:https://ntfy.example/ana-notes"

    /// Ana watches over Bea; both checked in at t0; Ana's own channel is `anaNotes`.
    static func anaWatchesBea() throws -> Sandbox {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try box.join("bea", at: t0)
        let code = try box.app("bea", at: t0).inviteCode(reset: false).code
        _ = try box.app("ana", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        var change = App.PreferencesChange()
        change.channels = [anaNotes]
        _ = try box.app("ana", at: t0).preferences(change)
        for person in ["ana", "bea"] { _ = try box.app(person, at: t0).checkIn(note: nil) }
        return box
    }

    static func leftOut(_ app: App, naming path: String) -> Bool {
        app.warnings.contains { warning in
            if case .recordsLeftOut(let error) = warning { "\(error)".contains(path) } else { false }
        }
    }

    /// A log of `size` bytes ("{" and zeros, sparse) of a member of an attacker's making.
    static func fakeLog(_ box: Sandbox, _ n: Int, size: UInt64) throws {
        let member = String(format: "00000000-0000-4000-8000-%012d", n)
        let folder = "\(box.circle)/members/\(member)/\(member)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/log.json", contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/log.json"))
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    @Test func aDependentWhoseRecordsCannotBeReadNeedsAttention() throws {
        let box = try Self.anaWatchesBea()
        let log = box.publishedLog("bea")
        try box.write(Data("{ half a log".utf8), to: log)
        let ana = box.app("ana", at: Self.noon)
        let board = try ana.dashboard()
        #expect(board.needsAttention.map(\.status.kind) == [.unreadable])
        #expect(Self.leftOut(ana, naming: log), "\(ana.warnings)")
        // Told once by deliver, again on a later day while it lasts.
        for now in [Self.noon, "2026-03-01T12:05:00Z", "2026-03-02T12:00:00Z"] {
            _ = try box.app("ana", at: now).deliver()
        }
        let told = box.wire.sent(to: Self.anaNotes).filter { $0.notification.kind == .dependentUnreadable }
        #expect(told.count == 2, "\(box.wire.sent.map(\.notification.kind))")
        // Bea's next write puts her records back: Ana is calm.
        _ = try box.app("bea", at: "2026-03-02T12:00:00Z").checkIn(note: nil)
        #expect(try box.app("ana", at: "2026-03-02T12:01:00Z").dashboard().needsAttention.isEmpty)
    }

    /// A vanished folder: unreadable since a time this reader cannot know, never counted from 1970.
    @Test func aVanishedDependentIsUnreadableSinceAnUnknownTime() throws {
        let box = try Self.anaWatchesBea()
        let folder = box.circle + "/members/" + box.identity("bea").member
        box.remove(folder)
        let ana = box.app("ana", at: Self.noon)
        let bea = try #require(try ana.contacts().first { $0.contact.kind == .member })
        #expect(bea.status?.kind == .unreadable)
        #expect(bea.status?.since == nil)
        #expect(bea.status?.text.contains("unknown") == true, "\(bea.status?.text ?? "")")
        let status = box.app("ana", at: Self.noon)
        #expect(try status.dashboard().needsAttention.map(\.status.kind) == [.unreadable])
        #expect(Self.leftOut(status, naming: folder), "\(status.warnings)")
    }

    @Test func aDependentInAnAlertOrOverdueNeedsAttention() throws {
        let box = try Self.anaWatchesBea()
        #expect(try box.app("ana", at: Self.noon).dashboard().needsAttention.isEmpty)
        _ = try box.app("bea", at: Self.noon).raiseAlert(message: nil)
        let alert = try box.app("ana", at: "2026-03-01T12:05:00Z").dashboard().needsAttention
        #expect(alert.map(\.status.kind) == [.alert] && alert.first?.status.since == at(Self.noon))
        _ = try box.app("bea", at: "2026-03-01T12:10:00Z").endAlert()
        _ = try box.app("ana", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        let overdue = try box.app("ana", at: "2026-03-02T13:10:00Z").dashboard().needsAttention
        #expect(overdue.map(\.status.kind) == [.nonResponsive])
        #expect(overdue.first?.status.since == at("2026-03-02T12:10:00Z"), "the alert's end checked her in")
    }

    /// Another member's damaged log is left out, said, and never changed; nor does it stop a check-in.
    @Test func anotherDevicesDamagedLogIsLeftOutAndNotTouched() throws {
        let box = try Self.anaWatchesBea()
        try box.join("mal", at: t0)
        let log = box.publishedLog("mal")
        let damaged = Data("{\n  \"schemaVersion\": 1,\n  ^\n".utf8)
        try box.write(damaged, to: log)
        let checkIn = box.app("ana", at: Self.noon)
        _ = try checkIn.checkIn(note: nil)
        let status = box.app("ana", at: Self.noon)
        _ = try status.dashboard()
        #expect(Self.leftOut(status, naming: log), "\(status.warnings)")
        _ = try box.app("ana", at: Self.noon).deliver()
        #expect(try box.read(log) == damaged)
    }

    /// Thousands of unreadable logs would be thousands of warnings: five are named, the rest counted.
    @Test func manyUnreadableLogsAreSummarised() throws {
        let box = Sandbox()
        try box.join("ana", at: t0)
        for i in 0..<20 {
            let folder =
                "\(box.circle)/members/0d0d0d0d-0000-4000-8000-\(String(format: "%012d", i))/0c0c0c0c-0000-4000-8000-000000000001"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try box.write(Data("{ broken".utf8), to: folder + "/log.json")
        }
        let ana = box.app("ana", at: t0)
        _ = try ana.dashboard()
        #expect(ana.warningCodes.filter { $0 == "records-left-out" }.count == 6)
        #expect(ana.warnings.contains(.moreLeftOut(15)), "\(ana.warnings)")
    }

    /// One log over 8 MiB is not read; a linked member is read whatever sorts before them.
    @Test func aLogOverTheLimitIsNotRead() throws {
        let box = try Families.anaWatchedByBea()
        try Self.fakeLog(box, 1, size: 40 << 20)
        let bea = box.app("bea", at: "2026-03-01T10:00:00Z")
        _ = try bea.dashboard()
        #expect(bea.warningCodes == ["records-left-out"], "\(bea.warnings)")
        #expect("\(bea.warnings)".contains("41943040") || "\(bea.warnings)".contains("40"), "\(bea.warnings)")
        #expect(try box.seen(by: "bea", at: "2026-03-01T10:00:00Z").last == at(t0))
    }

    /// 168 MiB of others' logs: a run reads at most 128 MiB, those linked first, and says so briefly.
    @Test func aRunReadsAtMostItsBudgetOfOthersLinkedFirst() throws {
        let box = try Families.anaWatchedByBea()
        for n in 0..<24 { try Self.fakeLog(box, n, size: 7 << 20) }
        let status = box.app("bea", at: "2026-03-01T10:00:00Z")
        _ = try status.dashboard()
        #expect(!status.warnings.isEmpty && status.warnings.count < 10, "\(status.warnings.count)")
        #expect(status.warningCodes.allSatisfy { $0 == "records-left-out" }, "\(status.warningCodes)")
        let deliver = box.app("bea", at: "2026-03-01T10:00:00Z")
        _ = try deliver.deliver()
        #expect(deliver.warnings.count < 10)
        #expect(try box.seen(by: "bea", at: "2026-03-01T10:00:00Z").last == at(t0))
        _ = try box.app("bea", at: "2026-03-01T10:05:00Z").checkIn(note: nil)
    }
}

/// This device's own records are authoritative privately: a copy in the circle rolled back,
/// damaged, deleted or not ours at all is published again with a warning; the private copy is
/// verified like everyone else's and, damaged, gives way to the newest copy this device signed;
/// a damaged memory of what was verified is said and believes nothing.
@Suite struct OwnRecordsRuleTests {
    /// Ana with check-ins noted n0, n1, n2 at 09:00, 09:10, 09:20.
    static func ana() throws -> Sandbox {
        let box = Sandbox()
        try box.join("ana", at: t0)
        for i in 0..<3 { _ = try box.app("ana", at: "2026-03-01T09:\(i)0:00Z").checkIn(note: "n\(i)") }
        return box
    }

    static var ownLog: String { "/own/log.json" }

    static func notes(_ box: Sandbox, at now: String = "2026-03-01T13:00:00Z") throws -> [String] {
        try box.app("ana", at: now).history(limit: 1000, since: nil).checkIns.compactMap(\.note)
    }

    static func published(_ app: App) -> [(PublishedCopy, Bool)] {
        app.warnings.compactMap { warning in
            if case .publishedCopy(let copy, _, let republished) = warning { (copy, republished) } else { nil }
        }
    }

    @Test func aPublishedCopyRolledBackIsPublishedAgainAndNothingIsLost() throws {
        let box = try Self.ana()
        let old = try box.read(box.publishedLog("ana"))
        for i in 0..<3 { _ = try box.app("ana", at: "2026-03-01T1\(i):00:00Z").checkIn(note: "c\(i)") }
        try box.write(old, to: box.publishedLog("ana"))
        let status = box.app("ana", at: "2026-03-01T13:30:00Z")
        #expect(try status.checkInStatus().deadline == at("2026-03-02T12:00:00Z"))
        let said = Self.published(status)
        #expect(said.count == 1 && !(said.first?.1 ?? true), "\(status.warnings)")
        guard case .older(let publishedSeq, let ownSeq)? = said.first?.0 else { return #expect(Bool(false)) }
        #expect(publishedSeq < ownSeq)
        #expect(try Self.notes(box).prefix(3) == ["c2", "c1", "c0"])
        let deliver = box.app("ana", at: "2026-03-01T13:31:00Z")
        _ = try deliver.deliver()
        #expect(Self.published(deliver).map(\.1) == [true], "\(deliver.warnings)")
        #expect(try box.read(box.publishedLog("ana")) == box.read(box.directory("ana") + Self.ownLog))
        let after = box.app("ana", at: "2026-03-01T13:32:00Z")
        _ = try after.checkInStatus()
        #expect(after.warnings.isEmpty, "said once: \(after.warnings)")
    }

    @Test func aDamagedPublishedCopyIsPublishedAgainNotAStop() throws {
        let box = try Self.ana()
        try box.write(Data("garbage from a peer".utf8), to: box.publishedLog("ana"))
        let status = box.app("ana", at: "2026-03-01T09:30:00Z")
        _ = try status.dashboard()
        guard case .damaged? = Self.published(status).first?.0 else {
            return #expect(Bool(false), "\(status.warnings)")
        }
        let checkIn = box.app("ana", at: "2026-03-01T10:00:00Z")
        _ = try checkIn.checkIn(note: "after")
        #expect(Self.published(checkIn).map(\.1) == [true], "\(checkIn.warnings)")
        #expect(try box.read(box.publishedLog("ana")) == box.read(box.directory("ana") + Self.ownLog))
        #expect(try Self.notes(box) == ["after", "n2", "n1", "n0"])
    }

    @Test func aDeletedMemberFolderIsPublishedAgain() throws {
        let box = try Self.ana()
        box.remove(box.circle + "/members/" + box.identity("ana").member)
        let status = box.app("ana", at: "2026-03-01T09:30:00Z")
        #expect(try status.checkInStatus().lastCheckIn?.note == "n2")
        #expect(Self.published(status).first?.0 == .missing, "\(status.warnings)")
        _ = try box.app("ana", at: "2026-03-01T10:00:00Z").checkIn(note: nil)
        #expect(try box.read(box.publishedLog("ana")) == box.read(box.directory("ana") + Self.ownLog))
    }

    /// A raised clock in the circle's unsigned copy of Ana's log: her own copy is the authority.
    @Test func anEditedCircleCopyOfMyLogDoesNotStopMe() throws {
        let box = try Self.ana()
        try box.editLog(at: box.publishedLog("ana"), signedBy: nil) { $0["clock"] = 9_000_000 }
        let checkIn = box.app("ana", at: "2026-03-01T10:00:00Z")
        _ = try checkIn.checkIn(note: nil)
        guard case (.notOurs, true)? = Self.published(checkIn).first else {
            return #expect(Bool(false), "\(checkIn.warnings)")
        }
        #expect(try box.read(box.publishedLog("ana")) == box.read(box.directory("ana") + Self.ownLog))
    }

    /// A flipped byte in the private log: the newest copy this device signed is used, the damage is
    /// said, the write signs it anew, and nothing is lost.
    @Test func aDamagedPrivateLogGivesWayToTheNewestSignedCopy() throws {
        let box = try Self.ana()
        let path = box.directory("ana") + Self.ownLog
        var damaged = try box.read(path)
        let text = String(decoding: damaged, as: UTF8.self)
        let offset = try #require(text.range(of: "\"n1\"")).lowerBound.utf16Offset(in: text) + 1
        damaged[offset] ^= 0x01
        try box.write(damaged, to: path)
        let checkIn = box.app("ana", at: "2026-03-01T10:00:00Z")
        _ = try checkIn.checkIn(note: "later")
        let own = checkIn.warnings.compactMap { warning in
            if case .ownLogDamaged(let damage, let rewritten) = warning { (damage, rewritten) } else { nil }
        }
        #expect(own.count == 1 && own.first?.1 == true, "\(checkIn.warnings)")
        #expect(own.first?.0.path == path)
        let history = box.app("ana", at: "2026-03-01T10:01:00Z")
        #expect(try history.history(limit: 10, since: nil).checkIns.compactMap(\.note) == ["later", "n2", "n1", "n0"])
        #expect(history.warnings.isEmpty, "\(history.warnings)")
    }

    /// With no copy this device signed that verifies, the damage stops the run and changes nothing.
    @Test func aDamagedPrivateLogWithoutASignedCopyStops() throws {
        let box = try Self.ana()
        let path = box.directory("ana") + Self.ownLog
        try box.write(Data("{\n  \"schemaVersion\": 1,\n  ^".utf8), to: path)
        for copy in [box.publishedLog("ana"), path + ".bak"] { try box.write(Data("{}".utf8), to: copy) }
        let before = try box.read(path)
        let error = refusal { () throws(AppError) in try box.app("ana", at: "2026-03-01T10:00:00Z").checkIn(note: nil) }
        guard case .store(let problem)? = error else { return #expect(Bool(false), "\(String(describing: error))") }
        #expect("\(problem)".contains(path), "\(problem)")
        #expect(refusal { () throws(AppError) in try box.app("ana", at: "2026-03-01T10:00:00Z").dashboard() } != nil)
        #expect(try box.read(path) == before)
    }

    /// verified.bin damaged: said, nothing in it believed, every log verified again; said once.
    @Test func aDamagedTrustMemoryIsSaidAndEverythingVerifiedAgain() throws {
        let box = try Families.anaWatchedByBea()
        let memory = box.directory("bea") + "/verified.bin"
        #expect(FileManager.default.fileExists(atPath: memory))
        try box.write(Data("LSTRUST damaged".utf8), to: memory)
        let bea = box.app("bea", at: "2026-03-01T10:00:00Z")
        #expect(try bea.dashboard().needsAttention.isEmpty)
        #expect(bea.warnings == [.trustMemoryDamaged(path: memory)], "\(bea.warnings)")
        #expect(try box.seen(by: "bea", at: "2026-03-01T10:00:00Z").last == at(t0))
        let next = box.app("bea", at: "2026-03-01T10:05:00Z")
        _ = try next.dashboard()
        #expect(!next.warningCodes.contains("verified-memory-damaged"), "\(next.warnings)")
    }

    /// verified.bin that cannot be read (here too large to read, or a folder; EACCES and EIO alike)
    /// is not "nothing verified yet": it is said as damage, and never written over, since what it
    /// holds is unknown.
    @Test(arguments: ["too large", "a folder"])
    func anUnreadableTrustMemoryIsSaidAndNotWrittenOver(_ kind: String) throws {
        let box = try Families.anaWatchedByBea()
        let memory = box.directory("bea") + "/verified.bin"
        box.remove(memory)
        if kind == "a folder" {
            try FileManager.default.createDirectory(atPath: memory, withIntermediateDirectories: false)
        } else {
            #expect(FileManager.default.createFile(atPath: memory, contents: Data("LSTRUST".utf8)))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: memory))
            try handle.truncate(atOffset: 65 << 20)
            try handle.close()
        }
        box.remove(box.directory("bea") + "/cache.bin")
        let before = try FileManager.default.attributesOfItem(atPath: memory)
        for now in ["2026-03-01T10:00:00Z", "2026-03-01T10:05:00Z"] {
            let bea = box.app("bea", at: now)
            #expect(try bea.dashboard().needsAttention.isEmpty)
            #expect(bea.warnings == [.trustMemoryDamaged(path: memory)], "\(kind) \(now): \(bea.warnings)")
        }
        _ = try box.app("ana", at: "2026-03-01T10:10:00Z").checkIn(note: nil)
        _ = try box.app("bea", at: "2026-03-01T10:15:00Z").checkIn(note: nil)
        _ = try box.app("bea", at: "2026-03-01T10:20:00Z").deliver()
        let after = try FileManager.default.attributesOfItem(atPath: memory)
        #expect(
            after[.size] as? Int == before[.size] as? Int
                && after[.type] as? FileAttributeType == before[.type] as? FileAttributeType)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int, "\(kind): written over")
        #expect(try box.seen(by: "bea", at: "2026-03-01T10:30:00Z").last == at("2026-03-01T10:10:00Z"))
    }
}
