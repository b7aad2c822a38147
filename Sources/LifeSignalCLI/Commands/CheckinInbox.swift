import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin inbox`: where check-ins from the phone arrive (see `PhoneCheckIns`).
enum InboxCommand {
    static let spec = CommandSpec(
        name: "inbox",
        abstract: "Show or set the ntfy topic where check-ins from your phone arrive.",
        discussion: """
            Give a topic with a long, secret name (ntfy:https://ntfy.sh/alice-7f3k9q2m); 'off' removes it. Each reminder and missed check-in notice sent to your own ntfy channel ('lifesignal notify prefs --channel ntfy:…') then carries an "I'm OK" button that posts a one-time token to this topic, and every device of your circle reads it in its 'notify deliver' runs: a tap counts as your check-in, at the time ntfy stamped it, even when all your machines are off. A token is good once, for \(PhoneCheckIns.validity.short).
            """,
        arguments: [
            ArgumentSpec(name: "topic", kind: .text, optional: true, help: "ntfy:https://HOST/TOPIC, or off.")
        ],
        run: inbox)

    static func inbox(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let text = line.text(argument: 0) else {
            let url = try session.call(line.path) { app throws(AppError) in try app.inbox() }
            try session.output.json(["inbox": .optional(url.map { "ntfy:" + $0 })])
            try session.output.line(
                url.map {
                    "Inbox: ntfy:\(TerminalText.safeLine($0)). The \"I'm OK\" buttons of your ntfy messages post there."
                }
                    ?? "No inbox: set one with 'lifesignal checkin inbox ntfy:https://ntfy.sh/A-LONG-SECRET-NAME'.")
            return .ok
        }
        let wanted: String? = text == "off" ? nil : text.hasPrefix("ntfy:") ? String(text.dropFirst(5)) : text
        let url = try session.call(line.path) { app throws(AppError) in try app.setInbox(wanted) }
        try session.output.json(["inbox": .optional(url.map { "ntfy:" + $0 })])
        try session.output.line(
            url.map {
                "Inbox set: ntfy:\(TerminalText.safeLine($0)). Your reminders and missed check-in notices on ntfy now carry an \"I'm OK\" button; every device of your circle reads this topic when it delivers."
            } ?? "Inbox off: check-ins from the phone are no longer read.")
        return .ok
    }
}
