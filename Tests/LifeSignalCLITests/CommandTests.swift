import Foundation
import Testing

// Every command and flag, run through the built binary with exact stdout, stderr and exit
// code. Times are pinned with LIFESIGNAL_NOW and shown in UTC (TZ=UTC), so every line is exact.

private let t0 = "2026-03-01T09:00:00Z"
private let defaultsNote =
    "check in every 24h, a reminder 30m before the deadline. Change them with 'lifesignal checkin interval' and 'lifesignal checkin reminder'.\n"

/// What `init --circle DIR` says when it made DIR itself.
private func createdCircle(_ circle: String) -> String {
    "Created the circle folder \(circle), readable by this account only. To share it with the other accounts of this machine, its administrator gives it a common group first (install -d -m 2770 -g family \(circle)); see \"A circle of people\" in the README.\n"
}

/// What `init` says of a new member's recovery code, with the code it printed (random, so
/// taken from `stdout` once its shape is checked).
private func recoveryLines(_ stdout: String) -> String {
    let code = stdout.split(separator: "\n").first { $0.hasPrefix("  lifesignal://recover/") }.map(String.init) ?? ""
    #expect(
        code.range(
            of: "^  lifesignal://recover/[0-9a-f-]{36}/([0-9a-f]{4}-){15}[0-9a-f]{4}$", options: .regularExpression)
            != nil, "\(stdout)")
    return
        "Your recovery code, shown this once: write it down and keep it somewhere safe, away from this machine. If all your devices are lost, it makes a new one ('lifesignal init --circle DIR --member CODE'):\n"
        + code + "\n"
}

/// The rows `init` prints after its first line.
private func initRows(
    _ data: String, circle: String? = nil, interval: String = "24h", reminder: String = "30m before the deadline"
) -> String {
    """
      Data directory  \(data)
      Circle          \(circle ?? data + "/circle")
      Interval        \(interval)
      Reminder        \(reminder)

    """
}

@Suite struct InitCommandTests {
    @Test func firstRunWithEveryOption() {
        let home = TempHome()
        let run = home.run(["init", "--name", "Ann", "--interval", "8h", "--reminder", "1h"])
        #expect(run.stderr == "")
        #expect(run.code == 0)
        #expect(
            run.stdout == "Set up lifesignal for Ann.\n"
                + initRows(home.path, interval: "8h", reminder: "1h before the deadline") + recoveryLines(run.stdout)
                + "Check in now with 'lifesignal checkin'.\n")
        #expect(home.exists("identity.json"))
        let status = home.run(["checkin", "status"])
        #expect(
            status.stdout
                == "Status          no check-in yet\nReminder        1h before the deadline\nInterval        8h\nRun 'lifesignal checkin' to start your countdown.\n"
        )
        #expect(status.code == 0)
    }

    @Test func firstRunWithDefaultsNamesTheAccount() {
        let home = TempHome()
        let run = home.run(["init"])
        #expect(run.code == 0)
        #expect(run.stderr == "")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("Set up lifesignal for ") == true)
        // The account's name, which responders read in every message: said, with how to change it.
        let name = String(lines.first?.dropFirst("Set up lifesignal for ".count).dropLast() ?? "")
        #expect(
            lines.dropFirst().joined(separator: "\n") == initRows(home.path)
                + "Your responders will see you as \(name) (this account's name); to give the name they know you by: lifesignal init --name \"Your Name\".\n"
                + recoveryLines(run.stdout) + "Check in now with 'lifesignal checkin'.\n")
    }

    @Test func reminderOffOnFirstRun() {
        let home = TempHome()
        let run = home.run(["init", "--name", "Ann", "--reminder", "off"])
        #expect(run.code == 0)
        #expect(
            run.stdout == "Set up lifesignal for Ann.\n" + initRows(home.path, reminder: "off")
                + recoveryLines(run.stdout) + "Check in now with 'lifesignal checkin'.\n")
    }

    @Test func rerunChangesOnlyWhatIsGiven() {
        let home = TempHome()
        home.run(["init", "--name", "Ann", "--interval", "8h", "--reminder", "1h"])
        let run = home.run(["init", "--name", "Bea", "--interval", "16h", "--reminder", "off"])
        #expect(run.stderr == "")
        #expect(run.code == 0)
        #expect(
            run.stdout == "lifesignal is already set up here for Bea; changed name Bea, interval 16h, reminder off.\n"
                + initRows(home.path, interval: "16h", reminder: "off") + "Check in now with 'lifesignal checkin'.\n")
        // Only the interval: the name and reminder stay.
        let again = home.run(["init", "--interval", "48h"])
        #expect(
            again.stdout == "lifesignal is already set up here for Bea; changed interval 48h.\n"
                + initRows(home.path, interval: "48h", reminder: "off") + "Check in now with 'lifesignal checkin'.\n")
    }

    @Test func rerunWithNothingOrTheSameValuesChangesNothing() {
        let home = TempHome()
        home.run(["init", "--name", "Ann", "--interval", "8h"])
        home.run(["checkin"])
        let bare = home.run(["init"], now: "2026-03-01T10:00:00Z")
        #expect(bare.code == 0)
        #expect(bare.stderr == "")
        // Checked in already, so no "Check in now" line.
        #expect(
            bare.stdout == "lifesignal is already set up here for Ann; nothing changed.\n"
                + initRows(home.path, interval: "8h"))
        let same = home.run(["init", "--name", "Ann", "--interval", "8h", "--reminder", "30m"])
        #expect(same.stdout == bare.stdout)
        // Nothing changed means the countdown did not move either.
        #expect(home.run(["checkin", "status", "--json"]).stdout.contains("\"deadline\": \"2026-03-01T17:00:00Z\""))
    }

    @Test func circleAbsolute() throws {
        let home = TempHome()
        let shared = TempHome()
        let circle = shared.path + "/family"
        let run = home.run(["init", "--name", "Ann", "--circle", circle + "/"])
        #expect(run.code == 0)
        #expect(
            run.stdout == "Set up lifesignal for Ann.\n" + initRows(home.path, circle: circle)
                + createdCircle(circle) + recoveryLines(run.stdout) + "Check in now with 'lifesignal checkin'.\n")
        #expect(home.run(["checkin"]).code == 0)
        // The records are in the circle, not in the data directory.
        let members = try FileManager.default.contentsOfDirectory(atPath: circle + "/members")
        #expect(members.count == 1)
        #expect(!home.exists("circle"))
        let json = jsonObject(home.run(["status", "--json"]).stdout)
        #expect(json["circle"] as? String == circle)
    }

    @Test func circleRelativeIsResolvedFromTheWorkingDirectory() {
        let home = TempHome()
        let work = TempHome()
        let run = home.run(["init", "--name", "Ann", "--circle", "./sync//shared/"], directory: work.path)
        #expect(run.stderr == "")
        #expect(run.code == 0)
        #expect(
            run.stdout == "Set up lifesignal for Ann.\n" + initRows(home.path, circle: work.path + "/sync/shared")
                + createdCircle(work.path + "/sync/shared") + recoveryLines(run.stdout)
                + "Check in now with 'lifesignal checkin'.\n")
        home.run(["checkin"])
        #expect(work.exists("sync/shared/members"))
        // The absolute path was kept: a check-in from elsewhere uses the same circle.
        #expect(
            jsonObject(home.run(["status", "--json"], directory: "/").stdout)["circle"] as? String == work.path
                + "/sync/shared")
    }

    @Test func aDifferentCircleTakesTheRecordsAlong() {
        let home = TempHome()
        let shared = TempHome()
        home.run(["init", "--name", "Ann", "--circle", shared.path + "/a"])
        home.run(["checkin", "--quiet"])
        let run = home.run(["init", "--circle", shared.path + "/b"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(
            run.stdout.hasPrefix(
                "lifesignal is set up here for Ann.\nMoved your records from \(shared.path)/a to \(shared.path)/b; your history came with them.\nThe copy in \(shared.path)/a was left for anyone who still reads that folder;"
            ), "\(run.stdout)")
        // The same circle again is fine.
        let same = home.run(["init", "--circle", shared.path + "/b"])
        #expect(same.code == 0)
        #expect(same.stdout.hasPrefix("lifesignal is already set up here for Ann; nothing changed.\n"))
    }

    @Test func reminderNotShorterThanIntervalCreatesNothing() {
        let home = TempHome()
        let run = home.run(["init", "--interval", "1h", "--reminder", "1h"])
        #expect(run.code == 65)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "lifesignal: error: the reminder (1h before the deadline) must be shorter than the interval (1h); set a shorter reminder first with 'lifesignal checkin reminder 30m' (with init: --reminder 30m), or turn it off with 'lifesignal checkin reminder off'\n"
        )
        #expect(!home.exists("identity.json"))
        // On an existing profile the check uses the value kept: 8h interval, new reminder 8h.
        home.run(["init", "--name", "Ann", "--interval", "8h"])
        let rerun = home.run(["init", "--reminder", "8h"])
        #expect(rerun.code == 65)
        #expect(rerun.stderr.contains("the reminder (8h before the deadline) must be shorter than the interval (8h)"))
        #expect(home.run(["checkin", "reminder"]).stdout == "Reminder: 30m before the deadline.\n")
    }

    @Test func badNameIsAUsageError() {
        let home = TempHome()
        let run = home.run(["init", "--name", "   "])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == usageError(
                    "The value for '--name <name>' is invalid: the name is empty.",
                    usage:
                        "lifesignal init [--name <name>] [--interval <duration>] [--reminder <duration>] [--circle <dir>] [--member <code>] [--phone <number>] [--emergency-note <text>] [--no-phone] [--no-emergency-note]",
                    command: "lifesignal init"))
    }
}

