import LifeSignalCore
import LifeSignalStore

/// `lifesignal status`: the dashboard — my deadline, the pings waiting for my answer, and the
/// dependents that need attention (alert, non-responsive, pinged).
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the dashboard: your deadline and time left.",
        discussion:
            "Exits 0 when on time, 3 when the reminder time has come, 4 when overdue, so cron and scripts can branch on it (see 'lifesignal help exit-codes').",
        run: { invocation, session throws(CLIError) in try run(invocation, &session) })

    static func run(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let me = store.identity.member
        let snapshot = try session.snapshot(store)
        let circle = snapshot.state
        let state = circle.members[me] ?? MemberState()
        let status = CheckInStatus(member: state, now: session.now)
        var unread = snapshot.unread ?? 0
        if snapshot.unread == nil {
            let counted = try storeCall { () throws(StoreError) in try store.unreadCount() }
            session.warn(counted.skipped)
            unread = counted.count
        }
        let alert = state.activeAlert
        let contacts = circle.contacts(of: me)
        let incoming = PingCommand.entries(circle: circle, me: me, now: session.now, contacts: contacts).filter {
            $0.incoming && $0.state == "pending"
        }
        let attention = Render.dependents(contacts, circle: circle, me: me, now: session.now).filter { dependent in
            switch dependent.status.kind {
            case .alert, .nonResponsive, .pinged: return true
            case .countdown, .noCheckIn: return false
            }
        }
        let name = state.name?.value ?? session.accountDisplayName
        Render.clockWarning(status, session: session)
        try session.output.json(
            .object(
                JSONObject([
                    ("now", .string(session.now.rfc3339)),
                    (
                        "member",
                        .object(
                            JSONObject([
                                ("id", .string(store.identity.member)), ("name", .string(name)),
                                ("device", .string(store.identity.device)),
                            ]))
                    ),
                    ("dataDirectory", .string(store.dataDirectory)),
                    ("circle", .string(store.circleDirectory)),
                    ("checkIn", Render.checkInJSON(status)),
                    ("alert", AlertCommand.alertJSON(alert, now: session.now)),
                    ("unreadNotifications", .int(Int64(unread))),
                    ("pingsToAnswer", .array(incoming.map(PingCommand.json))),
                    (
                        "needsAttention",
                        .array(
                            attention.map { entry in
                                .object(
                                    JSONObject([
                                        ("id", .string(entry.contact.id)), ("name", .string(entry.contact.name)),
                                        ("status", Render.dependentJSON(entry.status)),
                                    ]))
                            })
                    ),
                ])))
        try session.output.line(session.output.bold(name))
        if let alert, let start = alert.start {
            try session.output.line(
                session.output.red(session.output.bold("  EMERGENCY ALERT ACTIVE")) + " since \(session.when(start.at))"
                    + (alert.message.map { ": “\($0)”" } ?? ""))
        }
        for line in Render.checkInLines(status, session: session) { try session.output.line("  " + line) }
        if !incoming.isEmpty {
            try session.output.line(session.output.bold("Pings to answer"))
            for entry in incoming {
                try session.output.line(
                    session.output.yellow(
                        "  \(entry.otherName) pinged you \(DependentStatus.ago(entry.sent.at, session.now))"))
            }
            try session.output.line("  Answer with 'lifesignal ping respond --all' (also checks you in).")
        }
        if !attention.isEmpty {
            try session.output.line(session.output.bold("Needs attention"))
            for entry in attention {
                try session.output.line(
                    "  " + entry.contact.name.padding(to: 14) + Render.colored(entry.status, session.output))
            }
        }
        if unread > 0 {
            try session.output.line(
                "\(unread) unread notification\(unread == 1 ? "" : "s"): see them with 'lifesignal notify list'.")
        }
        return alert != nil ? .alertActive : Render.exitCode(for: status.phase)
    }
}
