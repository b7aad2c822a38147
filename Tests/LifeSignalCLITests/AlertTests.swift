import Foundation
import TestSupport
import Testing

// The manual emergency alert: confirmation (refused without a terminal, asked on one), raising
// and ending it with the exact texts and exit codes, status and history, its independence from
// check-ins, and how a responder sees a dependent's alert.

@Suite struct AlertTests {
    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// Runs `lifesignal <arguments>` on a pseudo-terminal (util-linux `script`), typing `input`.
    /// The terminal echoes the input and ends lines with CR LF; they come back as LF.
    static func onTerminal(_ home: TempHome, _ arguments: String, input: String, now: String = "2026-03-01T09:00:00Z")
        -> Run
    {
        let environment = [
            "LIFESIGNAL_HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": home.path, "SHELL": "/bin/sh",
            "TERM": "xterm", "LIFESIGNAL_NOW": now,
        ]
        var run = lifesignal(
            ["-qec", "'\(Binary.path)' \(arguments)", "/dev/null"], environment: environment, stdin: input,
            executable: "/usr/bin/script")
        run.stdout = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        return run
    }

    @Test func refusedWithoutATerminalAndWithoutYes() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let refused = home.run(["alert", "activate", "--message", "Fell on the stairs"])
        #expect(refused.code == 64)
        #expect(refused.stdout == "")
        #expect(
            refused.stderr
                == usageError(
                    "Refusing to raise an alert without confirmation: there is no terminal to ask on. Pass --yes to confirm.",
                    usage: "lifesignal alert activate [--message <text>] [--yes]", command: "lifesignal alert activate")
        )
        let status = home.run(["alert", "status"])
        #expect(status.code == 0)
        #expect(status.stdout == "No emergency alert is active.\n")
        #expect(home.run(["alert", "history"]).stdout == "No alerts yet.\n")
        #expect(home.run(["status"]).code == 0)
    }

    @Test func activateStatusDeactivate() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let raised = home.run(
            ["alert", "activate", "--yes", "--message", "At the lake, ankle hurt"], now: "2026-03-01T10:00:00Z")
        // Recorded: exit 0 (`alert status` is what exits 5). Nobody watches over this profile,
        // and the command says so plainly rather than "your responders are being notified".
        #expect(raised.code == 0)
        #expect(
            raised.stdout
                == "Emergency alert recorded, but nobody will be told: you have no responders. Add one with 'lifesignal contacts add'.\n"
        )
        #expect(raised.stderr == "")
        let warnings = jsonObject(
            home.run(["alert", "activate", "--yes", "--json"], now: "2026-03-01T10:01:00Z").stdout)["warnings"]
        #expect((warnings as? [[String: Any]])?.map { $0["code"] as? String } == ["no-responders"])

        let status = home.run(["alert", "status"], now: "2026-03-01T10:12:00Z")
        #expect(status.code == 5)
        #expect(
            status.stdout
                == "Emergency alert active since 2026-03-01 10:00 UTC (12m ago): “At the lake, ankle hurt”\nEnd it with 'lifesignal alert deactivate'.\n"
        )
        let json = jsonObject(home.run(["alert", "status", "--json"], now: "2026-03-01T10:12:00Z").stdout)
        #expect(json["active"] as? Bool == true)
        let alert = try #require(json["alert"] as? [String: Any])
        #expect(alert["message"] as? String == "At the lake, ankle hurt")
        #expect(alert["startedAt"] as? String == "2026-03-01T10:00:00Z")
        #expect(alert["endedAt"] is NSNull)
        #expect(alert["durationSeconds"] as? Int == 720)

        // Again without a message: nothing changes, and it says so. With one, the alert is
        // updated (the same alert, a new message for the responders).
        let same = home.run(["alert", "activate", "--yes", "--quiet"], now: "2026-03-01T10:14:00Z")
        #expect(same.code == 0)
        let unchanged = home.run(["alert", "activate", "--yes"], now: "2026-03-01T10:14:00Z")
        #expect(
            unchanged.stdout
                == "An emergency alert is already active, since 2026-03-01 10:00 UTC (14m ago). Nothing changed; give it a new message with --message.\n"
        )
        let again = home.run(["alert", "activate", "--yes", "--message", "another"], now: "2026-03-01T10:15:00Z")
        #expect(again.code == 0)
        #expect(
            again.stdout
                == "Emergency alert updated: “another”, but nobody will be told: you have no responders.\n"
        )
        let againJSON = jsonObject(
            home.run(["alert", "activate", "--yes", "--json"], now: "2026-03-01T10:15:00Z").stdout)
        #expect(againJSON["activated"] as? Bool == false)
        #expect((againJSON["alert"] as? [String: Any])?["id"] as? String == alert["id"] as? String)
        #expect(
            home.run(["alert", "history", "--json"]).stdout.components(separatedBy: "\"startedAt\"").count == 2,
            "still one alert")

        // Deactivating needs confirmation too.
        let refused = home.run(["alert", "deactivate"], now: "2026-03-01T10:20:00Z")
        #expect(refused.code == 64)
        #expect(
            refused.stderr.hasPrefix(
                "lifesignal: error: Refusing to end the alert without confirmation: there is no terminal to ask on. Pass --yes to confirm.\n"
            ))
        #expect(home.run(["alert", "status"], now: "2026-03-01T10:20:00Z").code == 5)

        let ended = home.run(["alert", "deactivate", "--yes"], now: "2026-03-01T10:30:00Z")
        #expect(ended.code == 0)
        #expect(
            ended.stdout
                == "Emergency alert deactivated, and you are checked in. Your responders are being told you are safe.\n"
        )
        // It is a check-in too: the countdown restarts from it.
        let after = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-01T10:31:00Z").stdout)
        #expect(after["deadline"] as? String == "2026-03-02T10:30:00Z")
        #expect(ended.stderr == "")
        let none = home.run(["alert", "status"], now: "2026-03-01T10:31:00Z")
        #expect(none.code == 0)
        #expect(none.stdout == "No emergency alert is active.\n")
        let noneJSON = jsonObject(home.run(["alert", "status", "--json"], now: "2026-03-01T10:31:00Z").stdout)
        #expect(noneJSON["active"] as? Bool == false)
        #expect(noneJSON["alert"] is NSNull)
        let twice = home.run(["alert", "deactivate", "--yes"], now: "2026-03-01T10:32:00Z")
        #expect(twice.code == 0)
        #expect(twice.stdout == "No emergency alert is active. Nothing changed.\n")
        // Without --yes too: nothing to confirm when nothing is active.
        #expect(home.run(["alert", "deactivate"]).stdout == "No emergency alert is active. Nothing changed.\n")
        #expect(jsonObject(home.run(["alert", "deactivate", "--json"]).stdout)["deactivated"] as? Bool == false)
    }

    @Test func historyWithStartEndAndDuration() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        // 1h 2m 3s, then 12m 34s, then one still active.
        home.run(["alert", "activate", "--yes", "--message", "Hiking the ridge"], now: "2026-03-01T10:00:00Z")
        home.run(["alert", "deactivate", "--yes"], now: "2026-03-01T11:02:03Z")
        home.run(["alert", "activate", "--yes"], now: "2026-03-02T08:00:00Z")
        home.run(["alert", "deactivate", "--yes"], now: "2026-03-02T08:12:34Z")
        home.run(["alert", "activate", "--yes"], now: "2026-03-03T07:00:00Z")
        let history = home.run(["alert", "history"], now: "2026-03-03T07:00:05Z")
        #expect(history.code == 0)
        #expect(
            history.stdout == """
                2026-03-03 07:00 UTC  →  active                5s
                2026-03-02 08:00 UTC  →  2026-03-02 08:12 UTC  12m
                2026-03-01 10:00 UTC  →  2026-03-01 11:02 UTC  1h 2m  Hiking the ridge

                """)
        let alerts =
            jsonObject(home.run(["alert", "history", "--json"], now: "2026-03-03T07:00:05Z").stdout)["alerts"]
            as? [[String: Any]] ?? []
        #expect(alerts.count == 3)
        #expect(alerts.map { $0["durationSeconds"] as? Int } == [5, 754, 3723])
        #expect(
            alerts.map { $0["startedAt"] as? String } == [
                "2026-03-03T07:00:00Z", "2026-03-02T08:00:00Z", "2026-03-01T10:00:00Z",
            ])
        #expect(alerts[0]["endedAt"] is NSNull)
        #expect(alerts[2]["endedAt"] as? String == "2026-03-01T11:02:03Z")
        #expect(alerts[2]["message"] as? String == "Hiking the ridge")
        #expect(alerts[1]["message"] is NSNull)
        #expect(alerts.allSatisfy { ($0["id"] as? String)?.isEmpty == false })
        #expect(Set(alerts.compactMap { $0["id"] as? String }).count == 3)
        for alert in alerts {
            #expect(Set(alert.keys) == ["id", "message", "startedAt", "endedAt", "durationSeconds"])
        }
    }

    @Test func independentOfCheckIns() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        #expect(home.run(["alert", "activate", "--yes", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        // A check-in does not end the alert…
        let checkin = home.run(["checkin"], now: "2026-03-01T12:00:00Z")
        #expect(checkin.code == 0)
        #expect(
            checkin.stdout.hasPrefix("Checked in at 2026-03-01 12:00 UTC.\nNext deadline 2026-03-02 12:00 UTC (in 1d)"))
        #expect(home.run(["alert", "status"], now: "2026-03-01T12:00:00Z").code == 5)
        // …and the alert does not stop the countdown: status shows both, and exits 5.
        let json = jsonObject(home.run(["status", "--json"], now: "2026-03-01T12:00:00Z").stdout)
        #expect((json["checkIn"] as? [String: Any])?["deadline"] as? String == "2026-03-02T12:00:00Z")
        #expect((json["checkIn"] as? [String: Any])?["state"] as? String == "ok")
        #expect((json["alert"] as? [String: Any])?["startedAt"] as? String == "2026-03-01T10:00:00Z")
        let overdue = home.run(["status"], now: "2026-03-02T13:00:00Z")
        #expect(overdue.code == 5, "the alert wins over overdue (4)")
        #expect(overdue.stdout.contains("  EMERGENCY ALERT ACTIVE since 2026-03-01 10:00 UTC (1d 3h ago)\n"))
        #expect(overdue.stdout.contains("  Status          OVERDUE\n"))
        #expect(overdue.stdout.contains("  Deadline        2026-03-02 12:00 UTC (1h ago)\n"))
        #expect(
            home.run(["checkin", "status"], now: "2026-03-02T13:00:00Z").code == 4,
            "the check-in status is about the countdown only")
        let dueSoon = home.run(["status"], now: "2026-03-02T11:45:00Z")
        #expect(dueSoon.code == 5, "…and over due soon (3)")
        // The countdown went on: the missed check-in is noticed while the alert is active.
        let feed = notifications(
            home.run(["notify", "list", "--category", "check-ins", "--json"], now: "2026-03-02T13:00:00Z"))
        #expect(feed.map { $0["title"] as? String } == ["Missed Check-in"])
        // Ending the alert ("I am safe", on my own device) is a check-in too: the miss ends, and
        // the countdown restarts from it (tier 2 is not first told of the miss after "resolved").
        #expect(home.run(["alert", "deactivate", "--yes", "--quiet"], now: "2026-03-02T13:00:00Z").code == 0)
        #expect(home.run(["status"], now: "2026-03-02T13:00:00Z").code == 0)
        let restarted = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-02T13:00:00Z").stdout)
        #expect(restarted["deadline"] as? String == "2026-03-03T13:00:00Z")
    }

    @Test func aMessageWithANewlineIsRefused() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let run = home.run(["alert", "activate", "--yes", "--message", "line one\nline two"])
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr.hasPrefix(
                "lifesignal: error: The value for '--message <text>' is invalid: the message contains a control character such as a newline.\n"
            ))
        #expect(home.run(["alert", "status"]).code == 0)
    }

    // MARK: - On a real terminal

    @Test(.integration, .enabled(if: hasScript, "needs util-linux script for a pseudo-terminal"))
    func theTerminalAsksBeforeRaising() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let no = Self.onTerminal(home, "alert activate --message 'On the trail'", input: "n\n")
        #expect(no.code == 0)
        // The terminal may echo the answer after the question, or not, depending on when it came.
        #expect(no.stdout.contains("Activate an emergency alert? All your responders will be told at once. [y/N] "))
        #expect(no.stdout.contains("No alert was raised.\n"))
        #expect(home.run(["alert", "status"]).code == 0, "'n' raised nothing")
        #expect(home.run(["alert", "history"]).stdout == "No alerts yet.\n")

        let yes = Self.onTerminal(home, "alert activate --message 'On the trail'", input: "y\n")
        #expect(yes.code == 0)
        #expect(yes.stdout.contains("Activate an emergency alert? All your responders will be told at once. [y/N] "))
        #expect(yes.stdout.contains("Emergency alert recorded, but nobody will be told: you have no responders."))
        let status = home.run(["alert", "status"])
        #expect(status.code == 5)
        #expect(status.stdout.hasPrefix("Emergency alert active since 2026-03-01 09:00 UTC (now): “On the trail”\n"))
    }

    @Test(.integration, .enabled(if: hasScript, "needs util-linux script for a pseudo-terminal"))
    func theTerminalAsksBeforeEndingWithTheAppsText() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        #expect(home.run(["alert", "activate", "--yes", "--quiet"]).code == 0)
        let question =
            "Are you sure you want to deactivate the alert? This will notify your responders that you are safe. [y/N] "
        let no = Self.onTerminal(home, "alert deactivate", input: "n\n")
        #expect(no.code == 5)
        #expect(no.stdout.contains(question + "The alert is still active.\n"))
        #expect(home.run(["alert", "status"]).code == 5)
        let yes = Self.onTerminal(home, "alert deactivate", input: "y\n", now: "2026-03-01T09:05:00Z")
        #expect(yes.code == 0)
        #expect(
            yes.stdout.contains(
                question
                    + "Emergency alert deactivated, and you are checked in. Your responders are being told you are safe.\n"
            ))
        #expect(home.run(["alert", "status"]).code == 0)
        // --yes on a terminal does not ask.
        let direct = Self.onTerminal(home, "alert activate --yes", input: "")
        #expect(direct.code == 0)
        #expect(!direct.stdout.contains("[y/N]"))
    }

    // MARK: - Seen by a responder

    @Test func aResponderSeesTheDependentsAlertFirst() throws {
        let h = Household()
        h.join(["Ana", "Bea", "Carl"], now: "2026-03-01T08:00:00Z")
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: "2026-03-01T08:00:00Z").code == 0)
        #expect(
            h.run("ana", ["contacts", "add", h.code("carl"), "--dependent"], now: "2026-03-01T08:00:00Z").code == 0)
        for who in ["bea", "carl"] {
            h.run(who, ["contacts", "confirm", "Ana", "--quiet"], now: "2026-03-01T08:00:00Z")
        }
        h.run("carl", ["checkin", "--quiet"], now: "2026-03-01T08:00:00Z")
        h.run("bea", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z")
        // Carl went quiet (overdue since 08:00); Bea, on time, raises an alert.
        let raised = h.run(
            "bea", ["alert", "activate", "--yes", "--message", "Car broke down on the A9"], now: "2026-03-02T08:30:00Z")
        #expect(raised.code == 0)
        let now = "2026-03-02T09:00:00Z"
        let list = h.run("ana", ["contacts", "list"], now: now)
        #expect(
            list.stdout == """
                Name  Roles                  Status
                Bea   Dependent              Sent out an alert 30m ago
                Carl  Dependent              Non-responsive 1h ago

                """)
        let contacts =
            jsonObject(h.run("ana", ["contacts", "list", "--json"], now: now).stdout)["contacts"] as? [[String: Any]]
            ?? []
        let bea = try #require(contacts.first?["status"] as? [String: Any])
        #expect(bea["kind"] as? String == "alert")
        #expect(bea["since"] as? String == "2026-03-02T08:30:00Z")
        let status = h.run("ana", ["status"], now: now)
        #expect(
            status.stdout.contains(
                "Needs attention\n  Bea           Sent out an alert 30m ago\n  Carl          Non-responsive 1h ago\n"))
        let attention =
            jsonObject(h.run("ana", ["status", "--json"], now: now).stdout)["needsAttention"] as? [[String: Any]] ?? []
        #expect(attention.map { $0["name"] as? String } == ["Bea", "Carl"])
        // Ana's feed has it, with Bea's message.
        let feed = notifications(h.run("ana", ["notify", "list", "--category", "alerts", "--json"], now: now))
        #expect(feed.first?["title"] as? String == "Dependent Emergency Alert")
        #expect(
            feed.first?["message"] as? String
                == "ALERT: Bea needs help! Bea has activated their emergency alert. Message: “Car broke down on the A9”."
        )
        // Bea ends it, a check-in too: Ana sees her countdown restarted and is told it is resolved.
        #expect(h.run("bea", ["alert", "deactivate", "--yes"], now: "2026-03-02T09:10:00Z").code == 0)
        #expect(
            h.run("ana", ["contacts", "list"], now: "2026-03-02T09:10:00Z").stdout.contains(
                "Bea   Dependent              1d\n"))
        let resolved = notifications(
            h.run("ana", ["notify", "list", "--category", "alerts", "--json"], now: "2026-03-02T09:10:00Z"))
        #expect(resolved.map { $0["title"] as? String } == ["Dependent Alert Resolved", "Dependent Emergency Alert"])
        #expect(
            resolved.first?["message"] as? String == "Bea has deactivated their emergency alert - situation resolved.")
    }
}
