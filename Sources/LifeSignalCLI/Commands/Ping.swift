import LifeSignalCore
import LifeSignalStore

/// `lifesignal ping`: a responder asks a dependent "are you OK?"; the dependent answers one
/// ping, or all at once (which is also a check-in); the pinger can clear a ping.
enum PingCommand {
    static let spec = CommandSpec(
        name: "ping",
        abstract: "Ask a dependent whether they are OK, and answer the pings you get.",
        discussion:
            "Only a responder can ping a dependent who is a member of the circle, and only one ping per dependent can be pending at a time.",
        subcommands: [sendSpec, listSpec, respondSpec, clearSpec])

    static let sendSpec = CommandSpec(
        name: "send",
        abstract: "Ping one of your dependents.",
        arguments: [
            ArgumentSpec(
                name: "dependent", kind: .contact, optional: false,
                help: "The dependent: a name, an id, or the first characters of an id.", completion: .dependents)
        ],
        run: { invocation, session throws(CLIError) in try send(invocation, &session) })

    static let listSpec = CommandSpec(
        name: "list",
        abstract: "Show the pings waiting for your answer and the ones you sent.",
        options: [.flag("history", "Also show answered and cleared pings.")],
        run: { invocation, session throws(CLIError) in try list(invocation, &session) })

    static let respondSpec = CommandSpec(
        name: "respond",
        abstract: "Answer a ping (or, with --all, every ping, which also checks you in).",
        arguments: [
            ArgumentSpec(
                name: "ping-or-responder", kind: .ping, optional: true,
                help: "The ping's id (or its first characters), or the responder who sent it.",
                completion: .respondersPinging)
        ],
        options: [.flag("all", "Check in and answer every pending ping.")],
        run: { invocation, session throws(CLIError) in try respond(invocation, &session) })

    static let clearSpec = CommandSpec(
        name: "clear",
        abstract: "Cancel a ping you sent; the dependent sees it was cancelled.",
        arguments: [
            ArgumentSpec(
                name: "ping-or-dependent", kind: .ping, optional: false,
                help: "The ping's id (or its first characters), or the dependent it went to.",
                completion: .pingedDependents)
        ],
        run: { invocation, session throws(CLIError) in try clear(invocation, &session) })

    // MARK: - send

    static func send(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let now = session.now
        let text = invocation.argument(0) ?? ""
        let (contact, id) = try session.update { transaction in
            let me = transaction.member
            let circle = transaction.circle
            let contact = try ContactsCommand.find(text, in: circle.contacts(of: me), path: invocation.path)
            guard contact.kind == .member else {
                throw CLIError.invalidValue(
                    "Only members of your circle can be pinged; \(contact.name) is an external contact with no lifesignal to answer from."
                )
            }
            guard contact.roles.dependent else {
                throw CLIError.invalidValue(
                    "This contact must have the Dependent role to be pinged. Add it with 'lifesignal contacts edit \(contact.name) --dependent' (they will see you as their responder)."
                )
            }
            if let pending = circle.pendingPing(from: me, to: contact.id), let sent = pending.sent {
                throw CLIError.invalidValue(
                    "You already pinged \(contact.name) \(DependentStatus.ago(sent.at, now)) and that ping is still pending. Clear it with 'lifesignal ping clear \(contact.name)' to send a new one."
                )
            }
            var generator = SystemRandomNumberGenerator()
            let id = Identifier.make(using: &generator)
            transaction.record(PingSent(id: id, to: contact.id), at: now)
            return (contact, id)
        }
        let report = try Deliverer.run(session: session, only: nil)
        try session.output.json([
            "ping": .object(
                JSONObject([
                    ("id", .string(id)), ("to", .string(contact.id)), ("toName", .string(contact.name)),
                    ("sentAt", .string(now.rfc3339)),
                ]))
        ])
        try session.output.line(
            "Ping sent to \(contact.name) (id \(id.prefix(8))). They answer with 'lifesignal ping respond'.")
        report.tellFailures(session)
        return .ok
    }

    // MARK: - list

    struct Entry {
        var ping: Ping
        var sent: Stamp
        var incoming: Bool
        var otherName: String
        var state: String
    }

    static func entries(circle: CircleState, me: String, now: Timestamp, contacts: [Contact]? = nil) -> [Entry] {
        var names: [String: String] = [:]
        for contact in contacts ?? circle.contacts(of: me) where names[contact.id] == nil {
            names[contact.id] = contact.name
        }
        return circle.pings(involving: me).map { ping, sent in
            let incoming = ping.to == me
            let other = incoming ? ping.from : ping.to
            let name = names[other] ?? circle.members[other]?.name?.value ?? String(other.prefix(8))
            let state: String
            if circle.isPending(ping) {
                state = "pending"
            } else {
                switch ping.endKind {
                case .answered: state = "answered"
                case .cleared: state = "cleared"
                case .roleRemoved, nil: state = "cancelled"
                }
            }
            return Entry(ping: ping, sent: sent, incoming: incoming, otherName: name, state: state)
        }
    }

    static func json(_ entry: Entry) -> JSON {
        .object(
            JSONObject([
                ("id", .string(entry.ping.id)), ("from", .string(entry.ping.from)), ("to", .string(entry.ping.to)),
                ("direction", .string(entry.incoming ? "incoming" : "outgoing")), ("with", .string(entry.otherName)),
                ("sentAt", .string(entry.sent.at.rfc3339)), ("state", .string(entry.state)),
                ("endedAt", .optional(entry.ping.endStamp?.at.rfc3339)),
            ]))
    }

