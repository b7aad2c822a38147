import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin inbox`: where check-ins from the phone arrive, and where this device sends
/// the "I'm OK" buttons (see `PhoneCheckIns`).
enum InboxCommand {
    static let phone = OptionSpec.value(
        "phone", "topic", .text,
        "The ntfy topic your phone subscribes to (ntfy:https://HOST/TOPIC, or 'new' for one with a random name on your inbox's server): this device sends your reminders and missed check-in notices there with the \"I'm OK\" button. Kept on this machine only."
    )

    static let spec = CommandSpec(
        name: "inbox",
        abstract: "Show or set the ntfy topics of check-ins from your phone.",
        discussion: """
            The inbox (ntfy:https://ntfy.sh/alice-inbox-7f3k9q2m, a long secret name) is where taps arrive; every device of your circle reads it in its 'notify deliver' runs, and a tap counts as your check-in, at the time ntfy stamped it, even when all your machines are off. --phone names the topic your phone subscribes to: this device sends your reminders and missed check-in notices there with an "I'm OK" button that posts a one-time token to the inbox. The phone topic is kept on this machine only, never in the circle, so nobody who reads the circle folder can take a button's token; set it on each of your devices that should send buttons. A token is good once, for \(PhoneCheckIns.validity.short). The ntfy server of the phone topic sees each token before you tap it, so whoever runs it could check you in: use a server you trust, best your own. 'off' removes the inbox and this device's phone topic.
            """,
        arguments: [
            ArgumentSpec(name: "inbox", kind: .text, optional: true, help: "\(ChannelKind.ntfy.form), or off.")
        ],
        options: [phone],
        run: inbox)

    static func inbox(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let text = line.text(argument: 0) else {
            let setting = try session.call(line.path) { app throws(AppError) in try app.inbox() }
            try show(setting, session: &session, changed: false)
            return .ok
        }
        let wanted: String? = text == "off" ? nil : Address.ntfyTopic(text)
        let phone: String?? = line.text(Self.phone).map { .some(Address.ntfyTopic($0)) }
        let setting = try session.call(line.path) { app throws(AppError) in try app.setInbox(wanted, phone: phone) }
        try show(setting, session: &session, changed: true)
        return .ok
    }

    static func show(_ setting: App.InboxSetting, session: inout Session, changed: Bool) throws(CLIError) {
        try session.output.json(setting)
        guard let inbox = setting.inbox else {
            try session.output.line(
                changed
                    ? "Inbox off: check-ins from the phone are no longer read, and this device sends no \"I'm OK\" or \"I'm on it\" button. Buttons sent before now post to an inbox nobody reads: a tap on one does nothing."
                    : "No inbox: set one with 'lifesignal checkin inbox ntfy:https://ntfy.sh/A-LONG-SECRET-NAME --phone ntfy:https://ntfy.sh/ANOTHER-SECRET-NAME'."
            )
            return
        }
        try session.output.line(
            "\(changed ? "Inbox set" : "Inbox"): ntfy:\(TerminalText.safeLine(inbox)); every device of your circle reads it when it delivers."
        )
        try session.output.line(
            setting.phone.map {
                "This device sends your reminders and missed check-in notices with an \"I'm OK\" button to ntfy:\(TerminalText.safeLine($0)) (kept on this machine only): subscribe to it on your phone."
            }
                ?? "This device sends no \"I'm OK\" button: give it your phone's topic with --phone ntfy:https://HOST/TOPIC."
        )
    }
}

/// The inbox and this device's phone topic, as `checkin inbox --json` gives them.
extension App.InboxSetting: JSONRendered {
    var json: JSON {
        [
            "inbox": .optional(inbox.map(ChannelKind.ntfy.channel)),
            "phone": .optional(phone.map(ChannelKind.ntfy.channel)),
        ]
    }
}
