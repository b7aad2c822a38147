import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Delivery, repeats, the phone's buttons, heartbeats, channel tests and the inbox check, as the
/// use cases decide them, in this process: the channels are a `Wire` that records what each run
/// sent, through which address and with which timeout, and answers as a server would. The real
/// programs behind the same seam are the integration suite's (DeliveryTests, PhoneCheckInTests).
@Suite struct DeliveryUseCaseTests {
    static let sam = "ntfy:https://ntfy.example/sam-alarms"
    static let inbox = "https://ntfy.example/ana-inbox-7f3k9q2m"
    static let phone = "https://ntfy.example/ana-phone-2m8qk4"
    /// Ana checked in at t0 (deadline 2026-03-02 09:00); Sam, who has no lifesignal, watches
    /// over her through ntfy.
    /// With `sharing`, those people and Ana share one circle folder.
    static func anaWithSam(sharing others: [String] = []) throws -> Sandbox {
        let box = Sandbox()
        if !others.isEmpty {
            for person in ["ana"] + others { try box.join(person, at: t0) }
        }
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        _ = try box.app("ana", at: t0).addExternal(
            ExternalContact(name: "Sam", notify: [sam], email: [], phone: []))
        return box
    }

    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text) ?? Timestamp(seconds: 0) }

    @Test func aMissedCheckInReachesTheResponderOnceWithTheRunsTimeout() throws {
        let box = try Self.anaWithSam()
        let report = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        let told = box.wire.sent(to: Self.sam)
        #expect(told.count == 1)
        #expect(told.first?.notification.kind == .dependentNonResponsive)
        #expect(told.first?.message.title.hasPrefix("Ana missed") == true, "\(told.first?.message.title ?? "")")
        #expect(told.first?.timeout == box.wire.timeout)
        #expect(report.isComplete && report.delivered.map(\.channel) == [Self.sam])
        _ = try box.app("ana", at: "2026-03-02T09:10:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).count == 1, "told once")
    }

    @Test func theAlarmRepeatsHourlyUntilSheChecksInAndThenTheAllClearGoes() throws {
        let box = try Self.anaWithSam()
        for now in ["2026-03-02T09:05:00Z", "2026-03-02T09:40:00Z", "2026-03-02T10:06:00Z"] {
            _ = try box.app("ana", at: now).deliver()
        }
        let told = box.wire.sent(to: Self.sam)
        #expect(told.map(\.notification.notice) == [1, 2])
        #expect(told.last?.message.follows == told.first?.notification.id)
        #expect(told.last?.notification.id != told.first?.notification.id)
        _ = try box.app("ana", at: "2026-03-02T10:30:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-02T11:10:00Z").deliver()
        let after = box.wire.sent(to: Self.sam).dropFirst(2)
        #expect(after.map(\.notification.kind) == [.dependentCheckedIn], "the all-clear, and no third notice")
    }

    @Test func aFailingChannelWaitsForItsNextTryIsNamedAfterThreeAndWorksWhenAskedNow() throws {
        let box = try Self.anaWithSam()
        let error = "curl exited with status 7: Failed to connect"
        box.wire.fail(Self.sam, saying: error)
        let first = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(first.failures.map(\.error) == [error])
        let waiting = try box.app("ana", at: "2026-03-02T09:05:30Z").deliver()
        #expect(waiting.waiting.count == 1 && waiting.failures.isEmpty)
        #expect(box.wire.sent(to: Self.sam).count == 1, "not tried again before its minute's pause is over")
        for now in ["2026-03-02T09:06:00Z", "2026-03-02T09:11:00Z"] { _ = try box.app("ana", at: now).deliver() }
        #expect(box.wire.sent(to: Self.sam).count == 3)
        let feed = try box.app("ana", at: "2026-03-02T09:12:00Z").notifications(App.FeedFilter(everything: true))
        #expect(
            feed.entries.contains {
                $0.message.hasPrefix("Delivery through \(Self.sam) has failed 3 times: \(error).")
            },
            "\(feed.entries.map(\.message))")
        box.wire.fail(Self.sam, saying: nil)
        let now = try box.app("ana", at: "2026-03-02T09:12:00Z").deliver(retryingNow: true)
        #expect(now.isComplete && box.wire.sent(to: Self.sam).count == 4)
    }

    @Test func theImOKButtonGoesToThePhoneTopicAndATapIsACheckInFromThePhone() throws {
        let box = try Self.anaWithSam()
        _ = try box.app("ana", at: t0).setInbox(Self.inbox, phone: Self.phone)
        _ = try box.app("ana", at: "2026-03-02T08:35:00Z").deliver()
        let reminder = try #require(box.wire.sent(to: "ntfy:" + Self.phone).first)
        #expect(reminder.notification.kind == .checkInReminder)
        let button = try #require(reminder.message.buttons.first)
        #expect(button.label == "I'm OK" && button.url == Self.inbox)
        box.wire.post(button.body, to: Self.inbox, at: Self.time("2026-03-02T08:50:00Z"))
        _ = try box.app("ana", at: "2026-03-02T08:55:00Z").deliver()
        let status = try box.app("ana", at: "2026-03-02T09:10:00Z").checkInStatus()
        #expect(status.lastCheckIn?.at == Self.time("2026-03-02T08:50:00Z"))
        #expect(status.lastCheckIn?.fromPhone == true)
        _ = try box.app("ana", at: "2026-03-02T09:10:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).isEmpty, "no alarm")
    }

    static let buttonTopic = "https://ntfy.example/sam-private-4k7q9w2z"

    /// Ana with an inbox, and a button topic for Sam on her device.
    static func anaWithSamsButton(sharing others: [String] = []) throws -> Sandbox {
        let box = try anaWithSam(sharing: others)
        _ = try box.app("ana", at: t0).setInbox(Self.inbox)
        var edit = App.ContactEdit()
        edit.buttonTopic = .some(buttonTopic)
        let (_, changes) = try box.app("ana", at: t0).editContact("Sam", edit)
        #expect(changes == [.buttonTopic(buttonTopic, inbox: true)])
        return box
    }

    @Test func theImOnItButtonComesOnItsOwnTopicAndItsTapStopsTheRepeats() throws {
        let box = try Self.anaWithSamsButton()
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        let plain = try #require(box.wire.sent(to: Self.sam).first)
        #expect(plain.notification.kind == .dependentNonResponsive && plain.message.buttons.isEmpty)
        let alarm = try #require(box.wire.sent(to: "ntfy:" + Self.buttonTopic).first)
        #expect(alarm.notification.id == plain.notification.id, "the same alarm, with the button")
        #expect(alarm.message.title == "Are you on it? " + plain.message.title)
        let button = try #require(alarm.message.buttons.first)
        #expect(button.label == "I'm on it" && button.url == Self.inbox)
        box.wire.post(button.body, to: Self.inbox, at: Self.time("2026-03-02T09:20:00Z"))
        for now in ["2026-03-02T09:25:00Z", "2026-03-02T10:10:00Z", "2026-03-02T11:10:00Z"] {
            _ = try box.app("ana", at: now).deliver()
        }
        #expect(box.wire.sent(to: "ntfy:" + Self.buttonTopic).count == 1, "no repeat after she is on it")
        #expect(box.wire.sent(to: Self.sam).count == 1)
        let feed = try box.app("ana", at: "2026-03-02T11:10:00Z").notifications(App.FeedFilter(everything: true))
        #expect(feed.entries.contains { $0.message.hasPrefix("Sam is on it") }, "\(feed.entries.map(\.message))")
    }

    /// A dead or mistyped button topic costs the button, never the alarm: her own channel is
    /// told as always, and the failure is named as the button topic, not her channel.
    @Test func aDeadButtonTopicCostsOnlyTheButton() throws {
        let box = try Self.anaWithSamsButton()
        box.wire.fail("ntfy:" + Self.buttonTopic, saying: "curl exited with status 7: Failed to connect")
        let report = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).count == 1, "the alarm reached her channel")
        #expect(report.delivered.map(\.channel) == [Self.sam])
        let failed = try #require(report.failures.first)
        #expect(failed.job.channelName == "Sam's button topic on this device")
        #expect(report.name(of: failed.job.channel) == "Sam's button topic on this device")
        let tests = try box.app("ana", at: "2026-03-02T09:06:00Z").testChannels(of: "Sam")
        #expect(tests.map(\.succeeded) == [true, false])
        #expect(tests.last?.channel == "Sam's button topic on this device, ntfy:\(Self.buttonTopic)")
    }

    /// A button held back by a failure is worth nothing once the alarm is answered: it never
    /// goes after the check-in.
    @Test func aButtonHeldBackNeverGoesAfterTheAllClear() throws {
        let box = try Self.anaWithSamsButton()
        let topic = "ntfy:" + Self.buttonTopic
        box.wire.fail(topic, saying: "curl exited with status 7: Failed to connect")
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-02T09:30:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-02T09:31:00Z").deliver()
        box.wire.fail(topic, saying: nil)
        for now in ["2026-03-02T10:30:00Z", "2026-03-02T12:00:00Z"] {
            _ = try box.app("ana", at: now).deliver(retryingNow: true)
        }
        #expect(box.wire.sent(to: topic).count == 1, "only the failed try, never after the all-clear")
        #expect(box.wire.sent(to: Self.sam).map(\.notification.kind) == [.dependentNonResponsive, .dependentCheckedIn])
    }

    /// A private topic never goes into the circle, nor serves two purposes; the same topic in
    /// another spelling (a webhook, Apprise's) is the same topic.
    @Test func aPrivateTopicStaysPrivateAndSingle() throws {
        let box = try Self.anaWithSamsButton()
        let app = box.app("ana", at: t0)
        #expect(
            refusal { () throws(AppError) in try app.setInbox(Self.buttonTopic) }
                == .refused(.setting(.privateTopicInCircle(Self.buttonTopic))))
        var change = App.PreferencesChange()
        change.channels = ["ntfy:" + Self.buttonTopic]
        #expect(
            refusal { () throws(AppError) in try app.preferences(change) }
                == .refused(.setting(.privateTopicInCircle("ntfy:" + Self.buttonTopic))))
        guard
            case .refused(.setting(.notAPhoneTopic(_, let problem)))? = refusal({ () throws(AppError) in
                try app.setInbox(Self.inbox, phone: "https://ntfy.example/SAM-PRIVATE-4K7Q9W2Z")
            })
        else {
            Issue.record("a phone topic equal to a button topic was not refused")
            return
        }
        #expect(problem.contains("already uses it"))
        _ = try app.addExternal(
            ExternalContact(
                name: "Kim", notify: ["apprise:ntfys://ntfy.example/kim-private-8h3j5l1p"], email: [], phone: []))
        for topic in ["https://ntfy.example./kim-private-8h3j5l1p", Self.buttonTopic] {
            var edit = App.ContactEdit()
            edit.buttonTopic = .some(topic)
            guard
                case .refused(.contact(.notAButtonTopic))? = refusal({ () throws(AppError) in
                    try app.editContact("Kim", edit)
                })
            else {
                Issue.record("\(topic) was taken as Kim's button topic")
                continue
            }
        }
    }

    /// 'new' makes a private topic with a random name on the inbox's server, for the phone
    /// and for a responder's button: nothing to copy from an example, nothing to guess.
    @Test func aNewTopicHasARandomNameOnTheInboxServer() throws {
        let box = try Self.anaWithSam()
        let setting = try box.app("ana", at: t0).setInbox(Self.inbox, phone: App.newTopic)
        let phone = try #require(setting.phone)
        #expect(phone.hasPrefix("https://ntfy.example/ls-") && phone.count == "https://ntfy.example/ls-".count + 20)
        var edit = App.ContactEdit()
        edit.buttonTopic = .some(App.newTopic)
        let (_, changes) = try box.app("ana", at: t0).editContact("Sam", edit)
        guard case .buttonTopic(let topic?, inbox: true)? = changes.first else {
            Issue.record("no new button topic: \(changes)")
            return
        }
        #expect(topic.hasPrefix("https://ntfy.example/ls-") && topic != phone)
        #expect(try box.app("ana", at: t0).contact("Sam").buttonTopic == topic)
    }

    /// A button topic replaced takes its buttons with it: a token sent to the old topic, which
    /// someone else may read, no longer says she is on it; one sent to the new topic does.
    @Test func aReplacedButtonTopicWithdrawsItsButtons() throws {
        let box = try Self.anaWithSamsButton()
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        let old = try #require(box.wire.sent(to: "ntfy:" + Self.buttonTopic).first?.message.buttons.first)
        var edit = App.ContactEdit()
        edit.buttonTopic = .some("https://ntfy.example/sam-newer-9q2w4e6r")
        _ = try box.app("ana", at: "2026-03-02T09:10:00Z").editContact("Sam", edit)
        box.wire.post(old.body, to: Self.inbox, at: Self.time("2026-03-02T09:12:00Z"))
        let run = box.app("ana", at: "2026-03-02T09:15:00Z")
        _ = try run.deliver()
        #expect(
            run.notices.contains {
                if case .warning(.tapIgnored(_, _, .withdrawn)) = $0 { true } else { false }
            }, "\(run.notices)")
        let feed = try box.app("ana", at: "2026-03-02T09:16:00Z").notifications(App.FeedFilter(everything: true))
        #expect(!feed.entries.contains { $0.message.hasPrefix("Sam is on it") })
        // The repeat goes to the new topic, with a button that counts.
        _ = try box.app("ana", at: "2026-03-02T10:06:00Z").deliver()
        let fresh = try #require(
            box.wire.sent(to: "ntfy:https://ntfy.example/sam-newer-9q2w4e6r").last?.message.buttons.first)
        box.wire.post(fresh.body, to: Self.inbox, at: Self.time("2026-03-02T10:10:00Z"))
        _ = try box.app("ana", at: "2026-03-02T10:15:00Z").deliver()
        let after = try box.app("ana", at: "2026-03-02T10:16:00Z").notifications(App.FeedFilter(everything: true))
        #expect(after.entries.contains { $0.message.hasPrefix("Sam is on it") })
    }

    /// Bea, who reads the circle, makes Sam's button topic one of her own channels.
    static func beaTakesTheButtonTopic(_ box: Sandbox, at now: String) throws {
        var change = App.PreferencesChange()
        change.channels = ["ntfy:" + buttonTopic]
        _ = try box.app("bea", at: now).preferences(change)
    }

    /// A button topic that became a channel in the circle (anyone there could take its
    /// token) is sent nothing, and doctor fails it.
    @Test func aButtonTopicTheCircleCanReadIsSentNothing() throws {
        let box = try Self.anaWithSamsButton(sharing: ["bea"])
        // Bea, who reads the circle, makes it one of her channels.
        try Self.beaTakesTheButtonTopic(box, at: t0)
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).count == 1)
        #expect(box.wire.sent(to: "ntfy:" + Self.buttonTopic).allSatisfy { $0.message.buttons.isEmpty })
        let app = box.app("ana", at: "2026-03-02T09:06:00Z")
        let checkup = try app.checkup()
        let topic = try #require(checkup.channels.first { $0.channel.hasSuffix("(button topic, this device only)") })
        #expect(topic.readByTheCircle && topic.fails(now: app.now) == .topicReadByCircle)
        #expect(try app.contact("Sam").buttonTopicUse == .readByTheCircle)
    }

    /// Buttons already sent to a topic that then becomes readable by the circle are withdrawn
    /// by the next delivery run: anyone there could take their tokens.
    @Test func buttonsOnATopicTheCircleCameToReadAreWithdrawn() throws {
        let box = try Self.anaWithSamsButton(sharing: ["bea"])
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        let button = try #require(box.wire.sent(to: "ntfy:" + Self.buttonTopic).first?.message.buttons.first)
        try Self.beaTakesTheButtonTopic(box, at: "2026-03-02T09:07:00Z")
        _ = try box.app("ana", at: "2026-03-02T09:08:00Z").deliver()
        box.wire.post(button.body, to: Self.inbox, at: Self.time("2026-03-02T09:09:00Z"))
        _ = try box.app("ana", at: "2026-03-02T09:10:00Z").deliver()
        let feed = try box.app("ana", at: "2026-03-02T09:11:00Z").notifications(App.FeedFilter(everything: true))
        #expect(!feed.entries.contains { $0.message.hasPrefix("Sam is on it") }, "\(feed.entries.map(\.message))")
    }

    @Test func aHeartbeatIsPingedOnCheckInAndItsFailureIsNamed() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let url = "https://hc.example/ping/5f1a"
        _ = try box.app("ana", at: t0).addHeartbeat(url, on: .checkin)
        box.wire.fail(url, saying: "HTTP 404")
        let done = try box.app("ana", at: "2026-03-01T10:00:00Z").checkIn(note: nil)
        #expect(box.wire.pinged == [url])
        #expect(
            done.warnings.contains {
                if case .heartbeatFailing(url, _, "HTTP 404") = $0 { true } else { false }
            }, "\(done.warnings)")
    }

    @Test func aChannelTestTriesEveryChannelAndSaysWhichFailed() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        var change = App.PreferencesChange()
        change.channels = ["ntfy:https://ntfy.example/ana-notes", "https://hooks.example/ana"]
        _ = try box.app("ana", at: t0).preferences(change)
        box.wire.fail("https://hooks.example/ana", saying: "curl exited with status 22: 500")
        let tests = try box.app("ana", at: t0).testChannels(of: nil)
        #expect(tests.map(\.channel) == change.channels)
        #expect(tests.map(\.succeeded) == [true, false])
        #expect(tests.last?.error == "curl exited with status 22: 500")
        #expect(box.wire.sent.allSatisfy { $0.message.title == "Test from Ana's lifesignal" })
    }

    @Test func doctorReadsTheInboxAndSaysWhatItAnswered() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        _ = try box.app("ana", at: t0).setInbox(Self.inbox, phone: Self.phone)
        #expect(try box.app("ana", at: t0).checkup().inbox.map { $0.error == nil } == true)
        box.wire.fail(Self.inbox, saying: "could not connect to ntfy.example")
        let checkup = try box.app("ana", at: t0).checkup()
        #expect(checkup.inbox?.url == Self.inbox && checkup.inbox?.error == "could not connect to ntfy.example")
        #expect(checkup.inboxFails == .inboxUnreadable)
    }

    /// A damaged phone.json without an inbox is still a failed check, not "no buttons".
    @Test func aDamagedPhoneFileFailsTheCheckupWithoutAnInbox() throws {
        let box = try Self.anaWithSamsButton()
        _ = try box.app("ana", at: t0).setInbox(nil)
        #expect(try box.app("ana", at: t0).checkup().phoneFileFails == nil)
        try "{ not json".write(toFile: box.directory("ana") + "/phone.json", atomically: true, encoding: .utf8)
        let checkup = try box.app("ana", at: t0).checkup()
        #expect(checkup.phoneFileFails == .phoneTopicsUnreadable)
        #expect(checkup.phoneFile != nil)
    }

    /// Doctor's verdicts are the checkup's: what fails, with its code, decided in one place.
    @Test func theCheckupSaysWhatFailsWithItsCode() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let alone = try box.app("ana", at: t0).checkup()
        #expect(alone.respondersFail == .noResponders)
        #expect(alone.countdownFails == nil && alone.clockFails == nil && alone.writableFails == nil)
        #expect(alone.deliveryFails == nil, "nobody to deliver to yet")
        _ = try box.app("ana", at: t0).addExternal(
            ExternalContact(name: "Sam", notify: [Self.sam], email: [], phone: []))
        box.wire.fail(Self.sam, saying: "HTTP 500")
        for now in ["2026-03-02T09:05:00Z", "2026-03-02T09:06:00Z", "2026-03-02T09:11:00Z"] {
            _ = try box.app("ana", at: now).deliver()
        }
        let soon = box.app("ana", at: "2026-03-02T09:12:00Z")
        let early = try soon.checkup().channels.first { $0.channel == Self.sam }
        #expect(early?.fails(now: soon.now) == nil, "failing for minutes is not yet a failed check")
        let later = box.app("ana", at: "2026-03-02T10:12:00Z")
        let late = try later.checkup()
        #expect(late.respondersFail == nil && late.deliveryFails == nil)
        #expect(try box.app("ana", at: "2026-03-05T10:00:00Z").checkup().deliveryFails == .noDeliveryRuns)
        #expect(late.channels.first { $0.channel == Self.sam }?.fails(now: later.now) == .channelFailing)
    }

    @Test func anAlertReachesTheResponderAtOnceAndItsEndFollows() throws {
        let box = try Self.anaWithSam()
        let raised = try box.app("ana", at: "2026-03-01T12:00:00Z").raiseAlert(message: "fell on the stairs")
        #expect(raised.delivery?.isComplete == true)
        #expect(box.wire.sent(to: Self.sam).map(\.notification.kind) == [.dependentAlert])
        #expect(box.wire.sent(to: Self.sam).first?.message.summary.contains("fell on the stairs") == true)
        _ = try box.app("ana", at: "2026-03-01T12:30:00Z").endAlert()
        #expect(box.wire.sent(to: Self.sam).map(\.notification.kind) == [.dependentAlert, .dependentAlertResolved])
    }
}