    static func list(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let circle = try session.snapshot(store).state
        let all = entries(circle: circle, me: store.identity.member, now: session.now)
        let incoming = all.filter { $0.incoming && $0.state == "pending" }
        let outgoing = all.filter { !$0.incoming && $0.state == "pending" }
        var document = JSONObject([("incoming", .array(incoming.map(json))), ("outgoing", .array(outgoing.map(json)))])
        if invocation.flag("history") { document["history"] = .array(all.map(json)) }
        try session.output.json(.object(document))
        func line(_ e: Entry) -> String {
            "  \(e.ping.id.prefix(8))  \((e.incoming ? "from " : "to ") + e.otherName)".padding(to: 32)
                + "\(Relative.phrase(e.sent.at, now: session.now))".padding(to: 14) + e.state
        }
        if incoming.isEmpty {
            try session.output.line("No pings waiting for your answer.")
        } else {
            try session.output.line(
                session.output.bold("Waiting for your answer")
                    + " (answer with 'lifesignal ping respond NAME', or all with 'lifesignal ping respond --all'):")
            for e in incoming { try session.output.line(session.output.yellow(line(e))) }
        }
        if outgoing.isEmpty {
            try session.output.line("No pings of yours are pending.")
        } else {
            try session.output.line(session.output.bold("Sent by you, pending:"))
            for e in outgoing { try session.output.line(line(e)) }
        }
        if invocation.flag("history") {
            try session.output.line(session.output.bold("History:"))
            if all.isEmpty { try session.output.line("  No pings yet.") }
            for e in all { try session.output.line(line(e)) }
        }
        return .ok
    }

    /// Finds a ping among `candidates` by id prefix, else by the other person's name.
    static func find(
        _ text: String, in candidates: [Entry], circle: CircleState, me: String, incoming: Bool, path: [String]
    ) throws(CLIError) -> Entry {
        let wanted = text.trimmingWhitespace.lowercased()
        let byId = wanted.count >= 4 ? candidates.filter { $0.ping.id.hasPrefix(wanted) } : []
        if byId.count == 1, let only = byId.first { return only }
        let contact = try ContactsCommand.find(text, in: circle.contacts(of: me), path: path)
        if let match = candidates.first(where: { (incoming ? $0.ping.from : $0.ping.to) == contact.id }) {
            return match
        }
        throw .invalidValue(
            incoming ? "No active ping found from \(contact.name)." : "You have no pending ping to \(contact.name).")
    }

    // MARK: - respond

    static func respond(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let all = invocation.flag("all")
        let text = invocation.argument(0)
        if all == (text != nil) {
            throw .usage(
                message: all
                    ? "Give either a ping or --all, not both."
                    : "Say which ping to answer (its id or the responder's name), or answer all with --all.",
                command: invocation.path)
        }
        let now = session.now
        let (answered, status) = try session.update(feed: all) { transaction in
            let me = transaction.member
            let circle = transaction.circle
            let pending = entries(circle: circle, me: me, now: now).filter { $0.incoming && $0.state == "pending" }
            var chosen: [Entry]
            if all {
                chosen = pending
                transaction.record(CheckedIn(note: nil), at: now)
            } else {
                chosen = [
                    try find(text ?? "", in: pending, circle: circle, me: me, incoming: true, path: invocation.path)
                ]
            }
            for entry in chosen {
                transaction.record(
                    PingEnded(id: entry.ping.id, from: entry.ping.from, to: me, end: .answered), at: now)
            }
            let status: CheckInStatus? = all ? CheckInStatus(member: transaction.memberState, now: now) : nil
            if all, !chosen.isEmpty {
                transaction.notice(
                    Notifications.allPingsCleared(
                        member: me, count: chosen.count, at: now,
                        cause: chosen.map(\.ping.id).sorted().joined(separator: ",")))
            }
            return (chosen, status)
        }
        var document = JSONObject([
            (
                "answered",
                .array(
                    answered.map {
                        json(
                            Entry(
                                ping: $0.ping, sent: $0.sent, incoming: true, otherName: $0.otherName, state: "answered"
                            ))
                    })
            )
        ])
        if let status { document["checkIn"] = Render.checkInJSON(status) }
        try session.output.json(.object(document))
        let names = answered.map(\.otherName).joined(separator: ", ")
        if all {
            try session.output.line(
                answered.isEmpty
                    ? "Checked in. There were no pings to answer."
                    : "Checked in and answered \(answered.count) ping\(answered.count == 1 ? "" : "s") (\(names)).")
            if let deadline = status?.deadline { try session.output.line("Next deadline \(session.when(deadline)).") }
        } else {
            try session.output.line("Answered \(names)'s ping. (Answering with --all also checks you in.)")
        }
        return .ok
    }

    // MARK: - clear

    static func clear(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let now = session.now
        let text = invocation.argument(0) ?? ""
        let entry = try session.update { transaction in
            let me = transaction.member
            let circle = transaction.circle
            let pending = entries(circle: circle, me: me, now: now).filter { !$0.incoming && $0.state == "pending" }
            let entry = try find(text, in: pending, circle: circle, me: me, incoming: false, path: invocation.path)
            transaction.record(PingEnded(id: entry.ping.id, from: me, to: entry.ping.to, end: .cleared), at: now)
            return entry
        }
        try session.output.json([
            "cleared": json(
                Entry(ping: entry.ping, sent: entry.sent, incoming: false, otherName: entry.otherName, state: "cleared")
            )
        ])
        try session.output.line("Cleared your ping to \(entry.otherName); they will see it was cancelled.")
        return .ok
    }
}
