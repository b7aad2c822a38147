import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// My invite code and my contacts: members of the circle linked by code (roles on both sides)
/// and external people reached through channels.
extension App {
    /// My invite code, issuing a new one when asked (or when I have none yet), as text: it
    /// carries this device's key fingerprint, which whoever adds it pins.
    public func inviteCode(reset: Bool) throws(AppError) -> (code: String, reset: Bool) {
        let now = self.now
        let fresh = newID
        return try write { transaction throws(AppError) in
            let current = transaction.memberState.code?.value
            let fingerprint = transaction.signer.fingerprint
            if reset || current == nil {
                let code = fresh()
                transaction.record(CodeSet(code: code), at: now)
                return (PassedCode.invite(code: code, fingerprint: fingerprint).text, current != nil)
            }
            return (PassedCode.invite(code: current ?? "", fingerprint: fingerprint).text, false)
        }
    }

    /// `text` as a QR code for the terminal.
    public func qrCode(_ text: String) throws(AppError) -> String {
        do {
            return try QRCode.draw(text, path: environment["PATH"] ?? "/usr/bin:/bin", runner: programs)
        } catch {
            switch error {
            case .notInstalled: throw .unavailable(.qrencodeMissing)
            case .failed(let said): throw .unavailable(.qrencodeFailed(said))
            case .cannotRun(let reason): throw .unavailable(.qrencodeCannotRun(reason))
            }
        }
    }

    /// Links me with the member whose invite code `invite` is (as typed: see `PassedCode`), with
    /// my `roles` toward them. A code with a key fingerprint is believed only of a member whose
    /// device with that key speaks for them, and the key is pinned; one from before records
    /// were signed is pinned on first sight.
    /// `keyOnly`: already linked (without their code), and only their key was taken from it.
    public func addMember(invite: String, roles: Roles) throws(AppError) -> (contact: Contact, keyOnly: Bool) {
        let now = self.now
        guard case .invite(let code, let fingerprint)? = PassedCode(invite) else {
            throw .refused(.contact(.unknownCode(invite)))
        }
        return try write { transaction throws(AppError) in
            let circle = transaction.circle
            let me = transaction.member
            let candidates = circle.members(withCode: code)
            guard !candidates.isEmpty else { throw .refused(.contact(.unknownCode(invite))) }
            let store = transaction.store
            let other: String
            if let fingerprint {
                guard
                    let found = candidates.first(where: { candidate in
                        !store.speakers(of: candidate, pinning: fingerprint).keys.isEmpty
                    })
                else { throw .refused(.contact(.codeNotSigned(invite))) }
                other = found
            } else {
                guard candidates.count == 1, let only = candidates.first else {
                    throw .refused(.contact(.codeNotSigned(invite)))
                }
                other = only
            }
            if other == me { throw .refused(.contact(.cannotAddSelf)) }
            let pin = fingerprint.map { KeyPinned(member: other, fingerprint: $0, fromCode: true) }
            if circle.roles(of: me, toward: other) != nil {
                // A link made without their code: it settles which key is theirs (see `Contest`).
                if let pin, !(transaction.memberState.pins[other]?[pin.fingerprint]?.fromCode ?? false) {
                    transaction.record(pin, at: now)
                    return (try Self.contact(other, of: transaction), true)
                }
                let claim = circle.unconfirmedWatchers(of: me).contains(other)
                throw .refused(.contact(.alreadyLinked(name: Self.name(other, in: circle), unconfirmed: claim)))
            }
            if let pin { transaction.record(pin, at: now) }
            transaction.record(RelationSet(member: other, roles: roles), at: now)
            return (try Self.contact(other, of: transaction), false)
        }
    }

    /// Confirms that a member who says they watch over me does ("Bea watches over you"): my own
    /// word on it, without which their "I'm on it", vouches and deliveries stop none of my
    /// alarms (see `CircleState.confirmedWatcher(_:by:)`). Returns the contact, and whether I
    /// already had.
    public func confirmContact(_ text: String) throws(AppError) -> (contact: Contact, already: Bool) {
        let now = self.now
        return try write { transaction throws(AppError) in
            let me = transaction.member
            let contact = try Self.find(text, in: transaction.circle.contacts(of: me))
            guard contact.kind == .member, contact.roles.responder else {
                throw .refused(
                    .contact(
                        .confirmIsForWatchers(
                            name: contact.name, external: contact.kind != .member,
                            theyWaitForYou: contact.roles.dependent && !contact.confirmedByThem)))
            }
            if contact.confirmedByMe { return (contact, true) }
            transaction.record(RelationSet(member: contact.id, roles: contact.roles), at: now)
            return (contact, false)
        }
    }

