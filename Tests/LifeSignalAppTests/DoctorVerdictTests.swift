import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// What `status` warns of and what `doctor` concludes, decided by the use cases: nobody watches,
/// nobody can be reached, nothing is delivered, a channel fails for over an hour, a member's
/// records stop changing; each verdict goes away once its cause is fixed.
@Suite struct DoctorVerdictTests {
    static let sam = "ntfy:https://ntfy.example/sam-alarms"

    /// Ana watches over Bea; both checked in at t0; Ana has no responder, channel or delivery run.
    static func anaWatchesBea() throws -> Sandbox {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try box.join("bea", at: t0)
        let code = try box.app("bea", at: t0).inviteCode(reset: false).code
        _ = try box.app("ana", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        for person in ["ana", "bea"] { _ = try box.app(person, at: t0).checkIn(note: nil) }
        return box
    }

    @Test func aProfileThatNeverCheckedInIsNotArmedAndSaysSo() throws {
        let box = Sandbox()
        try box.join("ana", at: t0)
        let board = try box.app("ana", at: t0).dashboard()
        #expect(board.warnings == [.neverCheckedIn, .noResponders])
        let checkup = try box.app("ana", at: t0).checkup()
        #expect(checkup.countdownFails == .neverCheckedIn && checkup.respondersFail == .noResponders)
    }

    @Test func aWatchedArmedProfileSaysNothing() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        _ = try box.app("ana", at: t0).addExternal(
            ExternalContact(name: "Sam", notify: [Self.sam], email: [], phone: []))
        let checkIn = try box.app("ana", at: "2026-03-01T10:00:00Z").checkIn(note: nil)
        #expect(checkIn.warnings.isEmpty, "\(checkIn.warnings)")
        #expect(try box.app("ana", at: "2026-03-01T10:02:00Z").dashboard().warnings.isEmpty)
        let checkup = try box.app("ana", at: "2026-03-01T10:02:00Z").checkup()
        #expect(checkup.countdownFails == nil && checkup.respondersFail == nil)
        #expect(checkup.responders.map(\.name) == ["Sam"] && checkup.responders.allSatisfy { $0.fails == nil })
    }

    /// Each broken link a verdict, and all pass once fixed.
    @Test func doctorNamesEachBrokenLink() throws {
        let box = try Self.anaWatchesBea()
        let broken = try box.app("ana", at: "2026-03-02T12:00:00Z").checkup()
        #expect(broken.respondersFail == .noResponders)
        #expect(broken.ownChannelsFail == .noChannels && broken.dependents == ["Bea"])
        #expect(broken.deliveryFails == .noDeliveryRuns)
        #expect(broken.countdownFails == nil && broken.writableFails == nil && broken.devicesDoubt == nil)
        let bea = try #require(broken.members.first { $0.name == "Bea" })
        #expect(bea.lastChange == at(t0) && broken.fails(bea) == nil)
        let ana = box.app("ana", at: "2026-03-02T12:00:00Z")
        _ = try ana.addExternal(ExternalContact(name: "Sam", notify: [Self.sam], email: [], phone: []))
        var change = App.PreferencesChange()
        change.channels = ["ntfy:https://ntfy.example/ana-notes"]
        _ = try box.app("ana", at: "2026-03-02T12:00:00Z").preferences(change)
        _ = try box.app("ana", at: "2026-03-02T12:00:00Z").deliver()
        let fixed = try box.app("ana", at: "2026-03-02T12:01:00Z").checkup()
        #expect(fixed.respondersFail == nil && fixed.ownChannelsFail == nil && fixed.deliveryFails == nil)
    }

    /// Bea watches over Ana (confirmed), but no machine of Bea's runs deliver: Ana's miss would
    /// reach nobody. Said until Bea's cron runs; a day and a half on, Ana's own cron is missed too.
    @Test func nobodyReachableAndNothingDeliveredAreSaidUntilFixed() throws {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try box.join("bea", at: t0)
        let code = try box.app("ana", at: t0).inviteCode(reset: false).code
        _ = try box.app("bea", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        _ = try box.app("ana", at: t0).confirmContact("Bea")
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let codes = { (now: String) in try box.app("ana", at: now).dashboard().warnings.map(\.code) }
        #expect(try codes("2026-03-01T10:00:00Z") == ["responders-unreachable"])
        #expect(
            try box.app("ana", at: "2026-03-01T10:00:00Z").checkup().responders.first?.fails == .respondersUnreachable)
        #expect(try codes("2026-03-02T21:00:00Z") == ["responders-unreachable", "no-delivery-runs"])
        _ = try box.app("bea", at: "2026-03-02T21:00:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-02T21:00:00Z").deliver()
        #expect(try codes("2026-03-02T21:05:00Z") == [])
    }

