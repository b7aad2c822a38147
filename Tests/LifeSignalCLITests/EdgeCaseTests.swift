import Foundation
import Testing

/// Edge cases where the message matters as much as the exit code: each says what happened
/// and what to do, and none misleads.
@Suite struct EdgeCaseTests {
    @Test func outputFailureSaysTheCheckInWasKept() {
        let home = TempHome()
        let run = home.shell("checkin > /dev/full")
        #expect(run.code == 74)
        // The first check-in also announces the new profile; the error follows it.
        #expect(
            run.stderr.contains(
                "\nlifesignal: error: cannot write to standard output: No space left on device. Anything the command recorded was kept;"
            ))
        let history = jsonObject(home.run(["checkin", "history", "--json"]).stdout)
        #expect(history["total"] as? Int == 1, "the check-in was recorded before the output failed")
    }

    @Test func aDataDirectoryUnderAFileIsTheSameErrorForReadsAndWrites() throws {
        let home = TempHome()
        let file = home.path + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for command in [["status"], ["checkin"], ["checkin", "status"]] {
            let run = home.run(command, environment: ["LIFESIGNAL_HOME": file + "/data"])
            #expect(run.code == 73, "\(command): \(run.stderr)")
            #expect(run.stderr.contains(file + "/data"), "\(command): \(run.stderr)")
            #expect(
                !run.stderr.contains("repair the file by hand"),
                "\(command) gives advice about a file that does not exist")
        }
    }

    @Test func notesAreJSONWithTheJSONFlag() {
        let home = TempHome()
        let run = home.run(["checkin", "--json"])
        #expect(run.code == 0)
        _ = jsonObject(run.stdout)
        home.run(["checkin"], now: "2026-03-01T10:00:00Z")
        // The clock-behind warning, with --json, is a coded warning on stderr, like every other.
        let behind = home.run(["checkin", "status", "--json"], now: "2026-03-01T08:00:00Z")
        #expect(behind.code == 0)
        let warning = jsonObject(behind.stderr)["warning"] as? [String: Any]
        #expect(warning?["code"] as? String == "check-in-from-the-future", "\(behind.stderr)")
        #expect((warning?["message"] as? String)?.hasPrefix("a check-in stamped") == true)
    }

    @Test func helpIgnoresOptionValues() {
        let home = TempHome()
        let run = home.run(["help", "checkin", "--home", "somewhere"])
        #expect(run.code == 0)
        #expect(run.stdout == home.run(["checkin", "--help"]).stdout)
    }

    @Test func aLockThatIsNotAFileSaysToMoveItAside() throws {
        let home = TempHome()
        try FileManager.default.createDirectory(atPath: home.path + "/lock", withIntermediateDirectories: true)
        let run = home.run(["checkin"])
        #expect(run.code == 65)
        #expect(
            run.stderr.hasPrefix(
                "lifesignal: error: cannot read \(home.path)/lock: Is a directory; it must be a plain file"))
        #expect(run.stderr.contains("move it aside"))
    }
}
