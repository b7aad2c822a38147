import LifeSignalApp
import LifeSignalCore

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

    static let message = OptionSpec.value(
        "message", "text", .prose("message"), "What your responders should know (e.g. where you are).")

    static let activateSpec = CommandSpec(
        name: "activate",
        abstract: "Raise an emergency alert and tell every responder at once.",
        options: [message, .yes],
        examples: [
            "lifesignal alert activate --message \"Fell on the trail, near the bridge\"",
            "lifesignal alert activate --yes --message \"Car broke down on the A30\"",
        ],
        run: activate)

    static let deactivateSpec = CommandSpec(
        name: "deactivate",
        abstract: "End your alert and tell your responders you are safe (it checks you in too).",
        options: [.yes],
        run: deactivate)

    static let statusSpec = CommandSpec(
        name: "status",
        abstract: "Show whether an alert is active (exit 5 when it is).",
        run: status)

    static let historySpec = CommandSpec(
        name: "history",
        abstract: "List your alerts: start, end and duration.",
        run: history)

    /// How long an alert lasted, as every other span is shown: `5m`, `1h 48m`, `2d 3h`.
    static func duration(_ span: TimeSpan) -> String { TimeSpan(seconds: max(0, span.seconds)).short }

    /// Raises an alert, or gives the active one a new message; exits 0 once it is recorded
    /// (`alert status` is the one that exits 5 while an alert is active).
    static func activate(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let message = line.text(Self.message)
        let active = try session.call(line.path) { app throws(AppError) in try app.activeAlert() }
        if active == nil {
            let question = "Activate an emergency alert? All your responders will be told at once."
            guard try session.confirm(question, action: "raise an alert", line: line, yes: line.flag(.yes)) else {
                try session.output.line("No alert was raised.")
                return .ok
            }
        }
        let change = try session.call(line.path) { app throws(AppError) in try app.raiseAlert(message: message) }
        // The headline says it when nobody will be told; other doubts go to stderr.
        session.output.warn(listed: change.warnings.filter { $0 != .noResponders })
        try session.output.json(change, now: session.now)
        try session.output.line(headline(change, session: session))
        change.delivery?.tellFailures(session)
        return .ok
    }

    /// What `alert activate` did, in one line; plain when nobody will be told.
    static func headline(_ change: App.AlertChange, session: Session) -> String {
        let nobody = change.warnings.contains(.noResponders)
        switch change.kind {
        case .raised:
            return nobody
                ? "Emergency alert recorded, but nobody will be told: you have no responders. Add one with 'lifesignal contacts add'."
                : "Emergency alert activated. Your responders are being notified."
        case .updated:
            let said = change.alert.currentMessage.map { ": “\($0)”" } ?? ""
            return nobody
                ? "Emergency alert updated\(said), but nobody will be told: you have no responders."
                : "Emergency alert updated. Your responders are being told\(said)."
        case .unchanged, .ended:
            let since = change.alert.start.map { ", since \(session.when($0.at))" } ?? ""
            return
                "An emergency alert is already active\(since). Nothing changed; give it a new message with --message."
        }
    }

    static func deactivate(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard try session.call(line.path, { app throws(AppError) in try app.activeAlert() }) != nil else {
            try session.output.json(Deactivated(change: nil), now: session.now)
            try session.output.line("No emergency alert is active. Nothing changed.")
            return .ok
        }
        let question =
            "Are you sure you want to deactivate the alert? This will notify your responders that you are safe."
        guard try session.confirm(question, action: "end the alert", line: line, yes: line.flag(.yes)) else {
            try session.output.line("The alert is still active.")
            return .alertActive
        }
        guard let change = try session.call(line.path, { app throws(AppError) in try app.endAlert() }),
            let delivery = change.delivery
        else {
            try session.output.line("No emergency alert is active. Nothing changed.")
            return .ok
        }
        session.output.warn(listed: change.warnings)
        try session.output.json(Deactivated(change: change), now: session.now)
        try session.output.line(
            "Emergency alert deactivated, and you are checked in. Your responders are being told you are safe.")
        delivery.tellFailures(session)
        return .ok
    }

    static func status(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let active = try session.call(line.path) { app throws(AppError) in try app.activeAlert() }
        try session.output.json(Active(alert: active), now: session.now)
        guard let active, let start = active.start else {
            try session.output.line("No emergency alert is active.")
            return .ok
        }
        try session.output.line(
            session.output.red(session.output.bold("Emergency alert active")) + " since \(session.when(start.at))"
                + (active.currentMessage.map { ": “\($0)”" } ?? "."))
        try session.output.line("End it with 'lifesignal alert deactivate'.")
        return .alertActive
    }

    static func history(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let alerts = try session.call(line.path) { app throws(AppError) in try app.alertHistory() }
        try session.output.json(History(alerts: alerts), now: session.now)
        if alerts.isEmpty {
            try session.output.line("No alerts yet.")
            return .ok
        }
        let ends = alerts.map { alert in alert.end.map { session.local($0.at) } ?? "active" }
        let width = ends.map(\.count).max() ?? 0
        for (alert, end) in zip(alerts, ends) {
            guard let start = alert.start?.at else { continue }
            let text =
                "\(session.local(start))  →  \(end.padding(to: width + 1)) \(duration((alert.end?.at ?? session.now) - start))"
            try session.output.line(text + (alert.currentMessage.map { "  \($0)" } ?? ""))
        }
        return .ok
    }

    /// What `alert deactivate` ended: the alert and the delivery that told it, or nothing.
    struct Deactivated: JSONRenderedAt {
        var change: App.AlertChange?

        func json(now: Timestamp) -> JSON {
            guard let change else { return ["deactivated": false] }
            return [
                "deactivated": true, "alert": Render.alertJSON(change.alert, now: now),
                "delivery": change.delivery.json(\.json),
            ]
        }
    }

    /// `alert status`: the active alert, if any.
    struct Active: JSONRenderedAt {
        var alert: AlertRecord?

        func json(now: Timestamp) -> JSON {
            ["active": .bool(alert != nil), "alert": Render.alertJSON(alert, now: now)]
        }
    }

    /// `alert history`: every alert, with how long it lasted.
    struct History: JSONRenderedAt {
        var alerts: [AlertRecord]

        func json(now: Timestamp) -> JSON { ["alerts": .array(alerts.map { Render.alertJSON($0, now: now) })] }
    }
}

/// What `alert activate` did: raised an alert, gave it a new message, or found it unchanged.
extension App.AlertChange: JSONRenderedAt {
    func json(now: Timestamp) -> JSON {
        var document = JSONObject([
            ("activated", .bool(kind == .raised)), ("updated", .bool(kind == .updated)),
            ("alert", Render.alertJSON(alert, now: now)),
        ])
        if let delivery { document["delivery"] = delivery.json }
        document["warnings"] = .array(warnings.map(Render.warningJSON))
        return .object(document)
    }
}
