import LifeSignalCore
import LifeSignalStore

/// `lifesignal alert`: raise a manual emergency alert, end it, see it and its history.
/// Independent of check-ins: a check-in does not end an alert and an alert does not stop the
/// countdown.
enum AlertCommand {
    static let spec = CommandSpec(
        name: "alert",
        abstract: "Raise an emergency alert to all your responders, or end it.",
        discussion:
            "A false alarm is costly and a missed one worse: on a terminal you are asked to confirm; scripts pass --yes. Without a terminal and without --yes nothing is raised.",
        subcommands: [activateSpec, deactivateSpec, statusSpec, historySpec])

    static let activateSpec = CommandSpec(
        name: "activate",
        abstract: "Raise an emergency alert and tell every responder at once.",
        options: [
            .value("message", "text", .text, "What your responders should know (e.g. where you are)."),
            .flag("yes", short: "y", "Do not ask for confirmation (for scripts)."),
        ],
        run: { invocation, session throws(CLIError) in try activate(invocation, &session) })

    static let deactivateSpec = CommandSpec(
        name: "deactivate",
        abstract: "End your alert and tell your responders you are safe.",
        options: [.flag("yes", short: "y", "Do not ask for confirmation (for scripts).")],
        run: { invocation, session throws(CLIError) in try deactivate(invocation, &session) })

    static let statusSpec = CommandSpec(
        name: "status",
        abstract: "Show whether an alert is active (exit 5 when it is).",
        run: { invocation, session throws(CLIError) in try status(invocation, &session) })

    static let historySpec = CommandSpec(
        name: "history",
        abstract: "List your alerts: start, end and duration.",
        run: { invocation, session throws(CLIError) in try history(invocation, &session) })

    /// Asks on the terminal; without one, refuses unless --yes was given.
    static func confirm(_ question: String, action: String, invocation: Invocation, session: Session) throws(CLIError)
        -> Bool
    {
        if invocation.flag("yes") { return true }
        guard session.context.stdinIsTerminal else {
            throw .usage(
                message:
                    "Refusing to \(action) without confirmation: there is no terminal to ask on. Pass --yes to confirm.",
                command: invocation.path)
        }
        _ = session.context.write(.standardError, "\(question) [y/N] ")
        let answer = session.context.readLine()?.trimmingWhitespace.lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }

    static func alertJSON(_ alert: AlertRecord?, now: Timestamp) -> JSON {
        guard let alert, let start = alert.start else { return .null }
        let end = alert.end?.at
        return .object(
            JSONObject([
                ("id", .string(alert.id)), ("message", .optional(alert.message)),
                ("startedAt", .string(start.at.rfc3339)),
                ("endedAt", .optional(end?.rfc3339)), ("durationSeconds", .int(((end ?? now) - start.at).seconds)),
            ]))
    }

    /// `1:02:03` from an hour up, else `12:34` (the spec's alert duration format).
    static func duration(_ span: TimeSpan) -> String {
        let s = max(0, span.seconds)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(two(s % 3600 / 60)):\(two(s % 60))" : "\(two(s / 60)):\(two(s % 60))"
    }

