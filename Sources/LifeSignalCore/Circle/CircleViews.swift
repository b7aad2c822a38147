/// How the circle looks from one member at an instant: their dependents with live statuses in the
/// app's order, their pings with the state of each, their contacts in the order lists show them.
/// Pure views of `CircleState`, computed on every run and never stored.
extension CircleState {
    /// A dependent's live status as `me` sees it, or nil when they are not my dependent member.
    /// `unreadable` names the members some of whose records could not be read, and since when.
    public func dependentStatus(
        of id: String, me: String, now: Timestamp, unreadable: [String: Timestamp] = [:]
    ) -> DependentStatus? {
        guard let roles = roles(of: me, toward: id), roles.dependent else { return nil }
        let ping = pendingPing(from: me, to: id)
        let member = members[id] ?? MemberState()
        return DependentStatus(
            member: member, alertSince: member.activeAlert?.start?.at, pendingPingSent: ping?.sent?.at,
            unreadableSince: unreadable[id], now: now, vouches: vouches(for: id))
    }

    /// My dependent members among `contacts`, with their live status, in the app's priority order.
    public func dependents(
        among contacts: [Contact], me: String, now: Timestamp, unreadable: [String: Timestamp] = [:]
    ) -> [DependentView] {
        var list: [DependentView] = []
        for contact in contacts {
            if let status = dependentStatus(of: contact.id, me: me, now: now, unreadable: unreadable) {
                list.append(DependentView(contact: contact, status: status))
            }
        }
        return DependentStatus.sorted(list, status: { $0.status }, name: { $0.contact.name })
    }

    /// Dependents first in the app's priority order, then everyone else by name.
    public func orderedContacts(
        _ contacts: [Contact], me: String, now: Timestamp, unreadable: [String: Timestamp] = [:]
    ) -> [Contact] {
        let first = dependents(among: contacts, me: me, now: now, unreadable: unreadable).map { $0.contact }
        return first + contacts.filter { c in !first.contains { $0.id == c.id } }
    }

    /// The members whose state `me`'s dashboard reads: me, everyone linked to me, and the
    /// other side of each of my pings.
    public func dashboardMembers(of me: String) -> Set<String> {
        var wanted = Set(linked(with: me))
        wanted.insert(me)
        for (ping, _) in pings(involving: me) { wanted.formUnion([ping.from, ping.to]) }
        return wanted
    }

    /// Every ping `me` sent or received whose start is known, newest first, with the other
    /// person's name (from `contacts` when given, else their profile).
    public func pingViews(of me: String, contacts: [Contact]? = nil) -> [PingView] {
        var names: [String: String] = [:]
        for contact in contacts ?? self.contacts(of: me) where names[contact.id] == nil {
            names[contact.id] = contact.name
        }
        return pings(involving: me).map { ping, sent in
            let incoming = ping.to == me
            let other = incoming ? ping.from : ping.to
            let name = names[other] ?? members[other]?.name?.value ?? String(other.prefix(8))
            let state: PingView.State
            if isPending(ping) {
                state = .pending
            } else {
                switch ping.endKind {
                case .answered: state = .answered
                case .cleared: state = .cleared
                case .roleRemoved, nil: state = .cancelled
                }
            }
            return PingView(ping: ping, sent: sent, incoming: incoming, otherName: name, state: state)
        }
    }
}

/// A dependent member of mine and their live status.
public struct DependentView: Equatable, Sendable {
    public var contact: Contact
    public var status: DependentStatus
}

/// One ping as `me` sees it: which way it went, with whom, and where it stands.
public struct PingView: Equatable, Sendable {
    public enum State: String, Sendable {
        case pending, answered, cleared, cancelled
    }

    public var ping: Ping
    public var sent: Stamp
    /// Sent to me (rather than by me).
    public var incoming: Bool
    public var otherName: String
    public var state: State

    /// The same ping, ended as `state`.
    public func ended(_ state: State) -> PingView {
        PingView(ping: ping, sent: sent, incoming: incoming, otherName: otherName, state: state)
    }

    /// Waiting for my answer.
    public var isIncomingPending: Bool { incoming && state == .pending }
    /// Mine, waiting for theirs.
    public var isOutgoingPending: Bool { !incoming && state == .pending }
}

extension ExternalContact {
    /// Where their notifications go: their channels and their e-mail addresses.
    public var channels: [String] { notify + email.map(ChannelKind.mail.channel) }
}
