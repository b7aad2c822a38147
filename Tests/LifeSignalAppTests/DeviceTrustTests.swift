import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Records only their owner could have written, as the use cases decide it: a device made with
/// Ana's invite code, a hand-made identity naming her, an edit of her log change nothing Bea
/// believes, and both are told; a device Ana enrolls counts, an enrollment code works once and
/// for an hour, a revoked device's later records do not count, her recovery code makes a device.
@Suite struct DeviceTrustTests {
    static let later = Families.later

    /// Bea still sees Ana as she was at t0, overdue by `later`, and is told records in Ana's folder
    /// (`device`) are not signed; Ana is told a device that is not hers claims to be her.
    static func nothingBelievedAndBothTold(
        _ box: Sandbox, forged device: String, standing: Speakers.Standing = .notEnrolled
    ) throws {
        let seen = try box.seen(by: "bea", at: later)
        #expect(seen.last == at(t0))
        #expect(seen.kind == .nonResponsive)
        let bea = box.app("bea", at: later)
        let board = try bea.dashboard()
        #expect(board.recordsIgnored)
        let path = box.circle + "/members/\(box.identity("ana").member)/\(device)/log.json"
        #expect(
            bea.warnings.contains {
                if case .recordsNotSigned("Ana", device, path, _, false) = $0 { true } else { false }
            }, "\(bea.warnings)")
        let ana = box.app("ana", at: "2026-03-01T10:00:00Z")
        #expect(try ana.dashboard().recordsIgnored)
        #expect(ana.warnings.contains(.deviceNotYours(device: device, path: path, standing: standing, waiting: false)))
        #expect(try box.app("ana", at: "2026-03-01T10:00:00Z").checkInStatus().deadline == at("2026-03-02T09:00:00Z"))
    }

    @Test func anInviteCodeMakesNoDevice() throws {
        let box = try Families.anaWatchedByBea()
        let code = try #require(PassedCode(try box.app("ana", at: t0).inviteCode(reset: false).code))
        let asked = App.SetUp(circle: box.circle, join: code)
        #expect(
            refusal { () throws(AppError) in try box.app("mal", at: t0).setUp(asked) }
                == .refused(.setUp(.inviteCodeMakesNoDevice(name: "Ana"))))
        #expect(!FileManager.default.fileExists(atPath: box.directory("mal") + "/identity.json"))
    }

    @Test func aHandMadeIdentityNamingAnaCountsForNothing() throws {
        let box = try Families.anaWatchedByBea()
        let forged = "0f0f0f0f-0000-4000-8000-00000000f011"
        try FileManager.default.createDirectory(atPath: box.directory("mal"), withIntermediateDirectories: true)
        let identity =
            #"{"schemaVersion": 1, "member": "\#(box.identity("ana").member)", "device": "\#(forged)", "circle": "\#(box.circle)"}"#
        try box.write(Data(identity.utf8), to: box.directory("mal") + "/identity.json")
        _ = try box.app("mal", at: "2026-03-02T08:50:00Z").checkIn(note: "all fine")
        try Self.nothingBelievedAndBothTold(box, forged: forged)
        let checkup = try box.app("ana", at: "2026-03-01T10:00:00Z").checkup()
        #expect(checkup.devicesDoubt?.code == "device-not-yours")
    }

    /// An older lifesignal's unsigned copy of Ana's log in a device folder of her own making.
    @Test func anUnsignedDeviceFolderInAnasNameCountsForNothing() throws {
        let box = try Families.anaWatchedByBea()
        let forged = "0f0f0f0f-0000-4000-8000-00000000f010"
        let folder = box.circle + "/members/\(box.identity("ana").member)/\(forged)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: box.publishedLog("ana"), toPath: folder + "/log.json")
        try box.editLog(at: folder + "/log.json", signedBy: nil) { log in
            log["device"] = forged
            for key in ["signature", "key", "tail"] { log.removeValue(forKey: key) }
            var state = log["state"] as? [String: Any] ?? [:]
            var last = state["lastCheckIn"] as? [String: Any] ?? [:]
            last["at"] = "2026-03-02T09:30:00Z"
            state["lastCheckIn"] = last
            state["recentCheckIns"] = (state["recentCheckIns"] as? [[String: Any]] ?? []).map { entry in
                entry.merging(["at": "2026-03-02T09:30:00Z"]) { _, new in new }
            }
            log["state"] = state
        }
        try Self.nothingBelievedAndBothTold(box, forged: forged, standing: .notSigned)
    }

    @Test func anEditedLogIsNotBelievedAndWhatWasVerifiedStands() throws {
        let box = try Families.anaWatchedByBea()
        let path = box.publishedLog("ana")
        let text = String(decoding: try box.read(path), as: UTF8.self)
        #expect(text.contains(t0))
        try box.write(Data(text.replacingOccurrences(of: t0, with: "2026-03-02T09:30:00Z").utf8), to: path)
        let seen = try box.seen(by: "bea", at: Self.later)
        #expect(seen.last == at(t0) && seen.kind == .nonResponsive)
        let bea = box.app("bea", at: Self.later)
        _ = try bea.dashboard()
        let device = box.identity("ana").device
        #expect(
            bea.warnings.contains {
                if case .recordsNotSigned("Ana", device, path, _, true) = $0 { true } else { false }
            },
            "kept: what was verified before stands: \(bea.warnings)")
        // A reader that never verified Ana's log believes nothing of it.
        box.remove(box.directory("bea") + "/cache.bin")
        #expect(try box.seen(by: "bea", at: Self.later).kind == .unreadable)
        // Ana's own next write puts her signed copy back.
        _ = try box.app("ana", at: "2026-03-01T10:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-01T10:05:00Z").last == at("2026-03-01T10:00:00Z"))
    }

    /// The git host puts Ana's older (validly signed) log back: Bea keeps what she verified.
    @Test func aRolledBackLogDoesNotUndoWhatWasVerified() throws {
        let box = try Families.anaWatchedByBea()
        let path = box.publishedLog("ana")
        let older = try box.read(path)
        _ = try box.app("ana", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-02T08:10:00Z").last == at("2026-03-02T08:00:00Z"))
        try box.write(older, to: path)
        #expect(try box.seen(by: "bea", at: Self.later).last == at("2026-03-02T08:00:00Z"))
        let bea = box.app("bea", at: Self.later)
        _ = try bea.dashboard()
        #expect(
            bea.warnings.contains {
                if case .recordsRolledBack("Ana", _, path, _, _, true) = $0 { true } else { false }
            },
            "\(bea.warnings)")
    }

    /// Ana raises an alert; the host puts her older log back and Bea's cache is gone: the alert
    /// is not silently lost, Ana is unreadable.
    @Test func aRollbackCannotHideAnAlert() throws {
        let box = try Families.anaWatchedByBea()
        let path = box.publishedLog("ana")
        let before = try box.read(path)
        _ = try box.app("ana", at: "2026-03-01T10:00:00Z").raiseAlert(message: nil)
        let alerted = try box.app("bea", at: "2026-03-01T10:05:00Z").dashboard()
        #expect(alerted.needsAttention.map(\.status.kind) == [.alert])
        try box.write(before, to: path)
        box.remove(box.directory("bea") + "/cache.bin")
        let bea = box.app("bea", at: "2026-03-01T10:10:00Z")
        #expect(try bea.dashboard().needsAttention.map(\.status.kind) == [.unreadable])
        #expect(bea.warningCodes.contains("records-rolled-back"), "\(bea.warnings)")
    }

    /// Ana's server, enrolled by her laptop, counts; the same code a second time does not.
    @Test func anEnrolledDeviceCountsAndACodeWorksOnce() throws {
        let box = try Families.anaWatchedByBea()
        let code = try box.app("ana", at: t0).enrollmentCode()
        #expect(code.code.hasPrefix("lifesignal://enroll/") && code.expires == at("2026-03-01T10:00:00Z"))
        let joined = try box.app("server", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(code.code)))
        #expect(joined.joined && joined.joinedWith == .enrollment && joined.member == box.identity("ana").member)
        let waiting = box.app("ana", at: "2026-03-01T09:10:00Z")
        _ = try waiting.dashboard()
        #expect(waiting.warningCodes == ["device-waits-for-enrollment"], "\(waiting.warnings)")
        _ = try box.app("ana", at: "2026-03-01T09:20:00Z").deliver()
        _ = try box.app("other", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(code.code)))
        _ = try box.app("ana", at: "2026-03-01T09:30:00Z").deliver()
        _ = try box.app("server", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        _ = try box.app("other", at: "2026-03-02T09:30:00Z").checkIn(note: nil)
        let seen = try box.seen(by: "bea", at: Self.later)
        #expect(seen.last == at("2026-03-02T08:00:00Z") && seen.kind == .countdown)
        let other = box.identity("other").device
        let mine = try box.app("ana", at: "2026-03-02T09:40:00Z").devices()
        let standings = Dictionary(uniqueKeysWithValues: (mine.first?.devices ?? []).map { ($0.id, $0.standing) })
        #expect(standings.values.filter { $0 == .trusted }.count == 2, "\(standings)")
        #expect(standings[other] == .notEnrolled)
        #expect(standings[box.identity("server").device] == .trusted)
    }

    /// Two devices use one code before it is accepted: someone else saw it, so neither counts.
    @Test func aCodeUsedByTwoDevicesEnrollsNeither() throws {
        let box = try Families.anaWatchedByBea()
        let code = try #require(PassedCode(try box.app("ana", at: t0).enrollmentCode().code))
        for device in ["server", "other"] {
            _ = try box.app(device, at: t0).setUp(App.SetUp(circle: box.circle, join: code))
        }
        let deliver = box.app("ana", at: "2026-03-01T09:20:00Z")
        _ = try deliver.deliver()
        let both = [box.identity("server").device, box.identity("other").device].sorted()
        #expect(deliver.warnings.contains(.enrollmentCodeUsedTwice(both)), "\(deliver.warnings)")
        _ = try box.app("server", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: Self.later).last == at(t0))
    }

    /// A code is good for an hour: a device that asks with it later is not accepted.
    @Test func anEnrollmentCodeIsGoodForAnHour() throws {
        let box = try Families.anaWatchedByBea()
        try box.enroll("server", of: "ana", at: t0)
        _ = try box.app("ana", at: "2026-03-01T10:01:00Z").deliver()
        _ = try box.app("server", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: Self.later).last == at(t0))
        let standing = try box.app("ana", at: Self.later).devices().first?.devices.first { !$0.thisDevice }?.standing
        #expect(standing == .notEnrolled)
    }
}