@Suite struct CheckinCommandTests {
    @Test func firstCheckInCreatesTheProfileAndSaysSoOnce() {
        let home = TempHome()
        let first = home.run(["checkin"])
        #expect(first.code == 0)
        #expect(
            first.stdout
                == "Checked in at 2026-03-01 09:00 UTC.\nNext deadline 2026-03-02 09:00 UTC (in 1d); reminder at 2026-03-02 08:30 UTC.\n"
        )
        #expect(first.stderr.hasPrefix("lifesignal: created a profile for "))
        let name = String(
            first.stderr.dropFirst("lifesignal: created a profile for ".count).prefix { $0 != " " })
        #expect(
            first.stderr.hasSuffix(
                " in \(home.path): " + defaultsNote.dropLast()
                    + " Your responders will see you as \(name) (this account's name); to give the name they know you by: lifesignal init --name \"Your Name\".\n"
                    + noRespondersWarning), "\(first.stderr)")
        // The profile is said once; that nobody watches over it, on every check-in.
        let second = home.run(["checkin"], now: "2026-03-01T15:30:00Z")
        #expect(second.stderr == noRespondersWarning)
        #expect(
            second.stdout
                == "Checked in at 2026-03-01 15:30 UTC.\nNext deadline 2026-03-02 15:30 UTC (in 1d); reminder at 2026-03-02 15:00 UTC.\n"
        )
    }

    @Test func quietFirstCheckInPrintsNothing() {
        let home = TempHome()
        let run = home.run(["checkin", "--quiet"])
        #expect(run.code == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "")
        #expect(home.exists("identity.json"))
    }

    @Test func noteIsKeptAndShown() {
        let home = TempHome()
        home.run(["init", "--name", "Ann"])
        let run = home.run(["checkin", "--note", "leaving for the hills"])
        #expect(run.code == 0)
        #expect(run.stderr == noRespondersWarning)
        let status = home.run(["checkin", "status"], now: "2026-03-01T12:00:00Z")
        #expect(
            status.stdout == """
                Status          on time
                Last check-in   2026-03-01 09:00 UTC (3h ago)  “leaving for the hills”
                Deadline        2026-03-02 09:00 UTC (in 21h)
                Time left       21h
                Reminder        2026-03-02 08:30 UTC (in 20h 30m), 30m before the deadline
                Interval        24h

                """)
        #expect(
            home.run(["checkin", "history"], now: "2026-03-01T12:00:00Z").stdout
                == "2026-03-01 09:00 UTC  3h ago       leaving for the hills\n")
    }

    @Test func badNoteIsAUsageError() {
        let home = TempHome()
        let run = home.run(["checkin", "--note", "two\nlines"])
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == usageError(
                    "The value for '--note <text>' is invalid: the note contains a control character such as a newline.",
                    usage: "lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]",
                    command: "lifesignal checkin"))
        #expect(!home.exists("identity.json"))
        let long = home.run(["checkin", "--note", String(repeating: "x", count: 501)])
        #expect(long.code == 64)
        #expect(
            long.stderr.hasPrefix(
                "lifesignal: error: The value for '--note <text>' is invalid: the note is longer than 500 characters.\n"
            ))
    }

    @Test func checkInWithReminderOffHasNoReminderTime() {
        let home = TempHome()
        home.run(["init", "--reminder", "off"])
        let run = home.run(["checkin"])
        #expect(run.stdout == "Checked in at 2026-03-01 09:00 UTC.\nNext deadline 2026-03-02 09:00 UTC (in 1d).\n")
    }

    /// Human times are local, labelled with the zone, so a reader elsewhere is not misled.
    @Test func humanTimesUseTheLocalZone() {
        let home = TempHome()
        // A POSIX zone one hour east of UTC, so no tz database is needed.
        let run = home.run(["checkin"], environment: ["TZ": "CET-1"])
        #expect(
            run.stdout
                == "Checked in at 2026-03-01 10:00 CET.\nNext deadline 2026-03-02 10:00 CET (in 1d); reminder at 2026-03-02 09:30 CET.\n"
        )
        // JSON stays in UTC.
        let json = jsonObject(home.run(["checkin", "status", "--json"], environment: ["TZ": "CET-1"]).stdout)
        #expect(json["deadline"] as? String == "2026-03-02T09:00:00Z")
    }
}

