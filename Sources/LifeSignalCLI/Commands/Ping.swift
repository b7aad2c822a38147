import LifeSignalApp
import LifeSignalCore

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
        examples: ["lifesignal ping send Bea"],
        run: send)

    static let history = OptionSpec.flag("history", "Also show answered and cleared pings.")

    static let listSpec = CommandSpec(
        name: "list",
        abstract: "Show the pings waiting for your answer and the ones you sent.",
        options: [history],
        run: list)

    static let all = OptionSpec.flag("all", "Check in and answer every pending ping.")

    static let respondSpec = CommandSpec(
        name: "respond",
        abstract: "Answer a ping (or, with --all, every ping, which also checks you in).",
        arguments: [
            ArgumentSpec(
                name: "ping-or-responder", kind: .ping, optional: true,
                help: "The ping's id (or its first characters), or the responder who sent it.",
                completion: .respondersPinging)
        ],
        options: [all],
        rules: [
            .exactlyOne(
                ["<ping-or-responder>", "--all"],
                missing: "Say which ping to answer (its id or the responder's name), or answer all with --all.",
                several: "Give either a ping or --all, not both.")
        ],
        run: respond)

    static let clearSpec = CommandSpec(
        name: "clear",
        abstract: "Cancel a ping you sent; the dependent sees it was cancelled.",
        arguments: [
            ArgumentSpec(
                name: "ping-or-dependent", kind: .ping, optional: false,
                help: "The ping's id (or its first characters), or the dependent it went to.",
                completion: .pingedDependents)
        ],
        run: clear)

    static func send(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let text = line.text(argument: 0) ?? ""
        let sent = try session.call(line.path) { app throws(AppError) in try app.sendPing(to: text) }
        let contact = sent.to
        try session.output.json(sent, now: session.now)
        try session.output.line(
            "Ping sent to \(contact.name) (id \(sent.id.prefix(8))). They answer with 'lifesignal ping respond'.")
        sent.delivery.tellFailures(session)
        return .ok
    }

    static func list(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let all = try session.call(line.path) { app throws(AppError) in try app.pings() }
        let list = Listed(all: all, history: line.flag(history))
        try session.output.json(list)
        let o = session.output
        func row(_ e: PingView) -> String {
            "  \(e.ping.id.prefix(8))  \((e.incoming ? "from " : "to ") + e.otherName)".padding(to: 32)
                + "\(Relative.phrase(e.sent.at, now: session.now))".padding(to: 14) + e.state.rawValue
        }
        if list.incoming.isEmpty {
            try session.output.line("No pings waiting for your answer.")
        } else {
            try session.output.line(
                o.bold("Waiting for your answer")
                    + " (answer with 'lifesignal ping respond NAME', or all with 'lifesignal ping respond --all'):")
            for e in list.incoming { try session.output.line(o.yellow(row(e))) }
        }
        if list.outgoing.isEmpty {
            try session.output.line("No pings of yours are pending.")
        } else {
            try session.output.line(o.bold("Sent by you, pending:"))
            for e in list.outgoing { try session.output.line(row(e)) }
        }
        if list.history {
            try session.output.line(o.bold("History:"))
            if all.isEmpty { try session.output.line("  No pings yet.") }
            for e in all { try session.output.line(row(e)) }
        }
        return .ok
    }

    static func respond(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let everything = line.flag(all)
        let answer: App.PingAnswer = everything ? .all : .one(line.text(argument: 0) ?? "")
        let done = try session.call(line.path) { app throws(AppError) in try app.respond(answer) }
        try session.output.json(done)
        let names = done.pings.map(\.otherName).joined(separator: ", ")
        guard everything else {
            try session.output.line("Answered \(names)'s ping. (Answering with --all also checks you in.)")
            if let status = done.status, status.phase == .overdue, let deadline = status.deadline {
                try session.output.line(
                    "You are overdue since \(session.when(deadline)): answering a ping is not a check-in, so your responders go on being told you missed it. Check in with 'lifesignal checkin'."
                )
            }
            return .ok
        }
        let count = done.pings.count
        try session.output.line(
            count == 0
                ? "Checked in. There were no pings to answer."
                : "Checked in and answered \(count) ping\(count == 1 ? "" : "s") (\(names)).")
        if let deadline = done.status?.deadline { try session.output.line("Next deadline \(session.when(deadline)).") }
        return .ok
    }

    static func clear(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let text = line.text(argument: 0) ?? ""
        let view = try session.call(line.path) { app throws(AppError) in try app.clearPing(text) }
        try session.output.json(Cleared(ping: view))
        try session.output.line("Cleared your ping to \(view.otherName); they will see it was cancelled.")
        return .ok
    }

    /// `ping list`: the pings waiting for my answer, the ones I sent, and with `history` all.
    struct Listed: JSONRendered {
        var all: [PingView]
        var history: Bool
        var incoming: [PingView] { all.filter(\.isIncomingPending) }
        var outgoing: [PingView] { all.filter(\.isOutgoingPending) }

        var json: JSON {
            var document = JSONObject([
                ("incoming", .array(incoming.map(Render.pingJSON))),
                ("outgoing", .array(outgoing.map(Render.pingJSON))),
            ])
            if history { document["history"] = .array(all.map(Render.pingJSON)) }
            return .object(document)
        }
    }

    /// The ping `ping clear` cancelled.
    struct Cleared: JSONRendered {
        var ping: PingView

        var json: JSON { ["cleared": Render.pingJSON(ping)] }
    }
}

/// The ping `ping send` sent, now.
extension App.SentPing: JSONRenderedAt {
    func json(now: Timestamp) -> JSON {
        ["ping": ["id": .string(id), "to": .string(to.id), "toName": .string(to.name), "sentAt": .string(now.rfc3339)]]
    }
}

/// The pings `ping respond` answered, and with `--all` the check-in it recorded.
extension App.Answered: JSONRendered {
    var json: JSON {
        var document = JSONObject([("answered", .array(pings.map(Render.pingJSON)))])
        if let status { document["checkIn"] = status.json }
        return .object(document)
    }
}
