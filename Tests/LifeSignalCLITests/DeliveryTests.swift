import Foundation
import LifeSignalCore
import TestSupport
import Testing

// Delivery end to end: the real lifesignal binary runs the real programs (msmtp as sendmail,
// curl, apprise) against the harness's servers on 127.0.0.1, and the tests read back what
// arrived there — recipients, headers, bodies, ids — field by field. Also how real failures
// are reported and retried, that a hanging channel is ended after 10 s without holding the
// store's lock, and that repeated runs never send a delivered notification again.

@Suite("DeliveryTests", .integration)
struct DeliveryTests {
    static let hasMail = DeliveryTools.msmtp != nil && DeliveryTools.pythonWithAiosmtpd != nil
    static let hasCurl = DeliveryTools.curl != nil && DeliveryTools.python3 != nil
    static let hasApprise = DeliveryTools.apprise != nil && DeliveryTools.python3 != nil
    static let hasAll = hasMail && hasCurl && hasApprise

    /// The clean PATH plus the folders of the tools found elsewhere (a pip-installed apprise,
    /// say), so lifesignal finds what `DeliveryTools` found. `first` goes in front.
    static func path(first: String? = nil) -> String {
        var folders = first.map { [$0] } ?? []
        folders += DeliveryTools.cleanPath.split(separator: ":").map(String.init)
        for tool in [DeliveryTools.curl, DeliveryTools.apprise, DeliveryTools.python3].compactMap({ $0 }) {
            let folder = (tool as NSString).deletingLastPathComponent
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders.joined(separator: ":")
    }

    /// Bea in a circle of her own with the external responder Sam reached through `channels`
    /// (`--notify` each, or `--email` for a plain address). Checked in at 2026-03-01 09:00 UTC
    /// with a note: her deadline is 2026-03-02 09:00 UTC.
    static func bea(
        name: String = "Bea", samChannels: [String] = [], samEmail: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Household {
        let h = Household()
        h.join([name], now: "2026-03-01T09:00:00Z", sourceLocation: sourceLocation)
        var add = ["contacts", "add", "Sam", "--responder"]
        for channel in samChannels { add += ["--notify", channel] }
        if let samEmail { add += ["--email", samEmail] }
        let added = h.run(name.lowercased(), add, now: "2026-03-01T09:00:00Z")
        #expect(added.code == 0, "contacts add: \(added.stderr)", sourceLocation: sourceLocation)
        let checkin = h.run(
            name.lowercased(), ["checkin", "--note", "Walking to the bridge", "--quiet"], now: "2026-03-01T09:00:00Z")
        #expect(checkin.code == 0, "checkin: \(checkin.stderr)", sourceLocation: sourceLocation)
        return h
    }

    /// The (id, channel) pairs of a delivery report (`notify deliver --json`, or the
    /// "delivery" of `alert activate/deactivate --json`).
    static func delivered(_ report: [String: Any]) -> [(id: String, channel: String)] {
        (report["delivered"] as? [[String: Any]] ?? []).map {
            ($0["id"] as? String ?? "", $0["channel"] as? String ?? "")
        }
    }

    static func member(_ h: Household, _ person: String) -> (member: String, sam: String) {
        let status = jsonObject(h.run(person, ["status", "--json"], now: "2026-03-01T09:00:00Z").stdout)
        let contacts = jsonObject(h.run(person, ["contacts", "list", "--json"], now: "2026-03-01T09:00:00Z").stdout)
        let sam = (contacts["contacts"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "Sam" }
        return ((status["member"] as? [String: Any])?["id"] as? String ?? "", sam?["id"] as? String ?? "")
    }

    // MARK: - 1. E-mail through sendmail -t (msmtp) to a real SMTP server

    @Test(.enabled(if: hasMail, DeliveryTools.missing("msmtp or python3-aiosmtpd")))
    func anAlertAndItsEndAreMailedToTheResponder() throws {
        let server = try SMTPServer()
        let shim = try SendmailShim(server: server)
        let h = Self.bea(samEmail: "sam@example.org")
        let env = ["PATH": shim.path]

        let raised = h.run(
            "bea", ["alert", "activate", "--yes", "--message", "Fell near the bridge", "--json"],
            now: "2026-03-01T10:00:00Z", environment: env)
        #expect(raised.code == 0, "\(raised.stderr)")
        #expect(raised.stderr == "")
        let first = Self.delivered(jsonObject(raised.stdout)["delivery"] as? [String: Any] ?? [:])
        #expect(first.map(\.channel) == ["mailto:sam@example.org"])
        let alertID = try #require(first.first?.id)

        var mails = server.waitForMessages(1)
        try #require(mails.count == 1)
        let alert = mails[0]
        #expect(alert.to == ["sam@example.org"], "the envelope recipient")
        #expect(alert.toHeader == "\"Sam\" <sam@example.org>")
        #expect(alert.subject == "Bea raised an emergency alert")
        #expect(alert.header("X-LifeSignal-Id") == alertID)
        #expect(alert.header("X-LifeSignal-Type") == "receive_dependent_manual_alert_active")
        #expect(alert.header("X-Priority") == "1", "an emergency")
        #expect(alert.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(alert.header("Message-ID")?.hasPrefix("<\(alertID).") == true)
        #expect(alert.header("Date") == "Sun, 01 Mar 2026 10:00:00 +0000")
        #expect(
            alert.body.hasPrefix(
                "ALERT: Bea needs help! Bea has activated their emergency alert. Message: “Fell near the bridge”.\n"),
            "\(alert.body)")
        #expect(alert.body.contains("Notification \(alertID)"))

        // Cron's run afterwards sends nothing again.
        let quiet = h.run("bea", ["notify", "deliver"], now: "2026-03-01T10:05:00Z", environment: env)
        #expect(quiet.code == 0, "\(quiet.stderr)")
        #expect(quiet.stdout == "" && quiet.stderr == "")
        #expect(server.messages().count == 1)

        let ended = h.run(
            "bea", ["alert", "deactivate", "--yes", "--json"], now: "2026-03-01T10:30:00Z", environment: env)
        #expect(ended.code == 0, "\(ended.stderr)")
        let second = Self.delivered(jsonObject(ended.stdout)["delivery"] as? [String: Any] ?? [:])
        #expect(second.map(\.channel) == ["mailto:sam@example.org"])
        let resolvedID = try #require(second.first?.id)
        #expect(resolvedID != alertID)
        mails = server.waitForMessages(2)
        try #require(mails.count == 2)
        let resolved = mails[1]
        #expect(resolved.to == ["sam@example.org"])
        #expect(resolved.toHeader == "\"Sam\" <sam@example.org>")
        #expect(resolved.subject == "Bea ended the emergency alert")
        // Threaded under the alert it ends.
        #expect(resolved.header("In-Reply-To") == alert.header("Message-ID"))
        #expect(resolved.header("References") == alert.header("Message-ID"))
        #expect(resolved.header("X-LifeSignal-Id") == resolvedID)
        #expect(resolved.header("X-Priority") == nil, "not an emergency")
        #expect(
            resolved.body.hasPrefix("Bea has deactivated their emergency alert - situation resolved.\n"),
            "\(resolved.body)")

        // Sam's notifications are looked after by Bea's device but are not in Bea's own feed,
        // which has her own alert entries with other ids.
        let feed = notifications(h.run("bea", ["notify", "list", "--all", "--json"], now: "2026-03-01T10:31:00Z"))
        #expect(
            Set(feed.compactMap { $0["title"] as? String }).isSuperset(of: [
                "Emergency Alert Activated", "Emergency Alert Deactivated",
            ]))
        #expect(Set(feed.compactMap { $0["id"] as? String }).isDisjoint(with: [alertID, resolvedID]))

        for now in ["2026-03-01T10:35:00Z", "2026-03-01T12:00:00Z"] {
            #expect(h.run("bea", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(
            server.messages().compactMap { $0.header("X-LifeSignal-Id") } == [alertID, resolvedID], "each exactly once")
    }

