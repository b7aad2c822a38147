import Foundation
import TestSupport
import Testing

// The safety net end to end: the circle tells a dependent's external responders when the
// dependent's own machines are dark, deliveries keep the order of their causes through a channel
// outage (and say so), and an unread phone inbox confirms no miss. Real processes, a real HTTP
// listener behind curl, two data directories on one circle folder. The rules themselves (who
// relays, when, what a late or ended miss sends, corrections) are App tests where they live:
// RelayRuleTests, MissRuleTests, ChannelRuleTests.

@Suite(.integration) struct SafetyNetTests {
    /// The types of the notifications a recorder received at `path`, in arrival order.
    static func types(_ recorder: HTTPRecorder, _ path: String) -> [String] {
        recorder.requests().filter { $0.path == path }.compactMap { $0.json?["type"] as? String }
    }

    static func ids(_ recorder: HTTPRecorder, _ path: String) -> [String] {
        recorder.requests().filter { $0.path == path }.compactMap { $0.json?["id"] as? String }
    }

    /// Alice and Bob on one circle; Bob watches over Alice, and she confirmed it; Alice's sister
    /// is an external responder reached by a webhook and by a command on Alice's machine.
    static func aliceAndBob(_ recorder: HTTPRecorder, marker: String, confirmed: Bool = true) -> Household {
        let h = Household()
        h.join(["Alice", "Bob"], now: "2026-03-01T09:00:00Z")
        let env = ["PATH": DeliveryTests.path()]
        let linked = h.run("bob", ["contacts", "add", h.code("alice"), "--dependent"], now: "2026-03-01T09:00:00Z")
        #expect(linked.code == 0, "\(linked.stderr)")
        if confirmed {
            #expect(h.run("alice", ["contacts", "confirm", "Bob", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        }
        let sister = h.run(
            "alice",
            [
                "contacts", "add", "Sis", "--responder", "--notify", recorder.url("/sis"), "--notify",
                "exec:touch '\(marker)'",
            ],
            now: "2026-03-01T09:00:00Z", environment: env)
        #expect(sister.code == 0, "\(sister.stderr)")
        #expect(h.run("alice", ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z", environment: env).code == 0)
        return h
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func theCircleTellsADependentsExternalResponderWhenHerMachinesAreDark() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let marker = root.path + "/alice-exec-ran"
        let h = Self.aliceAndBob(recorder, marker: marker)
        let env = ["PATH": DeliveryTests.path()]
        // Alice's deadline is 2026-03-02 09:00 UTC; her laptop stays closed. Bob's cron runs.
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:05:00Z", environment: env).code == 0)
        #expect(Self.types(recorder, "/sis").isEmpty, "her own devices get the first ten minutes")
        for now in ["2026-03-02T09:15:00Z", "2026-03-02T09:20:00Z", "2026-03-02T10:00:00Z"] {
            let run = h.run("bob", ["notify", "deliver"], now: now, environment: env)
            #expect(run.code == 0, "\(run.stderr)")
        }
        #expect(Self.types(recorder, "/sis") == ["receive_non_responsive_dependent_alert"], "exactly once")
        #expect(!FileManager.default.fileExists(atPath: marker), "Alice's exec: channel never runs on Bob's machine")
        // Who sent it is in the circle: Bob's log records the delivery.
        let bobLog = try #require(
            FileManager.default.enumerator(atPath: h.circle)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix("log.json")
            }.map { try String(contentsOfFile: h.circle + "/" + $0, encoding: .utf8) }.first {
                $0.contains("\"delivered\"")
            })
        #expect(bobLog.contains(recorder.url("/sis")))