/// Ana added Bea, so Bea never scanned Ana's code and has no key of hers to compare with: Mal,
/// who can write the circle folder, puts a clone of Ana's log signed with his own key there. Two
/// keys claiming Ana never resolve silently to either: Bea is told, the set that checked in
/// least recently counts (Mal cannot make a silent Ana look fine), and Ana's code settles it.
@Suite struct ForgedKeyRuleTests {
    static let fake = "0f0f0f0f-0000-4000-8000-00000000f00d"

    /// Ana, Bea and Mal; Ana adds Bea as her responder and checks in at t0.
    static func anaAddsBea() throws -> Sandbox {
        let box = Sandbox()
        for person in ["ana", "bea", "mal"] { try box.join(person, at: t0) }
        let code = try box.app("bea", at: t0).inviteCode(reset: false).code
        _ = try box.app("ana", at: t0).addMember(invite: code, roles: Roles(responder: true, dependent: false))
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        return box
    }

    /// Mal's clone of Ana's log, signed with his key, as the log of `device` in Ana's folder, with
    /// her check-ins moved to `checkedIn` (nil: as they were).
    static func malClonesAna(_ box: Sandbox, as device: String, checkedIn: String? = nil) throws {
        let folder = box.circle + "/members/\(box.identity("ana").member)/\(device)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if folder != box.deviceFolder("ana") {
            try FileManager.default.copyItem(atPath: box.publishedLog("ana"), toPath: folder + "/log.json")
        }
        try box.editLog(at: folder + "/log.json", signedBy: "mal") { log in
            log["device"] = device
            guard let checkedIn else { return }
            var state = log["state"] as? [String: Any] ?? [:]
            var last = state["lastCheckIn"] as? [String: Any] ?? [:]
            last["at"] = checkedIn
            state["lastCheckIn"] = last
            state["recentCheckIns"] = (state["recentCheckIns"] as? [[String: Any]] ?? []).map {
                $0.merging(["at": checkedIn]) { _, new in new }
            }
            log["state"] = state
        }
    }

    static func contested(_ app: App) -> Bool {
        app.warnings.contains { if case .devicesContested("Ana", _, _) = $0 { true } else { false } }
    }

    @Test func aCloneBesideTheRealLogNeverMakesASilentAnaLookFine() throws {
        let box = try Self.anaAddsBea()
        try Self.malClonesAna(box, as: Self.fake, checkedIn: "2026-03-02T08:00:00Z")
        let first = box.app("bea", at: "2026-03-02T09:30:00Z")
        #expect(try first.dashboard().recordsIgnored)
        #expect(Self.contested(first), "\(first.warnings)")
        let seen = try box.seen(by: "bea", at: "2026-03-02T09:30:00Z")
        #expect(seen.last == at(t0) && seen.kind == .nonResponsive, "\(seen)")
        _ = try box.app("bea", at: "2026-03-02T09:40:00Z").checkIn(note: nil)
        let again = box.app("bea", at: "2026-03-02T09:50:00Z")
        _ = try again.dashboard()
        #expect(Self.contested(again), "a write pinned neither set: \(again.warnings)")
        box.remove(box.directory("bea") + "/cache.bin")
        #expect(try box.seen(by: "bea", at: "2026-03-02T09:55:00Z").last == at(t0), "without the cache too")
        // Bea scans Ana's code: settled; the clone counts for nothing, and is said.
        let code = try box.app("ana", at: t0).inviteCode(reset: false).code
        let scanned = try box.app("bea", at: "2026-03-02T10:00:00Z").addMember(
            invite: code, roles: Roles(responder: false, dependent: true))
        #expect(scanned.keyOnly)
        let after = box.app("bea", at: "2026-03-02T10:00:00Z")
        _ = try after.dashboard()
        #expect(!Self.contested(after))
        #expect(
            after.warnings.contains {
                if case .recordsNotSigned("Ana", Self.fake, _, _, _) = $0 { true } else { false }
            }, "\(after.warnings)")
        _ = try box.app("ana", at: "2026-03-02T10:05:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-02T10:10:00Z").last == at("2026-03-02T10:05:00Z"))
    }

    /// The clone is the stale one (Ana keeps checking in): it counts while the contest lasts, so
    /// Bea is told of a miss; never the reverse.
    @Test func whileAContestLastsTheStaleSetCounts() throws {
        let box = try Self.anaAddsBea()
        try Self.malClonesAna(box, as: Self.fake)
        _ = try box.app("ana", at: "2026-03-01T20:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-01T21:00:00Z").last == at(t0))
        let bea = box.app("bea", at: "2026-03-01T21:00:00Z")
        _ = try bea.dashboard()
        #expect(Self.contested(bea), "\(bea.warnings)")
    }

    /// Bea took the clone's key on first sight; Ana's real log is put back: not believed, said,
    /// until her code settles it.
    @Test func aKeyTakenFromACloneIsSettledByTheMembersCode() throws {
        let box = try Self.anaAddsBea()
        let real = box.identity("ana").device
        let original = try box.read(box.publishedLog("ana"))
        try Self.malClonesAna(box, as: real)
        let taken = box.app("bea", at: "2026-03-01T09:30:00Z")
        _ = try taken.checkIn(note: nil)
        #expect(taken.warnings.contains(.keysPinnedOnFirstSight(["Ana"])), "\(taken.warnings)")
        try box.write(original, to: box.publishedLog("ana"))
        let told = box.app("bea", at: "2026-03-01T10:00:00Z")
        #expect(try told.dashboard().recordsIgnored)
        #expect(told.warningCodes.contains("records-not-signed"), "\(told.warnings)")
        let code = try box.app("ana", at: t0).inviteCode(reset: false).code
        let roles = Roles(responder: false, dependent: true)
        #expect(try box.app("bea", at: "2026-03-01T10:30:00Z").addMember(invite: code, roles: roles).keyOnly)
        _ = try box.app("ana", at: "2026-03-01T11:00:00Z").checkIn(note: nil)
        let after = box.app("bea", at: "2026-03-01T11:30:00Z")
        #expect(try !after.dashboard().recordsIgnored, "\(after.warnings)")
        #expect(try box.seen(by: "bea", at: "2026-03-01T11:30:00Z").last == at("2026-03-01T11:00:00Z"))
        #expect(
            refusal { () throws(AppError) in
                try box.app("bea", at: "2026-03-01T11:40:00Z").addMember(invite: code, roles: roles)
            }
                == .refused(.contact(.alreadyLinked(name: "Ana", unconfirmed: false))))
    }
}
