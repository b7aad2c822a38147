import LifeSignalApp
import LifeSignalCore

/// One run's resolved settings — the time, the data directory, how to print — built from the
/// `Context` and the global options once the command line has parsed.
struct Session {
    let context: Context
    let global: GlobalOptions
    let now: Timestamp
    let lockTimeout: Int
    var output: Output
    private var madeApp: App?
    private var shownNotices = 0

    /// Default wait for the lock: long enough for a burst of cron jobs and shells.
    static let defaultLockTimeout = 30

    init(context: Context, global: GlobalOptions) throws(CLIError) {
        self.context = context
        self.global = global
        if let text = context.environment["LIFESIGNAL_NOW"], !text.isEmpty {
            guard let time = Timestamp(rfc3339: text) else {
                throw .configuration(
                    "LIFESIGNAL_NOW is not an RFC 3339 time: \"\(text)\"; use a form such as 2026-01-31T09:00:00Z, or unset it to use the clock"
                )
            }
            now = time
        } else {
            now = context.clock()
        }
        if let text = context.environment["LIFESIGNAL_LOCK_TIMEOUT"], !text.isEmpty {
            guard let seconds = Int(text), (0...3600).contains(seconds) else {
                throw .configuration(
                    "LIFESIGNAL_LOCK_TIMEOUT must be a whole number of seconds from 0 to 3600, but it is \"\(text)\"")
            }
            lockTimeout = seconds
        } else {
            lockTimeout = Session.defaultLockTimeout
        }
        output = Output(context: context, global: global)
    }

    /// The data directory, resolved from `--home`, the environment and the account.
    func dataDirectory() throws(CLIError) -> String {
        do {
            return try DataLocation.resolve(
                homeFlag: global.home, environment: context.environment, platform: DataLocation.currentPlatform,
                accountHome: { context.account()?.home },
                workingDirectory: context.workingDirectory)
        } catch {
            throw .configuration(error.message)
        }
    }

    /// The use cases, run against this run's data directory and clock (made on first use:
    /// help, version and completion scripts need no data directory).
    mutating func app() throws(CLIError) -> App {
        if let app = madeApp { return app }
        let context = self.context
        let app = App(
            dataDirectory: try dataDirectory(), now: now, lockTimeout: lockTimeout, environment: context.environment,
            defaultName: { Session.displayName(context) },
            crashAfterSend: context.environment["LIFESIGNAL_TEST_CRASH_AFTER_SEND"] == "1" ? context.crash : nil,
            channels: context.outside.channels, programs: context.outside.programs, clock: context.clock)
        madeApp = app
        return app
    }

    /// A write of this run that recorded its log but could not finish (see `App.unfinished`).
    var unfinished: StoreError? { madeApp?.unfinished }

    /// Runs a use case for the command at `path`, shows what it noticed on the way (not a new
    /// profile, with `announce: false`), and turns its error into the CLI's.
    mutating func call<T>(_ path: [String], announce: Bool = true, _ body: (App) throws(AppError) -> T)
        throws(CLIError) -> T
    {
        let app = try app()
        defer { show(app.notices, announce: announce) }
        do {
            return try body(app)
        } catch .store(.notInitialized(let directory)) {
            throw .noProfile(directory: directory, origin: dataDirectoryOrigin())
        } catch {
            throw error.cliError(path: path, now: now)
        }
    }

    /// Which setting chose the data directory, with the variables as they were, for the
    /// message when there is no profile there (the usual cause: cron's bare environment).
    func dataDirectoryOrigin() -> String {
        let environment = context.environment
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if global.home != nil { return "chosen with --home" }
        if let home = value("LIFESIGNAL_HOME") { return "chosen by LIFESIGNAL_HOME=\(home)" }
        if let xdg = value("XDG_DATA_HOME"), xdg.hasPrefix("/") {
            return "chosen by XDG_DATA_HOME=\(xdg); LIFESIGNAL_HOME is not set"
        }
        if let home = value("HOME"), home.hasPrefix("/") {
            return "chosen by HOME=\(home); LIFESIGNAL_HOME and XDG_DATA_HOME are not set"
        }
        return "under the account's home directory; HOME, XDG_DATA_HOME and LIFESIGNAL_HOME are not set"
    }

