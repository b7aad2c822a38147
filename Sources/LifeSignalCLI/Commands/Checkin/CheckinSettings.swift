import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin interval`, `reminder`, `grace`, `escalation`, `repeat` and
/// `pause-limit`: the settings of the check-in, each shown without an argument and set with one.
enum CheckinSettingsCommand {
    static let intervalSpec = CommandSpec(
        name: "interval",
        abstract: "Show or set how long you may go between check-ins.",
        discussion: """
            Presets: 8h, 16h, 24h (the default), 48h. Any duration from 10m to 30d is accepted, e.g. 36h, 3d, or 45m for a short trip.

            Changing the interval moves your deadline to your last check-in + the new interval. It is not a check-in: a shorter interval can make you overdue at once.
            """,
        arguments: [
            ArgumentSpec(
                name: "duration", kind: .duration, optional: true,
                help: "The new interval, e.g. 8h, 16h, 24h, 48h, 1d12h.")
        ],
        run: interval)

    static let reminderSpec = CommandSpec(
        name: "reminder",
        abstract: "Show or set how long before your deadline you are reminded.",
        discussion: "Presets: 30m (the default), 1h, 2h, 4h, 6h, or off. It must be shorter than your interval.",
        arguments: [
            ArgumentSpec(
                name: "lead", kind: .durationOrOff, optional: true, help: "The new lead time, e.g. 30m, 2h, or off.")
        ],
        run: reminder)

    static let graceSpec = CommandSpec(
        name: "grace",
        abstract: "Show or set how long after a missed deadline only you are told.",
        discussion: """
            During the grace period a missed check-in is told to you alone ("your responders are told at 09:30"); then your tier-1 responders are told. Alerts skip it. 'off' (the default) tells them at the deadline; at most \(Escalation.longestGrace.short).
            """,
        arguments: [
            ArgumentSpec(name: "duration", kind: .durationOrOff, optional: true, help: "e.g. 30m, 2h, or off.")
        ],
        run: grace)

    static let escalationSpec = CommandSpec(
        name: "escalation",
        abstract: "Show or set the delay between tiers of responders.",
        discussion: """
            Responders are in tier 1 unless set otherwise ('lifesignal contacts edit NAME --tier 2'). Tier 2 is told this long after tier 1, tier 3 after twice as long, and so on, unless a responder has acknowledged ('lifesignal notify ack ID': it holds the escalation for \(Escalation.acknowledgementHold.short)) or you have checked in; the lowest tier in use is told first. Default \(Escalation.defaultDelay.short); from \(Escalation.delays.lowerBound.short) to \(Escalation.delays.upperBound.short).
            """,
        arguments: [ArgumentSpec(name: "duration", kind: .duration, optional: true, help: "e.g. 30m or 1h.")],
        run: escalation)

    static let repeatSpec = CommandSpec(
        name: "repeat",
        abstract: "Show or set how often an unanswered alarm is told again.",
        discussion: """
            A missed check-in or an active alert is told again to everyone already told, at this interval, until you check in, the alert ends, or someone vouches for you; someone's acknowledgement ('lifesignal notify ack ID') holds the repeats for \(Escalation.acknowledgementHold.short). Each repeat is a new message that says which notice it is ("second notice, 1h after the first"; those an acknowledgement held back were never sent, and are not counted), threaded to the first. Default \(Repeats.defaultEvery.short); from \(Repeats.shortest.short) to \(Repeats.longest.short), or 'off' to tell each alarm once.
            """,
        arguments: [
            ArgumentSpec(name: "duration", kind: .durationOrOff, optional: true, help: "e.g. 30m, 1h, 4h, or off.")
        ],
        run: repeatEvery)

    static let pauseLimitSpec = CommandSpec(
        name: "pause-limit",
        abstract: "Show or set the longest pause or trip allowed without --yes.",
        discussion:
            "Default \(Pause.longest.short). A longer pause, or a trip due back later, is how a switch gets left off by mistake.",

        arguments: [ArgumentSpec(name: "duration", kind: .duration, optional: true, help: "e.g. 30d or 60d.")],
        run: pauseLimit)

    /// A new value of one setting: what applies it, and what is said when it did.
    struct Change {
        var said: String
        var apply: (App) throws(AppError) -> CheckInStatus
    }

    static func interval(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = line.argument(0)?.span.map { span in
            Change(said: "Check-in interval set to \(span).") { app throws(AppError) in try app.setInterval(span) }
        }
        return try showOrSet(line, &session, change, withDeadline: true) { "Check-in interval: \($0.interval)." }
    }

    static func reminder(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = line.argument(0).map { value in
            Change(said: value.span.map { "Reminder set to \($0) before the deadline." } ?? "Reminder turned off.") {
                app throws(AppError) in try app.setReminder(value.span)
            }
        }
        return try showOrSet(line, &session, change, withDeadline: true) {
            $0.reminder.map { "Reminder: \($0) before the deadline." } ?? "Reminder: off."
        }
    }

    static func grace(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = line.argument(0).map { value in
            Change(
                said: value.span.map {
                    "Grace set: your responders are told \($0) after a missed deadline; you are told at once."
                } ?? "Grace off: your responders are told at the deadline."
            ) { app throws(AppError) in try app.setGrace(value.span).status }
        }
        return try showOrSet(line, &session, change) {
            "Grace: \($0.grace.map { "\($0) after the deadline" } ?? "off")."
        }
    }

    static func escalation(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = line.argument(0)?.span.map { delay in
            Change(
                said:
                    "Escalation set: each further tier is told \(delay) after the one before, unless someone acknowledged."
            ) { app throws(AppError) in try app.setEscalation(delay).status }
        }
        return try showOrSet(line, &session, change) {
            "Escalation: each further tier \($0.escalation) after the one before."
        }
    }

    static func repeatEvery(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = line.argument(0).map { value in
            Change(
                said: value.span.map {
                    "Repeat set: a missed check-in or an alert of yours is told again every \($0.short) until someone answers."
                } ?? "Repeat off: each alarm of yours is told once."
            ) { app throws(AppError) in try app.setRepeat(value.span).status }
        }
        return try showOrSet(line, &session, change) {
            $0.repeatEvery.map { "Repeat: an unanswered alarm is told again every \($0.short)." }
                ?? "Repeat: off (each alarm is told once)."
        }
    }

    static func pauseLimit(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = line.argument(0)?.span.map { limit in
            Change(said: "Longest pause without --yes is now \(limit.short).") { app throws(AppError) in
                try app.setPauseLimit(limit).status
            }
        }
        return try showOrSet(line, &session, change) { "Longest pause without --yes: \($0.pauseLimit.short)." }
    }

    /// One setting: without an argument (no `change`) it is shown; with one it is set and said,
    /// and with `withDeadline` what that means for the deadline follows. Both print the check-in
    /// status under `--json`.
    private static func showOrSet(
        _ line: Invocation, _ session: inout Session, _ change: Change?, withDeadline: Bool = false,
        shown: (CheckInStatus) -> String
    ) throws(CLIError) -> ExitCode {
        guard let change else {
            let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
            try session.output.json(status)
            try session.output.line(shown(status))
            return .ok
        }
        let status = try session.call(line.path, change.apply)
        try session.output.json(status)
        try session.output.line(change.said)
        if withDeadline { try consequence(status, session: &session) }
        return .ok
    }

    /// What a settings change means for the deadline, said right after it.
    private static func consequence(_ status: CheckInStatus, session: inout Session) throws(CLIError) {
        guard let deadline = status.deadline, let left = status.timeLeft else { return }
        if left.seconds < 0 {
            try session.output.line(
                "Your deadline \(session.when(deadline)) has passed: you are overdue by \((-left).short). Check in with 'lifesignal checkin'."
            )
        } else {
            var text = "Deadline \(session.when(deadline))"
            if let reminderAt = status.reminderAt { text += "; reminder at \(session.local(reminderAt))" }
            try session.output.line(text + ".")
        }
    }
}