        // Alice's laptop wakes: no second "missed" through the webhook; her own command does run.
        let woke = h.run("alice", ["notify", "deliver"], now: "2026-03-02T10:30:00Z", environment: env)
        #expect(woke.code == 0, "\(woke.stderr)")
        #expect(Self.types(recorder, "/sis") == ["receive_non_responsive_dependent_alert"])
        // She checks in: her sister gets the all-clear, once, whoever runs next.
        #expect(h.run("alice", ["checkin", "--quiet"], now: "2026-03-02T10:40:00Z", environment: env).code == 0)
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-02T10:41:00Z", environment: env).code == 0)
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T11:00:00Z", environment: env).code == 0)
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-02T11:05:00Z", environment: env).code == 0)
        #expect(
            Self.types(recorder, "/sis") == ["receive_non_responsive_dependent_alert", "receive_dependent_checked_in"])
        #expect(duplicates(Self.ids(recorder, "/sis")).isEmpty)
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func afterAThreeHourOutageEverythingGoesInTheOrderOfItsCausesTheAllClearLast() throws {
        let recorder = try HTTPRecorder()
        let env = ["PATH": DeliveryTests.path()]
        // The first four requests to this path fail (503): the channel is down until 10:35.
        let h = DeliveryTests.bea(samChannels: [recorder.url("/flaky/4/sam")])
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        // The alert before the 10:00 check-in (ending it is a check-in too): the miss is 10:00's.
        let raised = h.run("bea", ["alert", "activate", "--yes"], now: "2026-03-01T09:30:00Z", environment: env)
        #expect(raised.code == 0)
        #expect(raised.stderr.contains("could not deliver through"), "\(raised.stderr)")
        #expect(
            h.run("bea", ["alert", "deactivate", "--yes"], now: "2026-03-01T09:45:00Z", environment: env).code == 0)
        #expect(h.run("bea", ["notify", "deliver"], now: "2026-03-02T10:05:00Z", environment: env).code == 75)
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-02T10:30:00Z").code == 0)
        let held = h.run("bea", ["notify", "deliver", "--verbose"], now: "2026-03-02T10:35:00Z", environment: env)
        #expect(held.code == 75)
        #expect(held.stderr.split(separator: "\n").count == 1, "one line for the channel: \(held.stderr)")
        #expect(held.stderr.contains("4 notifications are pending"), "\(held.stderr)")
        #expect(recorder.requests().count == 4, "each run tried the oldest first and stopped there")

        let recovered = h.run("bea", ["notify", "deliver"], now: "2026-03-02T11:05:00Z", environment: env)
        #expect(recovered.code == 0, "\(recovered.stderr)")
        #expect(
            recovered.stderr
                == "lifesignal: delivery through \(recorder.url("/flaky/4/sam")) works again (failing since 2026-03-01 09:30 UTC): 4 sent.\n"
        )
        #expect(
            Self.types(recorder, "/flaky/4/sam").suffix(4) == [
                "receive_dependent_manual_alert_active", "receive_dependent_manual_alert_inactive",
                "receive_non_responsive_dependent_alert", "receive_dependent_checked_in",
            ])
        #expect(h.run("bea", ["notify", "deliver"], now: "2026-03-02T12:00:00Z", environment: env).code == 0)
        #expect(recorder.requests().count == 8)
    }
}

extension SafetyNetTests {
    /// Alice's phone inbox cannot be read on Bob's machine (its server refuses): an "I'm OK" tap
    /// there may be her check-in — her laptop handed out a button with her reminder, then went
    /// dark — so Bob's copy confirms nothing about her miss. Her sister is told after the hold,
    /// marked unconfirmed and saying why (campaign-c C3).
    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func anUnreadPhoneInboxConfirmsNoMiss() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let h = Self.aliceAndBob(recorder, marker: root.path + "/alice-exec-ran")
        let env = ["PATH": DeliveryTests.path()]
        let inbox = h.run(
            "alice",
            [
                "checkin", "inbox", "ntfy:http://127.0.0.1:9/alice-inbox-7f3k9q2m", "--phone",
                "ntfy:" + recorder.url("/alice-phone-4k7q9w2z"),
            ], now: "2026-03-01T09:00:00Z")
        #expect(inbox.code == 0, "\(inbox.stderr)")
        _ = h.run("alice", ["notify", "deliver"], now: "2026-03-02T08:35:00Z", environment: env)
        #expect(
            recorder.requests().contains { $0.path == "/alice-phone-4k7q9w2z" }, "the reminder, with its button")
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-01T12:00:00Z", environment: env).code == 0)
        for now in ["2026-03-02T09:15:00Z", "2026-03-02T10:30:00Z"] {
            _ = h.run("bob", ["notify", "deliver"], now: now, environment: env)
        }
        #expect(Self.types(recorder, "/sis").isEmpty, "held: the inbox was not read after the deadline")
        let status = h.run("bob", ["status"], now: "2026-03-02T10:40:00Z")
        #expect(status.code == 6)
        #expect(
            status.stderr.contains("cannot tell whether Alice missed the check-in due 2026-03-02 09:00 UTC"),
            "\(status.stderr)")
        #expect(status.stderr.contains("Alice's phone inbox has not been read here since the deadline"))
        _ = h.run("bob", ["notify", "deliver"], now: "2026-03-02T11:05:00Z", environment: env)
        let told = try #require(recorder.requests().filter { $0.path == "/sis" }.first?.json)
        #expect(told["confirmed"] as? Bool == false, "\(told)")
        #expect(told["title"] as? String == "Alice may have missed the 09:00 check-in (unconfirmed)")
        #expect((told["text"] as? String)?.contains("Alice's phone inbox could not be read") == true, "\(told)")
    }
}
