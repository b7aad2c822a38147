import Foundation
import LifeSignalCore
import TestSupport
import Testing

/// Ana added Bea, so Bea never scanned Ana's code and has no key of Ana's to compare with: Mal,
/// who can write the circle folder, puts a clone of Ana's log signed with his own key there
/// before Bea's first read. Two keys claiming Ana never resolve silently to either: Bea is told,
/// keeps watching (the set that checked in least recently counts, so Mal cannot make a silent
/// Ana look fine), and Ana's code settles it.
@Suite struct ForgedKeyTests {
    let family = Family()

    /// Ana and Mal in the circle; Bea, set up, whom Ana adds as her responder. Ana checks in at
    /// 09:00 (deadline the next day 09:00).
    func anaAddsBea() {
        family.join("ana", "bea", "mal")
        #expect(family.run("ana", ["contacts", "add", family.code("bea"), "--responder", "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
    }

    /// Mal's clone of Ana's log, signed with his key, as the log of `device` in Ana's folder, with
    /// her last check-in moved to `checkedIn` (nil: as it was).
    func malClonesAna(as device: String, checkedIn: String? = nil) throws {
        let (ana, real) = family.identity("ana")
        var log = try Legacy.read(family.deviceFolder("ana") + "/log.json")
        log["device"] = device
        if let checkedIn { Legacy.moveCheckIns(in: &log, to: checkedIn, from: real) }
        let folder = "\(family.circle)/members/\(ana)/\(device)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try SignedLogWriter.write(log, to: folder + "/log.json", key: SignedLogWriter.key(in: family.home("mal")))
    }

    /// Ana as Bea's `contacts list --json` shows her: her status and last check-in.
    func anaAsBeaSees(_ now: String) -> (kind: String?, lastCheckIn: String?) {
        family.memberContact(as: "bea", now: now)
    }

    static let fake = "0f0f0f0f-0000-4000-8000-00000000f00d"

    /// The clone beside the real log: a contest, said on every run; the set that checked in least
    /// recently counts; Ana's code settles it for her.
    @Test func aCloneBesideTheRealLogIsSaidAndNeverMakesASilentAnaLookFine() throws {
        anaAddsBea()
        // Mal keeps his clone "checking in" after Ana went quiet.
        try malClonesAna(as: Self.fake, checkedIn: "2026-03-02T08:00:00Z")
        let first = family.run("bea", ["status"], now: "2026-03-02T09:30:00Z")
        #expect(first.code == 6, "\(first.stderr)")
        #expect(first.stderr.contains("2 sets of devices claim to be Ana"), "\(first.stderr)")
        #expect(first.stderr.contains("'lifesignal contacts add CODE'"), "\(first.stderr)")
        let json = family.run("bea", ["status", "--json"], now: "2026-03-02T09:30:00Z")
        #expect(json.stderr.contains(#""code":"devices-contested""#), "\(json.stderr)")
        // Ana's real device is the one that checked in least recently: she is overdue to Bea.
        let seen = anaAsBeaSees("2026-03-02T09:30:00Z")
        #expect(seen.lastCheckIn == "2026-03-01T09:00:00Z", "\(seen)")
        #expect(seen.kind == "nonResponsive", "\(seen)")
        // Said again on the next run: a write pinned neither set.
        #expect(family.run("bea", ["checkin", "--quiet"], now: "2026-03-02T09:40:00Z").code == 0)
        #expect(family.run("bea", ["status"], now: "2026-03-02T09:50:00Z").stderr.contains("claim to be Ana"))
        family.cachedReadsMatchFullReads("bea", now: "2026-03-02T09:55:00Z")
        // Bea scans Ana's code: settled; the clone counts for nothing, and is said.
        let scanned = family.run("bea", ["contacts", "add", family.code("ana"), "--dependent"])
        #expect(scanned.code == 0, "\(scanned.stderr)")
        #expect(scanned.stdout.contains("Their device key is now the one from this code"), "\(scanned.stdout)")
        let after = family.run("bea", ["status"], now: "2026-03-02T10:00:00Z")
        #expect(!after.stderr.contains("claim to be Ana"), "\(after.stderr)")
        #expect(after.stderr.contains("records in Ana's folder are not signed by any device of Ana's"))
        #expect(after.stderr.contains(Self.fake))
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-02T10:05:00Z").code == 0)
        #expect(anaAsBeaSees("2026-03-02T10:10:00Z").lastCheckIn == "2026-03-02T10:05:00Z")
        family.cachedReadsMatchFullReads("bea", now: "2026-03-02T10:15:00Z")
    }

    /// The clone is the stale one (Ana keeps checking in): it counts while the contest lasts, so
    /// Bea is told of a miss, said with why; never the reverse.
    @Test func whileAContestLastsTheStaleSetCounts() throws {
        anaAddsBea()
        try malClonesAna(as: Self.fake)
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-01T20:00:00Z").code == 0)
        let seen = anaAsBeaSees("2026-03-01T21:00:00Z")
        #expect(seen.lastCheckIn == "2026-03-01T09:00:00Z", "\(seen)")
        let status = family.run("bea", ["status"], now: "2026-03-01T21:00:00Z")
        #expect(status.stderr.contains("the ones that checked in least recently"), "\(status.stderr)")
    }

    /// Mal's clone took Ana's place before Bea's first read, and Bea took its key; Ana's device
    /// then puts her real log back. Bea is told the real records are not believed and how her
    /// code settles it; once scanned, Ana counts and the clone's key is forgotten.
    @Test func aKeyTakenFromACloneIsSettledByTheMembersCode() throws {
        anaAddsBea()
        let (_, real) = family.identity("ana")
        let path = family.deviceFolder("ana") + "/log.json"
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try malClonesAna(as: real)
        let taken = family.run("bea", ["checkin"], now: "2026-03-01T09:30:00Z")
        #expect(taken.stderr.contains("took the device keys of Ana on first sight"), "\(taken.stderr)")
        try original.write(to: URL(fileURLWithPath: path))
        let told = family.run("bea", ["status"], now: "2026-03-01T10:00:00Z")
        #expect(told.code == 6, "\(told.stderr)")
        #expect(told.stderr.contains("If these are Ana's real records"), "\(told.stderr)")
        let mine = family.run("ana", ["status"], now: "2026-03-01T10:00:00Z")
        #expect(!mine.stderr.contains("nobody in your circle believes"), "\(mine.stderr)")
        #expect(family.run("bea", ["contacts", "add", family.code("ana"), "--dependent"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-01T11:00:00Z").code == 0)
        let after = family.run("bea", ["status"], now: "2026-03-01T11:30:00Z")
        #expect(after.code == 0, "\(after.stderr)")
        #expect(anaAsBeaSees("2026-03-01T11:30:00Z").lastCheckIn == "2026-03-01T11:00:00Z")
        family.cachedReadsMatchFullReads("bea", now: "2026-03-01T11:40:00Z")
        // The code was taken once: scanning it again is the usual "already in your contacts".
        let again = family.run("bea", ["contacts", "add", family.code("ana"), "--dependent"])
        #expect(again.code != 0)
        #expect(again.stderr.contains("Ana is already in your contacts"), "\(again.stderr)")
    }
}
