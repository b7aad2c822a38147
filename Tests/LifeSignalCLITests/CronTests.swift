import Foundation
import Testing

/// lifesignal as cron runs it: through `env -i` with only the variables cron sets (HOME, PATH,
/// SHELL, LOGNAME), no TZ, no terminal, no LIFESIGNAL_HOME. Cron mails whatever a job prints,
/// so a successful run must print nothing.
@Suite struct CronTests {
    /// `/usr/bin/env -i HOME=<home> PATH=/usr/bin:/bin SHELL=/bin/sh LOGNAME=root lifesignal …`.
    @discardableResult
    func cron(_ home: TempHome, _ arguments: [String], extra: [String] = []) -> Run {
        let environment = ["HOME=\(home.path)", "PATH=/usr/bin:/bin", "SHELL=/bin/sh", "LOGNAME=root"] + extra
        // Our own environment is passed on to env but `-i` discards it: that is the point.
        return lifesignal(
            ["-i"] + environment + [Binary.path] + arguments, environment: ProcessInfo.processInfo.environment,
            executable: "/usr/bin/env")
    }

    var dataDirectory: String { "/.local/share/lifesignal" }

    @Test func quietCheckInIsSilentFromTheFirstRun() throws {
        let home = TempHome()
        let first = cron(home, ["checkin", "--quiet"])
        #expect(first.code == 0)
        #expect(first.stdout == "")
        #expect(first.stderr == "")
        #expect(home.exists(".local/share/lifesignal/identity.json"))
        let members = try FileManager.default.contentsOfDirectory(atPath: home.path + dataDirectory + "/circle/members")
        #expect(members.count == 1)
        let second = cron(home, ["checkin", "--quiet"])
        #expect(second.code == 0)
        #expect(second.stdout == "")
        #expect(second.stderr == "")
        // Both check-ins were recorded.
        let history = jsonObject(cron(home, ["checkin", "history", "--json"]).stdout)
        #expect(history["total"] as? Int == 2)
    }

    @Test func withoutQuietTheFirstRunSaysItCreatedAProfile() {
        let home = TempHome()
        let first = cron(home, ["checkin"])
        #expect(first.code == 0)
        #expect(first.stdout.hasPrefix("Checked in at "))
        #expect(first.stderr.hasPrefix("lifesignal: created a profile for "))
        #expect(first.stderr.contains(" in \(home.path + dataDirectory): check in every 24h"))
        // Only the first time (that nobody watches over it is said on every check-in).
        #expect(cron(home, ["checkin"]).stderr == noRespondersWarning)
    }

    @Test func filesArePrivateWhateverTheUmask() throws {
        let home = TempHome()
        #expect(cron(home, ["checkin", "--quiet"]).code == 0)
        let directory = home.path + dataDirectory
        #expect((try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int) == 0o700)
        #expect(
            (try FileManager.default.attributesOfItem(atPath: directory + "/identity.json")[.posixPermissions] as? Int)
                == 0o600)
    }

    /// The profile lives under XDG_DATA_HOME, which the shell sets and cron does not: every
    /// command other than a check-in run from cron must say so and create nothing, never
    /// quietly watch an empty profile of its own (issue #11, first bullet).
    @Test func cronWithoutTheVariableThatPointsToTheProfileFailsLoudly() throws {
        let home = TempHome()
        let xdg = home.path + "/xdg"
        #expect(cron(home, ["checkin", "--quiet"], extra: ["XDG_DATA_HOME=\(xdg)"]).code == 0)
        for command in [["notify", "deliver"], ["status"], ["notify", "list"], ["contacts", "code"]] {
            let run = cron(home, command)
            #expect(run.code == 66, "\(command): \(run.stderr)")
            #expect(run.stdout == "")
            #expect(run.stderr.contains("no lifesignal profile in \(home.path + dataDirectory) yet"))
            #expect(run.stderr.contains("chosen by HOME=\(home.path); LIFESIGNAL_HOME and XDG_DATA_HOME are not set"))
            #expect(run.stderr.contains("put LIFESIGNAL_HOME=/path/to/your/data in the crontab"))
        }
        #expect(!home.exists(".local/share/lifesignal"), "a command other than checkin created a data directory")
        // With the variable in the crontab, the real profile is found.
        #expect(cron(home, ["notify", "deliver"], extra: ["LIFESIGNAL_HOME=\(xdg)/lifesignal"]).code == 0)
    }

    @Test func statusExitCodes() {
        let home = TempHome()
        let none = cron(home, ["status"])
        #expect(none.code == 66)
        #expect(none.stdout == "")
        #expect(
            none.stderr
                == "lifesignal: error: no lifesignal profile in \(home.path + dataDirectory) yet (chosen by HOME=\(home.path); LIFESIGNAL_HOME and XDG_DATA_HOME are not set). Nothing was created. Run 'lifesignal checkin' to record your first check-in, or 'lifesignal init' to set up first. If your profile is elsewhere, this environment does not point to it: cron sets only HOME, so put LIFESIGNAL_HOME=/path/to/your/data in the crontab, or pass --home\n"
        )
        #expect(cron(home, ["checkin", "--quiet"], extra: ["LIFESIGNAL_NOW=2026-03-01T09:00:00Z"]).code == 0)
        let cases: [(String, Int32)] = [
            ("2026-03-01T10:00:00Z", 0), ("2026-03-02T08:30:00Z", 3), ("2026-03-02T09:00:00Z", 3),
            ("2026-03-02T09:00:01Z", 4),
        ]
        for (now, code) in cases {
            let run = cron(home, ["status", "--quiet"], extra: ["LIFESIGNAL_NOW=\(now)"])
            #expect(run.code == code, "\(now)")
            #expect(run.stdout == "")
            #expect(run.stderr == "")
        }
        // The real clock: just checked in (in 2026 or later), so on time.
        #expect(cron(home, ["checkin", "--quiet"]).code == 0)
        #expect(cron(home, ["status", "--quiet"]).code == 0)
        let json = jsonObject(cron(home, ["status", "--json"]).stdout)
        #expect(json["dataDirectory"] as? String == home.path + dataDirectory)
    }

    @Test func plainOutputWithoutATerminal() {
        let home = TempHome()
        cron(home, ["checkin", "--quiet"])
        let run = cron(home, ["status"], extra: ["LIFESIGNAL_NOW=2099-01-01T00:00:00Z"])
        #expect(run.code == 4)
        #expect(run.stdout.contains("OVERDUE"))
        #expect(!run.stdout.contains("\u{1B}"))
    }

    @Test func withoutHomeLifesignalHomeStillWorks() {
        // A crontab may set LIFESIGNAL_HOME instead of relying on HOME.
        let home = TempHome()
        let run = lifesignal(
            ["-i", "PATH=/usr/bin:/bin", "LIFESIGNAL_HOME=\(home.path)", Binary.path, "checkin", "--quiet"],
            environment: [:], executable: "/usr/bin/env")
        #expect(run.code == 0)
        #expect(run.stderr == "")
        #expect(home.exists("identity.json"))
    }
}
