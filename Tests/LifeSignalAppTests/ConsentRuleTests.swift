import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// A link is a claim until the other side confirms it: Mal, who says he watches over Bea on his
/// word alone, is told of her alarms but can silence none of them; Bea is told, and her own word
/// (a confirm, an edit keeping him her responder) ends it; a link she removed and he makes again
/// is a claim again.
@Suite struct ConsentRuleTests {
    static let missed = "2026-03-02T09:40:00Z"

    /// Bea (checked in at t0) and Mal, who added her code as his dependent: a claim.
    static func malClaimsBea() throws -> Sandbox {
        let box = Sandbox()
        try box.join("bea", at: t0)
        try box.join("mal", at: t0)
        _ = try box.app("bea", at: t0).checkIn(note: nil)
        let code = try box.app("bea", at: t0).inviteCode(reset: false).code
        _ = try box.app("mal", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        return box
    }

    static func unconfirmed(_ warnings: [Warning]) -> [String] {
        warnings.flatMap { warning -> [String] in
            if case .watchersNotConfirmed(let named, _) = warning { named.map(\.name) } else { [] }
        }
    }

    @Test func anUnconfirmedWatcherIsSaidOnBothSides() throws {
        let box = try Self.malClaimsBea()
        let bea = try box.app("bea", at: t0).dashboard()
        #expect(Self.unconfirmed(bea.warnings) == ["Mal"], "\(bea.warnings)")
        let mal = try #require(try box.app("bea", at: t0).contacts().first)
        #expect(mal.contact.name == "Mal" && mal.contact.roles.responder && !mal.contact.confirmedByMe)
        let his = try box.app("mal", at: t0).dashboard().warnings
        #expect(his.contains { if case .notConfirmedBy(["Bea"], "Mal", _) = $0 { true } else { false } }, "\(his)")
        let checkup = try box.app("bea", at: t0).checkup()
        #expect(checkup.warnings.map(\.code).contains("watcher-not-confirmed"))
    }

    /// He is told of her miss, as a watcher is; his "I'm on it" and vouch are refused.
    @Test func anUnconfirmedWatcherIsToldButCannotSilenceTheAlarm() throws {
        let box = try Self.malClaimsBea()
        _ = try box.app("mal", at: "2026-03-02T09:31:00Z").deliver()
        let feed = try box.app("mal", at: Self.missed).notifications(App.FeedFilter(everything: true))
        let miss = try #require(feed.entries.first { $0.kind == .dependentNonResponsive })
        #expect(
            refusal { () throws(AppError) in try box.app("mal", at: Self.missed).acknowledge(String(miss.id.prefix(8)))
            }
                == .refused(.feed(.notConfirmed(name: "Bea"))))
        #expect(
            refusal { () throws(AppError) in try box.app("mal", at: Self.missed).vouch(for: "Bea", note: nil) }
                == .refused(.contact(.vouchNeedsConfirmation(name: "Bea"))))
        #expect(try box.app("bea", at: Self.missed).checkInStatus().lastCheckIn?.at == at(t0))
    }

    /// Confirmed, his word counts: the warnings end on both sides and his vouch ends her miss.
    @Test func aConfirmedWatcherCanVouch() throws {
        let box = try Self.malClaimsBea()
        let first = try box.app("bea", at: t0).confirmContact("Mal")
        #expect(first.contact.name == "Mal" && !first.already)
        #expect(try box.app("bea", at: t0).confirmContact("Mal").already)
        #expect(Self.unconfirmed(try box.app("bea", at: t0).dashboard().warnings).isEmpty)
        #expect(!(try box.app("mal", at: t0).dashboard().warnings.map(\.code).contains("not-confirmed-by")))
        let vouched = try box.app("mal", at: Self.missed).vouch(for: "Bea", note: "saw her")
        #expect(vouched.name == "Bea" && vouched.missed == at("2026-03-02T09:00:00Z"))
        #expect(try box.seen(by: "mal", at: Self.missed).kind == .countdown)
    }

    /// A link Bea removes stays unconfirmed when Mal writes it again.
    @Test func aRemovedLinkMadeAgainIsAClaimAgain() throws {
        let box = try Self.malClaimsBea()
        _ = try box.app("bea", at: t0).confirmContact("Mal")
        let later = "2026-03-01T10:00:00Z"
        _ = try box.app("bea", at: later).removeContact("Mal")
        #expect(try box.app("mal", at: later).contacts().isEmpty)
        let code = try box.app("bea", at: later).inviteCode(reset: false).code
        _ = try box.app("mal", at: later).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        #expect(Self.unconfirmed(try box.app("bea", at: later).dashboard().warnings) == ["Mal"])
        let feed = try box.app("bea", at: later).notifications(App.FeedFilter(everything: true))
        #expect(
            feed.entries.contains {
                $0.kind == .roleChanged && $0.message.hasPrefix("Mal linked with you again after you removed them")
            }, "\(feed.entries.map(\.message))")
    }

    /// Bea watches over Mal; Mal turning the link around is his claim only, and Bea's edit that
    /// keeps him her responder confirms it, and says so.
    @Test func aDependentWhoTurnsTheLinkAroundIsOnlyAClaim() throws {
        let box = Sandbox()
        try box.join("bea", at: t0)
        try box.join("mal", at: t0)
        let code = try box.app("mal", at: t0).inviteCode(reset: false).code
        _ = try box.app("bea", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        var turn = App.ContactEdit()
        turn.dependent = true
        _ = try box.app("mal", at: t0).editContact("Bea", turn)
        #expect(Self.unconfirmed(try box.app("bea", at: t0).dashboard().warnings) == ["Mal"])
        var keep = App.ContactEdit()
        keep.dependent = false
        let (contact, changes) = try box.app("bea", at: t0).editContact("Mal", keep)
        #expect(contact.roles == Roles(responder: true, dependent: false))
        #expect(changes.contains(.confirmed), "\(changes)")
        #expect(Self.unconfirmed(try box.app("bea", at: t0).dashboard().warnings).isEmpty)
    }

    /// `confirm` is for someone who says they watch over you; each other link is refused as what it is.
    @Test func confirmIsRefusedForAnyoneWhoDoesNotSayTheyWatchOverYou() throws {
        let box = Sandbox()
        for person in ["ana", "bea", "dee"] { try box.join(person, at: t0) }
        let ana = try box.app("ana", at: t0).inviteCode(reset: false).code
        let bea = try box.app("bea", at: t0).inviteCode(reset: false).code
        _ = try box.app("dee", at: t0).addMember(invite: ana, roles: Roles(responder: true, dependent: false))
        _ = try box.app("ana", at: t0).addMember(invite: bea, roles: Roles(responder: false, dependent: true))
        _ = try box.app("ana", at: t0).addExternal(
            ExternalContact(name: "Sam", notify: ["exec:true"], email: [], phone: []))
        let confirm = { (name: String) in
            refusal { () throws(AppError) in try box.app("ana", at: t0).confirmContact(name) }
        }
        #expect(
            confirm("Dee")
                == .refused(.contact(.confirmIsForWatchers(name: "Dee", external: false, theyWaitForYou: false))))
        #expect(
            confirm("Bea")
                == .refused(.contact(.confirmIsForWatchers(name: "Bea", external: false, theyWaitForYou: true))))
        #expect(
            confirm("Sam")
                == .refused(.contact(.confirmIsForWatchers(name: "Sam", external: true, theyWaitForYou: false))))
        // Bea's only watcher is Ana, unconfirmed: she is told that, not that nobody is told.
        let codes = try box.app("bea", at: t0).dashboard().warnings.map(\.code)
        #expect(codes.contains("watcher-not-confirmed") && !codes.contains("no-responders"), "\(codes)")
    }

    /// Mal's claim does not hide that nobody Ana chose (Bea, who never runs a delivery) is reached.
    @Test func aClaimantDoesNotHideThatNobodyYouChoseCanBeReached() throws {
        let box = Sandbox()
        for person in ["ana", "bea", "mal"] { try box.join(person, at: t0) }
        let bea = try box.app("bea", at: t0).inviteCode(reset: false).code
        let ana = try box.app("ana", at: t0).inviteCode(reset: false).code
        _ = try box.app("ana", at: t0).addMember(invite: bea, roles: Roles(responder: true, dependent: false))
        _ = try box.app("mal", at: t0).addMember(invite: ana, roles: Roles(responder: false, dependent: true))
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        let later = "2026-03-04T09:00:00Z"
        _ = try box.app("mal", at: later).deliver()
        let codes = try box.app("ana", at: later).dashboard().warnings.map(\.code)
        #expect(codes.contains("responders-unreachable") && codes.contains("watcher-not-confirmed"), "\(codes)")
    }

    /// A namesake who says they watch over Ana is named with their id, and picked by it.
    @Test func aNamesakeIsToldApartByTheirId() throws {
        let box = Sandbox()
        for person in ["ana", "bea"] { try box.join(person, at: t0) }
        _ = try box.app("zed", at: t0).setUp(App.SetUp(name: "Bea", circle: box.circle))
        let bea = try box.app("bea", at: t0).inviteCode(reset: false).code
        let ana = try box.app("ana", at: t0).inviteCode(reset: false).code
        _ = try box.app("ana", at: t0).addMember(invite: bea, roles: Roles(responder: true, dependent: false))
        _ = try box.app("zed", at: t0).addMember(invite: ana, roles: Roles(responder: false, dependent: true))
        let zed = box.identity("zed").member
        let named = try box.app("ana", at: t0).dashboard().warnings.flatMap { warning -> [App.Named] in
            if case .watchersNotConfirmed(let named, _) = warning { named } else { [] }
        }
        #expect(named.map(\.argument) == [zed], "\(named)")
        let ambiguous = refusal { () throws(AppError) in try box.app("ana", at: t0).confirmContact("Bea") }
        guard case .refused(.contact(.ambiguous("Bea", let candidates)))? = ambiguous else {
            return #expect(Bool(false), "\(String(describing: ambiguous))")
        }
        #expect(candidates.map(\.id).sorted() == [box.identity("bea").member, zed].sorted())
        _ = try box.app("ana", at: t0).removeContact(zed)
        #expect(Self.unconfirmed(try box.app("ana", at: t0).dashboard().warnings).isEmpty)
    }
}