    /// Notices not shown yet, on stderr. A new profile is said (with its path: a crontab
    /// pointing at the wrong directory is found this way), but not with `--json` or for `init`
    /// (`announce: false`), whose output says it already.
    private mutating func show(_ notices: [Notice], announce: Bool) {
        for notice in notices.dropFirst(shownNotices) {
            switch notice {
            case .warning(let warning):
                output.warn(warning)
            case .createdProfile(let name, let interval, let reminder, let directory):
                guard announce, !global.json else { continue }
                let lead = reminder.map { "a reminder \($0) before the deadline" } ?? "no reminder"
                output.note(
                    "created a profile for \(name) in \(directory): check in every \(interval), \(lead). Change them with 'lifesignal checkin interval' and 'lifesignal checkin reminder'. "
                        + InitCommand.defaultNameAdvice(name))
            }
        }
        shownNotices = notices.count
    }

    /// The name for a profile nobody named: the account's full name, else its login name.
    var accountDisplayName: String { Session.displayName(context) }

    static func displayName(_ context: Context) -> String {
        let account = context.account()
        let full = account?.fullName?.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init)?
            .trimmingWhitespace
        if let full, Rules.problem(withText: full, field: "name") == nil { return full }
        if let login = account?.name ?? context.environment["USER"] ?? context.environment["LOGNAME"],
            Rules.problem(withText: login, field: "name") == nil
        {
            return login
        }
        return "Me"
    }

    /// `2026-11-23 09:00 CET`: the local time, labelled with the zone's abbreviation (or its
    /// offset) so a reader elsewhere is not misled — `UTC` too, as warnings and messages say it.
    func local(_ time: Timestamp) -> String {
        let offset = context.utcOffset(time)
        let text = time.local(utcOffset: offset)
        if let zone = context.zoneAbbreviation(time), zone.first?.isLetter == true { return text + " " + zone }
        if offset == 0 { return text + " UTC" }
        let sign = offset < 0 ? "-" : "+"
        let minutes = offset.magnitude / 60
        let hh = minutes / 60 < 10 ? "0\(minutes / 60)" : "\(minutes / 60)"
        let mm = minutes % 60 < 10 ? "0\(minutes % 60)" : "\(minutes % 60)"
        return text + " " + sign + hh + mm
    }

    /// `2026-11-23 09:00 (in 22h)`.
    func when(_ time: Timestamp) -> String { "\(local(time)) (\(Relative.phrase(time, now: now)))" }
}

/// Where a run's text goes: data to stdout (human or JSON), notes and errors to stderr.
/// Colour only on a terminal, never with `NO_COLOR`, `--no-color` or `TERM=dumb`.
/// A closed pipe (`lifesignal … | head`) ends output quietly.
struct Output {
    let context: Context
    let global: GlobalOptions
    let color: Bool
    private(set) var pipeClosed = false
    /// Text waiting to be written: stdout goes out in one write at the end of the run (or
    /// when it grows large), not one system call per line.
    private var pending = ""

    init(context: Context, global: GlobalOptions) {
        self.context = context
        self.global = global
        let noColor =
            (context.environment["NO_COLOR"].map { !$0.isEmpty } ?? false) || context.environment["TERM"] == "dumb"
        color = context.stdoutIsTerminal && !noColor && !global.noColor
    }

    /// One line of human output (nothing with `--json` or `--quiet`).
    mutating func line(_ text: String = "") throws(CLIError) {
        guard !global.json, !global.quiet else { return }
        try emit(TerminalText.safeLine(text) + "\n")
    }

