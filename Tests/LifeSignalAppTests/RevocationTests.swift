import Foundation
import LifeSignalApp
import LifeSignalCore
import TestSupport
import Testing

/// A device Ana no longer holds: once revoked, what it writes counts for nobody, not even its
/// revocation of her real device; two devices that revoked each other are said and her recovery
/// code settles it; a recovery code she replaced enrolls nothing.
@Suite struct RevocationTests {
    static let later = Families.later

    /// What the laptop's own lifesignal would not write: a revocation of `device`, appended to its
    /// published log and signed with its key (the thief holds it).
    static func laptopRevokes(_ box: Sandbox, _ device: String, through: Int, at time: String) throws {
        let key = try SignedLogWriter.key(in: box.directory("ana")).publicKeyText
        try box.editLog(at: box.publishedLog("laptop"), signedBy: "laptop") { log in
            let seq = (log["lastSeq"] as? Int ?? 0) + 1
            let clock = (log["clock"] as? Int ?? 0) + 1
            var events = log["events"] as? [[String: Any]] ?? []
            events.append([
                "seq": seq, "at": time, "clock": clock, "type": "deviceRevoked", "device": device, "key": key,
                "through": through,
            ])
            log["events"] = events
            log["lastSeq"] = seq
            log["clock"] = clock
            var state = log["state"] as? [String: Any] ?? [:]
            state["devices"] = (state["devices"] as? [[String: Any]] ?? []).map { entry in
                guard entry["device"] as? String == device else { return entry }
                var entry = entry
                entry["revoked"] = ["at": time, "clock": clock, "seq": seq]
                entry["revokedThrough"] = through
                return entry
            }
            log["state"] = state
        }
    }