    static func activate(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let message = invocation.value("message")
        if let message, let problem = Rules.problem(withText: message, field: "message") {
            throw .usage(message: "The value for '--message <text>' is invalid: \(problem).", command: invocation.path)
        }
        let store = try session.openStore()
        if let active = (try session.snapshot(store).state.members[store.identity.member])?.activeAlert,
            let start = active.start
        {
            try session.output.json(["activated": false, "alert": alertJSON(active, now: session.now)])
            try session.output.line(
                "An emergency alert is already active, since \(session.when(start.at)). Nothing changed.")
            return .alertActive
        }
        guard
            try confirm(
                "Activate an emergency alert? All your responders will be told at once.", action: "raise an alert",
                invocation: invocation, session: session)
        else {
            try session.output.line("No alert was raised.")
            return .ok
        }
        let now = session.now
        let (alert, already) = try session.update(feed: true) { transaction in
            if let active = transaction.memberState.activeAlert { return (active, true) }
            var generator = SystemRandomNumberGenerator()
            let id = Identifier.make(using: &generator)
            transaction.record(AlertRaised(id: id, message: message), at: now)
            transaction.noticeDue(now: now)
            return (transaction.memberState.alerts[id] ?? AlertRecord(id: id), false)
        }
        if already {
            try session.output.line("An emergency alert is already active. Nothing changed.")
            return .alertActive
        }
        let report = try Deliverer.run(session: session, only: nil)
        try session.output.json(["activated": true, "alert": alertJSON(alert, now: now), "delivery": report.json])
        try session.output.line("Emergency alert activated. Your responders are being notified.")
        report.tellFailures(session)
        return .alertActive
    }

    static func deactivate(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        guard (try session.snapshot(store).state.members[store.identity.member])?.activeAlert != nil else {
            try session.output.json(["deactivated": false])
            try session.output.line("No emergency alert is active. Nothing changed.")
            return .ok
        }
        guard
            try confirm(
                "Are you sure you want to deactivate the alert? This will notify your responders that you are safe.",
                action: "end the alert",
                invocation: invocation, session: session)
        else {
            try session.output.line("The alert is still active.")
            return .alertActive
        }
        let now = session.now
        let alert = try session.update(feed: true) { transaction -> AlertRecord? in
            guard let active = transaction.memberState.activeAlert else { return nil }
            transaction.record(AlertEnded(id: active.id), at: now)
            transaction.noticeDue(now: now)
            return transaction.memberState.alerts[active.id]
        }
        guard let alert else {
            try session.output.line("No emergency alert is active. Nothing changed.")
            return .ok
        }
        let report = try Deliverer.run(session: session, only: nil)
        try session.output.json(["deactivated": true, "alert": alertJSON(alert, now: now), "delivery": report.json])
        try session.output.line("Emergency alert deactivated. Your responders are being told you are safe.")
        report.tellFailures(session)
        return .ok
    }

    static func status(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let active = (try session.snapshot(store).state.members[store.identity.member])?.activeAlert
        try session.output.json(["active": .bool(active != nil), "alert": alertJSON(active, now: session.now)])
        guard let active, let start = active.start else {
            try session.output.line("No emergency alert is active.")
            return .ok
        }
        try session.output.line(
            session.output.red(session.output.bold("Emergency alert active")) + " since \(session.when(start.at))"
                + (active.message.map { ": “\($0)”" } ?? "."))
        try session.output.line("End it with 'lifesignal alert deactivate'.")
        return .alertActive
    }

    static func history(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let alerts =
            (try session.snapshot(store).state.members[store.identity.member])?.alerts.values
            .filter { $0.start != nil }.sorted { ($0.start?.at.seconds ?? 0) > ($1.start?.at.seconds ?? 0) } ?? []
        try session.output.json(["alerts": .array(alerts.map { alertJSON($0, now: session.now) })])
        if alerts.isEmpty {
            try session.output.line("No alerts yet.")
            return .ok
        }
        for alert in alerts {
            guard let start = alert.start?.at else { continue }
            let end = alert.end.map { session.local($0.at) } ?? "active"
            let line =
                "\(session.local(start))  →  \(end.padding(to: 16)) \(duration((alert.end?.at ?? session.now) - start))"
            try session.output.line(line + (alert.message.map { "  \($0)" } ?? ""))
        }
        return .ok
    }
}

extension Deliverer.Report {
    /// After a command that delivers at once: a line per channel that failed, on stderr.
    func tellFailures(_ session: Session) {
        for failure in failures {
            session.output.note(
                "could not deliver \"\(failure.title)\" through \(failure.channel): \(failure.error). 'lifesignal notify deliver' will retry."
            )
        }
    }
}