    /// Adds someone without lifesignal as my responder.
    public func addExternal(_ external: ExternalContact) throws(AppError) -> Contact {
        let now = self.now
        let id = newID()
        let contact = try write { transaction throws(AppError) in
            let me = transaction.member
            if transaction.circle.contacts(of: me).contains(where: {
                $0.name.lowercased() == external.name.lowercased()
            }) {
                throw .refused(.contact(.duplicateExternalName(external.name)))
            }
            // A damaged phone.json (doctor says so) cannot be compared with: it holds nothing usable.
            let topics = (try? transaction.store.phoneTopics()) ?? PhoneTopics()
            try Self.refusePrivate(external.notify, topics: topics)
            transaction.record(ExternalSet(id: id, contact: external), at: now)
            return try Self.contact(id, of: transaction)
        }
        noticeIfToldOnlyHere(external)
        return contact
    }

    /// Says so when an external contact can be told only by this device: `exec:` and
    /// `desktop:` run only on the device that set them, so when it is dark they hear nothing.
    func noticeIfToldOnlyHere(_ external: ExternalContact) {
        guard !external.channels.isEmpty, !external.channels.contains(where: DeliveryRules.runsForOthers) else {
            return
        }
        notice(.warning(.toldOnlyByThisDevice(name: external.name)))
    }

    /// The contact with this id as the transaction now sees it.
    private static func contact(_ id: String, of transaction: Transaction) throws(AppError) -> Contact {
        guard let contact = transaction.circle.contacts(of: transaction.member).first(where: { $0.id == id }) else {
            throw .refused(.contact(.notFound(id, contacts: [])))
        }
        return contact
    }

    /// A contact with, for a member, what I can see of them.
    public struct ContactView: Sendable {
        public var contact: Contact
        /// My dependent's live status (nil for anyone else).
        public var status: DependentStatus?
        /// A member's check-in status (nil for an external contact).
        public var checkIn: CheckInStatus?
        /// My pending ping to them, and theirs to me.
        public var pingedByMe: Stamp?
        public var pingedMe: Stamp?
        /// Their phone and emergency note: only for someone I watch over.
        public var details: ProfileDetails?
        /// An external responder's button topic on this device (see `DeliveryRules.buttonChannel`),
        /// and whether the alarms about me go there.
        public var buttonTopic: String? = nil
        public var buttonTopicUse: ButtonTopicUse = .sent
    }

    /// Whether a button topic is sent the alarms: not without an inbox (nothing to tap), nor
    /// while the circle can read it (anyone could take its tokens).
    public enum ButtonTopicUse: Sendable {
        case sent, noInbox, readByTheCircle
    }

    /// My contacts, dependents first in the app's priority order, then everyone else by name.
    public func contacts() throws(AppError) -> [ContactView] {
        let (store, snapshot) = try read()
        let circle = snapshot.state
        let me = store.identity.member
        let unreadable = snapshot.unreadable
        let sync = syncView(store, asking: Self.aDependentIsOverdue(of: me, in: circle, now: now))
        for warning in Self.circleWarnings(of: me, in: circle, device: store.identity.device, sync: sync, now: now)
        where warning.isUnconfirmedMiss {
            notice(.warning(warning))
        }
        return circle.orderedContacts(circle.contacts(of: me), me: me, now: now, unreadable: unreadable).map {
            Self.view($0, circle: circle, me: me, now: now, unreadable: unreadable)
        }
    }

    /// The contact `text` names.
    public func contact(_ text: String) throws(AppError) -> ContactView {
        let (store, snapshot) = try read()
        let circle = snapshot.state
        let me = store.identity.member
        let contact = try Self.find(text, in: circle.contacts(of: me))
        var view = Self.view(contact, circle: circle, me: me, now: now, unreadable: snapshot.unreadable)
        view.buttonTopic = try AppError.wrap { () throws(StoreError) in try store.phoneTopics() }.responders[contact.id]
        if let topic = view.buttonTopic {
            if (circle.members[me]?.inbox?.value ?? nil) == nil { view.buttonTopicUse = .noInbox }
            if Address.ntfyTopics(in: circle).contains(Address.comparableTopic(topic)) {
                view.buttonTopicUse = .readByTheCircle
            }
        }
        return view
    }

    static func view(
        _ contact: Contact, circle: CircleState, me: String, now: Timestamp, unreadable: [String: Timestamp]
    ) -> ContactView {
        guard contact.kind == .member else { return ContactView(contact: contact) }
        return ContactView(
            contact: contact, status: circle.dependentStatus(of: contact.id, me: me, now: now, unreadable: unreadable),
            checkIn: circle.status(of: contact.id, now: now),
            pingedByMe: circle.pendingPing(from: me, to: contact.id)?.sent,
            pingedMe: circle.pendingPing(from: contact.id, to: me)?.sent,
            details: contact.roles.dependent ? circle.members[contact.id]?.details?.value : nil)
    }

