import LifeSignalApp
import LifeSignalCore

/// `lifesignal notify prefs`: the default filter of `notify list`, and my own channels.
enum PrefsCommand {
    static let category = OptionSpec.value(
        "category", "category", .choice(NotifyCommand.categories + ["all"]),
        "The category 'notify list' shows by default (all for every one).")
    static let unreadOnly = OptionSpec.flag("unread-only", "'notify list' shows only unread notifications by default.")
    static let includeRead = OptionSpec.flag(
        "include-read", "'notify list' shows read notifications too (the default).")
    static let channel = OptionSpec.values(
        "channel", "uri", .channel, "A channel for your own notifications (repeatable; replaces the list).")
    static let noChannels = OptionSpec.flag(
        "no-channels", "Send your own notifications nowhere (they stay in the feed).")
    static let mailFrom = OptionSpec.value(
        "mail-from", "address", .email, "The From address of the e-mail your devices send (default: you@localhost).")
    static let replyTo = OptionSpec.value(
        "reply-to", "address", .email,
        "Where replies to that e-mail go, e.g. a family list that reaches every responder.")
    static let noReplyTo = OptionSpec.flag("no-reply-to", "Send e-mail without a Reply-To.")

    static let spec = CommandSpec(
        name: "prefs",
        abstract: "Show or set the default filter and where your own notifications go.",
        options: [category, unreadOnly, includeRead, channel, noChannels, mailFrom, replyTo, noReplyTo],
        rules: [
            .contradict("--unread-only", "--include-read"), .contradict("--channel", "--no-channels"),
            .contradict("--reply-to", "--no-reply-to"),
        ],
        run: run)

    static func change(_ line: Invocation) -> App.PreferencesChange {
        var change = App.PreferencesChange()
        if let text = line.text(category) { change.category = .some(Notification.Category(rawValue: text)) }
        if line.flag(unreadOnly) { change.unreadOnly = true }
        if line.flag(includeRead) { change.unreadOnly = false }
        let channels = line.texts(channel)
        if !channels.isEmpty { change.channels = channels }
        if line.flag(noChannels) { change.channels = [] }
        if let from = line.text(mailFrom) { change.mailFrom = .some(from) }
        if let address = line.text(replyTo) { change.replyTo = .some(address) }
        if line.flag(noReplyTo) { change.replyTo = .some(nil) }
        return change
    }

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = change(line)
        let (p, mail) = try session.call(line.path) { app throws(AppError) in try app.preferences(change) }
        try session.output.json(Prefs(feed: p, mail: mail))
        try session.output.line(
            "Default filter  " + (p.category?.rawValue ?? "all categories") + (p.unreadOnly ? ", unread only" : ""))
        try session.output.line(
            "Your channels   "
                + (p.channels.isEmpty
                    ? "none (add one with 'lifesignal notify prefs --channel URI')"
                    : p.channels.joined(separator: ", ")))
        try session.output.line(
            "E-mail from     "
                + (mail.from ?? "your account at localhost (set a real sender with --mail-from you@example.org)")
                + (mail.replyTo.map { ", replies to \($0)" } ?? ""))
        return .ok
    }

    /// My feed's default filter, my channels and how my devices send e-mail.
    struct Prefs: JSONRendered {
        var feed: FeedPreferences
        var mail: MailSettings

        var json: JSON {
            [
                "category": .optional(feed.category?.rawValue), "unreadOnly": .bool(feed.unreadOnly),
                "channels": .array(feed.channels.map(JSON.string)), "mailFrom": .optional(mail.from),
                "replyTo": .optional(mail.replyTo),
            ]
        }
    }
}
