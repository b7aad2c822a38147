import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin pause` and `resume`: no deadline for a while, said to the responders.
enum PauseCommand {
    static let pauseNote = OptionSpec.value(
        "note", "text", .prose("note"), "Why, for your responders (e.g. \"on holiday with Sam\").")
    static let until = OptionSpec.value(
        "until", "time", .later, "When the pause ends: a duration from now (14d) or an RFC 3339 time.")
    static let yes = OptionSpec.flag(
        "yes", short: "y", "Allow a pause longer than the limit (default \(Pause.longest.short)).")
    static let pauseSpec = CommandSpec(
        name: "pause",
        abstract: "Pause your check-ins until a time; the countdown restarts when it ends.",
        discussion: """
            While paused there is no deadline and no reminder. Your responders are told now that the pause started and when it ends, so a pause is never a silent switch-off; when it ends the countdown restarts from that moment, and a trip set before it is over. A pause longer than \(Pause.longest.short) (or the limit set with 'lifesignal checkin pause-limit') needs --yes. 'lifesignal checkin resume' ends it early.
            """,
        options: [until, pauseNote, yes],
        rules: [
            .atLeastOne(["--until"], message: "Say when the pause ends: --until 14d or --until 2026-12-24T18:00:00Z.")
        ],
        examples: ["lifesignal checkin pause --until 14d --note \"Sailing with Kim, back on the 15th\""],
        run: pause)

    static let resumeSpec = CommandSpec(
        name: "resume",
        abstract: "End a pause now; the countdown restarts from now.",
        run: resume)

    static func pause(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let end = line.value(until)?.time?.resolved(now: session.now, offset: session.context.utcOffset) ?? session.now
        let note = line.text(pauseNote)
        let long = line.flag(yes)
        let change = try session.call(line.path) { app throws(AppError) in
            try app.pause(until: end, note: note, long: long)
        }
        change.delivery?.tellFailures(session)
        try session.output.json(change.status)
        try session.output.line(
            "Check-ins paused until \(session.when(end)): no deadline and no reminder until then. Your responders are told now and when it ends; your countdown restarts then."
        )
        return .ok
    }

    static func resume(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = try session.call(line.path) { app throws(AppError) in try app.resume() }
        change.delivery?.tellFailures(session)
        try session.output.json(change.status)
        let next = change.status.deadline.map { "; next deadline \(session.when($0))" } ?? ""
        try session.output.line("Check-ins resumed\(next).")
        return .ok
    }
}
