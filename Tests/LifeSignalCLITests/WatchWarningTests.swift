import Foundation
import Testing

/// "Nobody is watching" is loud: a profile that never checked in, or that has no responders,
/// is said on every `status` and `checkin` (stderr, and `warnings` in `--json`, each with a
/// stable code), until it is fixed; a watched, armed profile says nothing.
@Suite struct WatchWarningTests {
    func codes(_ run: Run) -> [String] {
        (jsonObject(run.stdout)["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test func aProfileThatNeverCheckedInIsNotArmedAndSaysSo() {
        let home = TempHome()
        home.run(["init", "--name", "Ann"])
        let status = home.run(["status"])
        #expect(status.code == 0)
        #expect(
            status.stderr
                == "lifesignal: warning: you have never checked in, so there is no deadline and nobody would be told anything; run 'lifesignal checkin' to start your countdown.\n"
                + noRespondersWarning)
        #expect(codes(home.run(["status", "--json"])) == ["never-checked-in", "no-responders"])
        #expect(home.run(["status", "--json"]).stderr == "", "--json carries them in the document only")
        #expect(home.run(["status", "--quiet"]).stderr == "", "--quiet says nothing; the document still does")
    }

    @Test func aWatchedArmedProfileSaysNothing() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        home.addResponder()
        let checkin = home.run(["checkin"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.stderr == "")
        #expect(codes(home.run(["checkin", "--json"], now: "2026-03-01T10:01:00Z")) == [])
        let status = home.run(["status"], now: "2026-03-01T10:02:00Z")
        #expect(status.stderr == "")
        #expect(codes(home.run(["status", "--json"], now: "2026-03-01T10:02:00Z")) == [])
    }
}
