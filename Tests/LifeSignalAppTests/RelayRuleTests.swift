import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Relays by a watcher, as the delivery use case decides them (issue #41): Bob's device tells
/// Ana's responders when her own devices are dark, once, and leaves the telling to her own
/// device when it is alive; her all-clear follows whoever told. SafetyNetTests' and
/// BelievableAlarmTests' scenarios, in-process.
@Suite struct RelayRuleTests {
    static let sam = Told.sam

    /// Her own devices get the first ten minutes; then Bob's relay tells Sam once, however
    /// often his cron runs, and her device, waking, does not tell Sam again.
    @Test func aWatcherRelaysOnceAfterHerDevicesHadTenMinutes() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, "bob", at: ["2026-03-02T09:05:00Z"])
        #expect(box.wire.sent(to: Self.sam).isEmpty, "her own devices get the first ten minutes")
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z", "2026-03-02T09:20:00Z", "2026-03-02T10:00:00Z"])
        let told = Told.misses(box)
        #expect(told.count == 1, "exactly once")
        #expect(told.first?.message.relayedBy == "Bob" && told.first?.message.confirmed == true)
        try Told.deliver(box, at: ["2026-03-02T10:05:00Z"])
        #expect(Told.misses(box).count == 1, "her device, waking, sees Bob's delivery")
    }

    /// Bob himself is told of Ana's miss at once, on his own channel; Sam waits.
    @Test func theWatcherIsToldAtOnceHisRelayWaits() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let bobs = "ntfy:https://ntfy.example/bob-notes"
        var change = App.PreferencesChange()
        change.channels = [bobs]
        _ = try box.app("bob", at: t0).preferences(change)
        try Told.deliver(box, "bob", at: ["2026-03-02T09:05:00Z"])
        #expect(Told.misses(box, to: bobs).count == 1)
        #expect(Told.misses(box, to: bobs).first?.message.title == "Ana missed the 09:00 check-in")
        #expect(box.wire.sent(to: Self.sam).isEmpty)
    }

    /// A command on Ana's machine (an exec: channel) runs only there: Bob relays through the
    /// channels that may run for others.
    @Test func aRelayNeverRunsHerMachinesCommands() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let exec = "exec:touch /nonexistent/ana-ran"
        var edit = App.ContactEdit()
        edit.notify = [Self.sam, exec]
        _ = try box.app("ana", at: t0).editContact("Sam", edit)
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        #expect(Told.misses(box).count == 1)
        #expect(box.wire.sent(to: exec).isEmpty)
        try Told.deliver(box, at: ["2026-03-02T09:20:00Z"])
        #expect(Told.misses(box, to: exec).count == 1, "her own machine runs it")
        #expect(Told.misses(box).count == 1)
    }

    /// Bob is Ana's dependent, not her watcher: her misses are not his machine's to relay.
    @Test func someoneWhoDoesNotWatchOverHerRelaysNothing() throws {
        let box = try DeliveryUseCaseTests.anaWithSam(sharing: ["bob"])
        let code = try box.app("bob", at: t0).inviteCode(reset: false).code
        _ = try box.app("ana", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        try Told.deliver(box, "bob", at: ["2026-03-02T12:00:00Z"])
        #expect(box.wire.sent.isEmpty, "\(box.wire.sent.map(\.message.title))")
    }

    /// While her own device is alive after the deadline (it recorded a delivery run), Bob
    /// leaves the telling to it.
    @Test func herOwnDeviceAliveTellsAndTheWatcherLeavesItToIt() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, at: ["2026-03-02T09:01:00Z"])
        try Told.deliver(box, "bob", at: ["2026-03-02T09:20:00Z"])
        let told = Told.misses(box)
        #expect(told.count == 1)
        #expect(told.first?.message.relayedBy == nil, "sent by her own device")
        #expect(told.first?.message.confirmed == true)
    }

    /// Bob told Sam of the miss, then went dark; Ana checks in: her own device sends the
    /// all-clear, and Bob's, running again, does not send it a second time. The same when Ana
    /// never confirmed Bob: his record of the relay is enough to follow it with the all-clear.
    @Test(arguments: [true, false])
    func herOwnDeviceClearsWhatAWatcherRelayed(confirmed: Bool) throws {
        let box = try FirstMonthTests.anaBobAndSam(confirmed: confirmed)
        try Told.deliver(box, "bob", at: ["2026-03-02T09:05:00Z", "2026-03-02T09:15:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive])
        _ = try box.app("ana", at: "2026-03-02T10:30:00Z").checkIn(note: nil)
        try Told.deliver(box, at: ["2026-03-02T10:31:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive, .dependentCheckedIn])
        let clear = try #require(box.wire.sent(to: Self.sam).last?.message)
        #expect(clear.relayedBy == nil)
        #expect(
            clear.text().contains(
                "Ana has checked in again, at 2026-03-02 10:30 UTC, after missing the check-in due 2026-03-02 09:00 UTC"
            ),
            "\(clear.text())")
        for now in ["2026-03-02T11:00:00Z", "2026-03-02T12:00:00Z"] {
            try Told.deliver(box, "bob", at: [now])
            try Told.deliver(box, at: [now])
        }
        #expect(box.wire.sent(to: Self.sam).count == 2, "once: \(Told.kinds(box))")
    }

    /// Ana checked in at 08:50 on a device whose records reached the circle only at 09:40:
    /// Bob's device told of a miss; the late check-in is a correction, told once, and says so.
    @Test func aCheckInMadeOnTimeThatSyncsLateCorrectsTheFalseAlarm() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let members = box.circle + "/members"
        func logs() -> [String: Data] {
            let paths = (FileManager.default.enumerator(atPath: members)?.allObjects as? [String] ?? [])
            return Dictionary(
                uniqueKeysWithValues: paths.filter { $0.hasSuffix("log.json") }.compactMap { path in
                    (try? Data(contentsOf: URL(fileURLWithPath: members + "/" + path))).map { (path, $0) }
                })
        }
        let before = logs()
        _ = try box.app("ana", at: "2026-03-02T08:50:00Z").checkIn(note: nil)
        let after = logs()
        let hers = try #require(after.keys.first { before[$0] != after[$0] })
        let path = URL(fileURLWithPath: members + "/" + hers)
        try before[hers]?.write(to: path)
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive])
        try after[hers]?.write(to: path)
        try Told.deliver(box, "bob", at: ["2026-03-02T09:40:00Z", "2026-03-02T10:40:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive, .dependentCheckedIn])
        let correction = try #require(try Told.entry(box, "bob", at: "2026-03-02T10:41:00Z", .dependentCheckedIn))
        #expect(
            correction.message.hasPrefix(
                "Correction: Ana did check in on time, at 2026-03-02 08:50 UTC, before the check-in due 2026-03-02 09:00 UTC"
            ), "\(correction.message)")
    }

    /// Ana (with Bob watching) has an inbox; her laptop's reminder handed out an "I'm OK"
    /// button at 08:35, then went dark. Bob's cron ran the day before (and read her inbox
    /// then).
    static func anaWithAButtonOutThenDark() throws -> (Sandbox, Message.Button) {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("ana", at: t0).setInbox(DeliveryUseCaseTests.inbox, phone: DeliveryUseCaseTests.phone)
        try Told.deliver(box, "bob", at: ["2026-03-01T12:00:00Z"])
        try Told.deliver(box, at: ["2026-03-02T08:35:00Z"])
        let button = try #require(
            box.wire.sent(to: "ntfy:" + DeliveryUseCaseTests.phone).first?.message.buttons.first)
        return (box, button)
    }

    /// An answer recorded by this very device, after it told Sam of the alarm, is known here
    /// first: Bob's run that reads Ana's tap tells Sam the all-clear at once, without the ten
    /// minutes left to her own device.
    @Test func aTapReadHereAfterThisDeviceRelayedIsToldAtOnce() throws {
        let (box, button) = try Self.anaWithAButtonOutThenDark()
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive])
        box.wire.post(button.body, to: DeliveryUseCaseTests.inbox, at: Told.time("2026-03-02T09:30:00Z"))
        try Told.deliver(box, "bob", at: ["2026-03-02T09:31:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive, .dependentCheckedIn], "not ten minutes later")
    }

    /// Her own device told Sam of the miss: a tap Bob's device reads is still hers to tell
    /// first, so his all-clear waits the ten minutes.
    @Test func aTapReadHereAfterHerDeviceToldWaitsForHerDevice() throws {
        let (box, button) = try Self.anaWithAButtonOutThenDark()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        box.wire.post(button.body, to: DeliveryUseCaseTests.inbox, at: Told.time("2026-03-02T09:30:00Z"))
        try Told.deliver(box, "bob", at: ["2026-03-02T09:31:00Z", "2026-03-02T09:39:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive])
        try Told.deliver(box, "bob", at: ["2026-03-02T09:41:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive, .dependentCheckedIn])
    }

    /// Ana's own device told Sam of the miss, then went dark; Bob, whose device had not run
    /// since, goes round and vouches: the vouch's run tells Sam the all-clear, rather than
    /// leaving her with "missed" until Ana's laptop runs again.
    @Test func aVouchAfterHerDeviceToldIsClearedByTheVouchersRun() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        let vouched = try box.app("bob", at: "2026-03-02T09:30:00Z").vouch(for: "Ana", note: "at the shop")
        #expect(vouched.delivery?.delivered.map(\.channel) == [Self.sam])
        #expect(Told.kinds(box) == [.dependentNonResponsive, .dependentCheckedIn])
        let clear = try #require(box.wire.sent(to: Self.sam).last)
        #expect(clear.message.summary.hasPrefix("Vouched: Bob has seen Ana and says they are fine"))
        #expect(clear.message.follows == nil || clear.message.thread == Told.misses(box).first?.message.thread)
        // Ana's laptop, awake again, sees it delivered: told once.
        try Told.deliver(box, at: ["2026-03-02T10:00:00Z"])
        try Told.deliver(box, "bob", at: ["2026-03-02T10:05:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive, .dependentCheckedIn])
    }

    /// Bob set up his device after Ana's laptop went dark with a button out: its very first
    /// delivery run, after her deadline, reads her inbox too (no run before it had found it),
    /// so the miss it relays is confirmed, not held as one it cannot confirm. The same when
    /// Bob had set an inbox of his own first.
    @Test(arguments: [false, true])
    func aDevicesFirstDeliveryRunReadsTheInboxesItWatches(bobHasAnInbox: Bool) throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("ana", at: t0).setInbox(DeliveryUseCaseTests.inbox, phone: DeliveryUseCaseTests.phone)
        if bobHasAnInbox {
            _ = try box.app("bob", at: t0).setInbox("https://ntfy.example/bob-inbox-4k2j8x", phone: nil)
        }
        try Told.deliver(box, at: ["2026-03-02T08:35:00Z"])
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        let told = try #require(Told.misses(box).first?.message, "told at the first run, not held")
        #expect(told.confirmed && told.relayedBy == "Bob")
        #expect(told.title == "Ana missed the 09:00 check-in")
    }

    /// Bob's device cannot read Ana's inbox, and a button of hers is out: a tap may wait
    /// there, so his copy confirms no miss. Sam is told after the hold, marked unconfirmed.
    @Test func anUnreadPhoneInboxHoldsTheRelayAndMarksItUnconfirmed() throws {
        let (box, _) = try Self.anaWithAButtonOutThenDark()
        box.wire.fail(DeliveryUseCaseTests.inbox, saying: "HTTP 500")
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z", "2026-03-02T10:30:00Z"])
        #expect(box.wire.sent(to: Self.sam).isEmpty, "held: the inbox was not read after the deadline")
        try Told.deliver(box, "bob", at: ["2026-03-02T11:05:00Z"])
        let told = try #require(Told.misses(box).first?.message)
        #expect(Told.misses(box).count == 1)
        #expect(!told.confirmed && told.relayedBy == "Bob")
        #expect(told.title == "Ana may have missed the 09:00 check-in (unconfirmed)")
        #expect(told.text().contains("Ana's phone inbox was last read Sun 1 Mar 2026, 12:00 UTC"), "\(told.text())")
    }
}
