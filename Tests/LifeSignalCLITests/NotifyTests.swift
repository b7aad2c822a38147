import Foundation
import Testing

// The notification feed (list, filters, read, clear, preferences), delivery through channels
// (`notify deliver` as cron runs it, over simulated days), failures and backoff, `notify test`,
// and what a channel's program gets to see.

/// Members of one circle, each with their own data directory under one temporary folder.
final class Household {
    let root = TempHome()
    var circle: String { root.path + "/circle" }

    /// Runs lifesignal as `person` (their own data directory) at `now`.
    @discardableResult
    func run(_ person: String, _ arguments: [String], now: String, environment extra: [String: String] = [:]) -> Run {
        var environment = [
            "LIFESIGNAL_HOME": "\(root.path)/\(person)", "LIFESIGNAL_NOW": now, "TZ": "UTC", "COLUMNS": "80",
            "PATH": "/usr/bin:/bin",
            "HOME": "\(root.path)/\(person)",
        ]
        for (key, value) in extra { environment[key] = value }
        return lifesignal(arguments, environment: environment)
    }

    /// `init --name Name --circle <shared>` for each name; the data directory is the lowercased name.
    func join(_ names: [String], now: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for name in names {
            let run = run(name.lowercased(), ["init", "--name", name, "--circle", circle, "--quiet"], now: now)
            #expect(run.code == 0, "init \(name): \(run.stderr)", sourceLocation: sourceLocation)
        }
    }

    func code(_ person: String) -> String {
        run(person, ["contacts", "code"], now: "2026-03-01T09:00:00Z").stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// An `exec:` channel that appends "<id> <type>" to `log` (a file in the root folder).
    func logChannel(_ log: String) -> String {
        "exec:echo \"$LIFESIGNAL_ID $LIFESIGNAL_TYPE\" >> '\(root.path)/\(log)'"
    }

    /// The lines a log channel wrote, as (id, type).
    func log(_ log: String) -> [(id: String, type: String)] {
        channelLog(root.path + "/" + log)
    }

    func types(_ log: String) -> [String] { self.log(log).map(\.type) }
}

/// The "<id> <type>" lines an appending exec: channel wrote (none when the file does not exist).
func channelLog(_ path: String) -> [(id: String, type: String)] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { line in
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
}

/// How often each id occurs, for the ids that occur more than once.
func duplicates(_ ids: [String]) -> [String: Int] {
    Dictionary(ids.map { ($0, 1) }, uniquingKeysWith: +).filter { $0.value > 1 }
}

/// The notifications of `notify list --json` (or another listing) in order.
func notifications(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    jsonObject(run.stdout, sourceLocation: sourceLocation)["notifications"] as? [[String: Any]] ?? []
}

@Suite struct NotifyTests {
    // MARK: - The feed

