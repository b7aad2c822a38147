import LifeSignalCore
import LifeSignalStore

/// Pings: a responder asks a dependent "are you OK?"; the dependent answers one ping, or all at
/// once (which is also a check-in); the pinger can clear a ping.
extension App {
    /// A ping just sent, and how delivering it (and anything else due) went.
    public struct SentPing: Sendable {
        public var id: String
        public var to: Contact
        public var delivery: DeliveryReport
    }

    /// Pings the dependent `text` names; one ping per dependent may be pending.
    public func sendPing(to text: String) throws(AppError) -> SentPing {
        let now = self.now
        let id = newID()
        let contact = try write { transaction throws(AppError) in
            let me = transaction.member
            let circle = transaction.circle
            let contact = try Self.find(text, in: circle.contacts(of: me))
            guard contact.kind == .member else { throw .refused(.ping(.external(name: contact.name))) }
            guard contact.roles.dependent else { throw .refused(.ping(.notDependent(name: contact.name))) }
            if let pending = circle.pendingPing(from: me, to: contact.id), let sent = pending.sent {
                throw .refused(.ping(.alreadyPending(name: contact.name, sent: sent.at)))
            }
            transaction.record(PingSent(id: id, to: contact.id), at: now)
            return contact
        }
        return SentPing(id: id, to: contact, delivery: try deliver())
    }

    /// Every ping I sent or received, newest first.
    public func pings() throws(AppError) -> [PingView] {
        let (store, snapshot) = try read()
        return snapshot.state.pingViews(of: store.identity.member)
    }

    /// Which pings to answer.
    public enum PingAnswer: Sendable {
        /// The ping with this id (or its first characters), or the one from the responder named.
        case one(String)
        /// Every pending ping, with a check-in.
        case all
    }

    /// Pings answered, and with `.all` where the check-in leaves me.
    public struct Answered: Sendable {
        public var pings: [PingView]
        public var status: CheckInStatus?
    }

    public func respond(_ answer: PingAnswer) throws(AppError) -> Answered {
        let now = self.now
        let all: Bool
        if case .all = answer { all = true } else { all = false }
        return try write(needs: all ? .circleAndFeed : .circle) { transaction throws(AppError) in
            let me = transaction.member
            let circle = transaction.circle
            let pending = circle.pingViews(of: me).filter(\.isIncomingPending)
            var chosen: [PingView]
            switch answer {
            case .all:
                chosen = pending
                transaction.record(CheckedIn(note: nil), at: now)
            case .one(let text):
                chosen = [try Self.find(ping: text, in: pending, circle: circle, me: me, incoming: true)]
            }
            for view in chosen {
                transaction.record(PingEnded(id: view.ping.id, from: view.ping.from, to: me, end: .answered), at: now)
            }
            guard all else {
                // Where I stand: an answer to one ping is no check-in, and a miss goes on.
                return Answered(
                    pings: chosen.map { $0.ended(.answered) },
                    status: CheckInStatus(member: transaction.memberState, now: now))
            }
            if !chosen.isEmpty {
                let cause = chosen.map(\.ping.id).sorted().joined(separator: ",")
                transaction.notice(
                    Notifications.allPingsCleared(member: me, count: chosen.count, at: now, cause: cause))
            }
            return Answered(
                pings: chosen.map { $0.ended(.answered) },
                status: CheckInStatus(member: transaction.memberState, now: now))
        }
    }

    /// Cancels my pending ping to the dependent `text` names (or with that id); they are told.
    public func clearPing(_ text: String) throws(AppError) -> PingView {
        let now = self.now
        return try write { transaction throws(AppError) in
            let me = transaction.member
            let circle = transaction.circle
            let pending = circle.pingViews(of: me).filter(\.isOutgoingPending)
            let view = try Self.find(ping: text, in: pending, circle: circle, me: me, incoming: false)
            transaction.record(PingEnded(id: view.ping.id, from: me, to: view.ping.to, end: .cleared), at: now)
            return view.ended(.cleared)
        }
    }

    /// Finds a ping among `candidates` by id prefix, else by the other person's name.
    static func find(ping text: String, in candidates: [PingView], circle: CircleState, me: String, incoming: Bool)
        throws(AppError) -> PingView
    {
        let wanted = text.trimmingWhitespace.lowercased()
        let byId = wanted.count >= 4 ? candidates.filter { $0.ping.id.hasPrefix(wanted) } : []
        if byId.count == 1, let only = byId.first { return only }
        let contact = try find(text, in: circle.contacts(of: me))
        if let match = candidates.first(where: { (incoming ? $0.ping.from : $0.ping.to) == contact.id }) {
            return match
        }
        throw .refused(.ping(incoming ? .noneFrom(name: contact.name) : .noneTo(name: contact.name)))
    }
}
