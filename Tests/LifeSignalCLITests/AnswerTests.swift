import Foundation
import TestSupport
import Testing

// Alarms that keep trying until a human answers: a missed check-in is told again, at the
// interval the person chose, to those already told, each repeat a new message threaded to the
// first, until someone acknowledges. Real processes, a real HTTP listener behind curl, two data
// directories on one circle folder.

@Suite(.integration) struct AnswerTests {
    static func received(_ recorder: HTTPRecorder, _ path: String) -> [[String: Any]] {
        recorder.requests().filter { $0.path == path }.compactMap(\.json)
    }

    static func misses(_ recorder: HTTPRecorder) -> [[String: Any]] {
        received(recorder, "/sis").filter { $0["type"] as? String == "receive_non_responsive_dependent_alert" }
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func aMissIsToldAgainEveryHourUntilSomeoneAcknowledges() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let h = SafetyNetTests.aliceAndBob(recorder, marker: root.path + "/unused")
        let env = ["PATH": DeliveryTests.path()]
        // Alice's deadline is 2026-03-02 09:00 UTC; her laptop stays closed; Bob's cron runs.
        for now in ["2026-03-02T09:15:00Z", "2026-03-02T09:45:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        var told = Self.misses(recorder)
        #expect(told.count == 1, "an hour has not passed: told once")
        let first = try #require(told.first)
        #expect(first["notice"] as? Int == 1)
        // An hour after it went out (09:15).
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T10:10:00Z", environment: env).code == 0)
        #expect(Self.misses(recorder).count == 1)
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T10:20:00Z", environment: env).code == 0)
        told = Self.misses(recorder)
        #expect(told.count == 2, "the second notice an hour after the first")
        let second = try #require(told.last)
        #expect(second["id"] as? String != first["id"] as? String, "its own id, so no receiver drops it")
        #expect(second["follows"] as? String == first["id"] as? String)
        #expect(second["dedupeKey"] as? String == first["dedupeKey"] as? String)
        #expect(second["notice"] as? Int == 2)
        #expect(second["title"] as? String == "Alice missed the 09:00 check-in (second notice)", "\(second)")
        #expect(
            second["causeAt"] as? String == first["causeAt"] as? String,
            "the deadline she missed, not the repeat's time")
        #expect((second["text"] as? String)?.contains("Due: Mon 2 Mar 2026, 09:00 UTC") == true, "\(second)")
        #expect(
            (second["summary"] as? String)?.hasPrefix("Second notice, 1h after the first: Alice missed") == true,
            "\(second)")
        // A run after a long gap sends the latest notice only, saying how long it has been.
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T12:25:00Z", environment: env).code == 0)
        told = Self.misses(recorder)
        #expect(told.count == 3)
        #expect(told.last?["notice"] as? Int == 4, "\(told.last ?? [:])")
        #expect((told.last?["summary"] as? String)?.hasPrefix("Fourth notice, 3h after the first") == true)
        // Bob says he is on it: no more repeats, to anyone, for two hours.
        let list = notifications(h.run("bob", ["notify", "list", "--json"], now: "2026-03-02T12:20:00Z"))
        let mine = try #require(
            list.first { $0["type"] as? String == "receive_non_responsive_dependent_alert" }?["id"] as? String)
        #expect(h.run("bob", ["notify", "ack", String(mine.prefix(8))], now: "2026-03-02T12:20:00Z").code == 0)
        for now in ["2026-03-02T13:30:00Z", "2026-03-02T14:15:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(Self.misses(recorder).count == 3, "an acknowledgement holds the repeats")
        // Then, with nothing else answering the alarm, they go on, saying Bob was on it.
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T14:25:00Z", environment: env).code == 0)
        told = Self.misses(recorder)
        #expect(told.count == 4)
        #expect(
            (told.last?["summary"] as? String)?.hasPrefix(
                "Bob said they were on it at Mon 2 Mar 2026, 12:20 UTC; in the 2h 5m since, no check-in, vouch or other answer has reached the sender of this message."
            ) == true, "\(told.last ?? [:])")
        #expect(duplicates(Self.received(recorder, "/sis").compactMap { $0["id"] as? String }).isEmpty)
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func repeatsStopAtACheckInAndCanBeTurnedOff() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let h = SafetyNetTests.aliceAndBob(recorder, marker: root.path + "/unused")
        let env = ["PATH": DeliveryTests.path()]
        let shown = h.run("alice", ["checkin", "repeat", "--json"], now: "2026-03-01T09:01:00Z")
        #expect(jsonObject(shown.stdout)["repeatSeconds"] as? Int == 3600)
        let tooOften = h.run("alice", ["checkin", "repeat", "5m"], now: "2026-03-01T09:01:00Z")
        #expect(tooOften.code == 65 || tooOften.code == 2, "\(tooOften.code)")
        #expect(tooOften.stderr.contains("alarms cannot repeat every 5m: choose from 10m to 7d"), "\(tooOften.stderr)")
        let set = h.run("alice", ["checkin", "repeat", "30m"], now: "2026-03-01T09:01:00Z")
        #expect(set.code == 0, "\(set.stderr)")
        #expect(set.stdout.contains("told again every 30m until someone answers"))
        for now in ["2026-03-02T09:15:00Z", "2026-03-02T09:50:00Z", "2026-03-02T09:55:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(Self.misses(recorder).map { $0["notice"] as? Int } == [1, 2], "every 30m, as Alice chose")
        // She checks in: the all-clear, and no more notices.
        #expect(h.run("alice", ["checkin", "--quiet"], now: "2026-03-02T10:00:00Z", environment: env).code == 0)
        for now in ["2026-03-02T10:30:00Z", "2026-03-02T12:00:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(Self.misses(recorder).count == 2)
        #expect(Self.received(recorder, "/sis").last?["type"] as? String == "receive_dependent_checked_in")
        // Off: the next miss is told once.
        #expect(h.run("alice", ["checkin", "repeat", "off"], now: "2026-03-02T12:00:00Z").code == 0)
        for now in ["2026-03-03T10:15:00Z", "2026-03-03T13:00:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(Self.misses(recorder).map { $0["notice"] as? Int } == [1, 2, 1])
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func anAlertIsToldAgainUntilItEnds() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let h = SafetyNetTests.aliceAndBob(recorder, marker: root.path + "/unused")
        let env = ["PATH": DeliveryTests.path()]
        let raised = h.run(
            "alice", ["alert", "activate", "--message", "fell on the stairs", "--yes"], now: "2026-03-01T12:00:00Z",
            environment: env)
        #expect(raised.code == 0, "\(raised.stderr)")
        func alerts() -> [[String: Any]] {
            Self.received(recorder, "/sis").filter { $0["type"] as? String == "receive_dependent_manual_alert_active" }
        }
        #expect(alerts().count == 1)
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-01T12:30:00Z", environment: env).code == 0)
        #expect(alerts().count == 1)
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-01T13:01:00Z", environment: env).code == 0)
        #expect(alerts().map { $0["notice"] as? Int } == [1, 2])
        #expect((alerts().last?["title"] as? String)?.hasSuffix("raised an emergency alert (second notice)") == true)
        let ended = h.run("alice", ["alert", "deactivate", "--yes"], now: "2026-03-01T13:10:00Z", environment: env)
        #expect(ended.code == 0, "\(ended.stderr)")
        for now in ["2026-03-01T14:05:00Z", "2026-03-01T16:00:00Z"] {
            #expect(h.run("alice", ["notify", "deliver"], now: now, environment: env).code == 0)
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(alerts().count == 2, "the alert's end ends the repeats")
        #expect(Self.received(recorder, "/sis").last?["type"] as? String == "receive_dependent_manual_alert_inactive")
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func aVouchEndsTheMissAndTheSwitchStaysArmedButNotThreeTimesInARow() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let h = SafetyNetTests.aliceAndBob(recorder, marker: root.path + "/unused")
        let env = ["PATH": DeliveryTests.path()]
        let early = h.run("bob", ["contacts", "vouch", "Alice"], now: "2026-03-02T08:00:00Z", environment: env)
        #expect(early.code != 0)
        #expect(early.stderr.contains("Alice has not missed a check-in"), "\(early.stderr)")
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:15:00Z", environment: env).code == 0)
        #expect(Self.misses(recorder).count == 1)
        // Bob drops by and sees her: he vouches, with a note.
        let vouched = h.run(
            "bob", ["contacts", "vouch", "Alice", "--note", "at the shop at 9:20"], now: "2026-03-02T09:30:00Z",
            environment: env)
        #expect(vouched.code == 0, "\(vouched.stderr)")
        #expect(vouched.stdout.contains("You vouched for Alice: the missed check-in due"), "\(vouched.stdout)")
        #expect(vouched.stdout.contains("their next deadline is 2026-03-03 09:30 UTC"), "\(vouched.stdout)")
        for now in ["2026-03-02T09:45:00Z", "2026-03-02T11:00:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        let clear = try #require(Self.received(recorder, "/sis").last)
        #expect(clear["type"] as? String == "receive_dependent_checked_in")
        #expect(
            (clear["summary"] as? String)?.hasPrefix(
                "Vouched: Bob has seen Alice and says they are fine (at 2026-03-02 09:30 UTC): “at the shop at 9:20”.")
                == true, "\(clear)")
        #expect(Self.misses(recorder).count == 1, "a vouch ends the repeats too")
        // Alice sees it; it is Bob's word, not her check-in.
        let feed = notifications(h.run("alice", ["notify", "list", "--json"], now: "2026-03-02T11:00:00Z"))
        #expect(
            feed.contains {
                ($0["message"] as? String)?.hasPrefix("Bob vouched for you at 2026-03-02 09:30 UTC") == true
            })
        let history = jsonObject(h.run("alice", ["checkin", "history", "--json"], now: "2026-03-02T11:00:00Z").stdout)
        #expect((history["checkIns"] as? [[String: Any]])?.count == 1, "\(history)")
        let mine = jsonObject(h.run("alice", ["status", "--json"], now: "2026-03-02T11:00:00Z").stdout)
        let checkIn = mine["checkIn"] as? [String: Any]
        #expect(checkIn?["deadline"] as? String == "2026-03-03T09:30:00Z", "\(mine)")
        #expect((checkIn?["vouch"] as? [String: Any])?["note"] as? String == "at the shop at 9:20")
        // The switch is armed again: silent past her new deadline, she is missed again.
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-03T09:45:00Z", environment: env).code == 0)
        #expect(Self.misses(recorder).count == 2)
        #expect((Self.misses(recorder).last?["summary"] as? String)?.contains("due 2026-03-03 09:30 UTC") == true)
        // A second miss ended by a vouch; the third cannot be.
        #expect(
            h.run("bob", ["contacts", "vouch", "Alice"], now: "2026-03-03T10:00:00Z", environment: env).code == 0)
        let third = h.run("bob", ["contacts", "vouch", "Alice"], now: "2026-03-04T10:30:00Z", environment: env)
        #expect(third.code != 0)
        #expect(third.stderr.contains("last 2 missed check-ins were each ended by a vouch"), "\(third.stderr)")
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-04T10:40:00Z", environment: env).code == 0)
        #expect(Self.misses(recorder).last?["summary"] as? String != nil)
        #expect(
            (Self.misses(recorder).last?["summary"] as? String)?.contains("due 2026-03-04 10:00 UTC") == true,
            "\(Self.misses(recorder).last ?? [:])")
        // Her own check-in starts the count again.
        #expect(h.run("alice", ["checkin", "--quiet"], now: "2026-03-04T11:00:00Z", environment: env).code == 0)
        #expect(
            h.run("bob", ["contacts", "vouch", "Alice"], now: "2026-03-05T11:30:00Z", environment: env).code == 0)
        // More than a day after a miss is too late to vouch for it.
        let late = h.run("bob", ["contacts", "vouch", "Alice"], now: "2026-03-07T12:00:00Z", environment: env)
        #expect(late.code != 0)
        #expect(late.stderr.contains("more than 1d ago, and a vouch is for a miss happening now"), "\(late.stderr)")
    }
}