    static func lastSeq(_ path: String) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return (object as? [String: Any])?["lastSeq"] as? Int ?? 0
    }

    @Test func aRevokedDevicesLaterRecordsDoNotCount() throws {
        let (box, _) = try Families.anaWithALaptop()
        #expect(try box.seen(by: "bea", at: "2026-03-01T12:30:00Z").last == at("2026-03-01T12:00:00Z"))
        let laptop = box.identity("laptop").device
        #expect(try box.app("ana", at: "2026-03-01T13:00:00Z").revoke(String(laptop.prefix(8))) == laptop)
        // Silent since: what it wrote before still counts.
        #expect(try box.seen(by: "bea", at: "2026-03-01T13:30:00Z").last == at("2026-03-01T12:00:00Z"))
        _ = try box.app("laptop", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        let seen = try box.seen(by: "bea", at: Self.later)
        #expect(seen.last == at(t0) && seen.kind == .nonResponsive, "\(seen)")
        let bea = box.app("bea", at: Self.later)
        _ = try bea.dashboard()
        #expect(bea.warningCodes.contains("records-not-signed"), "\(bea.warnings)")
        let told = box.app("laptop", at: Self.later)
        _ = try told.dashboard()
        #expect(
            told.warnings.contains(
                .thisDeviceRevoked(by: box.identity("ana").device, at: at("2026-03-01T13:00:00Z"))), "\(told.warnings)")
        // Nor on the device that revoked it.
        #expect(try box.app("ana", at: Self.later).checkInStatus().lastCheckIn?.at == seen.last)
    }

    /// Ana revokes her stolen laptop; the thief checks in from it, then puts back her first
    /// device's log from before the revocation (validly signed). Bea keeps the revocation, through
    /// her cache and, without it, from what she verified before; and is told.
    @Test func aRollbackCannotUndoARevocation() throws {
        let (box, _) = try Families.anaWithALaptop()
        let before = try box.read(box.publishedLog("ana"))
        _ = try box.app("ana", at: "2026-03-01T13:00:00Z").revoke(box.identity("laptop").device)
        _ = try box.app("bea", at: "2026-03-01T13:30:00Z").dashboard()
        _ = try box.app("laptop", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        try box.write(before, to: box.publishedLog("ana"))
        for cache in [true, false] {
            if !cache { box.remove(box.directory("bea") + "/cache.bin") }
            #expect(try box.seen(by: "bea", at: Self.later).last != at("2026-03-02T08:00:00Z"), "cache \(cache)")
            let bea = box.app("bea", at: Self.later)
            #expect(try bea.dashboard().recordsIgnored, "cache \(cache)")
            #expect(bea.warningCodes.contains("records-rolled-back"), "cache \(cache): \(bea.warnings)")
        }
    }

    @Test func revokingNeedsOneKnownDeviceNotThisOneAndOnlyOnce() throws {
        let (box, _) = try Families.anaWithALaptop()
        let ana = box.app("ana", at: "2026-03-01T13:00:00Z")
        let (me, laptop) = (box.identity("ana").device, box.identity("laptop").device)
        #expect(
            refusal { () throws(AppError) in try ana.revoke(me) } == .refused(.devices(.cannotRevokeThisDevice)))
        #expect(
            refusal { () throws(AppError) in try ana.revoke("zz") }
                == .refused(.devices(.unknownDevice("zz", known: [me, laptop].sorted()))))
        _ = try ana.revoke(laptop)
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: "2026-03-01T14:00:00Z").revoke(laptop) }
                == .refused(.devices(.alreadyRevoked(laptop, at: at("2026-03-01T13:00:00Z")))))
    }

    /// The stolen laptop, revoked, cannot revoke Ana's real device: refused on the laptop, and a
    /// revocation it signs anyway takes nothing away: Bea still sees Ana's check-ins, and her silence.
    @Test func aRevokedDeviceCannotRevokeTheRealOne() throws {
        let (box, _) = try Families.anaWithALaptop()
        let (ana, laptop) = (box.identity("ana").device, box.identity("laptop").device)
        _ = try box.app("ana", at: "2026-03-01T13:00:00Z").revoke(laptop)
        #expect(
            refusal { () throws(AppError) in try box.app("laptop", at: "2026-03-01T14:00:00Z").revoke(ana) }
                == .refused(.devices(.thisDeviceIsRevoked(by: ana, at: at("2026-03-01T13:00:00Z")))))
        try Self.laptopRevokes(
            box, ana, through: Self.lastSeq(box.publishedLog("ana")), at: "2026-03-01T14:00:00Z")
        _ = try box.app("ana", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        let seen = try box.seen(by: "bea", at: "2026-03-02T08:30:00Z")
        #expect(seen.last == at("2026-03-02T08:00:00Z") && seen.kind == .countdown)
        let bea = box.app("bea", at: "2026-03-02T08:30:00Z")
        _ = try bea.dashboard()
        #expect(!bea.warningCodes.contains("devices-revoked-each-other"), "\(bea.warnings)")
        let quiet = try box.seen(by: "bea", at: "2026-03-03T09:00:00Z")
        #expect(quiet.kind == .nonResponsive && quiet.last == at("2026-03-02T08:00:00Z"))
        let mine = box.app("ana", at: "2026-03-02T08:30:00Z")
        _ = try mine.dashboard()
        #expect(!mine.warningCodes.contains("this-device-revoked"), "\(mine.warnings)")
    }

    /// Each revoked the other before seeing the other's revocation: both stand revoked, Bea and Ana
    /// are told, and a device made with the recovery code settles it.
    @Test func devicesThatRevokedEachOtherAreSaidAndTheRecoveryCodeSettlesIt() throws {
        let (box, recovery) = try Families.anaWithALaptop()
        let (ana, laptop) = (box.identity("ana").device, box.identity("laptop").device)
        let laptopLog = box.publishedLog("laptop")
        let aside = box.root.path + "/laptop-log.json"
        try FileManager.default.moveItem(atPath: laptopLog, toPath: aside)
        _ = try box.app("ana", at: "2026-03-01T13:00:00Z").revoke(laptop)
        try FileManager.default.moveItem(atPath: aside, toPath: laptopLog)
        try Self.laptopRevokes(
            box, ana, through: Self.lastSeq(box.publishedLog("ana")) - 1, at: "2026-03-01T12:59:00Z")
        let pair = [ana, laptop].sorted()
        let bea = box.app("bea", at: "2026-03-01T14:00:00Z")
        #expect(try bea.dashboard().recordsIgnored)
        #expect(
            bea.warnings.contains { warning in
                if case .devicesRevokedEachOther(_?, pair, false) = warning { true } else { false }
            }, "\(bea.warnings)")
        let mine = box.app("ana", at: "2026-03-01T14:00:00Z")
        _ = try mine.dashboard()
        #expect(mine.warnings.contains(.devicesRevokedEachOther(name: nil, devices: pair, thisDevice: true)))
        let joined = try box.app("ana2", at: "2026-03-01T15:00:00Z").setUp(
            App.SetUp(circle: box.circle, join: PassedCode(recovery)))
        #expect(joined.joinedWith == .recovery)
        _ = try box.app("ana2", at: "2026-03-01T15:00:00Z").revoke(laptop)
        _ = try box.app("ana2", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-02T08:30:00Z").last == at("2026-03-02T08:00:00Z"))
        let after = box.app("bea", at: "2026-03-02T08:30:00Z")
        _ = try after.dashboard()
        #expect(!after.warningCodes.contains("devices-revoked-each-other"), "\(after.warnings)")
        _ = try box.app("ana", at: "2026-03-02T09:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-02T09:30:00Z").last == at("2026-03-02T09:00:00Z"))
        _ = try box.app("laptop", at: "2026-03-02T10:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-02T10:30:00Z").last == at("2026-03-02T09:00:00Z"))
    }

    @Test func theRecoveryCodeMakesADeviceWhenAllAreLost() throws {
        let (box, recovery) = try Families.anaWithALaptop()
        #expect(recovery.hasPrefix("lifesignal://recover/"))
        for device in ["ana", "laptop"] { box.remove(box.directory(device)) }
        let new = try box.app("ana", at: "2026-03-01T13:00:00Z").setUp(
            App.SetUp(circle: box.circle, join: PassedCode(recovery)))
        #expect(new.joined && new.joinedWith == .recovery && new.name == "Ana")
        _ = try box.app("ana", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: Self.later).last == at("2026-03-02T08:00:00Z"))
        let bea = box.app("bea", at: Self.later)
        #expect(try !bea.dashboard().recordsIgnored, "\(bea.warnings)")
    }

    @Test func aRecoveryCodeNoDeviceNamesIsRefused() throws {
        let (box, recovery) = try Families.anaWithALaptop()
        let wrong = try #require(PassedCode(String(recovery.dropLast(4)) + "0000"))
        #expect(
            refusal { () throws(AppError) in
                try box.app("eve", at: t0).setUp(App.SetUp(circle: box.circle, join: wrong))
            }
                == .refused(.setUp(.recoveryCodeNotCurrent(name: "Ana"))))
        #expect(!FileManager.default.fileExists(atPath: box.directory("eve") + "/identity.json"))
    }

    /// A new recovery code on any device replaces the old one; the device the new one made stays
    /// when it makes a newer code itself.
    @Test func aReplacedRecoveryCodeEnrollsNothing() throws {
        let (box, old) = try Families.anaWithALaptop()
        let new = try box.app("laptop", at: "2026-03-01T13:00:00Z").newRecoveryCode()
        #expect(new.hasPrefix("lifesignal://recover/") && new != old)
        #expect(
            refusal { () throws(AppError) in
                try box.app("eve", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(old)))
            } == .refused(.setUp(.recoveryCodeNotCurrent(name: "Ana"))))
        _ = try box.app("ana2", at: "2026-03-01T14:00:00Z").setUp(App.SetUp(circle: box.circle, join: PassedCode(new)))
        _ = try box.app("ana2", at: "2026-03-01T14:10:00Z").newRecoveryCode()
        _ = try box.app("ana2", at: "2026-03-02T08:00:00Z").checkIn(note: nil)
        #expect(try box.seen(by: "bea", at: "2026-03-02T08:30:00Z").last == at("2026-03-02T08:00:00Z"))
        #expect(
            refusal { () throws(AppError) in
                try box.app("eve", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(new)))
            } == .refused(.setUp(.recoveryCodeNotCurrent(name: "Ana"))))
    }

    /// A code naming a member this circle has never heard of, and a join over a set-up directory.
    @Test func aCodeIsForAMemberOfThisCircleAndANewDirectory() throws {
        let (box, _) = try Families.anaWithALaptop()
        let elsewhere = Sandbox()
        try elsewhere.join("zoe", at: t0)
        let code = try #require(PassedCode(try elsewhere.app("zoe", at: t0).enrollmentCode().code))
        guard case .enrollment(let zoe, _, _) = code else { return #expect(Bool(false)) }
        #expect(
            refusal { () throws(AppError) in try box.app("eve", at: t0).setUp(App.SetUp(circle: box.circle, join: code))
            }
                == .refused(.setUp(.memberNotInCircle(member: zoe, circle: box.circle))))
        let mine = try #require(PassedCode(try box.app("ana", at: t0).enrollmentCode().code))
        #expect(
            refusal { () throws(AppError) in try box.app("bea", at: t0).setUp(App.SetUp(circle: box.circle, join: mine))
            }
                == .refused(.setUp(.alreadySetUp(member: box.identity("bea").member))))
    }

    /// The devices Ana's first device lists: hers (this one marked) and those of Bea.
    @Test func theDevicesOfMeAndThoseLinkedWithMe() throws {
        let (box, _) = try Families.anaWithALaptop()
        let listed = try box.app("ana", at: "2026-03-01T12:30:00Z").devices()
        #expect(listed.map(\.name) == ["Ana", "Bea"])
        let mine = try #require(listed.first)
        #expect(mine.isMe && mine.devices.count == 2)
        #expect(mine.devices.filter(\.thisDevice).map(\.id) == [box.identity("ana").device])
        #expect(mine.devices.allSatisfy { $0.standing == .trusted && $0.fingerprint != nil })
        let checkup = try box.app("ana", at: "2026-03-01T12:30:00Z").checkup()
        #expect(checkup.devices.counting == 2 && checkup.devices.hasRecoveryCode)
    }
}
