import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Checking in, the countdown's settings, set-up and history, as the use cases decide them.
@Suite struct CheckInTests {
    @Test func theFirstCheckInCreatesTheProfileAndSaysSoOnce() throws {
        let box = Sandbox()
        let first = box.app("ana", at: t0)
        let done = try first.checkIn(note: "trail")
        #expect(done.note == "trail")
        #expect(done.status.phase == .ok)
        #expect(done.status.deadline == Timestamp(rfc3339: "2026-03-02T09:00:00Z"))
        #expect(
            first.notices == [
                .createdProfile(
                    name: "Ana", interval: .hours(24), reminder: .minutes(30), dataDirectory: box.directory("ana"))
            ])
        let second = box.app("ana", at: "2026-03-01T10:00:00Z")
        let again = try second.checkIn(note: nil)
        #expect(second.notices.isEmpty)
        #expect(again.seq > done.seq)
        #expect(again.device == done.device)
    }

    @Test func readingNeedsAProfile() {
        let box = Sandbox()
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).checkInStatus() }
                == .store(.notInitialized(dataDirectory: box.directory("ana"))))
    }

    @Test func settingsBreakingARuleAreRefusedAndNothingIsRecorded() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let app = box.app("ana", at: t0)
        #expect(
            refusal { () throws(AppError) in try app.setInterval(.minutes(5)) }
                == .refused(.setting(.intervalOutOfRange(.minutes(5)))))
        #expect(
            refusal { () throws(AppError) in try app.setReminder(.hours(24)) }
                == .refused(.setting(.reminderNotShorter(reminder: .hours(24), interval: .hours(24)))))
        let status = try app.checkInStatus()
        #expect(status.interval == .hours(24))
        #expect(status.reminder == .minutes(30))
    }

    @Test func aShorterIntervalMovesTheDeadlineAndCanMakeMeOverdue() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let later = box.app("ana", at: "2026-03-01T19:00:00Z")
        let status = try later.setInterval(.hours(8))
        #expect(status.deadline == Timestamp(rfc3339: "2026-03-01T17:00:00Z"))
        #expect(status.phase == .overdue)
    }

    @Test func setUpChangesOnlyWhatDiffersAndKeepsItsCircle() throws {
        let box = Sandbox()
        let created = try box.app("ana", at: t0).setUp(App.SetUp(name: "Ann", interval: .hours(8)))
        #expect(created.created)
        #expect(created.name == "Ann")
        #expect(created.circle == box.directory("ana") + "/circle")
        let changed = try box.app("ana", at: t0).setUp(App.SetUp(interval: .hours(8), reminder: .some(nil)))
        #expect(!changed.created)
        #expect(changed.changes == [.reminder(nil)])
        #expect(changed.status.reminder == nil)
        // Another circle: the records move there.
        let moved = try box.app("ana", at: t0).setUp(App.SetUp(circle: box.circle))
        #expect(moved.circle == box.circle)
        #expect(moved.moved?.from == box.directory("ana") + "/circle")
        #expect(moved.moved?.cleanedUp == true)
    }

    @Test func historyIsNewestFirstAndCounted() throws {
        let box = Sandbox()
        for (hour, note) in [("09", "one"), ("10", "two"), ("11", "three")] {
            _ = try box.app("ana", at: "2026-03-01T\(hour):00:00Z").checkIn(note: note)
        }
        let app = box.app("ana", at: "2026-03-01T12:00:00Z")
        let history = try app.history(limit: 2, since: nil)
        #expect(history.checkIns.map(\.note) == ["three", "two"])
        #expect(history.total == 3)
        #expect(history.devices == 1)
        let since = try app.history(limit: 20, since: Timestamp(rfc3339: "2026-03-01T10:00:00Z"))
        #expect(since.checkIns.map(\.note) == ["three", "two"])
    }

    @Test func aSecondDeviceEnrolledByCodeCountsTowardOneDeadline() throws {
        let box = Sandbox()
        try box.join("laptop", at: t0)
        // The invite code, which the person gives every responder, makes no device.
        let invite = try box.app("laptop", at: t0).inviteCode(reset: false).code
        #expect(
            refusal { () throws(AppError) in
                try box.app("server", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(invite)))
            } == .refused(.setUp(.inviteCodeMakesNoDevice(name: "Laptop"))))
        let code = try box.app("laptop", at: t0).enrollmentCode().code
        let joined = try box.app("server", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(code)))
        #expect(joined.joined)
        #expect(joined.joinedWith == .enrollment)
        #expect(joined.name == "Laptop")
        _ = try box.app("server", at: "2026-03-01T09:20:00Z").checkIn(note: "from cron")
        // Not counted until the laptop accepts it, which its next write within the code's hour does.
        #expect(try box.app("laptop", at: "2026-03-01T09:30:00Z").checkInStatus().lastCheckIn?.note == nil)
        _ = try box.app("laptop", at: "2026-03-01T09:40:00Z").inviteCode(reset: false)
        let seen = try box.app("laptop", at: "2026-03-01T13:00:00Z").checkInStatus()
        #expect(seen.lastCheckIn?.note == "from cron")
        #expect(
            refusal { () throws(AppError) in
                try box.app("server", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(code)))
            } == .refused(.setUp(.alreadySetUp(member: joined.member))))
        // The same code a second time makes a device that is never accepted.
        _ = try box.app("third", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(code)))
        _ = try box.app("third", at: "2026-03-01T14:00:00Z").checkIn(note: "third")
        _ = try box.app("laptop", at: "2026-03-01T09:50:00Z").inviteCode(reset: false)
        #expect(try box.app("laptop", at: "2026-03-01T14:20:00Z").checkInStatus().lastCheckIn?.note == "from cron")
        let mine = try #require(try box.app("laptop", at: "2026-03-01T14:20:00Z").devices().first)
        #expect(mine.devices.filter { $0.standing.counts }.count == 2)
        let unknown =
            "lifesignal://enroll/00000000-0000-4000-8000-000000000000/\(String(repeating: "ab", count: 16))/\(String(repeating: "cd", count: 16))"
        #expect(
            refusal { () throws(AppError) in
                try box.app("fourth", at: t0).setUp(App.SetUp(circle: box.circle, join: PassedCode(unknown)))
            }
                == .refused(
                    .setUp(.memberNotInCircle(member: "00000000-0000-4000-8000-000000000000", circle: box.circle))))
    }
}