    /// Bea's feed with one notification of each category: a contact added, a ping received, her
    /// alert, her missed check-in, and a system notice about a failing channel.
    static func feedWithEveryCategory() -> (Household, ids: [String: String]) {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("ana", ["ping", "send", "Bea"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(h.run("bea", ["alert", "activate", "--yes"], now: "2026-03-01T11:00:00Z").code == 0)
        // A channel that always fails: after three attempts (1m, then 5m of backoff) Bea is told.
        #expect(h.run("bea", ["notify", "prefs", "--channel", "exec:exit 3"], now: "2026-03-02T10:00:00Z").code == 0)
        for now in ["2026-03-02T10:00:00Z", "2026-03-02T10:01:00Z", "2026-03-02T10:06:00Z"] {
            #expect(h.run("bea", ["notify", "deliver"], now: now).code == 75)
        }
        var ids: [String: String] = [:]
        for n in notifications(h.run("bea", ["notify", "list", "--json"], now: "2026-03-02T10:10:00Z")) {
            if let category = n["category"] as? String, let id = n["id"] as? String { ids[category] = id }
        }
        return (h, ids)
    }

    @Test func listNewestFirstAndFilterByCategory() throws {
        let (h, _) = Self.feedWithEveryCategory()
        let now = "2026-03-02T10:10:00Z"
        let list = h.run("bea", ["notify", "list", "--json"], now: now)
        #expect(list.code == 0)
        #expect(list.stderr == "")
        let all = notifications(list)
        #expect(
            all.map { $0["title"] as? String } == [
                "System", "Missed Check-in", "Emergency Alert Activated", "Check-in Request Received", "Contact Added",
            ])
        #expect(all.map { $0["category"] as? String } == ["system", "check-ins", "alerts", "pings", "contacts"])
        #expect(
            all.map { $0["type"] as? String } == [
                "receive_system_notification", "receive_non_responsive_alert", "send_manual_alert_active",
                "receive_responder_ping", "receive_contact_added",
            ])
        #expect(
            all.map { $0["at"] as? String } == [
                "2026-03-02T10:06:00Z", "2026-03-02T09:00:00Z", "2026-03-01T11:00:00Z", "2026-03-01T10:00:00Z",
                "2026-03-01T09:00:00Z",
            ])
        #expect(all.allSatisfy { $0["read"] as? Bool == false })
        #expect(all.allSatisfy { ($0["id"] as? String)?.count == 16 })
        #expect(jsonObject(list.stdout)["unread"] as? Int == 5)
        #expect(
            all[1]["message"] as? String
                == "You missed your scheduled check-in, due 2026-03-02 09:00 UTC. Please confirm your safety when possible: run 'lifesignal checkin'. Noticed 1h after the deadline."
        )
        #expect(
            all[3]["message"] as? String
                == "Ana has sent you a ping: are you OK? Answer with 'lifesignal ping respond --all'.")

        for (category, title) in [
            ("alerts", "Emergency Alert Activated"), ("pings", "Check-in Request Received"),
            ("contacts", "Contact Added"), ("check-ins", "Missed Check-in"), ("system", "System"),
        ] {
            let filtered = notifications(h.run("bea", ["notify", "list", "--category", category, "--json"], now: now))
            #expect(filtered.map { $0["title"] as? String } == [title], "\(category)")
        }
        // Human output: a bullet for unread, the id's first 8 characters, local time, title, message.
        let alertID = try #require(all[2]["id"] as? String)
        let human = h.run("bea", ["notify", "list", "--category", "alerts"], now: now)
        #expect(
            human.stdout
                == "● \(alertID.prefix(8))  2026-03-01 11:00 UTC  Emergency Alert Activated\n             Your emergency alert has been activated. Your responders have been notified.\n"
        )
        let bad = h.run("bea", ["notify", "list", "--category", "weather"], now: now)
        #expect(bad.code == 64)
        #expect(
            bad.stderr.hasPrefix(
                "lifesignal: error: The value 'weather' is invalid for '--category <category>': please provide one of 'alerts', 'pings', 'contacts', 'check-ins' or 'system'.\n"
            ))
    }

    @Test func readClearAndTheirErrors() throws {
        let (h, ids) = Self.feedWithEveryCategory()
        let now = "2026-03-02T10:10:00Z"
        let alert = try #require(ids["alerts"])
        let contact = try #require(ids["contacts"])

        // Read one by an id prefix (as `notify list` shows it), in any case.
        let read = h.run("bea", ["notify", "read", String(alert.prefix(8)).uppercased()], now: now)
        #expect(read.code == 0)
        #expect(read.stdout == "Marked read: 1 notification.\n")
        #expect(read.stderr == "")
        let unread = notifications(h.run("bea", ["notify", "list", "--unread", "--json"], now: now))
        #expect(unread.count == 4)
        #expect(!unread.contains { $0["id"] as? String == alert })
        #expect(
            h.run("bea", ["notify", "list", "--category", "alerts"], now: now).stdout.hasPrefix(
                "  \(alert.prefix(8))  2026-03-01 11:00 UTC  Emergency Alert Activated\n"))
        #expect(
            h.run("bea", ["notify", "list", "--category", "alerts", "--unread"], now: now).stdout
                == "No notifications match (see them all with 'lifesignal notify list --all').\n")
        // The dashboard counts what is unread.
        let status = h.run("bea", ["status"], now: now)
        #expect(status.code == 5, "Bea's alert is still active")
        #expect(status.stdout.hasSuffix("4 unread notifications: see them with 'lifesignal notify list'.\n"))
        #expect(jsonObject(h.run("bea", ["status", "--json"], now: now).stdout)["unreadNotifications"] as? Int == 4)

        // Clear one, then a category.
        let cleared = h.run("bea", ["notify", "clear", contact], now: now)
        #expect(cleared.stdout == "Cleared: 1 notification.\n")
        #expect(
            !notifications(h.run("bea", ["notify", "list", "--all", "--json"], now: now)).contains {
                $0["id"] as? String == contact
            })
        let pings = h.run("bea", ["notify", "clear", "--category", "pings", "--json"], now: now)
        #expect(jsonObject(pings.stdout)["count"] as? Int == 1)
        #expect(jsonObject(pings.stdout)["action"] as? String == "cleared")
        #expect(
            notifications(h.run("bea", ["notify", "list", "--json"], now: now)).map { $0["category"] as? String } == [
                "system", "check-ins", "alerts",
            ])

        // Read all: the count goes to zero and the dashboard line disappears.
        #expect(h.run("bea", ["notify", "read", "--all"], now: now).stdout == "Marked read: 3 notifications.\n")
        #expect(!h.run("bea", ["status"], now: now).stdout.contains("unread notification"))
        #expect(jsonObject(h.run("bea", ["status", "--json"], now: now).stdout)["unreadNotifications"] as? Int == 0)
        #expect(
            notifications(h.run("bea", ["notify", "list", "--json"], now: now)).allSatisfy {
                $0["read"] as? Bool == true
            })

        // Errors: no target, an unknown id, two targets.
        let none = h.run("bea", ["notify", "read"], now: now)
        #expect(none.code == 64)
        #expect(
            none.stderr
                == usageError(
                    "Say which notifications: give a notification id or --all.",
                    usage: "lifesignal notify read [--all] [<id>]", command: "lifesignal notify read"))
        let noneClear = h.run("bea", ["notify", "clear"], now: now)
        #expect(noneClear.code == 64)
        #expect(
            noneClear.stderr
                == usageError(
                    "Say which notifications: give a notification id, --all or --category.",
                    usage: "lifesignal notify clear [--all] [--category <category>] [<id>]",
                    command: "lifesignal notify clear"))
        for arguments in [["read", "0123456789abcdef"], ["clear", "zzzz"]] {
            let unknown = h.run("bea", ["notify"] + arguments, now: now)
            #expect(unknown.code == 65, "\(arguments)")
            #expect(unknown.stdout == "")
            #expect(
                unknown.stderr
                    == "lifesignal: error: No notification has the id '\(arguments[1])'; see the ids with 'lifesignal notify list --all'.\n"
            )
        }
        for arguments in [
            ["read", alert, "--all"], ["clear", "--all", "--category", "alerts"],
            ["clear", alert, "--category", "alerts"],
        ] {
            let two = h.run("bea", ["notify"] + arguments, now: now)
            #expect(two.code == 64, "\(arguments)")
            #expect(two.stderr.hasPrefix("lifesignal: error: Give only one of a notification id"), "\(arguments)")
        }
        // Nothing above changed the feed.
        #expect(notifications(h.run("bea", ["notify", "list", "--json"], now: now)).count == 3)

        // Clear all.
        #expect(h.run("bea", ["notify", "clear", "--all"], now: now).stdout == "Cleared: 3 notifications.\n")
        #expect(h.run("bea", ["notify", "list"], now: now).stdout == "No notifications.\n")
        #expect(
            h.run("bea", ["notify", "list", "--unread"], now: now).stdout
                == "No notifications match (see them all with 'lifesignal notify list --all').\n")
    }

    @Test func theDefaultFilterPersists() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        #expect(home.run(["alert", "activate", "--yes", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(home.run(["alert", "deactivate", "--yes", "--quiet"], now: "2026-03-01T10:30:00Z").code == 0)
        // Ending the alert checked in: the next deadline is 2026-03-02 10:30.
        let now = "2026-03-02T11:00:00Z"
        let all = notifications(home.run(["notify", "list", "--json"], now: now))
        #expect(
            all.map { $0["title"] as? String } == [
                "Missed Check-in", "Emergency Alert Deactivated", "Emergency Alert Activated",
            ])
        let deactivated = try #require(all[1]["id"] as? String)
        #expect(home.run(["notify", "read", String(deactivated.prefix(6))], now: now).code == 0)

        let set = home.run(["notify", "prefs", "--category", "alerts", "--unread-only"], now: now)
        #expect(set.code == 0)
        #expect(
            set.stdout
                == "Default filter  alerts, unread only\nYour channels   none (add one with 'lifesignal notify prefs --channel URI')\nE-mail from     your account at localhost (set a real sender with --mail-from you@example.org)\n"
        )
        // A later plain list applies it; options add to it; --all overrides it.
        #expect(
            notifications(home.run(["notify", "list", "--json"], now: now)).map { $0["title"] as? String } == [
                "Emergency Alert Activated"
            ])
        #expect(
            notifications(home.run(["notify", "list", "--category", "check-ins", "--json"], now: now)).map {
                $0["title"] as? String
            } == ["Missed Check-in"])
        #expect(notifications(home.run(["notify", "list", "--all", "--json"], now: now)).count == 3)
        let shown = jsonObject(home.run(["notify", "prefs", "--json"], now: now).stdout)
        #expect(shown["category"] as? String == "alerts")
        #expect(shown["unreadOnly"] as? Bool == true)
        #expect(shown["channels"] as? [String] == [])

        #expect(home.run(["notify", "prefs", "--include-read"], now: now).stdout.hasPrefix("Default filter  alerts\n"))
        #expect(
            notifications(home.run(["notify", "list", "--json"], now: now)).map { $0["title"] as? String } == [
                "Emergency Alert Deactivated", "Emergency Alert Activated",
            ])
        #expect(
            home.run(["notify", "prefs", "--category", "all"], now: now).stdout.hasPrefix(
                "Default filter  all categories\n"))
        #expect(notifications(home.run(["notify", "list", "--json"], now: now)).count == 3)
        let prefs = jsonObject(home.run(["notify", "prefs", "--json"], now: now).stdout)
        #expect(prefs["category"] is NSNull)
        #expect(prefs["unreadOnly"] as? Bool == false)

        let contradiction = home.run(["notify", "prefs", "--unread-only", "--include-read"], now: now)
        #expect(contradiction.code == 64)
        #expect(
            contradiction.stderr.hasPrefix(
                "lifesignal: error: --unread-only and --include-read contradict each other; give one.\n"))
        // The dashboard: two unread.
        let status = home.run(["status"], now: now)
        #expect(status.code == 4)
        #expect(status.stdout.hasSuffix("\n2 unread notifications: see them with 'lifesignal notify list'.\n"))
        #expect(jsonObject(home.run(["status", "--json"], now: now).stdout)["unreadNotifications"] as? Int == 2)
    }

    // MARK: - Delivery over simulated days

    /// Bea (a dependent) with an external responder Sam and a member responder Ana, each
    /// reached through an exec: channel that logs "<id> <type>". Cron runs `notify deliver` on
    /// both machines at chosen instants, and is off for ten hours after Bea's deadline.
    @Test func remindersMissesAndAllClearsReachEachChannelOnce() throws {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(
            h.run(
                "bea", ["contacts", "add", "Sam", "--responder", "--notify", h.logChannel("sam.log")],
                now: "2026-03-01T09:00:00Z"
            ).code == 0)
        #expect(
            h.run("ana", ["notify", "prefs", "--channel", h.logChannel("ana.log")], now: "2026-03-01T09:00:00Z").code
                == 0)
        #expect(
            h.run("bea", ["notify", "prefs", "--channel", h.logChannel("bea.log")], now: "2026-03-01T09:00:00Z").code
                == 0)
        // Deadline 03-02 09:00, reminder 08:30.
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)

        func deliver(_ now: String, sourceLocation: SourceLocation = #_sourceLocation) {
            for person in ["ana", "bea"] {
                let run = h.run(person, ["notify", "deliver"], now: now)
                #expect(run.code == 0, "\(person) at \(now): \(run.stderr)", sourceLocation: sourceLocation)
                #expect(run.stdout == "", "silent, as cron expects", sourceLocation: sourceLocation)
                #expect(run.stderr == "", sourceLocation: sourceLocation)
            }
        }
        let added = "receive_contact_added"
        let reminder = "check_in_reminder"
        let missed = "receive_non_responsive_alert"
        let nonResponsive = "receive_non_responsive_dependent_alert"
        let checkedIn = "receive_dependent_checked_in"

        // The first run delivers the link both were told about.
        deliver("2026-03-01T09:00:00Z")
        #expect(h.types("ana.log") == [added])
        #expect(h.types("bea.log") == [added])
        #expect(h.types("sam.log") == [])
        // Before the reminder window: nothing.
        deliver("2026-03-02T08:00:00Z")
        #expect(h.types("bea.log") == [added])
        // Inside it: Bea's reminder, once.
        deliver("2026-03-02T08:35:00Z")
        #expect(h.types("bea.log") == [added, reminder])
        deliver("2026-03-02T08:50:00Z")
        #expect(h.types("bea.log") == [added, reminder])
        #expect(h.types("ana.log") == [added])
        #expect(h.types("sam.log") == [])
        // Cron is off from here until ten hours after the deadline; the late run still tells everyone, once.
        deliver("2026-03-02T19:00:00Z")
        #expect(h.types("sam.log") == [nonResponsive])
        #expect(h.types("ana.log") == [added, nonResponsive])
        #expect(h.types("bea.log") == [added, reminder, missed])
        let anaFeed = notifications(
            h.run("ana", ["notify", "list", "--category", "check-ins", "--json"], now: "2026-03-02T19:00:00Z"))
        #expect(
            anaFeed.first?["message"] as? String
                == "Bea missed their scheduled check-in, due 2026-03-02 09:00 UTC. Noticed 10h after the deadline.")
        #expect(anaFeed.first?["at"] as? String == "2026-03-02T09:00:00Z", "the time of the cause, not of the run")
        let beaFeed = notifications(
            h.run("bea", ["notify", "list", "--category", "check-ins", "--json"], now: "2026-03-02T19:00:00Z"))
        #expect(beaFeed.map { $0["title"] as? String } == ["Missed Check-in", "Check-in Reminder"])
        #expect(
            beaFeed.first?["message"] as? String
                == "You missed your scheduled check-in, due 2026-03-02 09:00 UTC. Please confirm your safety when possible: run 'lifesignal checkin'. Noticed 10h after the deadline."
        )
        #expect(beaFeed.last?["message"] as? String == "Your check-in will expire in 30m. Check in now.")
        // More runs within the hour repeat nothing (the hourly repeats are AnswerTests').
        deliver("2026-03-02T19:30:00Z")
        deliver("2026-03-02T19:55:00Z")
        #expect(h.types("sam.log") == [nonResponsive])
        #expect(h.types("ana.log") == [added, nonResponsive])
        #expect(h.types("bea.log") == [added, reminder, missed])
        // Bea checks in: the responders who were told get the all-clear, once.
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-03T07:30:00Z").code == 0)
        deliver("2026-03-03T07:35:00Z")
        deliver("2026-03-03T07:50:00Z")
        #expect(h.types("sam.log") == [nonResponsive, checkedIn])
        #expect(h.types("ana.log") == [added, nonResponsive, checkedIn])
        #expect(h.types("bea.log") == [added, reminder, missed])
        let allClear = notifications(
            h.run("ana", ["notify", "list", "--category", "check-ins", "--json"], now: "2026-03-03T07:50:00Z")
        ).first
        #expect(allClear?["title"] as? String == "Dependent Checked In")
        #expect(
            allClear?["message"] as? String
                == "Bea has checked in again, at 2026-03-03 07:30 UTC, after missing the check-in due 2026-03-02 09:00 UTC."
        )

        // Each channel got each notification exactly once, and different recipients got different ids.
        for log in ["sam.log", "ana.log", "bea.log"] {
            let ids = h.log(log).map(\.id)
            #expect(duplicates(ids).isEmpty, "\(log) has duplicates: \(duplicates(ids))")
            #expect(ids.allSatisfy { $0.count == 16 }, "\(log)")
        }
        #expect(Set(h.log("sam.log").map(\.id)).isDisjoint(with: h.log("ana.log").map(\.id)))
    }

    /// At-least-once: a crash after the channel ran and before the delivery was recorded means
    /// the next run sends it again — a duplicate the receiver drops by id — and never a loss.
    @Test func aCrashBetweenSendingAndRecordingSendsAgainNeverZeroTimes() throws {
        let home = TempHome()
        let samLog = home.path + "/sam.log"
        home.run(["checkin", "--quiet"])
        #expect(
            home.run([
                "contacts", "add", "Sam", "--responder", "--notify",
                "exec:echo \"$LIFESIGNAL_ID $LIFESIGNAL_TYPE\" >> '\(samLog)'",
            ]).code == 0)
        let crash = ["LIFESIGNAL_TEST_CRASH_AFTER_SEND": "1"]

        // The missed check-in, through cron.
        let crashed = home.run(["notify", "deliver"], now: "2026-03-02T10:00:00Z", environment: crash)
        #expect(crashed.code == 137)
        #expect(crashed.stdout == "")
        let sent = channelLog(samLog)
        #expect(sent.map(\.type) == ["receive_non_responsive_dependent_alert"], "the channel ran before the crash")
        let id = try #require(sent.first?.id)
        let next = home.run(["notify", "deliver"], now: "2026-03-02T10:05:00Z")
        #expect(next.code == 0)
        #expect(next.stderr == "")
        // The duplicate at-least-once delivery allows: the same id twice, never zero times.
        #expect(duplicates(channelLog(samLog).map(\.id)) == [id: 2], "the crash made one duplicate, with the same id")
        home.run(["notify", "deliver"], now: "2026-03-02T10:10:00Z")
        #expect(channelLog(samLog).count == 2, "recorded once it got through: no third send")

        // An alert whose command dies while delivering it: recorded, sent, and sent again.
        let alert = home.run(["alert", "activate", "--yes"], now: "2026-03-02T11:00:00Z", environment: crash)
        #expect(alert.code == 137)
        #expect(
            home.run(["alert", "status"], now: "2026-03-02T11:01:00Z").code == 5,
            "the alert was recorded before the crash")
        let alertID = try #require(channelLog(samLog).last { $0.type == "receive_dependent_manual_alert_active" }?.id)
        #expect(home.run(["notify", "deliver"], now: "2026-03-02T11:01:00Z").code == 0)
        #expect(channelLog(samLog).filter { $0.id == alertID }.count == 2, "a duplicate of the alert, never a loss")
        #expect(home.run(["notify", "deliver"], now: "2026-03-02T11:02:00Z").code == 0)
        #expect(channelLog(samLog).count == 4)
    }

    // MARK: - Failures

    @Test func aFailingChannelIsRetriedWithBackoffAndReported() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        #expect(home.run(["notify", "prefs", "--channel", "exec:exit 3", "--quiet"]).code == 0)
        let line =
            "lifesignal: delivery through exec:exit 3 is failing (sh exited with status 3); 1 notification is pending, next try after 2026-03-02 09:11 UTC. You will be told here when it works again.\n"

        let first = home.run(["notify", "deliver"], now: "2026-03-02T09:10:00Z")
        #expect(first.code == 75)
        #expect(first.stdout == "")
        #expect(first.stderr == line)
        // 30 s later the 1m pause has not passed: no attempt.
        let early = home.run(["notify", "deliver", "--json"], now: "2026-03-02T09:10:30Z")
        #expect((jsonObject(early.stdout)["failed"] as? [Any])?.isEmpty == true)
        #expect((jsonObject(early.stdout)["delivered"] as? [Any])?.isEmpty == true)
        let waiting = try #require((jsonObject(early.stdout)["waiting"] as? [[String: Any]])?.first)
        #expect(waiting["nextAttempt"] as? String == "2026-03-02T09:11:00Z")
        // Something is still pending, so the run is not a success: 75; it was said once, so
        // cron hears nothing more until it changes (--verbose says it every run).
        #expect(early.code == 75)
        let plain = home.run(["notify", "deliver"], now: "2026-03-02T09:10:30Z")
        #expect(plain.code == 75)
        #expect(plain.stderr == "")
        let verbose = home.run(["notify", "deliver", "--verbose"], now: "2026-03-02T09:10:30Z")
        #expect(
            verbose.stderr
                == "lifesignal: delivery through exec:exit 3 is still failing (sh exited with status 3); 1 notification is pending, next try after 2026-03-02 09:11 UTC.\n"
        )
        // After it, the second attempt, silent; then a 5m pause.
        let second = home.run(["notify", "deliver"], now: "2026-03-02T09:11:00Z")
        #expect(second.code == 75)
        #expect(second.stderr == "")
        #expect(home.run(["notify", "deliver"], now: "2026-03-02T09:15:00Z").stderr == "")
        let third = home.run(["notify", "deliver", "--json"], now: "2026-03-02T09:16:00Z")
        #expect(third.code == 75)
        let failed = try #require((jsonObject(third.stdout)["failed"] as? [[String: Any]])?.first)
        #expect(failed["channel"] as? String == "exec:exit 3")
        #expect(failed["title"] as? String == "Missed Check-in")
        #expect(failed["error"] as? String == "sh exited with status 3")

        // After three failures the member is told, in the feed.
        let system = notifications(
            home.run(["notify", "list", "--category", "system", "--json"], now: "2026-03-02T09:16:00Z"))
        #expect(system.count == 1)
        #expect(system.first?["title"] as? String == "System")
        #expect(
            system.first?["message"] as? String
                == "Delivery through exec:exit 3 has failed 3 times: sh exited with status 3. Notifications for it stay pending; check it with 'lifesignal notify test'."
        )
        #expect(
            home.run(["notify", "list"], now: "2026-03-02T09:16:00Z").stdout.contains(
                "  System\n             Delivery through exec:exit 3 has failed 3 times: sh exited with status 3."))

        // Fixed: what was pending goes out through the new channel, and the run is silent.
        let log = home.path + "/fixed.log"
        #expect(
            home.run([
                "notify", "prefs", "--channel", "exec:echo \"$LIFESIGNAL_ID $LIFESIGNAL_TYPE\" >> '\(log)'", "--quiet",
            ]).code == 0)
        let fixed = home.run(["notify", "deliver"], now: "2026-03-02T09:20:00Z")
        #expect(fixed.code == 0)
        #expect(fixed.stderr == "")
        #expect(
            channelLog(log).map(\.type).sorted() == ["receive_non_responsive_alert", "receive_system_notification"])
    }

    @Test func aMissingProgramIsNamedWithWhatToInstall() throws {
        let home = TempHome()
        let empty = home.path + "/empty-bin"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        home.run(["checkin", "--quiet"])
        #expect(home.run(["notify", "prefs", "--channel", "desktop:", "--quiet"]).code == 0)
        let run = home.run(["notify", "deliver"], now: "2026-03-02T09:10:00Z", environment: ["PATH": empty])
        #expect(run.code == 75)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "lifesignal: delivery through desktop: is failing (notify-send is not installed or not on PATH (\(empty)); install libnotify-bin); 1 notification is pending, next try after 2026-03-02 09:11 UTC. You will be told here when it works again.\n"
        )
        let test = home.run(["notify", "test"], now: "2026-03-02T09:10:00Z", environment: ["PATH": empty])
        #expect(test.code == 69)
        #expect(
            test.stdout
                == "FAILED  desktop:: notify-send is not installed or not on PATH (\(empty)); install libnotify-bin\n")
    }

    // MARK: - notify test

    @Test func testSendsThroughMyChannelsOrAContacts() throws {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        let now = "2026-03-01T09:00:00Z"
        let none = h.run("ana", ["notify", "test"], now: now)
        #expect(none.code == 65)
        #expect(none.stdout == "")
        #expect(
            none.stderr
                == "lifesignal: error: You have no channels yet; add one with 'lifesignal notify prefs --channel URI' (e.g. desktop:, mailto:you@example.org, ntfy:https://ntfy.sh/TOPIC).\n"
        )

        let out = h.root.path + "/test.json"
        let works = "exec:cat > '\(out)'"
        #expect(h.run("ana", ["notify", "prefs", "--channel", works], now: now).code == 0)
        let ok = h.run("ana", ["notify", "test"], now: now)
        #expect(ok.code == 0)
        #expect(ok.stdout == "ok      \(works)\n")
        #expect(ok.stderr == "")
        let sent = jsonObject(try String(contentsOfFile: out, encoding: .utf8))
        #expect(sent["type"] as? String == "receive_system_notification")
        #expect(
            sent["summary"] as? String
                == "This is a test from Ana's lifesignal. If you can read this, this channel works.")
        #expect(sent["title"] as? String == "Test from Ana's lifesignal")
        // A test is not a notification: the feed stays empty.
        #expect(h.run("ana", ["notify", "list"], now: now).stdout == "No notifications.\n")

        #expect(h.run("ana", ["notify", "prefs", "--channel", works, "--channel", "exec:exit 3"], now: now).code == 0)
        let mixed = h.run("ana", ["notify", "test", "--json"], now: now)
        #expect(mixed.code == 69)
        let results = jsonObject(mixed.stdout)["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["delivered"] as? Bool } == [true, false])
        #expect(results.last?["error"] as? String == "sh exited with status 3")
        let human = h.run("ana", ["notify", "test"], now: now)
        #expect(human.code == 69)
        #expect(human.stdout == "ok      \(works)\nFAILED  exec:exit 3: sh exited with status 3\n")

        // A contact's channels: an external contact, a member, a member without channels.
        let samOut = h.root.path + "/sam.json"
        #expect(
            h.run("ana", ["contacts", "add", "Sam", "--responder", "--notify", "exec:cat > '\(samOut)'"], now: now).code
                == 0)
        let sam = h.run("ana", ["notify", "test", "Sam"], now: now)
        #expect(sam.code == 0)
        #expect(sam.stdout == "ok      exec:cat > '\(samOut)'\n")
        #expect(FileManager.default.fileExists(atPath: samOut))
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: now).code == 0)
        let bea = h.run("ana", ["notify", "test", "Bea"], now: now)
        #expect(bea.code == 65)
        #expect(bea.stderr == "lifesignal: error: Bea has no channels to test.\n")
        let nobody = h.run("ana", ["notify", "test", "Zed"], now: now)
        #expect(nobody.code == 65)
        #expect(nobody.stderr == "lifesignal: error: No contact matches 'Zed'. See 'lifesignal contacts list'.\n")
    }

    // MARK: - What a channel's program sees

    /// Names and messages with quotes, `$( )`, backticks, `;` and `#` reach an exec: channel
    /// byte for byte, through the environment and stdin only — no shell ever parses them — and
    /// the channel's environment holds nothing of lifesignal's own beyond an allow-list.
    @Test func execChannelsGetDataVerbatimAndNothingElse() throws {
        let home = TempHome()
        let out = home.path + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let canaries = home.path + "/canaries"
        try FileManager.default.createDirectory(atPath: canaries, withIntermediateDirectories: true)
        let nasty =
            "Robert'); touch \(canaries)/PWNED-$RANDOM # \"q\" $(touch \(canaries)/PWNED2) `touch \(canaries)/PWNED3`; é😀"
        #expect(home.run(["init", "--name", nasty, "--quiet"]).code == 0)
        let channel =
            "exec:printf %s \"$LIFESIGNAL_SUBJECT_NAME\" > '\(out)/name'; cat > '\(out)/stdin'; env > '\(out)/env'"
        let added = home.run(["contacts", "add", nasty, "--responder", "--notify", channel])
        #expect(added.code == 0)
        #expect(added.stdout.hasPrefix("\(nasty) has been added to your contacts as an external responder.\n"))

        let alert = home.run(
            ["alert", "activate", "--yes", "--message", nasty],
            environment: ["SECRET_TOKEN": "x", "GIT_ASKPASS": "/bin/true"])
        #expect(alert.code == 0)
        #expect(alert.stderr == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/name")) == Data(nasty.utf8))
        let stdin = try Data(contentsOf: URL(fileURLWithPath: out + "/stdin"))
        let stdinText = String(decoding: stdin, as: UTF8.self)
        #expect(stdinText.hasSuffix("}\n"))
        #expect(stdinText.split(separator: "\n").count == 1, "one line of JSON")
        #expect(stdinText.contains("é😀"), "UTF-8 as is, not escaped")
        let json = jsonObject(stdinText)
        #expect(
            json["summary"] as? String
                == "ALERT: \(nasty) needs help! \(nasty) has activated their emergency alert. Message: “\(nasty)”.")
        #expect(json["type"] as? String == "receive_dependent_manual_alert_active")
        #expect(json["title"] as? String == "\(nasty) raised an emergency alert")
        #expect(json["causeAt"] as? String == "2026-03-01T09:00:00+00:00")
        // No canary: nothing in the name or message ran.
        #expect(try FileManager.default.contentsOfDirectory(atPath: canaries) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("PWNED") } == [])

        // The environment: the documented LIFESIGNAL_* variables, an allow-list passed through,
        // and what sh sets itself; not SECRET_TOKEN, not lifesignal's own settings.
        let envText = try String(contentsOfFile: out + "/env", encoding: .utf8)
        var env: [String: String] = [:]
        for line in envText.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            env[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        let member = try #require(
            (jsonObject(home.run(["status", "--json"]).stdout)["member"] as? [String: Any])?["id"] as? String)
        let documented: [String: String] = [
            "LIFESIGNAL_ID": try #require(json["id"] as? String),
            "LIFESIGNAL_TYPE": "receive_dependent_manual_alert_active",
            "LIFESIGNAL_TITLE": "\(nasty) raised an emergency alert",
            "LIFESIGNAL_MESSAGE": try #require(json["summary"] as? String),
            "LIFESIGNAL_SEVERITY": "critical",
            "LIFESIGNAL_STATUS": "triggered", "LIFESIGNAL_DEDUPE_KEY": try #require(json["dedupeKey"] as? String),
            "LIFESIGNAL_SUBJECT": member, "LIFESIGNAL_SUBJECT_NAME": nasty, "LIFESIGNAL_TIME": "2026-03-01T09:00:00Z",
            "LIFESIGNAL_URGENT": "1",
            "LIFESIGNAL_CATEGORY": "alerts", "LIFESIGNAL_CHANNEL": channel,
        ]
        for (key, value) in documented { #expect(env[key] == value, "\(key)") }
        // The whole text spans lines (`env` prints them as they are): its first line here.
        #expect(env["LIFESIGNAL_TEXT"] == json["summary"] as? String)
        let passedThrough: Set = [
            "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "USER", "LOGNAME", "DISPLAY", "WAYLAND_DISPLAY",
            "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
        ]
        let setByTheShell: Set = ["PWD", "OLDPWD", "SHLVL", "_"]
        let unexpected = Set(env.keys).subtracting(documented.keys).subtracting(passedThrough).subtracting(
            setByTheShell
        ).subtracting(["LIFESIGNAL_TEXT"])
        #expect(unexpected.isEmpty, "unexpected variables: \(unexpected.sorted())")
        #expect(env["SECRET_TOKEN"] == nil)
        #expect(env["LIFESIGNAL_HOME"] == nil)
        #expect(env["LIFESIGNAL_NOW"] == nil)
        #expect(env["PATH"] == "/usr/bin:/bin")
        #expect(env["TZ"] == "UTC")
    }
}
