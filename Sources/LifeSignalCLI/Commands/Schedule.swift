import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin pause`, `resume` and `trip`: the schedules besides the interval.
enum ScheduleCommand {
    static let pauseNote = OptionSpec.value(
        "note", "text", .prose("note"), "Why, for your responders (e.g. \"on holiday with Sam\").")
    static let until = OptionSpec.value(
        "until", "time", .later, "When the pause ends: a duration from now (14d) or an RFC 3339 time.")
    static let yes = OptionSpec.flag("yes", short: "y", "Allow a pause longer than \(Pause.longest.short).")
    static let tripNote = OptionSpec.value(
        "note", "text", .prose("note"),
        "Where you are going (\"west ridge, car at the north lot\"): told to your responders only if you miss the deadline."
    )

    static let pauseSpec = CommandSpec(
        name: "pause",
        abstract: "Pause your check-ins until a time; the countdown restarts when it ends.",
        discussion: """
            While paused there is no deadline and no reminder. Your responders are told now that the pause started and when it ends, so a pause is never a silent switch-off; when it ends the countdown restarts from that moment. A pause longer than \(Pause.longest.short) needs --yes. 'lifesignal checkin resume' ends it early.
            """,
        options: [until, pauseNote, yes],
        rules: [
            .atLeastOne(["--until"], message: "Say when the pause ends: --until 14d or --until 2026-12-24T18:00:00Z.")
        ],
        run: pause)

    static let resumeSpec = CommandSpec(
        name: "resume",
        abstract: "End a pause now; the countdown restarts from now.",
        run: resume)

    static let tripSpec = CommandSpec(
        name: "trip",
        abstract: "Set a one-off deadline: if you have not checked in by then, your responders are told.",
        discussion: """
            The trip's deadline replaces your interval's until your next check-in, which ends the trip. You get one reminder before it (your reminder lead). The note is kept from your responders unless you miss the deadline; then it is in what they are told.
            """,
        arguments: [
            ArgumentSpec(
                name: "deadline", kind: .later, optional: false,
                help: "A duration from now (3h) or an RFC 3339 time (2026-12-24T18:00:00Z).")
        ],
        options: [tripNote],
        run: trip)

    static func pause(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let end = line.value(until)?.time?.resolved(now: session.now) ?? session.now
        let note = line.text(pauseNote)
        let long = line.flag(yes)
        let change = try session.call(line.path) { app throws(AppError) in
            try app.pause(until: end, note: note, long: long)
        }
        change.delivery?.tellFailures(session)
        try session.output.json(Render.checkInJSON(change.status))
        try session.output.line(
            "Check-ins paused until \(session.when(end)): no deadline and no reminder until then. Your responders are told now and when it ends; your countdown restarts then."
        )
        return .ok
    }

    static func resume(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = try session.call(line.path) { app throws(AppError) in try app.resume() }
        change.delivery?.tellFailures(session)
        try session.output.json(Render.checkInJSON(change.status))
        let next = change.status.deadline.map { "; next deadline \(session.when($0))" } ?? ""
        try session.output.line("Check-ins resumed\(next).")
        return .ok
    }

    static func trip(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let deadline = line.argument(0)?.time?.resolved(now: session.now) ?? session.now
        let note = line.text(tripNote)
        let change = try session.call(line.path) { app throws(AppError) in try app.trip(until: deadline, note: note) }
        change.delivery?.tellFailures(session)
        try session.output.json(Render.checkInJSON(change.status))
        var text = "Trip set: if you have not checked in by \(session.when(deadline)), your responders are told"
        text += note == nil ? "." : ", with your note."
        if let reminder = change.status.reminderAt { text += " Reminder at \(session.local(reminder))." }
        try session.output.line(text + " Checking in ends the trip.")
        return .ok
    }
}