/// Contacts as the use cases keep them: roles seen from both sides, a removal seen by both and
/// cancelling the pings between them, tiers only for responders and within range, addresses only
/// for external contacts, dependents listed by what needs attention first, and a second device
/// of the same member speaking for her.
@Suite struct ContactRuleTests {
    /// Ana, Bea and Carl in one circle.
    static func family() throws -> Sandbox {
        let box = Sandbox()
        for person in ["ana", "bea", "carl"] { try box.join(person, at: t0) }
        return box
    }

    static func add(_ box: Sandbox, _ person: String, _ other: String, dependent: Bool, at now: String = t0) throws {
        let code = try box.app(other, at: now).inviteCode(reset: false).code
        _ = try box.app(person, at: now).addMember(
            invite: code, roles: Roles(responder: !dependent, dependent: dependent))
    }

    @Test func removingAContactIsSeenByBothSidesAndCancelsThePings() throws {
        let box = try Self.family()
        try Self.add(box, "ana", "bea", dependent: true)
        _ = try box.app("ana", at: t0).sendPing(to: "Bea")
        let removed = try box.app("bea", at: t0).removeContact("Ana")
        #expect(removed.contact.name == "Ana" && removed.cancelledPings == 1)
        #expect(try box.app("ana", at: t0).contacts().isEmpty)
        #expect(try box.app("ana", at: t0).pings().allSatisfy { $0.state == .cancelled })
        // And they can be linked again, the other way round.
        try Self.add(box, "ana", "bea", dependent: false, at: "2026-03-01T09:05:00Z")
        let bea = try box.app("bea", at: "2026-03-01T09:05:00Z").contacts()
        #expect(bea.map(\.contact.roles) == [Roles(responder: false, dependent: true)])
    }

