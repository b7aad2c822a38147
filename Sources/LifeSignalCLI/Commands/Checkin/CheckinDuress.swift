import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin duress set|off|status|clear`: a duress word on this device. A check-in
/// whose note is the word is an ordinary check-in everywhere (`checkin` shows nothing else);
/// these commands are the only ones that ever speak of it.
enum DuressCommand {
    static let spec = CommandSpec(
        name: "duress",
        abstract: "A duress word: a check-in with it as the note silently alerts your responders.",
        discussion: """
            Someone forcing you to check in sees an ordinary check-in: 'lifesignal checkin --note WORD' with your duress word (compared without surrounding spaces, ignoring case) records and shows exactly what any check-in with a note does, and restarts your countdown; while a word is set, every check-in with a note does the same work. After its output, this device tells your external responders and the members who watch over you (those you confirmed) through their own channels — never through the circle folder, never by a desktop pop-up — and cron's 'notify deliver' runs retry each until it got through. Only 'lifesignal checkin duress clear' ends it.

            The word is kept on this device only, as a salted PBKDF2-HMAC-SHA-512 hash in state.bin: set it on each of your devices you might be made to check in on. 'lifesignal contacts edit NAME --duress off' leaves a responder out, on this device.

            Its limits: the alarm leaves only from this device, which must reach a channel within a few minutes. The phone's "I'm OK" button cannot raise it (a tap carries no note): from a phone, tap nothing when forced and use the phone's own emergency features, or a phrase agreed with your responders. Anyone who reads your screen or your typing while you set the word learns it.
            """,
        subcommands: [setSpec, offSpec, statusSpec, clearSpec])

    static let setSpec = CommandSpec(
        name: "set",
        abstract: "Set this device's duress word (asked without showing it; else one line of standard input).",
        examples: ["lifesignal checkin duress set", "printf '%s\\n' \"$WORD\" | lifesignal checkin duress set"],
        run: set)
    static let offSpec = CommandSpec(
        name: "off", abstract: "Remove this device's duress word (an alarm already raised still goes out).", run: off)
    static let statusSpec = CommandSpec(
        name: "status",
        abstract: "Show whether a word is set here, whom it tells, and what was sent (asks first).",
        options: [.yes], run: status)
    static let clearSpec = CommandSpec(
        name: "clear",
        abstract: "Tell everyone the duress alarm reached that it is over.",
        discussion:
            "On the device that raised it, everyone the alarm reached (or is reaching) gets an all-clear; what was not sent yet is not sent. On another of your devices, everyone a duress check-in there would tell gets it.",
        options: [.yes], run: clear)

    static func set(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let word = try readWord(line, &session)
        if let problem = Duress.problem(withWord: word) {
            throw .usage(message: "Not set: \(problem).", command: line.path)
        }
        let rounds = session.context.environment["LIFESIGNAL_TEST_DURESS_ROUNDS"].flatMap { Int($0) }
        let reach = try session.call(line.path) { app throws(AppError) in
            try app.setDuressWord(word, rounds: rounds ?? Duress.defaultRounds)
        }
        try session.output.json(Reach(reach: reach, set: true))
        try session.output.line(
            "Duress word set on this device. A check-in here with it as the note looks like any other, and tells: \(list(reach.told))."
        )
        if !reach.leftOut.isEmpty { try session.output.line("Left out: \(list(reach.leftOut)).") }
        try session.output.line("Set it on each of your devices you might be made to check in on.")
        if reach.told.isEmpty {
            session.output.note(
                "nobody would be told: add an external responder with a channel, or confirm a member who watches over you"
            )
        }
        return .ok
    }

    /// The word: from the terminal without echo (asked twice), else one line of stdin.
    private static func readWord(_ line: Invocation, _ session: inout Session) throws(CLIError) -> String {
        let context = session.context
        guard context.stdinIsTerminal else {
            guard let word = context.readLine() else {
                throw .usage(
                    message: "Not set: no duress word on standard input (give it as one line).", command: line.path)
            }
            return word
        }
        let read = context.readHiddenLine ?? context.readLine
        _ = context.write(.standardError, "Duress word (not shown): ")
        let first = read() ?? ""
        _ = context.write(.standardError, "Again: ")
        guard read() == first else {
            throw .usage(message: "Not set: the two words differ; run it again.", command: line.path)
        }
        return first
    }

    static func off(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let had = try session.call(line.path) { app throws(AppError) in try app.removeDuressWord() }
        try session.output.json(Removed(removed: had))
        try session.output.line(
            had ? "Duress word removed from this device." : "No duress word was set on this device.")
        return .ok
    }

    static func status(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard
            try session.confirm(
                "Show this device's duress setting and what it sent?", action: "show the duress setting", line: line,
                yes: line.flag(.yes))
        else { return .ok }
        let view = try session.call(line.path) { app throws(AppError) in try app.duressStatus() }
        try session.output.json(Viewed(view: view))
        guard view.wordSet || !view.sends.isEmpty else {
            try session.output.line("No duress word on this device. Set one with 'lifesignal checkin duress set'.")
            return .ok
        }
        try session.output.line(
            view.wordSet
                ? "A duress word is set on this device; a check-in with it tells: \(list(view.reach.told))."
                : "No duress word on this device now.")
        if !view.reach.leftOut.isEmpty { try session.output.line("Left out: \(list(view.reach.leftOut)).") }
        for sent in view.sends {
            let what =
                sent.alarm ? "alarm of \(session.local(sent.about))" : "all-clear of \(session.local(sent.about))"
            let how =
                sent.sent.map { "sent \(session.local($0))" }
                ?? (sent.tries == 0 ? "not tried yet" : "not reached yet (\(sent.tries) tries)")
            try session.output.line("  \(sent.name): \(what), \(how)")
        }
        return .ok
    }

    static func clear(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard
            try session.confirm(
                "Tell the people your duress alarm reached that you are safe?", action: "send the all-clear",
                line: line,
                yes: line.flag(.yes))
        else { return .ok }
        let cleared = try session.call(line.path) { app throws(AppError) in try app.clearDuress() }
        try session.output.json(Cleared(cleared: cleared))
        if cleared.told.isEmpty {
            try session.output.line("Nobody to tell: no duress alarm went out from this device, and it tells nobody.")
        } else if cleared.noAlarmHere {
            try session.output.line(
                "No duress alarm was raised on this device; the all-clear goes to everyone a duress check-in here tells: \(list(cleared.told))."
            )
        } else {
            try session.output.line("The all-clear goes to: \(list(cleared.told)).")
        }
        try sendAfterOutput(&session)
        return .ok
    }

    /// Shows the output so far, then starts the background run that sends what this run queued.
    static func sendAfterOutput(_ session: inout Session) throws(CLIError) {
        try session.output.flush()
        let executable = session.context.executable()
        if let app = try? session.app() { app.startSendingAfterOutput(executable: executable) }
    }

    static func list(_ names: [String]) -> String {
        names.isEmpty ? "nobody" : names.map(TerminalText.safeLine).joined(separator: ", ")
    }

    struct Reach: JSONRendered {
        var reach: App.DuressReach
        var set: Bool
        var json: JSON {
            [
                "set": .bool(set), "told": .array(reach.told.map(JSON.string)),
                "leftOut": .array(reach.leftOut.map(JSON.string)),
            ]
        }
    }

    struct Removed: JSONRendered {
        var removed: Bool
        var json: JSON { ["removed": .bool(removed)] }
    }

    struct Cleared: JSONRendered {
        var cleared: App.DuressCleared
        var json: JSON { ["told": .array(cleared.told.map(JSON.string)), "noAlarmHere": .bool(cleared.noAlarmHere)] }
    }

    struct Viewed: JSONRendered {
        var view: App.DuressView
        var json: JSON {
            [
                "wordSet": .bool(view.wordSet), "rounds": .optional(view.rounds.map { Int64($0) }),
                "told": .array(view.reach.told.map(JSON.string)),
                "leftOut": .array(view.reach.leftOut.map(JSON.string)),
                "sends": .array(
                    view.sends.map { sent in
                        [
                            "name": .string(sent.name), "kind": .string(sent.alarm ? "alarm" : "all-clear"),
                            "about": .string(sent.about.rfc3339), "sent": .optional(sent.sent?.rfc3339),
                            "tries": .int(Int64(sent.tries)),
                        ]
                    }),
            ]
        }
    }
}
