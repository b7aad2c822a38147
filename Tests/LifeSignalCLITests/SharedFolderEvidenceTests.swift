import Foundation
import Testing

/// A circle folder shared between the accounts of one machine (group access) is written
/// directly, but another account can put an older copy of Alice's log back before Bob reads the
/// new one: the folder's word confirms no miss there. A private folder, which only this account
/// writes, still does.
@Suite struct SharedFolderEvidenceTests {
    let family = Family()

    /// Alice checks in at 09:00 (due the next day 09:00); Bea watches over her; the circle folder
    /// has `mode`.
    func aliceWatchedByBea(mode: Int) throws {
        family.join("alice", "bea")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: family.circle)
        #expect(family.run("bea", ["contacts", "add", family.code("alice"), "--dependent", "--quiet"]).code == 0)
        #expect(family.run("alice", ["checkin", "--quiet"]).code == 0)
    }

    @Test func aFolderOtherAccountsCanWriteConfirmsNoMiss() throws {
        try aliceWatchedByBea(mode: 0o2770)
        let status = family.run("bea", ["status"], now: "2026-03-02T09:16:00Z")
        #expect(
            status.stderr.contains("other accounts of this machine can write the circle folder"), "\(status.stderr)")
        let json = family.run("bea", ["status", "--json"], now: "2026-03-02T09:16:00Z")
        #expect((json.stdout + json.stderr).contains("cannot-confirm-miss"), "\(json.stdout)")
    }

    @Test func aPrivateFolderConfirmsAMiss() throws {
        try aliceWatchedByBea(mode: 0o700)
        let json = family.run("bea", ["status", "--json"], now: "2026-03-02T09:16:00Z")
        #expect(!(json.stdout + json.stderr).contains("cannot-confirm-miss"), "\(json.stdout)")
    }
}