    /// Finds the contact a person meant (see `ContactLookup`).
    static func find(_ text: String, in contacts: [Contact]) throws(AppError) -> Contact {
        do {
            return try ContactLookup.find(text, in: contacts)
        } catch {
            switch error {
            case .notFound(let text): throw .refused(.contact(.notFound(text, contacts: contacts)))
            case .ambiguous(let text, let candidates):
                throw .refused(.contact(.ambiguous(text, candidates: candidates)))
            }
        }
    }
}

extension App {
    /// A change to a contact; nil and empty mean "leave as it is".
    public struct ContactEdit: Sendable {
        public var responder: Bool?
        public var dependent: Bool?
        /// An external contact's new name.
        public var name: String?
        /// An external contact's new channels, e-mail addresses and phone numbers (each replaces
        /// that list when not empty).
        public var notify: [String] = []
        public var email: [String] = []
        public var phone: [String] = []
        /// A responder's tier (1: told after the grace; 2 and up: later, unless acknowledged).
        public var tier: Int64?
        /// An external responder's button topic on this device (`.some(nil)`: none): an ntfy
        /// topic URL kept on this machine only, where this device sends her the alarms about me
        /// that would go to her first ntfy channel, with an "I'm on it" button.
        public var buttonTopic: String?? = nil

        public init() {}

        var changesAddresses: Bool { !notify.isEmpty || !email.isEmpty || !phone.isEmpty || buttonTopic != nil }
    }

    /// What an edit changed.
    public enum EditChange: Equatable, Sendable {
        case roles(Roles)
        case cancelledMyPing(to: String)
        case cancelledTheirPing(from: String)
        case details
        case tier(Int64)
        /// Her button topic on this device was set (nil: removed); `inbox`: I have an inbox,
        /// which the button posts to (without one, no button goes out).
        case buttonTopic(String?, inbox: Bool)
        /// The edit gave my own word that they watch over me, which they had only claimed.
        case confirmed
    }

    /// Changes the roles of the contact `text` names (seen by both sides), or an external
    /// contact's name and addresses.
    public func editContact(_ text: String, _ asked: ContactEdit) throws(AppError) -> (Contact, [EditChange]) {
        var edit = asked
        let now = self.now
        var (store, contact, changes, inbox) = try write { transaction throws(AppError) in
            let contact = try Self.find(text, in: transaction.circle.contacts(of: transaction.member))
            var roles = contact.roles
            if let responder = edit.responder { roles.responder = responder }
            if let dependent = edit.dependent { roles.dependent = dependent }
            if roles.isEmpty { throw .refused(.contact(.noRoleLeft(name: contact.name))) }
            var changes: [EditChange]
            switch contact.kind {
            case .member: changes = try Self.editMember(contact, roles: roles, edit, &transaction, at: now)
            case .external: changes = try Self.editExternal(contact, roles: roles, edit, &transaction, at: now)
            }
            if let tier = edit.tier {
                guard roles.responder else { throw .refused(.contact(.tierIsForResponders(name: contact.name))) }
                guard (1...9).contains(tier) else { throw .refused(.contact(.tierOutOfRange(tier))) }
                transaction.record(TierSet(contact: contact.id, tier: tier), at: now)
                changes.append(.tier(tier))
            }
            let updated = transaction.circle.contacts(of: transaction.member).first { $0.id == contact.id }
            // A damaged phone.json (doctor says so) cannot be compared with: it holds nothing usable.
            let topics = (try? transaction.store.phoneTopics()) ?? PhoneTopics()
            try Self.refusePrivate(edit.notify, topics: topics)
            let taken = [topics.phone].compactMap { $0 } + topics.responders.filter { $0.key != contact.id }.values
            if edit.buttonTopic == .some(Self.newTopic) {
                let beside =
                    (transaction.memberState.inbox?.value ?? nil)
                    ?? updated?.external?.channels.first { ChannelKind(of: $0) == .ntfy }
                edit.buttonTopic = .some(Self.privateTopic(beside: beside))
            }
            if let topic = edit.buttonTopic ?? nil,
                let problem = Address.problem(withPrivateTopic: topic, in: transaction.circle, taken: taken)
            {
                throw .refused(.contact(.notAButtonTopic(topic, problem: problem)))
            }
            // A button topic replaced or removed takes its buttons with it.
            if let topic = edit.buttonTopic, topic != topics.responders[contact.id] {
                Self.withdrawButtons(of: [contact.id], in: &transaction, now: now)
            }
            let inbox = transaction.memberState.inbox?.value ?? nil
            return (transaction.store, updated ?? contact, changes, inbox != nil)
        }
        if let external = contact.external, !edit.notify.isEmpty || !edit.email.isEmpty {
            noticeIfToldOnlyHere(external)
        }
        if let topic = edit.buttonTopic {
            try AppError.wrap { () throws(StoreError) in
                try store.updatePhoneTopics(lockTimeout: lockTimeout) { $0.responders[contact.id] = topic }
            }
            changes.append(.buttonTopic(topic, inbox: inbox))
        }
        return (contact, changes)
    }

