import Foundation
import LifeSignalCore
import TestSupport
import Testing

/// A stolen laptop, one of Ana's devices, in the hands of someone who wishes her harm: once Ana
/// revoked it, nothing it writes takes her voice away (a revocation of her device included),
/// Bea who watches over her still sees her check-ins and still sees her go quiet; two devices
/// that revoked each other are said, and Ana's recovery code settles it. (A replaced recovery
/// code's rule is in LifeSignalAppTests/RevocationTests.)
@Suite struct StolenDeviceTests {
    let family = Family()

    /// Ana (first device), watched over by Bea, with a second device "laptop" enrolled and
    /// accepted, which checks in at 12:00. Returns Ana's recovery code.
    @discardableResult
    func anaWithALaptop() -> String {
        family.join("bea")
        let setUp = family.run("ana", ["init", "--name", "Ana", "--circle", family.circle, "--json"])
        #expect(setUp.code == 0, "\(setUp.stderr)")
        #expect(family.run("bea", ["contacts", "add", family.code("ana"), "--dependent", "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        #expect(family.run("bea", ["status", "--quiet"]).code == 0)
        let code = jsonObject(family.run("ana", ["circle", "enroll", "--json"]).stdout)["code"] as? String ?? ""
        #expect(family.run("laptop", ["init", "--circle", family.circle, "--member", code]).code == 0)
        #expect(family.run("ana", ["notify", "deliver", "--quiet"], now: "2026-03-01T09:20:00Z").code == 0)
        #expect(family.run("laptop", ["checkin", "--quiet"], now: "2026-03-01T12:00:00Z").code == 0)
        #expect(family.run("bea", ["status", "--quiet"], now: "2026-03-01T12:10:00Z").code == 0)
        return jsonObject(setUp.stdout)["recoveryCode"] as? String ?? ""
    }

    /// Ana as Bea's `contacts list --json` shows her: her status and last check-in.
    func anaAsBeaSees(_ now: String) -> (kind: String?, lastCheckIn: String?) {
        family.memberContact(as: "bea", now: now)
    }

