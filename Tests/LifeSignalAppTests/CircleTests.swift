import Foundation
import LifeSignalApp
import LifeSignalCore
import LifeSignalStore
import Testing

/// Contacts, pings, alerts and the feed between members of one circle folder, each in their own
/// data directory: the rules of each use case, without a process.
@Suite struct CircleUseCaseTests {
    /// Ana watches over Bea (Bea is Ana's dependent; Ana is Bea's responder).
    func linked() throws -> Sandbox {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try box.join("bea", at: t0)
        let code = try box.app("bea", at: t0).inviteCode(reset: false).code
        _ = try box.app("ana", at: t0).addMember(
            invite: code, roles: Roles(responder: false, dependent: true))
        return box
    }

    @Test func linkingByCodeGivesReciprocalRolesAndIsRefusedTwice() throws {
        let box = try linked()
        let ana = try box.app("ana", at: t0).contacts()
        #expect(ana.map(\.contact.name) == ["Bea"])
        #expect(ana.first?.contact.roles == Roles(responder: false, dependent: true))
        let bea = try box.app("bea", at: t0).contacts()
        #expect(bea.first?.contact.roles == Roles(responder: true, dependent: false))
        let code = try box.app("bea", at: t0).inviteCode(reset: false).code
        let own = try box.app("ana", at: t0).inviteCode(reset: false).code
        let roles = Roles(responder: true, dependent: false)
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).addMember(invite: code, roles: roles) }
                == .refused(.contact(.alreadyLinked(name: "Bea", unconfirmed: false))))
        // Bea, whom Ana added, adding Ana's code: the link is there, on Ana's word alone; the code
        // gives Bea Ana's key (once), and adds nothing else.
        #expect(try box.app("bea", at: t0).addMember(invite: own, roles: roles).keyOnly)
        #expect(
            refusal { () throws(AppError) in try box.app("bea", at: t0).addMember(invite: own, roles: roles) }
                == .refused(.contact(.alreadyLinked(name: "Ana", unconfirmed: true))))
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).addMember(invite: own, roles: roles) }
                == .refused(.contact(.cannotAddSelf)))
        let reset = try box.app("bea", at: t0).inviteCode(reset: true)
        #expect(reset.reset && reset.code != code)
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).addMember(invite: code, roles: roles) }
                == .refused(.contact(.unknownCode(code))))
    }

    @Test func pingsFollowTheRoles() throws {
        let box = try linked()
        let sent = try box.app("ana", at: t0).sendPing(to: "Bea")
        #expect(sent.to.name == "Bea")
        #expect(sent.delivery.isComplete)
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).sendPing(to: "bea") }
                == .refused(.ping(.alreadyPending(name: "Bea", sent: Timestamp(rfc3339: t0) ?? Timestamp(seconds: 0)))))
        #expect(
            refusal { () throws(AppError) in try box.app("bea", at: t0).sendPing(to: "Ana") }
                == .refused(.ping(.notDependent(name: "Ana"))))
        let later = "2026-03-01T10:00:00Z"
        let answered = try box.app("bea", at: later).respond(.all)
        #expect(answered.pings.map(\.otherName) == ["Ana"])
        #expect(answered.status?.lastCheckIn?.at == Timestamp(rfc3339: later))
        let states = try box.app("ana", at: later).pings().map(\.state)
        #expect(states == [.answered])
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: later).clearPing("Bea") }
                == .refused(.ping(.noneTo(name: "Bea"))))
    }

    @Test func removingTheDependentRoleCancelsMyPendingPing() throws {
        let box = try linked()
        _ = try box.app("ana", at: t0).sendPing(to: "Bea")
        var edit = App.ContactEdit()
        edit.dependent = false
        edit.responder = true
        let (contact, changes) = try box.app("ana", at: t0).editContact("Bea", edit)
        #expect(contact.roles == Roles(responder: true, dependent: false))
        #expect(changes == [.roles(contact.roles), .cancelledMyPing(to: "Bea")])
        #expect(try box.app("bea", at: t0).pings().map(\.state) == [.cancelled])
    }

    @Test func externalContactsAreResponderOnlyAndUniquelyNamed() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let sam = ExternalContact(name: "Sam", notify: ["exec:true"], email: [], phone: [])
        _ = try box.app("ana", at: t0).addExternal(sam)
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).addExternal(sam) }
                == .refused(.contact(.duplicateExternalName("Sam"))))
        var edit = App.ContactEdit()
        edit.dependent = true
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).editContact("sam", edit) }
                == .refused(.contact(.externalCannotBeDependent)))
        var rename = App.ContactEdit()
        rename.name = "Samuel"
        rename.phone = ["+44 20 7946 0958"]
        let (renamed, changes) = try box.app("ana", at: t0).editContact("Sam", rename)
        #expect(renamed.name == "Samuel")
        #expect(renamed.external?.phone == ["+442079460958"])
        #expect(changes == [.details])
        let removed = try box.app("ana", at: t0).removeContact("Samuel")
        #expect(removed.contact.id == renamed.id)
        #expect(try box.app("ana", at: t0).contacts().isEmpty)
    }

    @Test func aMemberNamesThemselves() throws {
        let box = try linked()
        var edit = App.ContactEdit()
        edit.name = "Beatrice"
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).editContact("Bea", edit) }
                == .refused(.contact(.memberNamesThemselves(name: "Bea"))))
        var none = App.ContactEdit()
        none.dependent = false
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).editContact("Bea", none) }
                == .refused(.contact(.noRoleLeft(name: "Bea"))))
    }

    @Test func aDependentPastTheirDeadlineNeedsAttention() throws {
        let box = try linked()
        _ = try box.app("bea", at: t0).checkIn(note: "off to the hills")
        let board = try box.app("ana", at: "2026-03-02T10:00:00Z").dashboard()
        #expect(board.needsAttention.map(\.contact.name) == ["Bea"])
        #expect(board.needsAttention.first?.status.kind == .nonResponsive)
        #expect(box.app("ana", at: t0).contactNames(.dependents, prefix: "b") == ["Bea"])
        #expect(box.app("ana", at: t0).contactNames(.respondersPinging, prefix: "") == [])
        #expect(box.app("nobody", at: t0).contactNames(.all, prefix: "") == [])
    }

    @Test func anAlertIsRaisedOnceDeliveredAtOnceAndEnded() throws {
        let box = Sandbox()
        let channel = "ntfy:https://ntfy.example/ana-notes"
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        var change = App.PreferencesChange()
        change.channels = [channel]
        _ = try box.app("ana", at: t0).preferences(change)
        let raised = try box.app("ana", at: t0).raiseAlert(message: "fell on the stairs")
        #expect(raised.kind == .raised)
        #expect(raised.warnings == [.noResponders])
        #expect(raised.delivery?.delivered.map(\.notification.kind) == [.alertActivated])
        let delivered = try #require(box.wire.sent(to: channel).first?.message)
        #expect(delivered.type == "send_manual_alert_active")
        #expect(delivered.summary.contains("fell on the stairs"))
        let same = try box.app("ana", at: "2026-03-01T09:05:00Z").raiseAlert(message: nil)
        #expect(same.kind == .unchanged)
        #expect(same.delivery == nil)
        // A new message on the active alert updates it, and is delivered as an update.
        let again = try box.app("ana", at: "2026-03-01T09:05:00Z").raiseAlert(message: "at the bridge now")
        #expect(again.kind == .updated)
        #expect(again.alert.id == raised.alert.id)
        #expect(again.alert.currentMessage == "at the bridge now")
        #expect(again.delivery?.delivered.map(\.notification.kind) == [.alertUpdated])
        #expect(box.wire.sent(to: channel).last?.message.summary.contains("at the bridge now") == true)
        let ended = try box.app("ana", at: "2026-03-01T09:30:00Z").endAlert()
        #expect(ended?.alert.end?.at == Timestamp(rfc3339: "2026-03-01T09:30:00Z"))
        #expect(try box.app("ana", at: "2026-03-01T09:31:00Z").endAlert() == nil)
        #expect(try box.app("ana", at: "2026-03-01T09:31:00Z").alertHistory().count == 1)
    }

    @Test func theFeedMarksWhatIsChosenAndPreferencesRecordOnlyChanges() throws {
        let box = try linked()
        let page = try box.app("bea", at: t0).notifications(App.FeedFilter())
        #expect(page.entries.map(\.kind) == [.contactAdded])
        #expect(page.unread == 1)
        #expect(
            refusal { () throws(AppError) in try box.app("bea", at: t0).mark(.id("zzzz"), clear: false) }
                == .refused(.feed(.notFound("zzzz"))))
        #expect(try box.app("bea", at: t0).mark(.all, clear: false) == 1)
        let unread = try box.app("bea", at: t0).notifications(App.FeedFilter(unreadOnly: true))
        #expect(unread.entries.isEmpty)
        #expect(unread.filtered)
        let before = try box.app("bea", at: t0).history(limit: 1, since: nil).total
        let (same, mail) = try box.app("bea", at: t0).preferences(App.PreferencesChange())
        #expect(same == FeedPreferences() && mail == MailSettings(from: nil, replyTo: nil))
        #expect(
            refusal { () throws(AppError) in try box.app("bea", at: t0).testChannels(of: nil) }
                == .refused(.feed(.noChannels(contactName: nil))))
        #expect(try box.app("bea", at: t0).history(limit: 1, since: nil).total == before)
    }
    /// An external contact reached only through channels that run on this device alone is
    /// said to be so, with a stable code, when added and when their channels change.
    @Test func anExternalToldOnlyByThisDeviceIsSaid() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let adding = box.app("ana", at: t0)
        _ = try adding.addExternal(ExternalContact(name: "Sam", notify: ["exec:true"], email: [], phone: []))
        #expect(adding.notices == [.warning(.toldOnlyByThisDevice(name: "Sam"))])
        #expect(Warning.toldOnlyByThisDevice(name: "Sam").code == "told-only-by-this-device")
        var edit = App.ContactEdit()
        edit.notify = ["exec:true", "ntfy:https://ntfy.example/sam"]
        let editing = box.app("ana", at: t0)
        _ = try editing.editContact("Sam", edit)
        #expect(editing.notices.isEmpty, "an ntfy channel reaches Sam from any device")
    }
    /// Whoever can write the circle can name any id in a tap of an "I'm OK" button relayed in
    /// their log (here Mal's own, signed by Mal's device): the tap is kept, counting only through
    /// a token, but an id nobody has records of is not listed as a member anywhere.
    @Test func anIdNamedOnlyInAnotherMembersTapsIsListedNowhere() throws {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try box.join("mal", at: t0)
        let now = try #require(Timestamp(rfc3339: t0))
        let token = String(repeating: "0123456789abcdef", count: 2)
        _ = try Store.update(dataDirectory: box.directory("mal"), lockTimeout: 5, creation: .never, now: now) {
            $0.record(PhoneTapped(member: "00000000-0000-0000-0000-000000000001", token: token, at: now), at: now)
        }
        let app = box.app("ana", at: t0)
        #expect(try app.circleStatus().members.map(\.name).sorted() == ["Ana", "Mal"])
        #expect(try app.checkup().members.map(\.name).sorted() == ["Ana", "Mal"])
    }

    /// A damaged sync.json is said, and the copy is not vouched for: this device no longer
    /// knows how its copy is kept, so a miss it relays says it could not confirm.
    @Test func damagedSyncSettingsAreSaidAndVouchForNothing() throws {
        let box = Sandbox()
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let before = try box.app("ana", at: t0).circleStatus().sync
        #expect(before.problem == nil && before.currentAt != nil)
        try "{ not json".write(toFile: box.directory("ana") + "/sync.json", atomically: true, encoding: .utf8)
        let after = try box.app("ana", at: t0).circleStatus().sync
        #expect(after.currentAt == nil)
        #expect(after.problem?.contains("sync.json) cannot be read") == true, "\(after.problem ?? "")")
        #expect(try box.app("ana", at: t0).checkup().syncFails == .syncFailing)
    }
}
