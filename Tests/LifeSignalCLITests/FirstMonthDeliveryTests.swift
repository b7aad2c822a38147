import Foundation
import TestSupport
import Testing

// Issue #43 through real processes and a real HTTP listener behind curl: Alice's laptop is
// dark, Bob's cron relays her miss to her sister, and what the sister's server receives.

@Suite(.integration) struct FirstMonthDeliveryTests {
    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func theSisterIsToldWhomToTellAndHearsTheVouchWithIt() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let h = SafetyNetTests.aliceAndBob(recorder, marker: root.path + "/unused")
        let env = ["PATH": DeliveryTests.path()]
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:15:00Z", environment: env).code == 0)
        let miss = try #require(AnswerTests.misses(recorder).first)
        #expect(
            (miss["text"] as? String)?.contains(
                "- This alarm comes from Bob's lifesignal, without an \"I'm on it\" button: to tell the others you are on it, tell Bob, who can say so with 'lifesignal notify ack'; the repeats then wait 2h."
            ) == true, "\(miss)")
        // Bob sees her at 13:00: the vouch's own run tells the sister, not the run after.
        let vouched = h.run(
            "bob", ["contacts", "vouch", "Alice", "--note", "saw her at the shop"], now: "2026-03-02T13:00:00Z",
            environment: env)
        #expect(vouched.code == 0, "\(vouched.stderr)")
        let allClear = try #require(AnswerTests.received(recorder, "/sis").last)
        #expect(allClear["type"] as? String == "receive_dependent_checked_in", "\(allClear)")
        #expect(allClear["title"] as? String == "Alice is fine, someone who watches over them vouches: all clear")
        #expect((allClear["text"] as? String)?.contains("Bob has seen Alice and says they are fine") == true)
        #expect((allClear["text"] as? String)?.contains("saw her at the shop") == true)
        for now in ["2026-03-02T13:05:00Z", "2026-03-02T13:10:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: env).code == 0)
        }
        #expect(AnswerTests.received(recorder, "/sis").count == 2, "told once each")
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func anUnconfirmedWatchersRelayNamesItselfAndMayComeTwice() throws {
        let recorder = try HTTPRecorder()
        let root = TempHome()
        let h = SafetyNetTests.aliceAndBob(recorder, marker: root.path + "/unused", confirmed: false)
        let env = ["PATH": DeliveryTests.path()]
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:15:00Z", environment: env).code == 0)
        let relay = try #require(AnswerTests.misses(recorder).first)
        let text = try #require(relay["text"] as? String)
        #expect(text.contains("Sent by: Bob's lifesignal; Bob is not confirmed by Alice"), "\(text)")
        #expect(
            text.contains(
                "- Alice has not confirmed Bob as someone who watches over them: this alarm may come twice (from Alice's own devices too), and an \"I'm on it\" through Bob stops nothing."
            ), "\(text)")
        // The security rule stays: Alice's laptop, awake again, tells her too, under the same id.
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-02T09:30:00Z", environment: env).code == 0)
        let both = AnswerTests.misses(recorder)
        #expect(both.count == 2 && both.first?["id"] as? String == both.last?["id"] as? String, "\(both)")
    }
}
