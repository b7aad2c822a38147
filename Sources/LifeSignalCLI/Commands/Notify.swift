import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// `lifesignal notify`: the notification feed (list, read, clear, preferences) and delivery
/// through channels (`deliver` for cron, `test` to try a channel).
enum NotifyCommand {
    static let categories = Notification.Category.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "notify",
        abstract: "Read your notifications and deliver them through your channels.",
        discussion: """
            Notifications come from alerts, missed check-ins, reminders, pings and contact changes. Your own go to the channels set with 'lifesignal notify prefs --channel URI'; your alerts and missed check-ins also go to your external responders' channels. Run 'lifesignal notify deliver' from cron to send what is due.
            """,
        subcommands: [listSpec, readSpec, clearSpec, prefsSpec, deliverSpec, testSpec])

    static let listSpec = CommandSpec(
        name: "list",
        abstract: "List your notifications, newest first.",
        discussion: "Without options the default filter set with 'notify prefs' applies.",
        options: [
            .value("category", "category", .choice(categories), "Only this category."),
            .flag("unread", "Only unread notifications."),
            .flag("all", "Every category, read or not (ignores the default filter)."),
        ],
        run: { invocation, session throws(CLIError) in try list(invocation, &session) })

    static let readSpec = CommandSpec(
        name: "read",
        abstract: "Mark a notification, or all of them, as read.",
        arguments: [
            ArgumentSpec(
                name: "id", kind: .text, optional: true, help: "The notification's id or its first characters.")
        ],
        options: [.flag("all", "Mark every notification read.")],
        run: { invocation, session throws(CLIError) in try mark(invocation, &session, clear: false) })

    static let clearSpec = CommandSpec(
        name: "clear",
        abstract: "Remove a notification, all of them, or a category from your feed.",
        arguments: [
            ArgumentSpec(
                name: "id", kind: .text, optional: true, help: "The notification's id or its first characters.")
        ],
        options: [
            .flag("all", "Clear every notification."),
            .value("category", "category", .choice(categories), "Clear every notification of this category."),
        ],
        run: { invocation, session throws(CLIError) in try mark(invocation, &session, clear: true) })

    static let prefsSpec = CommandSpec(
        name: "prefs",
        abstract: "Show or set the default filter and where your own notifications go.",
        options: [
            .value(
                "category", "category", .choice(categories + ["all"]),
                "The category 'notify list' shows by default (all for every one)."),
            .flag("unread-only", "'notify list' shows only unread notifications by default."),
            .flag("include-read", "'notify list' shows read notifications too (the default)."),
            .values("channel", "uri", .text, "A channel for your own notifications (repeatable; replaces the list)."),
            .flag("no-channels", "Send your own notifications nowhere (they stay in the feed)."),
        ],
        run: { invocation, session throws(CLIError) in try prefs(invocation, &session) })

    static let deliverSpec = CommandSpec(
        name: "deliver",
        abstract: "Notice what is due and deliver what is pending (run it from cron).",
        discussion: """
            Computes every deadline, records the notifications that became due (reminders, missed check-ins, all-clears, alerts, pings), and sends each pending one through its channels, retrying failures on later runs with growing pauses. Silent and exit 0 when everything got through; exit 75 when something is still pending, with one line per failing channel.
            """,
        run: { invocation, session throws(CLIError) in try deliver(invocation, &session) })

    static let testSpec = CommandSpec(
        name: "test",
        abstract: "Send a test notification through your channels, or a contact's.",
        arguments: [
            ArgumentSpec(
                name: "contact", kind: .contact, optional: true,
                help: "A contact whose channels to test (default: your own).")
        ],
        run: { invocation, session throws(CLIError) in try test(invocation, &session) })

    // MARK: - list, read, clear, prefs

    static func json(_ n: Notification, feed: Feed) -> JSON {
        .object(
            JSONObject([
                ("id", .string(n.id)), ("type", .string(n.kind.rawValue)),
                ("category", .string(n.kind.category.rawValue)),
                ("title", .string(n.title)), ("message", .string(n.message)), ("at", .string(n.at.rfc3339)),
                ("subject", .string(n.subject)), ("read", .bool(feed.read.contains(n.id))),
            ]))
    }

    static func list(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let now = session.now
        let (feed, preferences, me) = try session.update(feed: true) { transaction in
            transaction.noticeDue(now: now)
            return (transaction.feed, transaction.memberState.effectivePreferences, transaction.member)
        }
        var category = preferences.category
        var unreadOnly = preferences.unreadOnly
        if let text = invocation.value("category") { category = Notification.Category(rawValue: text) }
        if invocation.flag("unread") { unreadOnly = true }
        if invocation.flag("all") {
            category = nil
            unreadOnly = false
        }
        let entries = feed.entries(for: .member(me), category: category, unreadOnly: unreadOnly)
        try session.output.json(
            .object(
                JSONObject([
                    ("notifications", .array(entries.map { json($0, feed: feed) })),
                    ("unread", .int(Int64(feed.unreadCount(for: .member(me))))),
                ])))
        if entries.isEmpty {
            try session.output.line(
                unreadOnly || category != nil
                    ? "No notifications match (see them all with 'lifesignal notify list --all')." : "No notifications."
            )
            return .ok
        }
        for n in entries {
            let unread = !feed.read.contains(n.id)
            let mark = unread ? session.output.bold("●") : " "
            var title = n.title
            if n.kind.isEmergency { title = session.output.red(title) }
            try session.output.line("\(mark) \(n.id.prefix(8))  \(session.local(n.at))  \(title)")
            try session.output.line("             \(n.message)")
        }
        return .ok
    }

    static func mark(_ invocation: Invocation, _ session: inout Session, clear: Bool) throws(CLIError) -> ExitCode {
        let all = invocation.flag("all")
        let category = invocation.value("category").flatMap(Notification.Category.init(rawValue:))
        let text = invocation.argument(0)
        let given = [all, category != nil, text != nil].filter { $0 }.count
        guard given == 1 else {
            let what = clear ? "a notification id, --all or --category" : "a notification id or --all"
            throw .usage(
                message: given == 0 ? "Say which notifications: give \(what)." : "Give only one of \(what).",
                command: invocation.path)
        }
        let now = session.now
        let count = try session.update(feed: true) { transaction in
            transaction.noticeDue(now: now)
            let visible = transaction.feed.entries(for: .member(transaction.member))
            var chosen: [Notification]
            if all {
                chosen = visible
            } else if let category {
                chosen = visible.filter { $0.kind.category == category }
            } else {
                let wanted = (text ?? "").lowercased()
                chosen = wanted.count >= 4 ? visible.filter { $0.id.hasPrefix(wanted) } : []
                guard chosen.count == 1 else {
                    throw CLIError.invalidValue(
                        chosen.isEmpty
                            ? "No notification has the id '\(text ?? "")'; see the ids with 'lifesignal notify list --all'."
                            : "'\(text ?? "")' matches \(chosen.count) notifications; give more of the id.")
                }
            }
            if clear { transaction.markCleared(chosen.map(\.id)) } else { transaction.markRead(chosen.map(\.id)) }
            return chosen.count
        }
        try session.output.json(["count": .int(Int64(count)), "action": .string(clear ? "cleared" : "read")])
        try session.output.line("\(clear ? "Cleared" : "Marked read"): \(count) notification\(count == 1 ? "" : "s").")
        return .ok
    }

    static func prefs(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        if invocation.flag("unread-only") && invocation.flag("include-read") {
            throw .usage(
                message: "--unread-only and --include-read contradict each other; give one.", command: invocation.path)
        }
        if !invocation.values("channel").isEmpty && invocation.flag("no-channels") {
            throw .usage(
                message: "--channel and --no-channels contradict each other; give one.", command: invocation.path)
        }
        for uri in invocation.values("channel") {
            if let problem = Address.problem(withChannel: uri) {
                throw .usage(
                    message: "The value '\(uri)' is invalid for '--channel <uri>': \(problem).",
                    command: invocation.path)
            }
        }
        let now = session.now
        let changing =
            invocation.value("category") != nil || invocation.flag("unread-only") || invocation.flag("include-read")
            || !invocation.values("channel").isEmpty || invocation.flag("no-channels")
        let preferences = try session.update { transaction in
            var p = transaction.memberState.effectivePreferences
            if let text = invocation.value("category") {
                p.category = text == "all" ? nil : Notification.Category(rawValue: text)
            }
            if invocation.flag("unread-only") { p.unreadOnly = true }
            if invocation.flag("include-read") { p.unreadOnly = false }
            if !invocation.values("channel").isEmpty { p.channels = invocation.values("channel") }
            if invocation.flag("no-channels") { p.channels = [] }
            if changing, p != transaction.memberState.effectivePreferences {
                transaction.record(PreferencesSet(preferences: p), at: now)
            }
            return p
        }
        try session.output.json(
            .object(
                JSONObject([
                    ("category", .optional(preferences.category?.rawValue)),
                    ("unreadOnly", .bool(preferences.unreadOnly)),
                    ("channels", .array(preferences.channels.map(JSON.string))),
                ])))
        try session.output.line(
            "Default filter  " + (preferences.category?.rawValue ?? "all categories")
                + (preferences.unreadOnly ? ", unread only" : ""))
        try session.output.line(
            "Your channels   "
                + (preferences.channels.isEmpty
                    ? "none (add one with 'lifesignal notify prefs --channel URI')"
                    : preferences.channels.joined(separator: ", ")))
        return .ok
    }

    // MARK: - deliver and test

    static func deliver(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let report = try Deliverer.run(session: session, only: nil)
        for failure in report.failures {
            session.output.note(
                "delivery of \"\(failure.title)\" through \(failure.channel) failed: \(failure.error). It will be retried."
            )
        }
        for waiting in report.waiting {
            session.output.note(
                "delivery of \"\(waiting.job.notification.title)\" through \(waiting.job.channel) is still pending (last error: \(waiting.error)); next try after \(session.local(waiting.next))."
            )
        }
        try session.output.json(report.json)
        return report.isComplete ? .ok : .tryAgain
    }

    static func test(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let circle = try session.snapshot(store).state
        let me = store.identity.member
        let now = session.now
        var channels: [String]
        var label: String
        var recipient = Notification.Recipient.member(me)
        if let text = invocation.argument(0) {
            let contact = try ContactsCommand.find(text, in: circle.contacts(of: me), path: invocation.path)
            label = contact.name
            if let external = contact.external {
                channels = ContactsCommand.channels(of: external)
                recipient = .external(owner: me, id: contact.id)
            } else {
                channels = circle.members[contact.id]?.effectivePreferences.channels ?? []
                recipient = .member(contact.id)
            }
        } else {
            label = "you"
            channels = circle.members[me]?.effectivePreferences.channels ?? []
        }
        guard !channels.isEmpty else {
            throw .invalidValue(
                invocation.argument(0) == nil
                    ? "You have no channels yet; add one with 'lifesignal notify prefs --channel URI' (e.g. desktop:, mailto:you@example.org, ntfy:https://ntfy.sh/TOPIC)."
                    : "\(label) has no channels to test.")
        }
        let name = circle.members[me]?.name?.value ?? "lifesignal"
        let notification = Notification(
            kind: .system, cause: "test|\(now.seconds)",
            message: "This is a test from \(name)'s lifesignal. If you can read this, this channel works.",
            at: now, subject: me, recipient: recipient)
        var results: [(String, DeliveryAttempt)] = []
        for channel in channels {
            results.append(
                (
                    channel,
                    Delivery.send(
                        notification, through: channel, subjectName: name, environment: session.context.environment,
                        timeout: Deliverer.timeout)
                ))
        }
        try session.output.json(
            .object(
                JSONObject([
                    (
                        "results",
                        .array(
                            results.map { channel, attempt in
                                .object(
                                    JSONObject([
                                        ("channel", .string(channel)), ("delivered", .bool(attempt.succeeded)),
                                        ("error", .optional(attempt.error)),
                                    ]))
                            })
                    )
                ])))
        for (channel, attempt) in results {
            try session.output.line(
                attempt.succeeded
                    ? "ok      \(channel)" : session.output.red("FAILED  \(channel): \(attempt.error ?? "")"))
        }
        return results.allSatisfy { $0.1.succeeded } ? .ok : .unavailable
    }
}