    /// Failures under an hour are not yet a finding; over an hour they are, on both sides.
    @Test func aChannelFailingForOverAnHourIsAWarningAndAFinding() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        _ = try box.app("ana", at: t0).addExternal(
            ExternalContact(name: "Sam", notify: [Self.sam], email: [], phone: []))
        box.wire.fail(Self.sam, saying: "curl exited with status 7")
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        let early = "2026-03-02T09:30:00Z"
        #expect(try box.app("ana", at: early).dashboard().warnings.isEmpty)
        let channel = try #require(try box.app("ana", at: early).checkup().channels.first { $0.channel == Self.sam })
        #expect(channel.health?.failingSince == at("2026-03-02T09:05:00Z") && channel.fails(now: at(early)) == nil)
        let late = "2026-03-02T10:10:00Z"
        _ = try box.app("ana", at: late).deliver()
        let warnings = try box.app("ana", at: late).dashboard().warnings
        #expect(warnings.map(\.code) == ["channel-failing"], "\(warnings)")
        let failing = try #require(try box.app("ana", at: late).checkup().channels.first { $0.channel == Self.sam })
        #expect(failing.fails(now: at(late)) == .channelFailing)
    }

    @Test func aMemberWhoseRecordsStoppedChangingIsFlagged() throws {
        let box = try Self.anaWatchesBea()
        #expect(
            !(try box.app("ana", at: "2026-03-02T10:00:00Z").dashboard().warnings.map(\.code).contains("stale-records"))
        )
        let late = "2026-03-03T10:00:00Z"
        let warnings = try box.app("ana", at: late).dashboard().warnings
        #expect(warnings.contains(.staleRecords(name: "Bea", lastChange: at(t0))), "\(warnings)")
        let checkup = try box.app("ana", at: late).checkup()
        let bea = try #require(checkup.members.first { $0.name == "Bea" })
        #expect(checkup.fails(bea) == .staleRecords)
        #expect(checkup.members.first { $0.isMe }.map(checkup.fails) == .some(nil))
    }

    /// The circle folder renamed away: every read stops and names it, and nothing is made anew.
    @Test func aMissingCircleFolderStopsAndIsNeverRecreated() throws {
        let box = try Self.anaWatchesBea()
        try FileManager.default.moveItem(atPath: box.circle, toPath: box.circle + "-renamed")
        let errors = [
            refusal { () throws(AppError) in try box.app("ana", at: t0).checkup() },
            refusal { () throws(AppError) in try box.app("ana", at: t0).dashboard() },
            refusal { () throws(AppError) in try box.app("ana", at: t0).checkIn(note: nil) },
        ]
        for error in errors {
            #expect("\(String(describing: error))".contains(box.circle), "\(String(describing: error))")
        }
        #expect(!FileManager.default.fileExists(atPath: box.circle))
    }

    /// Every verdict has a stable code of its own, and a warning's verdict is that warning's code.
    @Test func everyVerdictHasItsOwnCode() {
        let all: [DoctorFailure] = [
            .unreadable, .deviceKeyUnusable, .watcherNotConfirmed, .neverCheckedIn, .notWritable,
            .scheduleZoneDrift, .noResponders, .noChannels, .noDeliveryRuns, .syncFailing, .clockBehind,
            .inboxUnreadable, .phoneTopicUnreadable, .noPhoneTopic, .phoneTopicsUnreadable, .staleRecords,
            .respondersUnreachable, .topicReadByCircle, .channelUnusableFromCron, .channelFailing, .heartbeatFailing,
        ]
        #expect(Set(all.map(\.code)).count == all.count)
        #expect(all.allSatisfy { !$0.code.isEmpty && $0.code == $0.code.lowercased() && !$0.code.contains(" ") })
        #expect(DoctorFailure.warning(.noResponders).code == DoctorFailure.noResponders.code)
        #expect(DoctorFailure.warning(.neverCheckedIn).code == DoctorFailure.neverCheckedIn.code)
    }

    /// The circle as this device heard it: every member, and when each was last heard from.
    @Test func circleStatusListsWhoWasHeardAndWhen() throws {
        let box = try Self.anaWatchesBea()
        _ = try box.app("bea", at: "2026-03-01T11:00:00Z").checkIn(note: nil)
        let status = try box.app("ana", at: "2026-03-01T12:00:00Z").circleStatus()
        #expect(status.circle == box.circle)
        #expect(status.members.map(\.name).sorted() == ["Ana", "Bea"])
        let bea = try #require(status.members.first { $0.name == "Bea" })
        #expect(!bea.isMe && bea.lastHeard == at("2026-03-01T11:00:00Z"))
        #expect(status.copyChanged == at("2026-03-01T11:00:00Z"))
        #expect(status.sync.problem == nil)
    }
}