@Suite struct CheckinStatusTests {
    @Test func beforeAnyProfile() {
        let home = TempHome()
        let run = home.run(["checkin", "status"])
        #expect(run.code == 66)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "lifesignal: error: no lifesignal profile in \(home.path) yet (chosen by LIFESIGNAL_HOME=\(home.path)). Nothing was created. Run 'lifesignal checkin' to record your first check-in, or 'lifesignal init' to set up first. If your profile is elsewhere, this environment does not point to it: cron sets only HOME, so put LIFESIGNAL_HOME=/path/to/your/data in the crontab, or pass --home\n"
        )
    }

    @Test func phasesThroughTheDay() {
        let home = TempHome()
        home.run(["checkin"])
        let onTime = home.run(["checkin", "status"], now: "2026-03-02T08:29:59Z")
        #expect(onTime.code == 0)
        #expect(onTime.stdout.hasPrefix("Status          on time\n"))
        let dueSoon = home.run(["checkin", "status"], now: "2026-03-02T08:30:00Z")
        #expect(dueSoon.code == 3)
        #expect(
            dueSoon.stdout == """
                Status          due soon
                Last check-in   2026-03-01 09:00 UTC (23h 30m ago)
                Deadline        2026-03-02 09:00 UTC (in 30m)
                Time left       30m
                Reminder        2026-03-02 08:30 UTC (now), 30m before the deadline
                Interval        24h

                """)
        // Exactly at the deadline is not yet overdue.
        let atDeadline = home.run(["checkin", "status"], now: "2026-03-02T09:00:00Z")
        #expect(atDeadline.code == 3)
        #expect(atDeadline.stdout.contains("Time left       0s\n"))
        let overdue = home.run(["checkin", "status"], now: "2026-03-02T09:00:01Z")
        #expect(overdue.code == 4)
        #expect(overdue.stderr == "")
        #expect(
            overdue.stdout == """
                Status          OVERDUE
                Last check-in   2026-03-01 09:00 UTC (1d ago)
                Deadline        2026-03-02 09:00 UTC (1s ago)
                Overdue by      1s
                Reminder        2026-03-02 08:30 UTC (30m ago), 30m before the deadline
                Interval        24h
                Check in now with 'lifesignal checkin'.

                """)
    }

    @Test func reminderOffMeansOnTimeUntilTheDeadline() {
        let home = TempHome()
        home.run(["init", "--reminder", "off"])
        home.run(["checkin"])
        let run = home.run(["checkin", "status"], now: "2026-03-02T08:59:00Z")
        #expect(run.code == 0)
        #expect(run.stdout.contains("Reminder        off\n"))
    }
}

@Suite struct CheckinHistoryTests {
    /// Three check-ins: 1 Mar 09:00 "first", 5 Mar 09:00, 9 Mar 21:00 "third".
    func threeCheckIns() -> TempHome {
        let home = TempHome()
        home.run(["init", "--name", "Ann", "--interval", "8d"])
        home.run(["checkin", "--note", "first"], now: "2026-03-01T09:00:00Z")
        home.run(["checkin"], now: "2026-03-05T09:00:00Z")
        home.run(["checkin", "--note", "third"], now: "2026-03-09T21:00:00Z")
        return home
    }

    let later = "2026-03-10T09:00:00Z"