/// The delivery cycle, outbox style: under the lock, notice what is due and pick the
/// deliveries that are due; without the lock, run the channels; under the lock again, record
/// how each went. A crash between sending and recording means the next run sends again —
/// a duplicate, never a loss; every message carries the notification's id for de-duplication.
enum Deliverer {
    /// Seconds one channel may take before its process group is ended.
    static let timeout: Double = 10
    /// Notifications older than this are kept in the feed but no longer sent.
    static let horizon = TimeSpan.hours(48)

    struct Job {
        var notification: Notification
        var channel: String
        var subjectName: String
    }

    struct Failure {
        var title: String
        var channel: String
        var error: String
    }

    struct Report {
        var delivered: [Job] = []
        var failures: [Failure] = []
        var noticed: [Notification] = []
        /// Deliveries that failed before and wait for their next try (not attempted this run).
        var waiting: [(job: Job, next: Timestamp, error: String)] = []

        /// Nothing failed and nothing waits: what cron reads as success.
        var isComplete: Bool { failures.isEmpty && waiting.isEmpty }

        var json: JSON {
            .object(
                JSONObject([
                    ("noticed", .array(noticed.map { .string($0.id) })),
                    (
                        "delivered",
                        .array(
                            delivered.map {
                                .object(
                                    JSONObject([("id", .string($0.notification.id)), ("channel", .string($0.channel))]))
                            })
                    ),
                    (
                        "failed",
                        .array(
                            failures.map {
                                .object(
                                    JSONObject([
                                        ("title", .string($0.title)), ("channel", .string($0.channel)),
                                        ("error", .string($0.error)),
                                    ]))
                            })
                    ),
                    (
                        "waiting",
                        .array(
                            waiting.map { w in
                                .object(
                                    JSONObject([
                                        ("title", .string(w.job.notification.title)),
                                        ("channel", .string(w.job.channel)),
                                        ("nextAttempt", .string(w.next.rfc3339)), ("error", .string(w.error)),
                                    ]))
                            })
                    ),
                ]))
        }
    }

