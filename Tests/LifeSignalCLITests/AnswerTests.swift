import Foundation
import TestSupport
import Testing

// Alarms that keep trying until a human answers, end to end: the repeat and vouch commands, what
// they print and refuse, and what a real HTTP listener behind curl receives. Real processes, two
// data directories on one circle folder. The rules (numbering, threads, holds, an alert's
// repeats) are App tests where they live: RepeatRuleTests, AnswerRuleTests.

@Suite(.integration) struct AnswerTests {
    static func received(_ recorder: HTTPRecorder, _ path: String) -> [[String: Any]] {
        recorder.requests().filter { $0.path == path }.compactMap(\.json)
    }

    static func misses(_ recorder: HTTPRecorder) -> [[String: Any]] {
        received(recorder, "/sis").filter { $0["type"] as? String == "receive_non_responsive_dependent_alert" }
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
