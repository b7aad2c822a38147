import LifeSignalCore
import LifeSignalStore

/// `lifesignal status`: the dashboard. For now the check-in part; the alert, pings,
/// dependents that need attention and unread notifications join it as those arrive.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the dashboard: your deadline and time left.",
        discussion: "Exits 0 when on time, 3 when the reminder time has come, 4 when overdue, so cron and scripts can branch on it (see 'lifesignal help exit-codes').",
        run: { invocation, session throws(CLIError) in try run(invocation, &session) })

    static func run(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let state = try storeCall { () throws(StoreError) in try store.memberState(store.identity.member) }
        let status = CheckInStatus(member: state, now: session.now)
        let name = state.name?.value ?? session.accountDisplayName
        Render.clockWarning(status, session: session)
        try session.output.json(
            .object(
                JSONObject([
                    ("now", .string(session.now.rfc3339)),
                    ("member", .object(JSONObject([("id", .string(store.identity.member)), ("name", .string(name)), ("device", .string(store.identity.device))]))),
                    ("dataDirectory", .string(store.dataDirectory)),
                    ("circle", .string(store.circleDirectory)),
                    ("checkIn", Render.checkInJSON(status)),
                ])))
        try session.output.line(session.output.bold(name))
        for line in Render.checkInLines(status, session: session) { try session.output.line("  " + line) }
        return Render.exitCode(for: status.phase)
    }
}