/// Two machines whose circles are two separate folders, kept in step only by copying files as a
/// sync tool does (`cp -r -u -p`: missing or newer files, times kept): whatever either side does
/// appears on the other after a copy, whichever way the copies go, and a stale copy never rolls
/// a machine's own newer log back.
@Suite struct CircleSyncRuleTests {
    static func circle(_ box: Sandbox, _ machine: String) -> String { box.root.path + "/\(machine)-circle" }

    static func sync(_ box: Sandbox, from source: String, to destination: String) throws {
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["-r", "-u", "-p", circle(box, source) + "/.", circle(box, destination)]
        try copy.run()
        copy.waitUntilExit()
        #expect(copy.terminationStatus == 0)
    }

    /// Ana on m1, Bea on m2; after a copy each way, Bea asks Ana to watch over her.
    static func setUp() throws -> Sandbox {
        let box = Sandbox()
        for (machine, name) in [("m1", "Ana"), ("m2", "Bea")] {
            _ = try box.app(machine, at: "2026-03-01T08:00:00Z").setUp(
                App.SetUp(name: name, circle: circle(box, machine)))
        }
        let code = try box.app("m1", at: t0).inviteCode(reset: false).code
        let roles = Roles(responder: true, dependent: false)
        #expect(
            refusal { () throws(AppError) in
                try box.app("m2", at: "2026-03-01T08:30:00Z").addMember(invite: code, roles: roles)
            }
                == .refused(.contact(.unknownCode(code))), "not copied yet")
        try sync(box, from: "m1", to: "m2")
        try sync(box, from: "m2", to: "m1")
        _ = try box.app("m2", at: t0).addMember(invite: code, roles: roles)
        #expect(try box.app("m1", at: "2026-03-01T09:01:00Z").contacts().isEmpty, "not copied yet")
        try sync(box, from: "m2", to: "m1")
        #expect(try box.app("m1", at: "2026-03-01T09:01:00Z").contacts().map(\.contact.name) == ["Bea"])
        try sync(box, from: "m1", to: "m2")
        return box
    }

    @Test(arguments: [true, false])
    func concurrentEditsMergeWhicheverWayTheCopiesGo(m1First: Bool) throws {
        let box = try Self.setUp()
        let ten = "2026-03-01T10:00:00Z"
        _ = try box.app("m1", at: ten).sendPing(to: "Bea")
        _ = try box.app("m1", at: ten).checkIn(note: "on m1")
        _ = try box.app("m1", at: ten).addExternal(
            ExternalContact(name: "Sam", notify: [], email: ["sam@example.org"], phone: []))
        _ = try box.app("m2", at: ten).checkIn(note: "on m2")
        var edit = App.ContactEdit()
        edit.dependent = true
        _ = try box.app("m2", at: ten).editContact("Ana", edit)
        _ = try box.app("m2", at: ten).setInterval(.hours(16))
        let order = m1First ? [("m1", "m2"), ("m2", "m1")] : [("m2", "m1"), ("m1", "m2")]
        for (source, destination) in order { try Self.sync(box, from: source, to: destination) }
        let now = "2026-03-01T11:00:00Z"
        let bea = try box.app("m1", at: now).contact("Bea")
        #expect(bea.contact.roles == Roles(responder: true, dependent: true))
        #expect(bea.status?.kind == .pinged && bea.checkIn?.interval == .hours(16))
        let incoming = try box.app("m2", at: now).pings().filter(\.incoming)
        #expect(incoming.map(\.otherName) == ["Ana"] && incoming.map(\.state) == [.pending])
        #expect(try box.app("m2", at: now).contact("Ana").checkIn?.deadline == at("2026-03-02T10:00:00Z"))
        #expect(!(try box.app("m2", at: now).contacts().map(\.contact.name).contains("Sam")))
        for machine in ["m1", "m2"] {
            let app = box.app(machine, at: now)
            _ = try app.dashboard()
            #expect(!app.warningCodes.contains("records-left-out"), "\(machine): \(app.warnings)")
        }
        // Bea answers on m2; after a copy Ana sees it answered, and Bea's check-in.
        _ = try box.app("m2", at: "2026-03-01T11:30:00Z").respond(.all)
        try Self.sync(box, from: "m2", to: "m1")
        let later = "2026-03-01T12:00:00Z"
        #expect(try box.app("m1", at: later).pings().filter { !$0.incoming }.map(\.state) == [.answered])
        #expect(try box.app("m1", at: later).contact("Bea").checkIn?.deadline == at("2026-03-02T03:30:00Z"))
    }

    @Test func aStaleCopyNeverOverwritesAMachinesOwnNewerLog() throws {
        let box = try Self.setUp()
        _ = try box.app("m1", at: "2026-03-01T12:00:00Z").checkIn(note: "newer")
        try Self.sync(box, from: "m2", to: "m1")
        let history = try box.app("m1", at: "2026-03-01T12:00:00Z").history(limit: 10, since: nil)
        #expect(history.total == 1 && history.checkIns.map(\.note) == ["newer"])
    }
}