    /// What the laptop's own lifesignal wrote before it refused: a revocation of `device`,
    /// appended to its log as its next record and signed with its key (the thief holds it).
    func laptopRevokes(_ device: String, through: Int, at time: String) throws {
        try family.editPublishedLog("laptop") { log in
            let seq = (log["lastSeq"] as? Int ?? 0) + 1
            let clock = (log["clock"] as? Int ?? 0) + 1
            let key = (try? SignedLogWriter.key(in: family.home("ana")).publicKeyText) ?? ""
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

    /// The attack of the issue: Ana revokes the stolen laptop; it revokes her first device.
    /// Refused on the laptop; and what a laptop that does it anyway writes counts for nothing:
    /// Ana's check-ins still count for Bea, and when Ana goes quiet Bea sees her overdue.
    @Test func aRevokedDeviceCannotRevokeTheRealOne() throws {
        anaWithALaptop()
        let (_, laptop) = family.identity("laptop")
        let (_, ana) = family.identity("ana")
        #expect(family.run("ana", ["circle", "revoke", laptop], now: "2026-03-01T13:00:00Z").code == 0)
        let refused = family.run("laptop", ["circle", "revoke", ana], now: "2026-03-01T14:00:00Z")
        #expect(refused.code == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("this device was revoked by your device \(ana) on 2026-03-01 13:00 UTC"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("cannot revoke another"), "\(refused.stderr)")
        // It saw Ana's revocation (her log through its 13:00 record) and revokes her anyway.
        let anaLog = try Legacy.read(family.deviceFolder("ana") + "/log.json")
        try laptopRevokes(ana, through: anaLog["lastSeq"] as? Int ?? 0, at: "2026-03-01T14:00:00Z")
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z").code == 0)
        let seen = anaAsBeaSees("2026-03-02T08:30:00Z")
        #expect(seen.lastCheckIn == "2026-03-02T08:00:00Z")
        #expect(seen.kind == "countdown")
        let bea = family.run("bea", ["status"], now: "2026-03-02T08:30:00Z")
        #expect(!bea.stderr.contains("revoked each other"), "\(bea.stderr)")
        #expect(bea.stderr.contains("device \(laptop): revoked by device \(ana)"), "\(bea.stderr)")
        // Ana goes quiet: Bea sees her overdue, counted from her own last check-in.
        let quiet = anaAsBeaSees("2026-03-03T09:00:00Z")
        #expect(quiet.kind == "nonResponsive", "\(quiet)")
        #expect(quiet.lastCheckIn == "2026-03-02T08:00:00Z")
        family.cachedReadsMatchFullReads("bea", now: "2026-03-03T09:00:00Z")
        // Ana's own device still speaks for her.
        let mine = family.run("ana", ["status"], now: "2026-03-02T08:30:00Z")
        #expect(!mine.stderr.contains("this device was revoked"), "\(mine.stderr)")
    }

    /// The laptop revokes Ana's device before its copy has her revocation of it, and she revokes
    /// it before hers has its: neither alone takes the other's voice. Both stand revoked, Bea and
    /// Ana are told, and Ana's recovery code makes a device that counts and settles it.
    @Test func devicesThatRevokedEachOtherAreSaidAndTheRecoveryCodeSettlesIt() throws {
        let recovery = anaWithALaptop()
        let (_, laptop) = family.identity("laptop")
        let (_, ana) = family.identity("ana")
        // Ana's copy lacks the laptop's log when she revokes it; the laptop's lacks her revocation.
        let laptopLog = family.deviceFolder("laptop") + "/log.json"
        let aside = family.root.path + "/laptop-log.json"
        try FileManager.default.moveItem(atPath: laptopLog, toPath: aside)
        #expect(family.run("ana", ["circle", "revoke", laptop], now: "2026-03-01T13:00:00Z").code == 0)
        try FileManager.default.moveItem(atPath: aside, toPath: laptopLog)
        let anaLog = try Legacy.read(family.deviceFolder("ana") + "/log.json")
        try laptopRevokes(ana, through: (anaLog["lastSeq"] as? Int ?? 1) - 1, at: "2026-03-01T12:59:00Z")
        let bea = family.run("bea", ["status"], now: "2026-03-01T14:00:00Z")
        #expect(bea.code == 6, "\(bea.stderr)")
        #expect(
            bea.stderr.contains(
                "'s devices \(min(ana, laptop).prefix(8)) and \(max(ana, laptop).prefix(8)) revoked each other"),
            "\(bea.stderr)")
        #expect(bea.stderr.contains("--member RECOVERY-CODE"))
        let json = family.run("bea", ["status", "--json"], now: "2026-03-01T14:00:00Z")
        #expect(json.stderr.contains(#""code":"devices-revoked-each-other""#), "\(json.stderr)")
        family.cachedReadsMatchFullReads("bea", now: "2026-03-01T14:00:00Z")
        let mine = family.run("ana", ["status"], now: "2026-03-01T14:00:00Z")
        #expect(mine.stderr.contains("this device and your other device"), "\(mine.stderr)")
        // Ana settles it on a new machine with her recovery code, and revokes the laptop there.
        let new = family.run("ana2", ["init", "--circle", family.circle, "--member", recovery])
        #expect(new.code == 0, "\(new.stderr)")
        let revoked = family.run("ana2", ["circle", "revoke", laptop], now: "2026-03-01T15:00:00Z")
        #expect(revoked.code == 0, "\(revoked.stderr)")
        #expect(family.run("ana2", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z").code == 0)
        let seen = anaAsBeaSees("2026-03-02T08:30:00Z")
        #expect(seen.lastCheckIn == "2026-03-02T08:00:00Z")
        #expect(seen.kind == "countdown")
        let after = family.run("bea", ["status"], now: "2026-03-02T08:30:00Z")
        #expect(!after.stderr.contains("revoked each other"), "\(after.stderr)")
        // Settled on Ana's side: her first device counts again, and the laptop does not.
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-02T09:00:00Z").code == 0)
        #expect(anaAsBeaSees("2026-03-02T09:30:00Z").lastCheckIn == "2026-03-02T09:00:00Z")
        #expect(!family.run("ana", ["status"], now: "2026-03-02T09:30:00Z").stderr.contains("this device was revoked"))
        #expect(family.run("laptop", ["checkin", "--quiet"], now: "2026-03-02T10:00:00Z").code == 0)
        #expect(anaAsBeaSees("2026-03-02T10:30:00Z").lastCheckIn == "2026-03-02T09:00:00Z")
        family.cachedReadsMatchFullReads("bea", now: "2026-03-02T10:30:00Z")
    }

}