    @Test func aContactIsFoundByNameOrSaidMissing() throws {
        let box = try Self.family()
        try Self.add(box, "ana", "bea", dependent: true)
        #expect(try box.app("ana", at: t0).contact("bea").contact.name == "Bea")
        let contacts = try box.app("ana", at: t0).contacts().map(\.contact)
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).contact("Zoe") }
                == .refused(.contact(.notFound("Zoe", contacts: contacts))))
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).removeContact("Zoe") }
                == .refused(.contact(.notFound("Zoe", contacts: contacts))))
        #expect(
            refusal { () throws(AppError) in
                try box.app("ana", at: t0).addMember(
                    invite: "no-such-code", roles: Roles(responder: true, dependent: false))
            } == .refused(.contact(.unknownCode("no-such-code"))))
    }

    @Test func tiersAreForRespondersFromOneToNine() throws {
        let box = try Self.family()
        try Self.add(box, "ana", "bea", dependent: false)
        try Self.add(box, "ana", "carl", dependent: true)
        var tier = App.ContactEdit()
        tier.tier = 2
        let (bea, changes) = try box.app("ana", at: t0).editContact("Bea", tier)
        #expect(bea.tier == 2 && changes == [.tier(2)])
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).editContact("Carl", tier) }
                == .refused(.contact(.tierIsForResponders(name: "Carl"))))
        for wrong: Int64 in [0, 10] {
            tier.tier = wrong
            #expect(
                refusal { () throws(AppError) in try box.app("ana", at: t0).editContact("Bea", tier) }
                    == .refused(.contact(.tierOutOfRange(wrong))))
        }
        #expect(try box.app("ana", at: t0).contact("Bea").contact.tier == 2)
    }

    @Test func addressesAreForExternalContactsAndRolesForMembers() throws {
        let box = try Self.family()
        try Self.add(box, "ana", "bea", dependent: true)
        var mail = App.ContactEdit()
        mail.email = ["bea@example.org"]
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).editContact("Bea", mail) }
                == .refused(.contact(.addressesAreForExternals(name: "Bea"))))
        var both = App.ContactEdit()
        both.responder = true
        let (contact, changes) = try box.app("ana", at: t0).editContact("Bea", both)
        #expect(contact.roles == Roles(responder: true, dependent: true))
        #expect(changes == [.roles(contact.roles)])
        let seen = try #require(try box.app("bea", at: t0).contacts().first)
        #expect(seen.contact.roles == Roles(responder: true, dependent: true), "read reciprocally")
    }

    /// Dependents in the order of what needs attention: non-responsive, then pinged, then the least
    /// time left.
    @Test func dependentsAreListedByWhatNeedsAttentionFirst() throws {
        let box = try Self.family()
        try Self.add(box, "ana", "bea", dependent: true)
        try Self.add(box, "ana", "carl", dependent: true)
        let none = try box.app("ana", at: t0).contacts()
        #expect(none.map(\.status?.kind) == [.noCheckIn, .noCheckIn])
        for who in ["bea", "carl"] { _ = try box.app(who, at: t0).checkIn(note: nil) }
        _ = try box.app("carl", at: t0).setInterval(.hours(52))
        let names = { (now: String) in try box.app("ana", at: now).contacts().map(\.contact.name) }
        #expect(try names("2026-03-01T11:00:00Z") == ["Bea", "Carl"])
        _ = try box.app("ana", at: "2026-03-01T12:00:00Z").sendPing(to: "Carl")
        #expect(try names("2026-03-01T12:30:00Z") == ["Carl", "Bea"])
        let late = try box.app("ana", at: "2026-03-02T11:05:00Z").contacts()
        #expect(late.map(\.contact.name) == ["Bea", "Carl"])
        #expect(late.map(\.status?.kind) == [.nonResponsive, .pinged])
    }

    /// A second device of Ana's checks in for her; settings made on either apply to her.
    @Test func aSecondDeviceChecksInForTheSameMember() throws {
        let box = try Self.family()
        let joined = try box.enroll("server", of: "ana", at: t0)
        #expect(joined.joined && joined.name == "Ana")
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        _ = try box.app("server", at: "2026-03-01T21:00:00Z").checkIn(note: "from cron")
        let status = try box.app("ana", at: "2026-03-02T10:00:00Z").checkInStatus()
        #expect(status.deadline == at("2026-03-02T21:00:00Z"))
        #expect(try box.app("ana", at: "2026-03-02T10:00:00Z").history(limit: 10, since: nil).total == 2)
        _ = try box.app("server", at: "2026-03-02T10:00:00Z").setInterval(.hours(8))
        #expect(try box.app("ana", at: "2026-03-02T10:01:00Z").checkInStatus().interval == .hours(8))
    }
}