    /// Where a notification goes: my channels for mine, an external contact's for theirs.
    static func channels(for recipient: Notification.Recipient, circle: CircleState) -> [String] {
        switch recipient {
        case .member(let id): return circle.members[id]?.effectivePreferences.channels ?? []
        case .external(let owner, let id):
            guard let contact = circle.externals[owner]?[id]?.value else { return [] }
            return ContactsCommand.channels(of: contact)
        }
    }

    /// One full cycle. `only` limits it to some notifications (the ones a command just caused).
    static func run(session: Session, only: Set<String>?) throws(CLIError) -> Report {
        let now = session.now
        var report = Report()
        let jobs = try session.update(feed: true) { transaction in
            report.noticed = transaction.noticeDue(now: now)
            let circle = transaction.circle
            var jobs: [Job] = []
            for n in transaction.feed.notifications.values.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) {
                guard Notifications.serves(n.recipient, me: transaction.member),
                    only.map({ $0.contains(n.id) }) ?? true,
                    n.at >= now - horizon || n.kind == .dependentAlert || n.kind == .alertActivated
                else { continue }
                for channel in channels(for: n.recipient, circle: circle) {
                    let state =
                        transaction.feed.deliveries[DeliveryKey(notification: n.id, channel: channel)]
                        ?? DeliveryState()
                    let job = Job(
                        notification: n, channel: channel, subjectName: circle.members[n.subject]?.name?.value ?? "")
                    if state.isDue(now: now) {
                        jobs.append(job)
                    } else if let next = state.nextAttempt {
                        report.waiting.append((job, next, state.lastError ?? "failed"))
                    }
                }
            }
            return jobs
        }
        guard !jobs.isEmpty else { return report }
        // No lock held from here: a channel that hangs cannot stop a check-in.
        let attempts = jobs.map { job in
            (
                job,
                Delivery.send(
                    job.notification, through: job.channel, subjectName: job.subjectName,
                    environment: session.context.environment, timeout: timeout)
            )
        }
        // Test failpoint: die between sending and recording, as a power cut would. The next
        // run must send again (a duplicate the receiver can drop by id), never lose anything.
        if session.context.environment["LIFESIGNAL_TEST_CRASH_AFTER_SEND"] == "1" { session.context.crash() }
        try session.update(feed: true) { transaction in
            for (job, attempt) in attempts {
                transaction.recordDelivery(attempt, at: now)
                if attempt.succeeded {
                    report.delivered.append(job)
                } else {
                    report.failures.append(
                        Failure(title: job.notification.title, channel: job.channel, error: attempt.error ?? "failed"))
                    let failures =
                        transaction.feed.deliveries[
                            DeliveryKey(notification: job.notification.id, channel: job.channel)]?.failures ?? 0
                    if failures == DeliveryState.failuresBeforeWarning, job.notification.kind != .system {
                        transaction.notice(
                            Notifications.channelFailing(
                                job.channel, error: attempt.error ?? "failed", member: transaction.member, at: now,
                                failures: failures))
                    }
                }
            }
        }
        return report
    }
}