    /// A missed deadline noticed by a late cron run, then the all-clear — for a member whose
    /// name is not ASCII, so the UTF-8 body must arrive intact (8bit, charset=utf-8).
    @Test(.enabled(if: hasMail, DeliveryTools.missing("msmtp or python3-aiosmtpd")))
    func aMissedCheckInAndTheAllClearAreMailed() throws {
        let server = try SMTPServer()
        let shim = try SendmailShim(server: server)
        let h = Self.bea(name: "Zoë", samEmail: "sam@example.org")
        let env = ["PATH": shim.path]
        let set = h.run(
            "zoë",
            [
                "init", "--phone", "+44 20 7946 0958", "--emergency-note",
                "Diabetic; a spare key is with the neighbour at no. 12.",
            ], now: "2026-03-01T09:00:00Z")
        #expect(set.code == 0, "\(set.stderr)")
        let prefs = h.run(
            "zoë",
            ["notify", "prefs", "--mail-from", "zoe@example.org", "--reply-to", "family@example.org", "--quiet"],
            now: "2026-03-01T09:00:00Z")
        #expect(prefs.code == 0, "\(prefs.stderr)")

        let early = h.run("zoë", ["notify", "deliver", "--json"], now: "2026-03-02T08:00:00Z", environment: env)
        #expect(early.code == 0)
        #expect(Self.delivered(jsonObject(early.stdout)).isEmpty)
        #expect(server.messages().isEmpty)

        // cron was off from before the deadline (09:00) until 19:00.
        let late = h.run("zoë", ["notify", "deliver", "--json"], now: "2026-03-02T19:00:00Z", environment: env)
        #expect(late.code == 0, "\(late.stderr)")
        let first = Self.delivered(jsonObject(late.stdout))
        #expect(first.map(\.channel) == ["mailto:sam@example.org"])
        let missedID = try #require(first.first?.id)
        var mails = server.waitForMessages(1)
        try #require(mails.count == 1)
        let missed = mails[0]
        #expect(missed.to == ["sam@example.org"])
        #expect(missed.toHeader == "\"Sam\" <sam@example.org>")
        #expect(missed.fromHeader == "Zoë (lifesignal) <zoe@example.org>")
        #expect(missed.header("Reply-To") == "family@example.org")
        #expect(missed.subject == "Zoë missed the 09:00 check-in", "the name first, decoded from its encoded word")
        #expect(missed.rawHeader("Subject")?.hasPrefix("=?UTF-8?B?") == true, "a non-ASCII subject is encoded")
        let messageID = try #require(missed.header("Message-ID"))
        #expect(messageID.hasPrefix("<\(missedID).") && messageID.hasSuffix("@example.org>"), "\(messageID)")
        #expect(missed.header("Auto-Submitted") == "auto-generated")
        #expect(missed.header("X-LifeSignal-Id") == missedID)
        #expect(missed.header("X-LifeSignal-Type") == "receive_non_responsive_dependent_alert")
        #expect(missed.header("X-Priority") == "1")
        #expect(missed.header("Date") == "Mon, 02 Mar 2026 19:00:00 +0000", "when it was sent, not the cause")
        #expect(missed.header("Content-Transfer-Encoding") == "8bit")
        #expect(
            missed.body.hasPrefix(
                "Zoë missed their scheduled check-in, due 2026-03-02 09:00 UTC. Their last check-in note: “Walking to the bridge”. Noticed 10h after the deadline.\n"
            ),
            "\(missed.body)")
        // What a responder needs, in the body.
        for line in [
            "Due: Mon 2 Mar 2026, 09:00 UTC (10h ago)", "Last check-in: Sun 1 Mar 2026, 09:00 UTC (1d 10h ago)",
            "Phone: +442079460958",
            "Emergency note: Diabetic; a spare key is with the neighbour at no. 12.", "What to do:",
            "- Call Zoë on +442079460958.", "Reply to this e-mail to reach the others who watch over Zoë.",
            "Notification \(missedID)",
        ] {
            #expect(missed.body.contains(line + "\n"), "\(line) in \(missed.body)")
        }
        // The name's bytes arrived as UTF-8, not mangled on the way.
        #expect(missed.raw.range(of: Data("Zoë missed".utf8)) != nil)
        // Zoë's own "Missed Check-in" is in her feed; Sam's notification is not.
        let feed = notifications(h.run("zoë", ["notify", "list", "--all", "--json"], now: "2026-03-02T19:00:00Z"))
        #expect(feed.contains { $0["title"] as? String == "Missed Check-in" })
        #expect(!feed.contains { $0["id"] as? String == missedID })