    private static func editMember(
        _ contact: Contact, roles: Roles, _ edit: ContactEdit, _ transaction: inout Transaction, at now: Timestamp
    ) throws(AppError) -> [EditChange] {
        if edit.name != nil { throw .refused(.contact(.memberNamesThemselves(name: contact.name))) }
        if edit.changesAddresses { throw .refused(.contact(.addressesAreForExternals(name: contact.name))) }
        // They said they watch over me; an edit that makes them my responder says so too, even
        // when it changes no role ('contacts edit Ana --responder' to accept Ana).
        let confirms = contact.roles.responder && roles.responder && !contact.confirmedByMe
        guard roles != contact.roles || confirms else { return [] }
        let me = transaction.member
        let circle = transaction.circle
        var changes: [EditChange] = roles != contact.roles ? [.roles(roles)] : []
        if contact.roles.dependent && !roles.dependent, let ping = circle.pendingPing(from: me, to: contact.id) {
            transaction.record(PingEnded(id: ping.id, from: me, to: contact.id, end: .roleRemoved), at: now)
            changes.append(.cancelledMyPing(to: contact.name))
        }
        if contact.roles.responder && !roles.responder, let ping = circle.pendingPing(from: contact.id, to: me) {
            transaction.record(PingEnded(id: ping.id, from: contact.id, to: me, end: .roleRemoved), at: now)
            changes.append(.cancelledTheirPing(from: contact.name))
        }
        transaction.record(RelationSet(member: contact.id, roles: roles), at: now)
        if confirms { changes.append(.confirmed) }
        return changes
    }

    private static func editExternal(
        _ contact: Contact, roles: Roles, _ edit: ContactEdit, _ transaction: inout Transaction, at now: Timestamp
    ) throws(AppError) -> [EditChange] {
        if roles.dependent { throw .refused(.contact(.externalCannotBeDependent)) }
        guard let base = contact.external else { return [] }
        var updated = base
        updated.name = edit.name ?? base.name
        if !edit.notify.isEmpty { updated.notify = edit.notify }
        if !edit.email.isEmpty { updated.email = edit.email }
        if !edit.phone.isEmpty { updated.phone = edit.phone.map(Address.normalizedPhone) }
        guard updated != base else { return [] }
        transaction.record(ExternalSet(id: contact.id, contact: updated), at: now)
        return [.details]
    }

    /// Removes the contact `text` names (on both sides, for a member), cancelling pending pings
    /// between us; returns it and how many pings were cancelled.
    public func removeContact(_ text: String) throws(AppError) -> (contact: Contact, cancelledPings: Int) {
        let now = self.now
        let (store, removed) = try write { transaction throws(AppError) in
            let me = transaction.member
            let circle = transaction.circle
            let contact = try Self.find(text, in: circle.contacts(of: me))
            var cancelled = 0
            switch contact.kind {
            case .member:
                for (from, to) in [(me, contact.id), (contact.id, me)] {
                    if let ping = circle.pendingPing(from: from, to: to) {
                        transaction.record(PingEnded(id: ping.id, from: from, to: to, end: .roleRemoved), at: now)
                        cancelled += 1
                    }
                }
                transaction.record(RelationSet(member: contact.id, roles: nil), at: now)
            case .external:
                transaction.record(ExternalSet(id: contact.id, contact: nil), at: now)
                Self.withdrawButtons(of: [contact.id], in: &transaction, now: now)
            }
            return (transaction.store, (contact: contact, cancelledPings: cancelled))
        }
        if removed.contact.kind == .external {
            // Her button topic on this device goes with her.
            try? store.updatePhoneTopics(lockTimeout: lockTimeout) { $0.responders[removed.contact.id] = nil }
        }
        return removed
    }
}

extension App.ContactView {
    init(contact: Contact) { self.init(contact: contact, status: nil, checkIn: nil, pingedByMe: nil, pingedMe: nil) }
}
