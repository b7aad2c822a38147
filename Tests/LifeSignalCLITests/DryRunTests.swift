import Foundation
import Testing

/// `checkin --dry-run` and `notify deliver --dry-run` show what would happen, and lock, create,
/// write and send nothing.
@Suite struct DryRunTests {
    @Test func aDryCheckInRecordsNothingAndCreatesNothing() {
        let fresh = TempHome()
        let first = fresh.run(["checkin", "--dry-run"])
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Would check in at 2026-03-01 09:00 UTC (dry run: nothing was recorded).\n"))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: fresh.path)) ?? ["?"]).isEmpty)

        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let before = StoreSnapshot(home.path)
        let dry = home.run(["checkin", "--dry-run", "--json", "--note", "x"], now: "2026-03-01T12:00:00Z")
        #expect(dry.code == 0)
        let json = jsonObject(dry.stdout)
        #expect(json["dryRun"] as? Bool == true)
        #expect((json["checkIn"] as? [String: Any])?["deadline"] as? String == "2026-03-02T12:00:00Z")
        #expect(StoreSnapshot(home.path) == before)
        #expect(jsonObject(home.run(["checkin", "history", "--json"]).stdout)["total"] as? Int == 1)
    }

    @Test func aDryDeliverShowsWhatIsDueAndSendsNothing() {
        let home = TempHome()
        let log = home.path + "/sent.log"
        home.run(["checkin", "--quiet"])
        home.run(["notify", "prefs", "--channel", "exec:cat >> '\(log)'", "--quiet"])
        let before = StoreSnapshot(home.path)
        // The reminder is due at 08:30 the next day.
        let dry = home.run(["notify", "deliver", "--dry-run"], now: "2026-03-02T08:40:00Z")
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(dry.stdout == "would send “Check in by 09:00” to you through exec:cat >> '\(log)'\n")
        #expect(!FileManager.default.fileExists(atPath: log))
        #expect(StoreSnapshot(home.path) == before)
        // The real run sends it.
        #expect(home.run(["notify", "deliver"], now: "2026-03-02T08:40:00Z").code == 0)
        #expect(FileManager.default.fileExists(atPath: log))
        #expect(
            home.run(["notify", "deliver", "--dry-run"], now: "2026-03-02T08:41:00Z").stdout
                == "Nothing is due to be sent (dry run).\n")
    }

    /// "What would my sister receive?": the title that would go out, and to whom.
    @Test func aDryDeliverNamesWhatWouldGoOutAndToWhom() {
        let home = TempHome()
        home.run(["init", "--name", "Bea", "--quiet"])
        home.run(["checkin", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"])
        let dry = home.run(["notify", "deliver", "--dry-run"], now: "2026-03-02T09:00:01Z")
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(
            dry.stdout.contains("would send “Bea missed the 09:00 check-in” to Sam through exec:true\n"),
            "\(dry.stdout)")
    }

    /// `--verbose` on a run with nothing to send says so: "ran, all well" is not silence.
    @Test func aQuietVerboseDeliverSaysItRan() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let quiet = home.run(["notify", "deliver", "--verbose"], now: "2026-03-01T10:00:00Z")
        #expect(quiet.code == 0)
        #expect(
            quiet.stderr.hasSuffix("lifesignal: nothing was sent this run, and no channel is failing.\n"),
            "\(quiet.stderr)")
        #expect(home.run(["notify", "deliver"], now: "2026-03-01T10:05:00Z").stderr == "")
    }
}