/// Only a check-in (or setting the countdown, or `init`) may create a profile: anything else
/// run against a directory without one — a crontab missing the variable that points to the
/// real profile — must fail loudly, never start watching an empty profile.
@Suite struct ProfileCreationTests {
    @Test(arguments: ["deliver", "notifications", "inviteCode", "preferences", "addExternal", "raiseAlert"])
    func nothingButACheckInCreatesAProfile(_ operation: String) {
        let box = Sandbox()
        let app = box.app("ana", at: t0)
        let error = refusal { () throws(AppError) in
            switch operation {
            case "deliver": _ = try app.deliver()
            case "notifications": _ = try app.notifications(App.FeedFilter())
            case "inviteCode": _ = try app.inviteCode(reset: false)
            case "preferences": _ = try app.preferences(App.PreferencesChange())
            case "addExternal":
                _ = try app.addExternal(ExternalContact(name: "Sam", notify: ["exec:true"], email: [], phone: []))
            default: _ = try app.raiseAlert(message: nil)
            }
        }
        #expect(error == .store(.notInitialized(dataDirectory: box.directory("ana"))))
        #expect(!FileManager.default.fileExists(atPath: box.directory("ana") + "/identity.json"))
    }
    /// A check-in written with `now` ahead of this machine's clock does not count until then:
    /// the check-in says so, and so does every read of the status before that time.
    @Test func aCheckInAheadOfTheClockIsSaidWhenWrittenAndWhenRead() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let clock = Timestamp(rfc3339: "2026-03-01T10:00:00Z") ?? Timestamp(seconds: 0)
        let ahead = "2026-03-03T09:00:00Z"
        let app = App(
            dataDirectory: box.directory("ana"), now: Timestamp(rfc3339: ahead) ?? clock, lockTimeout: 5,
            environment: [:], defaultName: { "Ana" }, channels: box.wire.channels, clock: { clock })
        _ = try app.checkIn(note: nil)
        #expect(app.notices == [.warning(.checkInAheadOfClock(at: Timestamp(rfc3339: ahead) ?? clock, clock: clock))])
        let reader = box.app("ana", at: "2026-03-01T10:00:00Z")
        let status = try reader.checkInStatus()
        #expect(status.lastCheckIn?.at == Timestamp(rfc3339: t0), "the future check-in does not count yet")
        #expect(
            reader.notices.contains {
                if case .warning(.futureCheckIn(let at, _, _, _)) = $0 {
                    at == Timestamp(rfc3339: ahead)
                } else {
                    false
                }
            }, "\(reader.notices)")
    }

    /// Sam's topic failed, and Ana gave him another: the duress alarm goes to the new one in the
    /// next run, once, and the old one is not tried again. A contact removed since is given up.
    @Test func aDuressAlarmFollowsTheRecipientsNewChannel() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let sam = DeliveryUseCaseTests.sam
        let tom = CircleRuleTests.tom
        _ = try box.app("ana", at: t0).addExternal(ExternalContact(name: "Tom", notify: [tom], email: [], phone: []))
        _ = try box.app("ana", at: t0).setDuressWord("bluebird", rounds: 1)
        box.wire.fail(sam, saying: "HTTP 410 Gone")
        box.wire.fail(tom, saying: "HTTP 503")
        _ = try box.app("ana", at: "2026-03-01T20:00:00Z").checkIn(note: "bluebird")
        _ = try box.app("ana", at: "2026-03-01T20:00:05Z").deliver()
        #expect(box.wire.sent(to: sam).count == 1 && box.wire.sent(to: tom).count == 1)
        let moved = "ntfy:https://ntfy.example/sam-new"
        var edit = App.ContactEdit()
        edit.notify = [moved]
        _ = try box.app("ana", at: "2026-03-01T20:02:00Z").editContact("Sam", edit)
        _ = try box.app("ana", at: "2026-03-01T20:03:00Z").removeContact("Tom")
        for now in ["2026-03-01T20:05:00Z", "2026-03-01T20:10:00Z", "2026-03-01T20:15:00Z"] {
            _ = try box.app("ana", at: now).deliver()
        }
        #expect(box.wire.sent(to: sam).count == 1, "the old topic is not tried again")
        #expect(box.wire.sent(to: tom).count == 1, "nor is a contact removed")
        let told = box.wire.sent(to: moved)
        #expect(told.count == 1)
        #expect(told.first?.message.title == "Ana checked in under duress: they may be in danger")
        let sends = try box.app("ana", at: "2026-03-01T20:16:00Z").duressStatus().sends
        #expect(sends.count == 1 && sends.first?.sent == Timestamp(rfc3339: "2026-03-01T20:05:00Z"), "\(sends)")
    }
}
