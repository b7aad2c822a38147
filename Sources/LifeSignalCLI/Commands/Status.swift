import LifeSignalApp
import LifeSignalCore

/// `lifesignal status`: the dashboard — my deadline, the pings waiting for my answer, and the
/// dependents that need attention (alert, non-responsive, pinged).
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the dashboard: your deadline and time left.",
        discussion:
            "Exits 0 when on time, 3 when the reminder time has come, 4 when overdue, 5 while your alert is active, 6 while someone you watch over needs attention or records in your circle are ignored as not signed by their member's devices, and 65 while this device cannot sign what it writes (device.key lost), so cron and scripts can branch on it (see 'lifesignal help exit-codes').",
        run: run)

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let board = try session.call(line.path) { app throws(AppError) in try app.dashboard() }
        session.output.warn(listed: board.warnings)
        try session.output.json(board, now: session.now)
        try render(board, session: &session)
        if board.alert != nil { return .alertActive }
        // Running status means I am here; someone I watch over in trouble matters more than my
        // own countdown, and `lifesignal status || page-me` must fire for them too.
        if board.needsAttention.contains(where: \.status.needsAttention) || board.recordsIgnored {
            return .dependentNeedsAttention
        }
        // Nothing can be recorded or sent from here: a script checking `status` must hear it.
        if board.warnings.contains(where: { if case .cannotSign = $0 { true } else { false } }) { return .dataError }
        return Render.exitCode(for: board.checkIn.phase)
    }

    static func render(_ board: App.Dashboard, session: inout Session) throws(CLIError) {
        let o = session.output
        try session.output.line(o.bold(board.name))
        if let alert = board.alert, let start = alert.start {
            try session.output.line(
                o.red(o.bold("  EMERGENCY ALERT ACTIVE")) + " since \(session.when(start.at))"
                    + (alert.currentMessage.map { ": “\($0)”" } ?? ""))
        }
        for text in Render.checkInLines(board.checkIn, session: session) { try session.output.line("  " + text) }
        if !board.pingsToAnswer.isEmpty {
            try session.output.line(o.bold("Pings to answer"))
            for entry in board.pingsToAnswer {
                try session.output.line(
                    o.yellow("  \(entry.otherName) pinged you \(DependentStatus.ago(entry.sent.at, session.now))"))
            }
            try session.output.line("  Answer with 'lifesignal ping respond --all' (also checks you in).")
        }
        if !board.needsAttention.isEmpty {
            try session.output.line(o.bold("Needs attention"))
            for entry in board.needsAttention {
                try session.output.line("  " + entry.contact.name.padding(to: 14) + Render.colored(entry.status, o))
            }
        }
        if board.unread > 0 {
            try session.output.line(
                "\(board.unread) unread notification\(board.unread == 1 ? "" : "s"): see them with 'lifesignal notify list'."
            )
        }
    }
}

/// The dashboard, as `status --json` gives it.
extension App.Dashboard: JSONRenderedAt {
    func json(now: Timestamp) -> JSON {
        let attention: [JSON] = needsAttention.map { entry in
            [
                "id": .string(entry.contact.id), "name": .string(entry.contact.name),
                "status": Render.dependentJSON(entry.status),
            ]
        }
        return [
            "now": .string(now.rfc3339),
            "member": ["id": .string(member), "name": .string(name), "device": .string(device)],
            "dataDirectory": .string(dataDirectory), "circle": .string(circle), "checkIn": checkIn.json,
            "alert": Render.alertJSON(alert, now: now), "unreadNotifications": .int(Int64(unread)),
            "pingsToAnswer": .array(pingsToAnswer.map(Render.pingJSON)), "needsAttention": .array(attention),
            "warnings": .array(warnings.map(Render.warningJSON)),
        ]
    }
}
