import LifeSignalApp
import LifeSignalCore

/// `lifesignal notify`: the notification feed (list, read, clear, preferences); `deliver` and
/// `test` are in `DeliverCommand`.
enum NotifyCommand {
    static let categories = Notification.Category.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "notify",
        abstract: "Read your notifications and deliver them through your channels.",
        discussion: """
            Notifications come from alerts, missed check-ins, reminders, pings and contact changes. Your own go to the channels set with 'lifesignal notify prefs --channel URI'; your alerts and missed check-ins also go to your external responders' channels. Run 'lifesignal notify deliver' from cron to send what is due.
            """,
        subcommands: [
            listSpec, readSpec, clearSpec, PrefsCommand.spec, DeliverCommand.spec, DeliverCommand.testSpec,
            HeartbeatCommand.spec, ackSpec,
        ])

    static let category = OptionSpec.value("category", "category", .choice(categories), "Only this category.")
    static let unread = OptionSpec.flag("unread", "Only unread notifications.")
    static let all = OptionSpec.flag("all", "Every category, read or not (ignores the default filter).")

    static let listSpec = CommandSpec(
        name: "list",
        abstract: "List your notifications, newest first.",
        discussion: "Without options the default filter set with 'notify prefs' applies.",
        options: [category, unread, all],
        run: list)

    static let idArgument = ArgumentSpec(
        name: "id", kind: .text, optional: true, help: "The notification's id or its first characters.")
    static let readAll = OptionSpec.flag("all", "Mark every notification read.")
    static let clearAll = OptionSpec.flag("all", "Clear every notification.")
    static let clearCategory = OptionSpec.value(
        "category", "category", .choice(categories), "Clear every notification of this category.")

    static let readSpec = CommandSpec(
        name: "read",
        abstract: "Mark a notification, or all of them, as read.",
        arguments: [idArgument],
        options: [readAll],
        rules: [
            .exactlyOne(
                ["<id>", "--all"], missing: "Say which notifications: give a notification id or --all.",
                several: "Give only one of a notification id or --all.")
        ],
        run: read)

    static let ackSpec = CommandSpec(
        name: "ack",
        abstract: "Acknowledge someone's missed check-in or alert: \"I'm on it\".",
        discussion: """
            Give the id of the notification (see 'lifesignal notify list'). The person and their other responders are told at once that you are on it. For the next \(Escalation.acknowledgementHold.short) the alarm does not repeat and a missed check-in is not escalated to further tiers; if by then nothing has answered it (a check-in, a vouch, the end of the alert), it goes on, saying that you were on it.
            """,
        arguments: [
            ArgumentSpec(
                name: "id", kind: .text, optional: false, help: "The notification's id or its first characters.")
        ],
        run: ack)

    static func ack(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let text = line.text(argument: 0) ?? ""
        let result = try session.call(line.path) { app throws(AppError) in try app.acknowledge(text) }
        result.delivery.tellFailures(session)
        try session.output.json(Acknowledged(notification: result.acknowledged))
        try session.output.line(
            "Acknowledged: the others who watch over them are told you are on it. Until \(session.when(result.holdsUntil)) no further tier is told and the alarm does not repeat; if nothing answers it by then, it goes on."
        )
        return .ok
    }

    static let clearSpec = CommandSpec(
        name: "clear",
        abstract: "Remove a notification, all of them, or a category from your feed.",
        arguments: [idArgument],
        options: [clearAll, clearCategory],
        rules: [
            .exactlyOne(
                ["<id>", "--all", "--category"],
                missing: "Say which notifications: give a notification id, --all or --category.",
                several: "Give only one of a notification id, --all or --category.")
        ],
        run: clear)

    static func list(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let filter = App.FeedFilter(
            category: line.text(category).flatMap(Notification.Category.init(rawValue:)),
            unreadOnly: line.flag(unread) ? true : nil, everything: line.flag(all))
        let page = try session.call(line.path) { app throws(AppError) in try app.notifications(filter) }
        try session.output.json(page)
        if page.entries.isEmpty {
            try session.output.line(
                page.filtered
                    ? "No notifications match (see them all with 'lifesignal notify list --all')." : "No notifications."
            )
            return .ok
        }
        let o = session.output
        for n in page.entries {
            let mark = page.read.contains(n.id) ? " " : o.bold("●")
            let title = n.kind.isEmergency ? o.red(n.title) : n.title
            try session.output.line("\(mark) \(n.id.prefix(8))  \(session.local(n.at))  \(title)")
            try session.output.line("             \(n.message)")
        }
        return .ok
    }

    static func read(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let selection: App.FeedSelection = line.flag(readAll) ? .all : .id(line.text(argument: 0) ?? "")
        return try mark(selection, clear: false, line: line, session: &session)
    }

    static func clear(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        var selection = App.FeedSelection.id(line.text(argument: 0) ?? "")
        if line.flag(clearAll) { selection = .all }
        if let category = line.text(clearCategory).flatMap(Notification.Category.init(rawValue:)) {
            selection = .category(category)
        }
        return try mark(selection, clear: true, line: line, session: &session)
    }

    static func mark(_ selection: App.FeedSelection, clear: Bool, line: Invocation, session: inout Session)
        throws(CLIError) -> ExitCode
    {
        let count = try session.call(line.path) { app throws(AppError) in try app.mark(selection, clear: clear) }
        try session.output.json(Marked(count: count, cleared: clear))
        try session.output.line(
            "\(clear ? "Cleared" : "Marked read"): \(count) notification\(count == 1 ? "" : "s").")
        return .ok
    }

    /// The notification `notify ack` acknowledged, and the thread it is in.
    struct Acknowledged: JSONRendered {
        var notification: Notification

        var json: JSON { ["acknowledged": .string(notification.id), "thread": .optional(notification.thread)] }
    }

    /// How many notifications `notify read` marked read or `notify clear` cleared.
    struct Marked: JSONRendered {
        var count: Int
        var cleared: Bool

        var json: JSON { ["count": .int(Int64(count)), "action": .string(cleared ? "cleared" : "read")] }
    }
}

/// A page of my feed, as `notify list --json` gives it.
extension App.FeedPage: JSONRendered {
    var json: JSON {
        let notifications: [JSON] = entries.map { n in
            [
                "id": .string(n.id), "type": .string(n.kind.rawValue), "category": .string(n.kind.category.rawValue),
                "title": .string(n.title), "message": .string(n.message), "at": .string(n.at.rfc3339),
                "subject": .string(n.subject), "read": .bool(read.contains(n.id)),
            ]
        }
        return ["notifications": .array(notifications), "unread": .int(Int64(unread))]
    }
}
