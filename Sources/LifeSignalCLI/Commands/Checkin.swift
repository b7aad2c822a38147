import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin` and its subcommands: record a check-in, show where you stand, the
/// history, and the interval and reminder settings.
enum CheckinCommand {
    static let note = OptionSpec.value(
        "note", "text", .prose("note"), "Attach a note to this check-in (e.g. where you are going).")
    static let dryRun = OptionSpec.flag("dry-run", "Show what the check-in would do; record nothing.")

    static let spec = CommandSpec(
        name: "checkin",
        abstract: "Record that you are OK and restart your countdown.",
        discussion: """
            Your deadline becomes now + your interval. The first check-in on a new machine also \
            creates your profile (24h interval, reminder 30m before the deadline).
            """,
        options: [note, dryRun],
        subcommands: [
            statusSpec, HistoryCommand.spec, intervalSpec, reminderSpec, ScheduleCommand.pauseSpec,
            ScheduleCommand.resumeSpec, ScheduleCommand.tripSpec, ScheduleCommand.scheduleSpec,
            ScheduleCommand.graceSpec, ScheduleCommand.escalationSpec, ScheduleCommand.repeatSpec,
            ScheduleCommand.pauseLimitSpec, InboxCommand.spec,
        ],
        examples: [
            "lifesignal checkin", "lifesignal checkin --note \"off to the hills\"", "lifesignal checkin --dry-run",
        ],
        run: checkin)

    static let statusSpec = CommandSpec(
        name: "status",
        abstract: "Show your last check-in, deadline, time left and reminder time.",
        discussion:
            "Exits 0 when on time, 3 when the reminder time has come, 4 when overdue (see 'lifesignal help exit-codes').",
        run: status)

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

    static func checkin(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let note = line.text(Self.note)
        let dry = line.flag(dryRun)
        let done = try session.call(line.path) { app throws(AppError) in
            app.dryRun = dry
            return try app.checkIn(note: note)
        }
        let clock = session.context.clock()
        if done.at > clock + MemberState.clockTolerance {
            session.output.warn(.checkInAheadOfClock(at: done.at, clock: clock))
        }
        Render.clockWarning(done.status, session: session)
        session.output.warn(listed: done.warnings)
        try session.output.json(
            .object(
                JSONObject([
                    (
                        "checkedIn",
                        .object(
                            JSONObject([
                                ("at", .string(done.at.rfc3339)), ("note", .optional(done.note)),
                                ("device", .string(done.device)), ("seq", .int(done.seq)),
                            ]))
                    ),
                    ("checkIn", Render.checkInJSON(done.status)),
                    ("warnings", .array(done.warnings.map(Render.warningJSON))),
                    ("dryRun", .bool(dry)),
                ])))
        try session.output.line(
            dry
                ? "Would check in at \(session.local(done.at)) (dry run: nothing was recorded)."
                : "Checked in at \(session.local(done.at)).")
        if let deadline = done.status.deadline {
            var text = "Next deadline \(session.when(deadline))"
            if let reminderAt = done.status.reminderAt { text += "; reminder at \(session.local(reminderAt))" }
            try session.output.line(text + ".")
        }
        return .ok
    }

    static func status(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
        Render.clockWarning(status, session: session)
        try session.output.json(Render.checkInJSON(status))
        for text in Render.checkInLines(status, session: session) { try session.output.line(text) }
        return Render.exitCode(for: status.phase)
    }

    static func interval(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let span = line.argument(0)?.span else {
            let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
            return try show(status, "Check-in interval: \(status.interval).", session: &session)
        }
        let status = try session.call(line.path) { app throws(AppError) in try app.setInterval(span) }
        try session.output.json(Render.checkInJSON(status))
        try session.output.line("Check-in interval set to \(span).")
        try consequence(status, session: &session)
        return .ok
    }

    static func reminder(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let value = line.argument(0) else {
            let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
            let text = status.reminder.map { "Reminder: \($0) before the deadline." } ?? "Reminder: off."
            return try show(status, text, session: &session)
        }
        let lead = value.span
        let status = try session.call(line.path) { app throws(AppError) in try app.setReminder(lead) }
        try session.output.json(Render.checkInJSON(status))
        try session.output.line(lead.map { "Reminder set to \($0) before the deadline." } ?? "Reminder turned off.")
        try consequence(status, session: &session)
        return .ok
    }

    private static func show(_ status: CheckInStatus, _ text: String, session: inout Session) throws(CLIError)
        -> ExitCode
    {
        try session.output.json(Render.checkInJSON(status))
        try session.output.line(text)
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

/// `lifesignal checkin history`: my check-ins, newest first.
enum HistoryCommand {
    static let limit = OptionSpec.value("limit", "n", .count, "Show at most this many (default 20).")
    static let since = OptionSpec.value(
        "since", "time", .time,
        "Only check-ins at or after this time: a date (2026-11-01), a date and time (2026-11-01 18:30), RFC 3339, or a duration such as 7d meaning that long ago."
    )
    static let until = OptionSpec.value(
        "until", "time", .time, "Only check-ins before this time (the same forms as --since).")

    static let spec = CommandSpec(
        name: "history", abstract: "List your check-ins, newest first.", options: [limit, since, until], run: run)

    struct Options {
        var limit: Int
        var since: TimeQuery?
        var until: TimeQuery?

        init(_ line: Invocation) {
            limit = line.value(HistoryCommand.limit)?.count ?? 20
            since = line.value(HistoryCommand.since)?.time
            until = line.value(HistoryCommand.until)?.time
        }
    }

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let options = Options(line)
        let since = options.since?.resolved(now: session.now, offset: session.context.utcOffset)
        let until = options.until?.resolved(now: session.now, offset: session.context.utcOffset)
        if let since, let until, until <= since {
            throw .usage(
                message:
                    "--until (\(session.local(until))) must be after --since (\(session.local(since))); --until is the first moment left out.",
                command: line.path)
        }
        let history = try session.call(line.path) { app throws(AppError) in
            try app.history(limit: options.limit, since: since, until: until)
        }
        try session.output.json(
            .object(
                JSONObject([
                    (
                        "checkIns",
                        .array(
                            history.checkIns.map {
                                .object(
                                    JSONObject([
                                        ("at", .string($0.at.rfc3339)), ("note", .optional($0.note)),
                                        ("device", .string($0.stamp.device)),
                                    ]))
                            })
                    ),
                    ("total", .int(history.total)),
                ])))
        if history.checkIns.isEmpty {
            try session.output.line(
                since.map { "No check-ins since \(session.local($0))." } ?? "No check-ins yet.")
            return .ok
        }
        for checkIn in history.checkIns {
            var text = session.local(checkIn.at) + "  " + Relative.phrase(checkIn.at, now: session.now).padding(to: 12)
            if history.devices > 1 { text += " [\(checkIn.stamp.device.prefix(8))]" }
            if let note = checkIn.note { text += " " + note }
            try session.output.line(String(text.reversed().drop { $0 == " " }.reversed()))
        }
        return .ok
    }
}