    @Test func noCheckInsYet() {
        let home = TempHome()
        home.run(["init"])
        let run = home.run(["checkin", "history"])
        #expect(run.code == 0)
        #expect(run.stdout == "No check-ins yet.\n")
        #expect(run.stderr == "")
        #expect(
            home.run(["checkin", "history", "--since", "7d"]).stdout == "No check-ins since 2026-02-22 09:00 UTC.\n")
    }

    @Test func beforeAnyProfile() {
        let run = TempHome().run(["checkin", "history"])
        #expect(run.code == 66)
    }

    @Test func newestFirst() {
        let home = threeCheckIns()
        let run = home.run(["checkin", "history"], now: later)
        #expect(run.code == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout == """
                2026-03-09 21:00 UTC  12h ago      third
                2026-03-05 09:00 UTC  5d ago
                2026-03-01 09:00 UTC  9d ago       first

                """)
    }

    @Test func limit() {
        let home = threeCheckIns()
        #expect(
            home.run(["checkin", "history", "--limit", "2"], now: later).stdout
                == "2026-03-09 21:00 UTC  12h ago      third\n2026-03-05 09:00 UTC  5d ago\n")
        #expect(
            home.run(["checkin", "history", "--limit=1"], now: later).stdout
                == "2026-03-09 21:00 UTC  12h ago      third\n"
        )
        let bad = home.run(["checkin", "history", "--limit", "0"], now: later)
        #expect(bad.code == 64)
        #expect(
            bad.stderr
                == usageError(
                    "The value '0' is invalid for '--limit <n>': give a whole number from 1 to 1000000.",
                    usage: "lifesignal checkin history [--limit <n>] [--since <time>] [--until <time>]",
                    command: "lifesignal checkin history"))
    }

    @Test func sinceAnRFC3339Time() {
        let home = threeCheckIns()
        // At or after: the check-in exactly at the time is included.
        let run = home.run(["checkin", "history", "--since", "2026-03-05T09:00:00Z"], now: later)
        #expect(run.stdout == "2026-03-09 21:00 UTC  12h ago      third\n2026-03-05 09:00 UTC  5d ago\n")
        // With an offset: 2026-03-05T10:00:00+02:00 is 08:00Z.
        #expect(
            home.run(["checkin", "history", "--since", "2026-03-05T10:00:00+02:00"], now: later).stdout == run.stdout)
        #expect(
            home.run(["checkin", "history", "--since", "2026-03-05T09:00:01Z"], now: later).stdout
                == "2026-03-09 21:00 UTC  12h ago      third\n")
    }

    @Test func sinceADuration() {
        let home = threeCheckIns()
        #expect(
            home.run(["checkin", "history", "--since", "7d"], now: later).stdout
                == "2026-03-09 21:00 UTC  12h ago      third\n2026-03-05 09:00 UTC  5d ago\n")
        #expect(
            home.run(["checkin", "history", "--since=1d"], now: later).stdout
                == "2026-03-09 21:00 UTC  12h ago      third\n")
        #expect(
            home.run(["checkin", "history", "--since", "1h"], now: later).stdout
                == "No check-ins since 2026-03-10 08:00 UTC.\n")
        #expect(
            home.run(["checkin", "history", "--since", "30d", "--limit", "1"], now: later).stdout
                == "2026-03-09 21:00 UTC  12h ago      third\n")
    }

    @Test func badSince() {
        let run = threeCheckIns().run(["checkin", "history", "--since", "yesterday"], now: later)
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == usageError(
                    "The value 'yesterday' is invalid for '--since <time>': give a date (2026-11-01), a date and time (2026-11-01 18:30), an RFC 3339 time, or a duration such as 7d meaning that long ago.",
                    usage: "lifesignal checkin history [--limit <n>] [--since <time>] [--until <time>]",
                    command: "lifesignal checkin history"))
        // February 30 does not exist.
        #expect(threeCheckIns().run(["checkin", "history", "--since", "2026-02-30T00:00:00Z"]).code == 64)
    }
}

@Suite struct CheckinIntervalTests {
    @Test func showBeforeAndAfterSetting() {
        let home = TempHome()
        #expect(home.run(["checkin", "interval"]).code == 66)
        home.run(["init"])
        let show = home.run(["checkin", "interval"])
        #expect(show.code == 0)
        #expect(show.stdout == "Check-in interval: 24h.\n")
        #expect(show.stderr == "")
        home.run(["checkin", "interval", "1d12h"])
        #expect(home.run(["checkin", "interval"]).stdout == "Check-in interval: 36h.\n")
    }

    @Test func settingFirstCreatesAProfile() {
        let home = TempHome()
        let run = home.run(["checkin", "interval", "8h"])
        #expect(run.code == 0)
        // No check-in yet, so no deadline to report.
        #expect(run.stdout == "Check-in interval set to 8h.\n")
        #expect(run.stderr.hasPrefix("lifesignal: created a profile for "))
        #expect(home.run(["checkin", "interval"]).stdout == "Check-in interval: 8h.\n")
    }

    @Test func longerMovesTheDeadlineFromTheLastCheckIn() {
        let home = TempHome()
        home.run(["checkin"])
        let run = home.run(["checkin", "interval", "48h"], now: "2026-03-01T12:00:00Z")
        #expect(run.code == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout
                == "Check-in interval set to 48h.\nDeadline 2026-03-03 09:00 UTC (in 1d 21h); reminder at 2026-03-03 08:30 UTC.\n"
        )
        // Presets read as they were set; three days and more read in days.
        #expect(home.run(["checkin", "interval", "3d"]).stdout.hasPrefix("Check-in interval set to 3d.\n"))
    }

    @Test func shorterKeepsTheLastCheckIn() {
        let home = TempHome()
        home.run(["checkin"])
        let run = home.run(["checkin", "interval", "8h"], now: "2026-03-01T12:00:00Z")
        #expect(
            run.stdout
                == "Check-in interval set to 8h.\nDeadline 2026-03-01 17:00 UTC (in 5h); reminder at 2026-03-01 16:30 UTC.\n"
        )
    }

    @Test func shorterCanMakeYouOverdueAtOnce() {
        let home = TempHome()
        home.run(["checkin"])
        let run = home.run(["checkin", "interval", "2h"], now: "2026-03-01T12:00:00Z")
        #expect(run.code == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout
                == "Check-in interval set to 2h.\nYour deadline 2026-03-01 11:00 UTC (1h ago) has passed: you are overdue by 1h. Check in with 'lifesignal checkin'.\n"
        )
        // Not a check-in: status says overdue.
        #expect(home.run(["checkin", "status"], now: "2026-03-01T12:00:00Z").code == 4)
    }

    @Test func outOfRange() {
        let home = TempHome()
        home.run(["init", "--reminder", "off"])
        let short = home.run(["checkin", "interval", "5m"])
        #expect(short.code == 65)
        #expect(short.stdout == "")
        #expect(
            short.stderr
                == "lifesignal: error: an interval of 5m is outside the accepted range 10m–30d; choose e.g. 8h, 16h, 24h or 48h\n"
        )
        let long = home.run(["checkin", "interval", "31d"])
        #expect(long.code == 65)
        #expect(
            long.stderr
                == "lifesignal: error: an interval of 31d is outside the accepted range 10m–30d; choose e.g. 8h, 16h, 24h or 48h\n"
        )
        // The bounds themselves are accepted.
        #expect(home.run(["checkin", "interval", "10m"]).code == 0)
        #expect(home.run(["checkin", "interval", "30d"]).code == 0)
        #expect(home.run(["checkin", "interval"]).stdout == "Check-in interval: 30d.\n")
        // The same rule holds in init.
        #expect(TempHome().run(["init", "--interval", "5m", "--reminder", "off"]).code == 65)
    }

    @Test func reminderMustStayShorter() {
        let home = TempHome()
        home.run(["checkin"])
        // Default reminder 30m: an interval of 30m is refused and nothing changes.
        let run = home.run(["checkin", "interval", "30m"])
        #expect(run.code == 65)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "lifesignal: error: the reminder (30m before the deadline) must be shorter than the interval (30m); set a shorter reminder first with 'lifesignal checkin reminder 15m' (with init: --reminder 15m), or turn it off with 'lifesignal checkin reminder off'\n"
        )
        #expect(home.run(["checkin", "interval"]).stdout == "Check-in interval: 24h.\n")
        #expect(home.run(["checkin", "interval", "31m"]).code == 0)
    }

    @Test func badDurationIsAUsageError() {
        let run = TempHome().run(["checkin", "interval", "3x"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == usageError(
                    "The value '3x' is invalid for '<duration>': 'x' is not a unit: use d, h, m or s; give a duration such as 45m, 8h or 1d12h.",
                    usage: "lifesignal checkin interval [<duration>]", command: "lifesignal checkin interval"))
    }
}

@Suite struct CheckinReminderTests {
    @Test func showSetAndTurnOff() {
        let home = TempHome()
        #expect(home.run(["checkin", "reminder"]).code == 66)
        home.run(["checkin"])
        #expect(home.run(["checkin", "reminder"]).stdout == "Reminder: 30m before the deadline.\n")
        let set = home.run(["checkin", "reminder", "2h"], now: "2026-03-01T10:00:00Z")
        #expect(set.code == 0)
        #expect(set.stderr == "")
        #expect(
            set.stdout
                == "Reminder set to 2h before the deadline.\nDeadline 2026-03-02 09:00 UTC (in 23h); reminder at 2026-03-02 07:00 UTC.\n"
        )
        #expect(home.run(["checkin", "reminder"]).stdout == "Reminder: 2h before the deadline.\n")
        // The new lead moves the due-soon time.
        #expect(home.run(["checkin", "status"], now: "2026-03-02T07:00:00Z").code == 3)
        let off = home.run(["checkin", "reminder", "off"], now: "2026-03-01T10:00:00Z")
        #expect(off.code == 0)
        #expect(off.stdout == "Reminder turned off.\nDeadline 2026-03-02 09:00 UTC (in 23h).\n")
        #expect(home.run(["checkin", "reminder"]).stdout == "Reminder: off.\n")
        #expect(home.run(["checkin", "status"], now: "2026-03-02T08:59:59Z").code == 0)
    }

    @Test func mustBeShorterThanTheInterval() {
        let home = TempHome()
        home.run(["init", "--interval", "8h"])
        let run = home.run(["checkin", "reminder", "8h"])
        #expect(run.code == 65)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "lifesignal: error: the reminder (8h before the deadline) must be shorter than the interval (8h); set a shorter reminder first with 'lifesignal checkin reminder 30m' (with init: --reminder 30m), or turn it off with 'lifesignal checkin reminder off'\n"
        )
        #expect(home.run(["checkin", "reminder"]).stdout == "Reminder: 30m before the deadline.\n")
        #expect(home.run(["checkin", "reminder", "7h59m"]).code == 0)
    }

    @Test func badLead() {
        let run = TempHome().run(["checkin", "reminder", "soon"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == usageError(
                    "The value 'soon' is invalid for '<lead>': it is not a duration; give a duration such as 30m or 2h, or 'off'.",
                    usage: "lifesignal checkin reminder [<lead>]", command: "lifesignal checkin reminder"))
    }
}

@Suite struct StatusCommandTests {
    @Test func beforeAnyProfile() {
        let home = TempHome()
        let run = home.run(["status"])
        #expect(run.code == 66)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("lifesignal: error: no lifesignal profile in \(home.path) yet ("))
    }

    @Test func dashboard() {
        let home = TempHome()
        home.run(["init", "--name", "Ann Example"])
        let fresh = home.run(["status"])
        #expect(fresh.code == 0)
        #expect(
            fresh.stdout == """
                Ann Example
                  Status          no check-in yet
                  Reminder        30m before the deadline
                  Interval        24h
                  Run 'lifesignal checkin' to start your countdown.

                """)
        home.run(["checkin", "--note", "home"])
        let run = home.run(["status"], now: "2026-03-01T18:48:00Z")
        #expect(run.code == 0)
        #expect(run.stderr == noRespondersWarning)
        #expect(
            run.stdout == """
                Ann Example
                  Status          on time
                  Last check-in   2026-03-01 09:00 UTC (9h 48m ago)  “home”
                  Deadline        2026-03-02 09:00 UTC (in 14h 12m)
                  Time left       14h 12m
                  Reminder        2026-03-02 08:30 UTC (in 13h 42m), 30m before the deadline
                  Interval        24h

                """)
        let overdue = home.run(["status"], now: "2026-03-04T12:00:00Z")
        #expect(overdue.code == 4)
        #expect(overdue.stdout.contains("  Status          OVERDUE\n"))
        #expect(overdue.stdout.contains("  Overdue by      2d 3h\n"))
        #expect(overdue.stdout.hasSuffix("  Check in now with 'lifesignal checkin'.\n"))
        #expect(home.run(["status"], now: "2026-03-02T08:45:00Z").code == 3)
    }
}

@Suite struct GlobalOptionTests {
    @Test func versionAndEveryPlace() {
        let home = TempHome()
        for arguments in [["--version"], ["status", "--version"]] {
            let run = home.run(arguments)
            #expect(run.stdout == "lifesignal 0.1.0\n", "\(arguments)")
            #expect(run.stderr == "")
            #expect(run.code == 0)
        }
    }

    @Test func jsonBeforeOrAfterTheSubcommand() {
        let home = TempHome()
        home.run(["checkin"])
        let after = home.run(["checkin", "status", "--json"])
        let before = home.run(["--json", "checkin", "status"])
        let between = home.run(["checkin", "--json", "status"])
        #expect(after.stdout.hasPrefix("{"))
        #expect(before.stdout == after.stdout)
        #expect(between.stdout == after.stdout)
    }

    @Test func homeOverridesLifesignalHome() {
        let home = TempHome()
        let other = TempHome()
        for arguments in [["--home", other.path, "checkin"], ["checkin", "--home=\(other.path)"]] {
            let run = home.run(arguments)
            #expect(run.code == 0, "\(arguments)")
        }
        #expect(other.exists("identity.json"))
        #expect(!home.exists("identity.json"))
        #expect(home.run(["status"]).code == 66)
        #expect(home.run(["status", "--home", other.path]).code == 0)
        let bad = home.run(["--home=", "status"])
        #expect(bad.code == 64)
        #expect(
            bad.stderr
                == usageError(
                    "The value '' is invalid for '--home <dir>': it is empty.", usage: "lifesignal <subcommand>"))
    }

    @Test func relativeHomeIsResolvedFromTheWorkingDirectory() {
        let work = TempHome()
        let run = work.run(["--home", "data/./x", "checkin", "--quiet"], directory: work.path)
        #expect(run.code == 0)
        #expect(work.exists("data/x/identity.json"))
    }

    @Test func quietShortAndLong() {
        let home = TempHome()
        for flag in ["-q", "--quiet"] {
            let run = home.run([flag, "checkin", "--note", "x"])
            #expect(run.stdout == "", "\(flag)")
            #expect(run.stderr == "")
            #expect(run.code == 0)
            // Quiet status still answers through its exit code.
            let status = home.run(["status", flag], now: "2026-03-03T09:00:00Z")
            #expect(status.stdout == "")
            #expect(status.code == 4)
        }
        // Errors are still reported.
        let error = home.run(["-q", "chekin"])
        #expect(error.code == 64)
        #expect(error.stderr.hasPrefix("lifesignal: error: Unknown command 'chekin'."))
    }

    @Test func noColorChangesNothingOffATerminal() {
        let home = TempHome()
        home.run(["checkin"])
        let plain = home.run(["status"], now: "2026-03-03T09:00:00Z")
        let noColor = home.run(["status", "--no-color"], now: "2026-03-03T09:00:00Z")
        let before = home.run(["--no-color", "status"], now: "2026-03-03T09:00:00Z")
        #expect(noColor.stdout == plain.stdout)
        #expect(before.stdout == plain.stdout)
        #expect(noColor.code == 4)
    }

    @Test func bundledShortFlags() {
        let home = TempHome()
        let help = home.run(["checkin", "-h"])
        #expect(home.run(["checkin", "-qh"]).stdout == help.stdout)
        #expect(home.run(["checkin", "-hq"]).stdout == help.stdout)
        let unknown = home.run(["checkin", "-qx"])
        #expect(unknown.code == 64)
        #expect(
            unknown.stderr
                == usageError(
                    "Unknown option '-x'.", usage: "lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]",
                    command: "lifesignal checkin"))
        #expect(!home.exists("identity.json"))
    }

    @Test func equalsForm() {
        let home = TempHome()
        let run = home.run(["init", "--name=Ann Example", "--interval=8h", "--reminder=off"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Set up lifesignal for Ann Example.\n"))
        home.run(["checkin", "--note=a=b c"])
        #expect(home.run(["checkin", "history"]).stdout == "2026-03-01 09:00 UTC  now          a=b c\n")
        let flagWithValue = home.run(["status", "--quiet=yes"])
        #expect(flagWithValue.code == 64)
        #expect(
            flagWithValue.stderr
                == usageError("'--quiet' takes no value.", usage: "lifesignal status", command: "lifesignal status"))
    }

    @Test func doubleDashEndsOptions() {
        let home = TempHome()
        home.run(["checkin"])
        let run = home.run(["checkin", "interval", "--", "8h"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Check-in interval set to 8h.\n"))
        // After --, a word that looks like an option is a value; checked as a duration.
        let dashed = home.run(["checkin", "interval", "--", "-5m"])
        #expect(dashed.code == 64)
        #expect(
            dashed.stderr
                == usageError(
                    "The value '-5m' is invalid for '<duration>': a duration cannot be negative; give a duration such as 45m, 8h or 1d12h.",
                    usage: "lifesignal checkin interval [<duration>]", command: "lifesignal checkin interval"))
        // Nor is "--json" after -- the flag: the error is text, not JSON.
        let json = home.run(["checkin", "interval", "--", "--json"])
        #expect(json.code == 64)
        #expect(json.stderr.hasPrefix("lifesignal: error: The value '--json' is invalid for '<duration>'"))
        // A subcommand name after -- is an argument, not a subcommand.
        let word = home.run(["checkin", "--", "status"])
        #expect(word.code == 64)
        #expect(
            word.stderr
                == usageError(
                    "Unexpected argument 'status'.",
                    usage: "lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]",
                    command: "lifesignal checkin"))
        // A note that starts with a dash is taken as the option's value.
        #expect(home.run(["checkin", "--note", "-x-"]).code == 0)
        #expect(home.run(["checkin", "history", "--limit", "1"]).stdout == "2026-03-01 09:00 UTC  now          -x-\n")
    }
}

@Suite struct UsageErrorTests {
    @Test func unknownCommandSuggests() {
        let run = TempHome().run(["chekin"])
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "lifesignal: error: Unknown command 'chekin'. Did you mean 'checkin'?\nUsage: lifesignal <subcommand>\n  See 'lifesignal --help' for more information.\n"
        )
    }

    @Test func unknownCommandFarFromAnyHasNoSuggestion() {
        let run = TempHome().run(["frobnicate"])
        #expect(run.code == 64)
        #expect(run.stderr == usageError("Unknown command 'frobnicate'.", usage: "lifesignal <subcommand>"))
    }

    @Test func unknownSubcommandSuggests() {
        let run = TempHome().run(["checkin", "stauts"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == "lifesignal: error: Unknown subcommand 'stauts' of 'checkin'. Did you mean 'status'?\nUsage: lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]\n  See 'lifesignal checkin --help' for more information.\n"
        )
    }

    @Test func unknownOptionSuggests() {
        let run = TempHome().run(["checkin", "--nte", "x"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == "lifesignal: error: Unknown option '--nte'. Did you mean '--note'?\nUsage: lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]\n  See 'lifesignal checkin --help' for more information.\n"
        )
        let global = TempHome().run(["status", "--jsn"])
        #expect(
            global.stderr
                == usageError(
                    "Unknown option '--jsn'. Did you mean '--json'?", usage: "lifesignal status",
                    command: "lifesignal status"))
        // An option of another command is unknown here.
        let elsewhere = TempHome().run(["status", "--note", "x"])
        #expect(elsewhere.code == 64)
        #expect(elsewhere.stderr.hasPrefix("lifesignal: error: Unknown option '--note'."))
    }

    @Test func missingValue() {
        let run = TempHome().run(["checkin", "--note"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == "lifesignal: error: Missing value for '--note <text>'.\nUsage: lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]\n  See 'lifesignal checkin --help' for more information.\n"
        )
        #expect(
            TempHome().run(["--home"]).stderr
                == usageError("Missing value for '--home <dir>'.", usage: "lifesignal <subcommand>"))
    }

    @Test func optionGivenTwice() {
        let run = TempHome().run(["checkin", "--note", "a", "--note=b"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == usageError(
                    "'--note' was given more than once; give it once",
                    usage: "lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]",
                    command: "lifesignal checkin"))
    }

    @Test func badDurationInAnOption() {
        let run = TempHome().run(["init", "--interval", "1d1d"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == usageError(
                    "The value '1d1d' is invalid for '--interval <duration>': each unit comes once, largest first (1d12h, not 12h1d); give a duration such as 45m, 8h or 1d12h.",
                    usage:
                        "lifesignal init [--name <name>] [--interval <duration>] [--reminder <duration>] [--circle <dir>] [--member <code>] [--phone <number>] [--emergency-note <text>] [--no-phone] [--no-emergency-note]",
                    command: "lifesignal init"))
    }

    @Test func unexpectedExtraArgument() {
        let run = TempHome().run(["checkin", "interval", "8h", "extra"])
        #expect(run.code == 64)
        #expect(
            run.stderr
                == "lifesignal: error: Unexpected argument 'extra'.\nUsage: lifesignal checkin interval [<duration>]\n  See 'lifesignal checkin interval --help' for more information.\n"
        )
        #expect(
            TempHome().run(["status", "now"]).stderr
                == usageError("Unexpected argument 'now'.", usage: "lifesignal status", command: "lifesignal status"))
    }

    @Test func usageErrorsChangeNothing() {
        let home = TempHome()
        for arguments in [["checkin", "--nte", "x"], ["checkin", "interval", "3x"], ["init", "--name"], ["chekin"]] {
            #expect(home.run(arguments).code == 64, "\(arguments)")
        }
        #expect(!home.exists("identity.json"))
    }
}

@Suite struct DataDirectoryTests {
    /// The environment of a run with no LIFESIGNAL_HOME unless given.
    func environment(_ base: TempHome, _ extra: [String: String]) -> [String: String] {
        var environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": base.path + "/home", "LIFESIGNAL_NOW": t0]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    func dataDirectory(_ arguments: [String], _ base: TempHome, _ extra: [String: String] = [:]) -> String? {
        let run = lifesignal(arguments + ["checkin", "--json"], environment: environment(base, extra))
        #expect(run.code == 0, "\(run.stderr)")
        return jsonObject(lifesignal(arguments + ["status", "--json"], environment: environment(base, extra)).stdout)[
            "dataDirectory"] as? String
    }

    @Test func homeFlagWinsOverEverything() {
        let base = TempHome()
        let found = dataDirectory(
            ["--home", base.path + "/flag"], base,
            ["LIFESIGNAL_HOME": base.path + "/env", "XDG_DATA_HOME": base.path + "/xdg"])
        #expect(found == base.path + "/flag")
        #expect(base.exists("flag/identity.json"))
        #expect(!base.exists("env"))
        #expect(!base.exists("xdg"))
    }

    @Test func lifesignalHomeWinsOverXDG() {
        let base = TempHome()
        #expect(
            dataDirectory([], base, ["LIFESIGNAL_HOME": base.path + "/env", "XDG_DATA_HOME": base.path + "/xdg"])
                == base.path + "/env")
        #expect(!base.exists("xdg"))
    }

    @Test func xdgDataHomeWinsOverHome() {
        let base = TempHome()
        #expect(dataDirectory([], base, ["XDG_DATA_HOME": base.path + "/xdg"]) == base.path + "/xdg/lifesignal")
        #expect(base.exists("xdg/lifesignal/identity.json"))
        #expect(!base.exists("home"))
    }

    @Test func relativeXDGDataHomeIsIgnored() {
        let base = TempHome()
        #expect(dataDirectory([], base, ["XDG_DATA_HOME": "xdg"]) == base.path + "/home/.local/share/lifesignal")
    }

    @Test func emptyValuesCountAsUnset() {
        let base = TempHome()
        #expect(
            dataDirectory([], base, ["LIFESIGNAL_HOME": "", "XDG_DATA_HOME": ""]) == base.path
                + "/home/.local/share/lifesignal")
    }

    @Test func homeDefault() {
        let base = TempHome()
        #expect(dataDirectory([], base) == base.path + "/home/.local/share/lifesignal")
        #expect(base.exists("home/.local/share/lifesignal/identity.json"))
    }

    @Test func filesArePrivate() throws {
        let base = TempHome()
        _ = dataDirectory([], base)
        let directory = base.path + "/home/.local/share/lifesignal"
        let attributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let identity = try FileManager.default.attributesOfItem(atPath: directory + "/identity.json")
        #expect((identity[.posixPermissions] as? Int) == 0o600)
    }
}

@Suite struct ClockTests {
    /// A check-in stamped in the future (a wrong clock on some device, a "what if" run) does
    /// not count until its time comes: the deadline counts from the one before it, so a wrong
    /// clock causes a loud false alarm, never a silent disarm; every status says so.
    @Test func aCheckInFromTheFutureDoesNotCountUntilItsTime() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"], now: t0)
        home.addResponder()
        home.run(["checkin", "--quiet"], now: "2026-03-05T09:00:00Z")
        let device =
            try #require(jsonObject(home.run(["status", "--json"]).stdout)["member"] as? [String: Any])[
                "device"] as? String ?? ""
        let warning = { (now: String, ahead: String, counting: String) in
            "lifesignal: warning: a check-in stamped 2026-03-05 09:00 UTC by device \(device.prefix(8)) is \(ahead) ahead of this clock (\(now)); it does not count until then, so your deadline counts from \(counting). Check that device's clock (or LIFESIGNAL_NOW).\n"
        }
        let status = home.run(["checkin", "status"], now: "2026-03-01T10:00:00Z")
        #expect(status.code == 0)
        #expect(status.stderr == warning("2026-03-01 10:00 UTC", "3d 23h", "the check-in of 2026-03-01 09:00 UTC"))
        #expect(
            status.stdout.hasPrefix(
                "Status          on time\nLast check-in   2026-03-01 09:00 UTC (1h ago)\nDeadline        2026-03-02 09:00 UTC (in 23h)\n"
            ))
        // The next day the real deadline has passed: overdue, and loud about why.
        home.run(["notify", "deliver", "--quiet"], now: "2026-03-02T10:00:00Z")
        let overdue = home.run(["status"], now: "2026-03-02T10:00:00Z")
        #expect(overdue.code == 4)
        #expect(overdue.stderr == warning("2026-03-02 10:00 UTC", "2d 23h", "the check-in of 2026-03-01 09:00 UTC"))
        let json = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-02T10:00:00Z").stdout)
        #expect(json["clockBehind"] as? Bool == true)
        #expect(json["state"] as? String == "overdue")
        let future = json["futureCheckIn"] as? [String: Any]
        #expect(future?["at"] as? String == "2026-03-05T09:00:00Z")
        #expect(future?["device"] as? String == device)
        // With --quiet, no warning; once its time has come, it counts and nothing is said.
        #expect(home.run(["checkin", "status", "--quiet"], now: "2026-03-02T10:00:00Z").stderr == "")
        let later = home.run(["checkin", "status"], now: "2026-03-05T10:00:00Z")
        #expect(later.stderr == "")
        #expect(later.stdout.contains("Last check-in   2026-03-05 09:00 UTC (1h ago)"))
    }

    /// Writing a check-in stamped later than this machine's clock (LIFESIGNAL_NOW ahead of it)
    /// warns that it does not count until then.
    @Test func writingACheckInAheadOfTheClockWarns() {
        let home = TempHome()
        home.addResponder()
        home.run(["checkin", "--quiet"])
        let run = home.run(["checkin"], now: "2099-01-01T00:00:00Z")
        #expect(run.code == 0)
        #expect(
            run.stderr.hasPrefix(
                "lifesignal: warning: this check-in is stamped 2099-01-01 00:00 UTC, later than this machine's clock (")
        )
        #expect(run.stderr.contains("no device counts it until then"))
    }
}

@Suite struct ColorTests {
    @Test func noEscapesOffATerminal() {
        let home = TempHome()
        home.run(["checkin"])
        for extra in [[:], ["TERM": "xterm-256color"], ["NO_COLOR": "1"]] as [[String: String]] {
            for arguments in [["status"], ["checkin", "status"], ["checkin", "status", "--json"], ["--help"]] {
                let run = home.run(arguments, now: "2026-03-03T09:00:00Z", environment: extra)
                #expect(!run.stdout.contains("\u{1B}"), "\(arguments) \(extra)")
                #expect(!run.stderr.contains("\u{1B}"))
            }
        }
    }

    /// Runs under a pseudo-terminal with util-linux `script`, when it is installed.
    func onTerminal(_ home: TempHome, _ arguments: String, _ extra: [String: String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return nil }
        var environment = [
            "LIFESIGNAL_HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "TERM": "xterm",
            "LIFESIGNAL_NOW": "2026-03-03T09:00:00Z",
        ]
        for (key, value) in extra { environment[key] = value }
        return lifesignal(
            ["-qec", "'\(Binary.path)' \(arguments)", "/dev/null"], environment: environment,
            executable: "/usr/bin/script"
        ).stdout
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
            "needs util-linux script for a pseudo-terminal"))
    func colourOnlyOnATerminalAndNotWhenAskedNot() {
        let home = TempHome()
        home.run(["checkin"])
        #expect(onTerminal(home, "status", [:])?.contains("\u{1B}[31m\u{1B}[1mOVERDUE") == true)
        #expect(onTerminal(home, "status", ["NO_COLOR": "1"])?.contains("\u{1B}") == false)
        #expect(onTerminal(home, "status", ["TERM": "dumb"])?.contains("\u{1B}") == false)
        #expect(onTerminal(home, "status --no-color", [:])?.contains("\u{1B}") == false)
        // An empty NO_COLOR is unset, as no-color.org says.
        #expect(onTerminal(home, "status", ["NO_COLOR": ""])?.contains("\u{1B}[") == true)
        #expect(onTerminal(home, "status --no-color", [:])?.contains("OVERDUE") == true)
    }
}