        #expect(h.run("zoë", ["notify", "deliver"], now: "2026-03-02T19:30:00Z", environment: env).code == 0)
        #expect(server.messages().count == 1)

        #expect(h.run("zoë", ["checkin", "--note", "Home safe", "--quiet"], now: "2026-03-03T07:30:00Z").code == 0)
        let again = h.run("zoë", ["notify", "deliver", "--json"], now: "2026-03-03T07:35:00Z", environment: env)
        #expect(again.code == 0, "\(again.stderr)")
        let second = Self.delivered(jsonObject(again.stdout))
        let clearID = try #require(second.first?.id)
        #expect(second.map(\.channel) == ["mailto:sam@example.org"])
        mails = server.waitForMessages(2)
        try #require(mails.count == 2)
        let clear = mails[1]
        #expect(clear.to == ["sam@example.org"])
        #expect(clear.subject == "Zoë checked in: all clear")
        #expect(clear.header("In-Reply-To") == messageID, "threaded under the miss it clears")
        #expect(clear.body.contains("Note: “Home safe”"), "\(clear.body)")
        #expect(clear.header("X-LifeSignal-Id") == clearID)
        #expect(clear.header("X-Priority") == nil)
        #expect(
            clear.body.hasPrefix(
                "Zoë has checked in again, at 2026-03-03 07:30 UTC, after missing the check-in due 2026-03-02 09:00 UTC.\n"
            ),
            "\(clear.body)")

        for now in ["2026-03-03T07:40:00Z", "2026-03-03T09:00:00Z"] {
            #expect(h.run("zoë", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(server.messages().compactMap { $0.header("X-LifeSignal-Id") } == [missedID, clearID])
    }

    // MARK: - 2. ntfy

    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func ntfyGetsTitlePriorityTagsAndTheMessage() throws {
        let recorder = try HTTPRecorder()
        let channel = "ntfy:" + recorder.url("/bea-alerts")
        let h = Self.bea(samChannels: [channel])
        let env = ["PATH": Self.path()]

        var ids: [String] = []
        func step(_ arguments: [String], _ now: String, code: Int32, sourceLocation: SourceLocation = #_sourceLocation)
        {
            let run = h.run("bea", arguments + ["--json"], now: now, environment: env)
            #expect(run.code == code, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
            let object = jsonObject(run.stdout, sourceLocation: sourceLocation)
            let report = object["delivery"] as? [String: Any] ?? object
            let sent = Self.delivered(report)
            #expect(sent.map(\.channel) == [channel], sourceLocation: sourceLocation)
            ids += sent.map(\.id)
        }
        // Stamped before the 09:00 check-in: ending an alert is a check-in too, and the miss of
        // the next day counts from the 09:00 one with its note.
        step(["alert", "activate", "--yes", "--message", "Fell near the bridge"], "2026-03-01T08:40:00Z", code: 0)
        step(["alert", "deactivate", "--yes"], "2026-03-01T08:50:00Z", code: 0)
        step(["notify", "deliver"], "2026-03-02T09:30:00Z", code: 0)
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-02T10:00:00Z").code == 0)
        step(["notify", "deliver"], "2026-03-02T10:05:00Z", code: 0)

        let requests = recorder.waitForRequests(4)
        try #require(requests.count == 4)
        let expected: [(title: String, priority: String, tags: String, body: String)] = [
            (
                "Bea raised an emergency alert", "urgent", "rotating_light",
                "ALERT: Bea needs help! Bea has activated their emergency alert. Message: “Fell near the bridge”."
            ),
            (
                "Bea ended the emergency alert", "default", "white_check_mark",
                "Bea has deactivated their emergency alert - situation resolved."
            ),
            (
                "Bea missed the 09:00 check-in", "urgent", "rotating_light",
                "Bea missed their scheduled check-in, due 2026-03-02 09:00 UTC. Their last check-in note: “Walking to the bridge”. Noticed 30m after the deadline."
            ),
            (
                "Bea checked in: all clear", "default", "white_check_mark",
                "Bea has checked in again, at 2026-03-02 10:00 UTC, after missing the check-in due 2026-03-02 09:00 UTC."
            ),
        ]
        for (index, (request, want)) in zip(requests, expected).enumerated() {
            #expect(request.method == "POST", "#\(index)")
            #expect(request.path == "/bea-alerts", "#\(index)")
            #expect(request.header("Title") == want.title, "#\(index)")
            #expect(request.headerData("Title") == Data(want.title.utf8), "#\(index): an ASCII title goes as is")
            #expect(request.header("Priority") == want.priority, "#\(index)")
            #expect(request.header("Tags") == want.tags, "#\(index)")
            #expect(request.header("X-LifeSignal-Id") == ids[index], "#\(index)")
            // The summary first, then the facts and what to do; the footer is ntfy's own.
            #expect(request.bodyText.hasPrefix(want.body), "#\(index): \(request.bodyText)")
            #expect(!request.bodyText.contains("Notification \(ids[index])"), "#\(index)")
        }
        #expect(
            requests[2].bodyText.contains("\nDue: Mon 2 Mar 2026, 09:00 UTC (30m ago)\n"), "\(requests[2].bodyText)")
        #expect(requests[2].bodyText.contains("- If you cannot reach Bea, go and check"))
        #expect(h.run("bea", ["notify", "deliver"], now: "2026-03-02T11:00:00Z", environment: env).code == 0)
        #expect(recorder.requests().count == 4)
    }

    // MARK: - 3. Webhook

    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func aWebhookGetsTheNotificationAsJSON() throws {
        let recorder = try HTTPRecorder()
        let hook = recorder.url("/hook")
        let own = recorder.url("/bea-own")
        let h = Self.bea(samChannels: [hook])
        let env = ["PATH": Self.path()]
        #expect(h.run("bea", ["notify", "prefs", "--channel", own, "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        let (bea, sam) = Self.member(h, "bea")
        try #require(!bea.isEmpty && !sam.isEmpty)

        let raised = h.run(
            "bea", ["alert", "activate", "--yes", "--message", "Fell \"near\" the bridge (C:\\mill) ✓", "--json"],
            now: "2026-03-01T10:00:00Z", environment: env)
        #expect(raised.code == 0, "\(raised.stderr)")
        let sent = Self.delivered(jsonObject(raised.stdout)["delivery"] as? [String: Any] ?? [:])
        let samID = try #require(sent.first { $0.channel == hook }?.id)
        let ownID = try #require(sent.first { $0.channel == own }?.id)
        let feed = notifications(h.run("bea", ["notify", "list", "--all", "--json"], now: "2026-03-01T10:00:00Z"))
        #expect(
            feed.first { $0["title"] as? String == "Emergency Alert Activated" }?["id"] as? String == ownID,
            "Bea's own id, as her feed shows it")

        let requests = recorder.waitForRequests(2)
        try #require(requests.count == 2)
        let toSam = try #require(requests.first { $0.path == "/hook" })
        let toBea = try #require(requests.first { $0.path == "/bea-own" })
        for request in [toSam, toBea] {
            #expect(request.method == "POST")
            #expect(request.header("Content-Type") == "application/json")
        }
        #expect(toSam.header("X-LifeSignal-Id") == samID)
        #expect(toBea.header("X-LifeSignal-Id") == ownID)

        // The documented, versioned document (see MessageDocument and its JSON Schema).
        let samJSON = try #require(toSam.json, "not JSON: \(toSam.bodyText)")
        #expect(Set(samJSON.keys) == Set(MessageDocument.fields.map(\.name)))
        #expect(samJSON["schema"] as? String == "lifesignal.notification/2")
        #expect(samJSON["id"] as? String == samID)
        #expect(samJSON["type"] as? String == "receive_dependent_manual_alert_active")
        #expect(samJSON["severity"] as? String == "critical")
        #expect(samJSON["status"] as? String == "triggered")
        #expect(samJSON["title"] as? String == "Bea raised an emergency alert")
        #expect(
            samJSON["summary"] as? String
                == "ALERT: Bea needs help! Bea has activated their emergency alert. Message: “Fell \"near\" the bridge (C:\\mill) ✓”."
        )
        #expect(samJSON["causeAt"] as? String == "2026-03-01T10:00:00+00:00")
        #expect(samJSON["personId"] as? String == bea)
        #expect(samJSON["personName"] as? String == "Bea")
        #expect(samJSON["recipientName"] as? String == "Sam")
        #expect(samJSON["dedupeKey"] as? String == samJSON["dedupeKey"] as? String)
        #expect(samJSON["follows"] is NSNull)

        let beaJSON = try #require(toBea.json, "not JSON: \(toBea.bodyText)")
        #expect(Set(beaJSON.keys) == Set(MessageDocument.fields.map(\.name)))
        #expect(beaJSON["id"] as? String == ownID)
        #expect(beaJSON["type"] as? String == "send_manual_alert_active")
        #expect(beaJSON["causeAt"] as? String == "2026-03-01T10:00:00+00:00")
        #expect(beaJSON["personId"] as? String == bea)
        #expect(beaJSON["dedupeKey"] as? String == samJSON["dedupeKey"] as? String, "one alert, one incident key")

        // The missed check-in: its cause is the deadline.
        let late = h.run("bea", ["notify", "deliver", "--json"], now: "2026-03-02T12:00:00Z", environment: env)
        #expect(late.code == 0, "\(late.stderr)")
        let missed = try #require(
            recorder.waitForRequests(4).first {
                $0.path == "/hook" && $0.json?["type"] as? String == "receive_non_responsive_dependent_alert"
            })
        #expect(missed.json?["causeAt"] as? String == "2026-03-02T09:00:00+00:00")
        #expect(missed.json?["sentAt"] as? String == "2026-03-02T12:00:00+00:00")
        #expect(missed.json?["title"] as? String == "Bea missed the 09:00 check-in")
        #expect(
            Self.delivered(jsonObject(late.stdout)).contains {
                $0.id == missed.json?["id"] as? String && $0.channel == hook
            })
    }

    // MARK: - 4. Apprise

    @Test(.enabled(if: hasApprise, DeliveryTools.missing("apprise or python3")))
    func appriseSendsTitleMessageAndType() throws {
        let recorder = try HTTPRecorder()
        let target = "json://127.0.0.1:\(recorder.port)/apprise"
        let h = Self.bea(samChannels: ["apprise:" + target])
        let env = ["PATH": Self.path()]

        let raised = h.run(
            "bea", ["alert", "activate", "--yes", "--message", "Fell near the bridge", "--json"],
            now: "2026-03-01T10:00:00Z", environment: env)
        #expect(raised.code == 0, "\(raised.stderr)")
        #expect(
            Self.delivered(jsonObject(raised.stdout)["delivery"] as? [String: Any] ?? [:]).map(\.channel) == [
                "apprise:" + target
            ])
        let ended = h.run("bea", ["alert", "deactivate", "--yes"], now: "2026-03-01T10:30:00Z", environment: env)
        #expect(ended.code == 0, "\(ended.stderr)")

        let requests = recorder.waitForRequests(2)
        try #require(requests.count == 2)
        #expect(requests.allSatisfy { $0.method == "POST" && $0.path == "/apprise" })
        let alert = try #require(requests[0].json, "not JSON: \(requests[0].bodyText)")
        #expect(alert["title"] as? String == "Bea raised an emergency alert")
        #expect(
            (alert["message"] as? String)?.hasPrefix(
                "ALERT: Bea needs help! Bea has activated their emergency alert. Message: “Fell near the bridge”.\n")
                == true)
        #expect(alert["type"] as? String == "failure")
        let resolved = try #require(requests[1].json, "not JSON: \(requests[1].bodyText)")
        #expect(resolved["title"] as? String == "Bea ended the emergency alert")
        #expect(resolved["message"] as? String == "Bea has deactivated their emergency alert - situation resolved.")
        #expect(resolved["type"] as? String == "info")

        #expect(h.run("bea", ["notify", "deliver"], now: "2026-03-01T11:00:00Z", environment: env).code == 0)
        #expect(recorder.requests().count == 2)
    }

    // MARK: - 5. Failures through real channels

    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func aFailingWebhookIsReportedRetriedAfterTheBackoffAndDeliveredOnceFixed() throws {
        let recorder = try HTTPRecorder()
        let broken = recorder.url("/status/500")
        let fixed = recorder.url("/hook")
        let h = Self.bea(samChannels: [broken])
        let env = ["PATH": Self.path()]

        let first = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:05:00Z", environment: env)
        #expect(first.code == 75)
        #expect(first.stdout == "")
        #expect(
            first.stderr.contains(
                "delivery through \(broken) is failing (curl exited with status 22: curl: (22) "
            ), "\(first.stderr)")
        #expect(first.stderr.contains("500"))
        #expect(
            first.stderr.hasSuffix(
                "); 1 notification is pending, next try after 2026-03-02 09:06 UTC. You will be told here when it works again.\n"
            ))
        #expect(recorder.waitForRequests(1).count == 1)
        let id = recorder.requests().first?.header("X-LifeSignal-Id")

        // Within the 1m pause: not tried, still pending, still 75.
        let early = h.run("bea", ["notify", "deliver", "--json"], now: "2026-03-02T09:05:30Z", environment: env)
        #expect(early.code == 75)
        let waiting = try #require((jsonObject(early.stdout)["waiting"] as? [[String: Any]])?.first)
        #expect(waiting["channel"] as? String == broken)
        #expect(waiting["nextAttempt"] as? String == "2026-03-02T09:06:00Z")
        #expect((waiting["error"] as? String)?.hasPrefix("curl exited with status 22") == true)
        #expect(recorder.requests().count == 1, "no attempt during the pause")

        // After it: the second attempt, through the real server again.
        let second = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:06:00Z", environment: env)
        #expect(second.code == 75)
        #expect(second.stderr == "", "said once, when it started failing")
        #expect(recorder.waitForRequests(2).count == 2)

        // Sam's address is fixed: what was pending goes out, once, and cron hears nothing.
        #expect(
            h.run("bea", ["contacts", "edit", "Sam", "--notify", fixed, "--quiet"], now: "2026-03-02T09:07:00Z").code
                == 0)
        let third = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:07:00Z", environment: env)
        #expect(third.code == 0, "\(third.stderr)")
        #expect(third.stdout == "" && third.stderr == "")
        // (Within the hour: a repeat of the miss an hour after it went out is a new message.)
        for now in ["2026-03-02T09:30:00Z", "2026-03-02T10:00:00Z"] {
            #expect(h.run("bea", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        let requests = recorder.waitForRequests(3)
        #expect(requests.map(\.path) == ["/status/500", "/status/500", "/hook"])
        #expect(
            requests.allSatisfy { $0.header("X-LifeSignal-Id") == id && id != nil }, "the same notification each time")
    }

    /// The same URL failing once (503) and then working: the retry after the backoff delivers.
    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func aWebhookThatRecoversIsDeliveredByTheRetry() throws {
        let recorder = try HTTPRecorder()
        let flaky = recorder.url("/flaky/1/hook")
        let h = Self.bea(samChannels: [flaky])
        let env = ["PATH": Self.path()]

        let first = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:05:00Z", environment: env)
        #expect(first.code == 75)
        #expect(first.stderr.contains("through \(flaky) is failing (curl exited with status 22"), "\(first.stderr)")
        #expect(first.stderr.contains("503"))
        let early = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:05:59Z", environment: env)
        #expect(early.code == 75)
        #expect(early.stderr == "")
        #expect(recorder.requests().count == 1)
        let retry = h.run("bea", ["notify", "deliver", "--json"], now: "2026-03-02T09:06:00Z", environment: env)
        #expect(retry.code == 0, "\(retry.stderr)")
        #expect(Self.delivered(jsonObject(retry.stdout)).map(\.channel) == [flaky])
        #expect(h.run("bea", ["notify", "deliver"], now: "2026-03-02T10:00:00Z", environment: env).code == 0)
        let requests = recorder.waitForRequests(2)
        #expect(requests.count == 2)
        #expect(Set(requests.compactMap { $0.header("X-LifeSignal-Id") }).count == 1)
    }

    @Test(.enabled(if: hasMail, DeliveryTools.missing("msmtp or python3-aiosmtpd")))
    func aRecipientTheServerRejectsIsAFailureRecordedAndRetried() throws {
        let server = try SMTPServer()
        let shim = try SendmailShim(server: server)
        let h = Self.bea(samEmail: "reject-sam@example.org")
        let env = ["PATH": shim.path]

        let first = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:05:00Z", environment: env)
        #expect(first.code == 75)
        #expect(first.stdout == "")
        #expect(
            first.stderr.hasPrefix(
                "lifesignal: delivery through mailto:reject-sam@example.org is failing (sendmail exited with status 65"
            ),
            "\(first.stderr)")
        #expect(first.stderr.contains("550 5.1.1"), "the server's reason reaches cron's mail: \(first.stderr)")
        #expect(server.messages().isEmpty)

        let early = h.run("bea", ["notify", "deliver", "--json"], now: "2026-03-02T09:05:30Z", environment: env)
        #expect(early.code == 75)
        let waiting = try #require((jsonObject(early.stdout)["waiting"] as? [[String: Any]])?.first)
        #expect(waiting["channel"] as? String == "mailto:reject-sam@example.org")
        #expect((waiting["error"] as? String)?.contains("550") == true)
        let again = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:06:00Z", environment: env)
        #expect(again.code == 75)
        #expect(again.stderr == "", "said once, when it started failing")
        #expect(server.messages().isEmpty)
    }

    /// No sendmail on PATH: the places mailers put it are looked in too (cron's PATH has
    /// neither /usr/sbin nor /usr/lib); where there is none either, the message names every
    /// place. On a machine with a system sendmail (CI installs msmtp-mta) that one is used.
    @Test func aMissingSendmailIsNamedWithWhatToInstall() throws {
        let h = Self.bea(samEmail: "sam@example.org")
        let empty = h.root.path + "/empty-bin"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let run = h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:05:00Z", environment: ["PATH": empty])
        #expect(run.code == 75)
        if let system = ["/usr/sbin/sendmail", "/usr/lib/sendmail"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) {
            // Found where mailers put it, and run (with no configuration for it here, it fails).
            #expect(!run.stderr.contains("not installed"), "\(run.stderr) (\(system))")
            #expect(run.stderr.contains("delivery through mailto:sam@example.org is failing (sendmail exited"))
            return
        }
        #expect(
            run.stderr
                == "lifesignal: delivery through mailto:sam@example.org is failing (sendmail is not installed (looked on PATH \(empty), then /usr/sbin/sendmail, /usr/lib/sendmail); install msmtp-mta or another sendmail); 1 notification is pending, next try after 2026-03-02 09:06 UTC. You will be told here when it works again.\n"
        )
        // An alert says the same at once.
        let alert = h.run(
            "bea", ["alert", "activate", "--yes"], now: "2026-03-02T10:00:00Z", environment: ["PATH": empty])
        #expect(alert.code == 0)
        #expect(
            alert.stderr.contains(
                "could not deliver through mailto:sam@example.org: sendmail is not installed (looked on"))
        #expect(alert.stderr.contains("install msmtp-mta or another sendmail"))
        #expect(alert.stderr.contains("Pending for it: “Dependent Non-Responsive”, “Dependent Emergency Alert”"))
    }

    // MARK: - 6. Timing: a hanging channel

    /// The recorder's `slow` path answers after 120 s: lifesignal ends curl after its 10 s
    /// channel timeout, and meanwhile a check-in in the same data directory is not blocked.
    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func aHangingChannelIsEndedAfterTenSecondsWithoutBlockingACheckIn() async throws {
        let recorder = try HTTPRecorder()
        // The server would answer after 120 s; lifesignal must end it after its own 10 s.
        let slow = recorder.url("/slow/120")
        let h = Self.bea(samChannels: [slow])
        var env = [
            "LIFESIGNAL_HOME": h.root.path + "/bea", "LIFESIGNAL_NOW": "2026-03-02T09:05:00Z", "TZ": "UTC",
            "COLUMNS": "80",
            "PATH": Self.path(), "HOME": h.root.path + "/bea",
        ]
        let deliver = try SpawnedRun(["notify", "deliver"], environment: env)
        // The request reached the server: curl is running, and lifesignal is between its two
        // store updates.
        let arrived = recorder.waitForRequests(1, timeout: 8)
        #expect(arrived.map(\.path) == ["/slow/120"])

        env["LIFESIGNAL_NOW"] = "2026-03-02T09:05:05Z"
        env["LIFESIGNAL_LOCK_TIMEOUT"] = "30"
        let started = Date()
        let checkin = lifesignal(["checkin", "--note", "Back on the path", "--quiet"], environment: env)
        let checkinSeconds = Date().timeIntervalSince(started)
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(checkinSeconds < 5, "the check-in waited \(checkinSeconds)s: the lock was held during delivery")

        await deliver.settled(timeout: 130)
        let result = deliver.wait(timeout: 130)
        #expect(!result.timedOut)
        #expect(result.code == 75)
        // Ended by its own 10 s timeout, not by the server's 120 s answer. The time is the
        // child's own (stamped when it exited), so a test runner busy elsewhere does not count;
        // the upper bound still leaves room for a machine loaded by the parallel suite.
        #expect(result.seconds >= 9.5 && result.seconds < 60, "deliver took \(result.seconds)s")
        #expect(
            result.stderr
                == "lifesignal: delivery through \(slow) is failing (curl did not finish within 10s and was stopped); 1 notification is pending, next try after 2026-03-02 09:06 UTC. You will be told here when it works again.\n",
            "\(result.stderr)")

        // Both writes are in the store: the check-in (not overwritten by deliver's second
        // update) and the failed attempt.
        let status = jsonObject(h.run("bea", ["status", "--json"], now: "2026-03-02T09:06:00Z").stdout)
        let last = (status["checkIn"] as? [String: Any])?["lastCheckIn"] as? [String: Any]
        #expect(last?["at"] as? String == "2026-03-02T09:05:05Z")
        #expect(last?["note"] as? String == "Back on the path")
        // The failure was recorded, with what ended it and when to try again.
        let feed = try #require(
            FileManager.default.enumerator(atPath: h.root.path + "/bea")?.compactMap { $0 as? String }.first {
                $0.hasSuffix("own/feed.json")
            })
        let stored = jsonObject(try String(contentsOfFile: h.root.path + "/bea/" + feed, encoding: .utf8))
        let attempt = (stored["deliveries"] as? [[String: Any]])?.first { $0["channel"] as? String == slow }
        #expect(attempt?["failures"] as? Int == 1)
        #expect(attempt?["lastAttempt"] as? String == "2026-03-02T09:05:00Z")
        #expect(
            attempt?["lastError"] as? String == "curl did not finish within 10s and was stopped",
            "nothing cut short appended")
        // The all-clear the check-in made due waits behind the miss it follows: the channel is
        // tried again at once (something new is due), the miss first, and stops when it fails.
        let noCurl = h.root.path + "/empty-bin"
        try FileManager.default.createDirectory(atPath: noCurl, withIntermediateDirectories: true)
        let pending = h.run(
            "bea", ["notify", "deliver", "--json"], now: "2026-03-02T09:05:30Z", environment: ["PATH": noCurl])
        #expect(pending.code == 75)
        let report = jsonObject(pending.stdout)
        #expect((report["failed"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Dependent Non-Responsive"])
        #expect((report["waiting"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Dependent Checked In"])
        #expect((report["delivered"] as? [[String: Any]])?.isEmpty ?? true)
        #expect(recorder.requests().count == 1)
    }

    // MARK: - 7. Exactly once, across every kind of channel

    @Test(.enabled(if: hasAll, DeliveryTools.missing("msmtp, python3-aiosmtpd, curl or apprise")))
    func repeatedRunsNeverSendADeliveredNotificationAgain() throws {
        let server = try SMTPServer()
        let shim = try SendmailShim(server: server)
        let recorder = try HTTPRecorder()
        let ntfy = "ntfy:" + recorder.url("/topic")
        let hook = recorder.url("/hook")
        let apprise = "apprise:json://127.0.0.1:\(recorder.port)/apprise"
        let h = Self.bea(samChannels: [ntfy, hook, apprise], samEmail: "sam@example.org")
        let env = ["PATH": Self.path(first: shim.binDirectory)]
        var ids: Set<String> = []

        func deliver(_ now: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let run = h.run("bea", ["notify", "deliver", "--json"], now: now, environment: env)
            #expect(run.code == 0, "\(now): \(run.stderr)", sourceLocation: sourceLocation)
            for (id, _) in Self.delivered(jsonObject(run.stdout, sourceLocation: sourceLocation)) { ids.insert(id) }
        }
        #expect(
            h.run(
                "bea", ["alert", "activate", "--yes", "--message", "Fell near the bridge"], now: "2026-03-01T08:40:00Z",
                environment: env
            ).code == 0)
        deliver("2026-03-01T08:41:00Z")
        deliver("2026-03-01T08:45:00Z")
        // Stamped before the 09:00 check-in: ending an alert is a check-in too.
        #expect(
            h.run("bea", ["alert", "deactivate", "--yes"], now: "2026-03-01T08:50:00Z", environment: env).code == 0)
        for now in [
            "2026-03-01T10:30:00Z", "2026-03-01T11:00:00Z", "2026-03-02T08:45:00Z", "2026-03-02T09:20:00Z",
            "2026-03-02T09:25:00Z",
        ] {
            deliver(now)
        }
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-02T10:00:00Z").code == 0)
        for now in ["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z", "2026-03-02T16:00:00Z", "2026-03-03T09:00:00Z"] {
            deliver(now)
        }

        // Four notifications for Sam (alert, resolved, missed, all-clear), each once per channel.
        let mails = server.waitForMessages(4)
        let requests = recorder.waitForRequests(12)
        #expect(mails.count == 4)
        #expect(requests.count == 12)
        let mailIDs = mails.compactMap { $0.header("X-LifeSignal-Id") }
        #expect(duplicates(mailIDs).isEmpty, "mail duplicates: \(duplicates(mailIDs))")
        #expect(Set(mailIDs).count == 4)
        for path in ["/topic", "/hook"] {
            let perID = requests.filter { $0.path == path }.compactMap { $0.header("X-LifeSignal-Id") }
            #expect(perID.count == 4, "\(path)")
            #expect(duplicates(perID).isEmpty, "\(path) duplicates: \(duplicates(perID))")
            #expect(Set(perID) == Set(mailIDs), "\(path): the same notifications as the mail")
        }
        let appriseTitles = requests.filter { $0.path == "/apprise" }.compactMap { $0.json?["title"] as? String }
        #expect(
            appriseTitles.sorted() == [
                "Bea checked in: all clear", "Bea ended the emergency alert", "Bea missed the 09:00 check-in",
                "Bea raised an emergency alert",
            ])
        // notify deliver reported exactly what arrived (the alert and its end were sent by the
        // alert commands themselves, so cron's runs report only the later two).
        #expect(ids.count == 2 && ids.isSubset(of: Set(mailIDs)))
    }
}