    /// The JSON document of a command's result (only with `--json`, and not with `--quiet`):
    /// its rendering, built only when `--json` asked for it.
    mutating func json(_ result: @autoclosure () -> some JSONRendered) throws(CLIError) {
        guard global.json, !global.quiet else { return }
        try emit(result().json.serialized() + "\n")
    }

    /// The same, for a result whose document counts from the run's time.
    mutating func json(_ result: @autoclosure () -> some JSONRenderedAt, now: Timestamp) throws(CLIError) {
        guard global.json, !global.quiet else { return }
        try emit(result().json(now: now).serialized() + "\n")
    }

    /// Text that is printed whatever the format (help, version, generated scripts).
    mutating func raw(_ text: String) throws(CLIError) {
        try emit(text)
    }

    private mutating func emit(_ text: String) throws(CLIError) {
        guard !pipeClosed else { return }
        pending += text
        if pending.utf8.count > 32 * 1024 { try flush() }
    }

    /// The run's exit code: `code`, unless the reader of stdout went away (a closed pipe, as
    /// with `| head`), which ends the run quietly with 74 as the exit codes say.
    func exitCode(_ code: ExitCode) -> Int32 { pipeClosed ? ExitCode.ioError.rawValue : code.rawValue }

    /// Writes what is pending to stdout.
    mutating func flush() throws(CLIError) {
        guard !pipeClosed, !pending.isEmpty else { return }
        let text = pending
        pending = ""
        if let failure = context.write(.standardOutput, text) {
            if failure == "EPIPE" {
                pipeClosed = true
                return
            }
            throw .ioFailed(
                "cannot write to standard output: \(failure). Anything the command recorded was kept; check with 'lifesignal status'"
            )
        }
    }

    /// A remark for the person at the terminal, on stderr (not with `--quiet`).
    func note(_ text: String) {
        guard !global.quiet else { return }
        if global.json {
            // With --json, stderr carries JSON too, so a script can parse everything it gets.
            let json: JSON = ["note": .string(text)]
            _ = context.write(.standardError, json.serialized(pretty: false) + "\n")
            return
        }
        _ = context.write(.standardError, TerminalText.safeLine("lifesignal: \(text)") + "\n")
    }

    /// Doubts a command also lists in its `--json` document (`warnings`): on stderr for a
    /// person, not repeated there for a script.
    func warn(listed warnings: [Warning]) {
        guard !global.json else { return }
        for warning in warnings { warn(warning) }
    }

    /// A doubt, on stderr: `lifesignal: warning: …`, or with `--json` a JSON line with its
    /// stable code. Not with `--quiet` (the exit code and `--json` still carry it).
    func warn(_ warning: Warning) {
        guard !global.quiet else { return }
        if global.json {
            let json: JSON = ["warning": Render.warningJSON(warning)]
            _ = context.write(.standardError, json.serialized(pretty: false) + "\n")
            return
        }
        _ = context.write(.standardError, TerminalText.safeLine("lifesignal: warning: \(warning.message)") + "\n")
    }

    func bold(_ s: String) -> String { color ? TerminalText.style("1", s) : s }
    func red(_ s: String) -> String { color ? TerminalText.style("31", s) : s }
    func yellow(_ s: String) -> String { color ? TerminalText.style("33", s) : s }
    func green(_ s: String) -> String { color ? TerminalText.style("32", s) : s }
}

extension Session {
    /// Asks on the terminal; without one, refuses unless --yes was given (`otherwise` says
    /// what else would do).
    func confirm(
        _ question: String, action: String, line: Invocation, yes: Bool, otherwise: String = ""
    ) throws(CLIError) -> Bool {
        if yes { return true }
        guard context.stdinIsTerminal else {
            throw .usage(
                message:
                    "Refusing to \(action) without confirmation: there is no terminal to ask on. Pass --yes to confirm\(otherwise).",
                command: line.path)
        }
        _ = context.write(.standardError, TerminalText.safe("\(question) [y/N] "))
        let answer = context.readLine()?.trimmingWhitespace.lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}
