import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin history`: my check-ins, newest first.
enum HistoryCommand {
    static let limit = DefaultedOption.count("limit", "n", default: 20) { "Show at most this many (default \($0))." }
    static let since = OptionSpec.value(
        "since", "time", .time,
        "Only check-ins at or after this time: a date (2026-11-01), a date and time (2026-11-01 18:30), RFC 3339, or a duration such as 7d meaning that long ago."
    )
    static let until = OptionSpec.value(
        "until", "time", .time, "Only check-ins before this time (the same forms as --since).")

    static let spec = CommandSpec(
        name: "history", abstract: "List your check-ins, newest first.", options: [limit.spec, since, until], run: run)

    struct Options {
        var limit: Int
        var since: TimeQuery?
        var until: TimeQuery?

        init(_ line: Invocation) {
            limit = line.value(HistoryCommand.limit)
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
        try session.output.json(history)
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

/// My check-ins, as `checkin history --json` gives them, with how many there are in all.
extension App.History: JSONRendered {
    var json: JSON {
        [
            "checkIns": .array(
                checkIns.map {
                    ["at": .string($0.at.rfc3339), "note": .optional($0.note), "device": .string($0.stamp.device)]
                }),
            "total": .int(total),
        ]
    }
}
