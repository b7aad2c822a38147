import LifeSignalCore
import LifeSignalStore

/// The dashboard (`status`): where I stand, my alert, the pings waiting for my answer, the
/// dependents that need attention, and my unread count. Read-only, and the most frequent run,
/// so it reads the private cache when nothing changed.
extension App {
    public struct Dashboard: Sendable {
        public var member: String
        public var name: String
        public var device: String
        public var dataDirectory: String
        public var circle: String
        public var checkIn: CheckInStatus
        public var alert: AlertRecord?
        public var unread: Int
        public var pingsToAnswer: [PingView]
        /// Dependents in an alert, non-responsive, or pinged by me, in the app's order.
        public var needsAttention: [DependentView]
        /// What could stop my responders from hearing about me.
        public var warnings: [Warning]
        /// Records in the folder of someone I am linked with (or my own) are ignored as not
        /// signed by a device of theirs (said among the notices).
        public var recordsIgnored = false
    }

    public func dashboard() throws(AppError) -> Dashboard {
        let (store, snapshot) = try read(for: .dashboard)
        let me = store.identity.member
        let circle = snapshot.state
        let state = circle.members[me] ?? MemberState()
        var unread = snapshot.unread ?? 0
        if snapshot.unread == nil {
            let counted = try AppError.wrap { () throws(StoreError) in try store.unreadCount() }
            notice(skipped: counted.skipped)
            unread = counted.count
        }
        let contacts = circle.contacts(of: me)
        let unreadable = snapshot.unreadable
        let attention = circle.dependents(among: contacts, me: me, now: now, unreadable: unreadable).filter {
            $0.status.needsAttention || $0.status.kind == .pinged
        }
        let health = HealthFile.read(dataDirectory: dataDirectory)
        let overdue = Self.aDependentIsOverdue(of: me, in: circle, now: now)
        var board = Dashboard(
            member: me, name: state.name?.value ?? defaultName(), device: store.identity.device,
            dataDirectory: store.dataDirectory, circle: store.circleDirectory,
            checkIn: circle.status(of: me, now: now), alert: state.activeAlert, unread: unread,
            pingsToAnswer: circle.pingViews(of: me, contacts: contacts).filter(\.isIncomingPending),
            needsAttention: attention,
            warnings: (store.signingProblem(thorough: false).map { [.cannotSign($0)] } ?? [])
                + Self.watchWarnings(for: me, in: circle, now: now, health: health)
                + Self.circleWarnings(
                    of: me, in: circle, device: store.identity.device,
                    sync: syncView(store, asking: overdue, health: health), now: now))
        noticeFutureCheckIn(board.checkIn)
        // Said among the notices of the read (see `read`).
        board.recordsIgnored = notices.contains { notice in
            guard case .warning(let warning) = notice else { return false }
            return warning.ignoresRecords
        }
        return board
    }

    /// Which of my contacts the completion scripts offer for an argument.
    public enum ContactGroup: Sendable {
        case all
        /// Members I watch over (`ping send`).
        case dependents
        /// Responders whose ping to me is pending (`ping respond`).
        case respondersPinging
        /// Dependents I have a pending ping to (`ping clear`).
        case pingedDependents
    }

    /// The names of my contacts in `group` that start with `prefix` (ignoring case), each once,
    /// in the order `contacts(of:)` gives; none when anything cannot be read. It runs on every
    /// TAB of a completion, so it never complains and never writes (but the read cache).
    public func contactNames(_ group: ContactGroup, prefix: String) -> [String] {
        guard let store = try? openStore(), let circle = try? store.snapshot().state else { return [] }
        let me = store.identity.member
        let contacts = circle.contacts(of: me)
        let chosen: [Contact]
        switch group {
        case .all: chosen = contacts
        case .dependents: chosen = contacts.filter { $0.kind == .member && $0.roles.dependent }
        case .respondersPinging, .pingedDependents:
            let incoming = group == .respondersPinging
            let pending = circle.pingViews(of: me, contacts: contacts).filter {
                $0.incoming == incoming && $0.state == .pending
            }
            let others = Set(pending.map { incoming ? $0.ping.from : $0.ping.to })
            chosen = contacts.filter { others.contains($0.id) }
        }
        let wanted = prefix.lowercased()
        var seen: Set<String> = []
        return chosen.map(\.name).filter { name in
            // One candidate per line: a name that could break a line, or drive the terminal
            // the shell shows it on, is left out.
            !name.isEmpty
                && !name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
                && name.lowercased().hasPrefix(wanted)
                && seen.insert(name).inserted
        }
    }
}
