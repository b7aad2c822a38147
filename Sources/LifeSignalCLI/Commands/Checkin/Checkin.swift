import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin` and `checkin status`: record a check-in, and show where you stand. Its
/// other subcommands are in the files named after them (`CheckinHistory`, `CheckinSettings`,
/// `CheckinPause`, `CheckinTrip`, `CheckinInbox`, `Schedule`).
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
            statusSpec, HistoryCommand.spec, CheckinSettingsCommand.intervalSpec,
            CheckinSettingsCommand.reminderSpec, PauseCommand.pauseSpec, PauseCommand.resumeSpec, TripCommand.spec,
            ScheduleCommand.scheduleSpec, CheckinSettingsCommand.graceSpec, CheckinSettingsCommand.escalationSpec,
            CheckinSettingsCommand.repeatSpec, CheckinSettingsCommand.pauseLimitSpec, InboxCommand.spec,
            DuressCommand.spec,
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

    static func checkin(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let note = line.text(Self.note)
        let dry = line.flag(dryRun)
        let done = try session.call(line.path) { app throws(AppError) in
            try app.checkIn(note: note, dryRun: dry)
        }
        session.output.warn(listed: done.warnings)
        try session.output.json(CheckedIn(receipt: done, dryRun: dry))
        try session.output.line(
            dry
                ? "Would check in at \(session.local(done.at)) (dry run: nothing was recorded)."
                : "Checked in at \(session.local(done.at)).")
        if let deadline = done.status.deadline {
            var text = "Next deadline \(session.when(deadline))"
            if let reminderAt = done.status.reminderAt { text += "; reminder at \(session.local(reminderAt))" }
            try session.output.line(text + ".")
        }
        try DuressCommand.sendAfterOutput(&session)
        return .ok
    }

    static func status(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
        try session.output.json(status)
        for text in Render.checkInLines(status, session: session) { try session.output.line(text) }
        return Render.exitCode(for: status.phase)
    }

    /// What `checkin` did: the check-in recorded (or, in a dry run, the one that would be).
    struct CheckedIn: JSONRendered {
        var receipt: App.CheckInReceipt
        var dryRun: Bool

        var json: JSON {
            [
                "checkedIn": [
                    "at": .string(receipt.at.rfc3339), "note": .optional(receipt.note),
                    "device": .string(receipt.device), "seq": .int(receipt.seq),
                ],
                "checkIn": receipt.status.json, "warnings": .array(receipt.warnings.map(Render.warningJSON)),
                "dryRun": .bool(dryRun),
            ]
        }
    }
}
