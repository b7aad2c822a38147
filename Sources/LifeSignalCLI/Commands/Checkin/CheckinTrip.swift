import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin trip`: a one-off deadline, with a note told only if it is missed.
enum TripCommand {
    static let note = OptionSpec.value(
        "note", "text", .prose("note"),
        "Where you are going (\"west ridge, car at the north lot\"): told to your responders only if you miss the deadline."
    )

    static let yes = OptionSpec.flag(
        "yes", short: "y", "Allow a trip longer than the pause limit (default \(Pause.longest.short)).")

    static let spec = CommandSpec(
        name: "trip",
        abstract: "Set a one-off deadline: if you have not checked in by then, your responders are told.",
        discussion: """
            The trip's deadline replaces your interval's until your next check-in, which ends the trip. You get one reminder before it (your reminder lead). The note is kept from your responders unless you miss the deadline; then it is in what they are told. A trip longer than \(Pause.longest.short) (or the limit set with 'lifesignal checkin pause-limit') needs --yes, as a pause does.
            """,
        arguments: [
            ArgumentSpec(
                name: "deadline", kind: .later, optional: false,
                help: "A duration from now (3h) or an RFC 3339 time (2026-12-24T18:00:00Z).")
        ],
        options: [note, yes],
        examples: [
            "lifesignal checkin trip 3h --note \"West ridge trail, car at the north lot\"",
            "lifesignal checkin trip 2026-07-02T18:00:00Z",
        ],
        run: run)

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let deadline =
            line.argument(0)?.time?.resolved(now: session.now, offset: session.context.utcOffset) ?? session.now
        let note = line.text(note)
        let long = line.flag(yes)
        let change = try session.call(line.path) { app throws(AppError) in
            try app.trip(until: deadline, note: note, long: long)
        }
        change.delivery?.tellFailures(session)
        try session.output.json(change.status)
        // The deadline and reminder printed are the ones in force, from one status.
        let due = change.status.deadline ?? deadline
        var text = "Trip set: if you have not checked in by \(session.when(due)), your responders are told"
        text += note == nil ? "." : ", with your note."
        if let reminder = change.status.reminderAt { text += " Reminder at \(session.local(reminder))." }
        try session.output.line(text + " Checking in ends the trip.")
        return .ok
    }
}
