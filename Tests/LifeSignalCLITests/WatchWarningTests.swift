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

}
