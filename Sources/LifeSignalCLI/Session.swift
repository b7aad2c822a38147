import LifeSignalCore
import LifeSignalStore

/// One run's resolved settings — the time, the data directory, how to print — built from the
/// `Context` and the global options once the command line has parsed.
struct Session {
    let context: Context
    let global: GlobalOptions
    let now: Timestamp
    let lockTimeout: Int
    var output: Output

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
                accountHome: context.environment["HOME"].map { $0.hasPrefix("/") } == true
                    ? nil : context.account()?.home,
                workingDirectory: context.workingDirectory)
        } catch {
            throw .configuration(error.message)
        }
    }

    /// Opens the existing data directory for reading.
    func openStore() throws(CLIError) -> Store {
        let directory = try dataDirectory()
        return try storeCall { () throws(StoreError) in try Store.open(dataDirectory: directory) }
    }

    /// Reads the whole circle (from the private cache when nothing changed), warning on stderr about other devices' logs that had to be
    /// skipped (damaged, unreadable, or from a newer lifesignal).
    func snapshot(_ store: Store) throws(CLIError) -> Store.Snapshot {
        let snapshot = try storeCall { () throws(StoreError) in try store.snapshot() }
        warn(snapshot.skipped)
        warn(snapshot.unknown)
        return snapshot
    }

    func readCircle(_ store: Store) throws(CLIError) -> Store.CircleRead {
        let read = try storeCall { () throws(StoreError) in try store.readCircle() }
        warn(read.skipped)
        warn(read.unknown)
        return read
    }

    func warn(_ skipped: [StoreError]) {
        for problem in skipped {
            output.note(
                "warning: left out another device's records, which cannot be read: \(problem.summary). They are read again once that device or the sync rewrites the file."
            )
        }
    }

    func warn(_ unknown: [UnknownRecords]) {
        for log in unknown {
            let what = log.events > 0 ? "\(log.events) event(s)" : "records"
            output.note(
                "warning: device \(log.device) of member \(log.member) holds \(what) written by \(log.writer ?? "a newer lifesignal") that this lifesignal \(Release.version) does not know; they are kept but not counted. Upgrade lifesignal to count them."
            )
        }
    }

    /// The name for a profile nobody named: the account's full name, else its login name.
    var accountDisplayName: String {
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

    /// Runs a write under the store's lock, creating the profile with defaults if this is the
    /// first write, and says so once on stderr.
    func update<T>(
        creation: Store.Creation? = nil, announce: Bool = true, feed: Bool = false,
        _ body: (inout Transaction) throws -> T
    ) throws(CLIError) -> T {
        let directory = try dataDirectory()
        // The default profile's name comes from the password database, which can be slow (NSS,
        // LDAP): it is looked up only when there is no profile yet. A profile that vanishes
        // after this check is reported as missing (exit 66), never recreated silently.
        let creation =
            creation
            ?? (Store.hasProfile(directory)
                ? .never
                : .ifMissing(
                    NewProfile(
                        name: accountDisplayName, interval: Rules.defaultInterval, reminder: Rules.defaultReminder,
                        circle: nil)))
        do {
            var skipped: [StoreError] = []
            var unknown: [UnknownRecords] = []
            let (value, created) = try Store.update(
                dataDirectory: directory, lockTimeout: lockTimeout, creation: creation, now: now, feed: feed
            ) { transaction in
                skipped = transaction.skipped
                unknown = transaction.unknown
                return try body(&transaction)
            }
            warn(skipped)
            warn(unknown)
            if created, announce, case .ifMissing(let profile) = creation, !global.json {
                let reminder = profile.reminder.map { "a reminder \($0) before the deadline" } ?? "no reminder"
                output.note(
                    "created a profile for \(profile.name) in \(directory): check in every \(profile.interval), \(reminder). Change them with 'lifesignal checkin interval' and 'lifesignal checkin reminder'."
                )
            }
            return value
        } catch let error as CLIError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .invalidValue("\(error)")
        }
    }

    func local(_ time: Timestamp) -> String { time.local(utcOffset: context.utcOffset(time)) }

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
        try emit(text + "\n")
    }

    /// The JSON document of a command (only with `--json`, and not with `--quiet`).
    /// The value is built only when `--json` asked for it.
    mutating func json(_ value: @autoclosure () -> JSON) throws(CLIError) {
        guard global.json, !global.quiet else { return }
        try emit(value().serialized() + "\n")
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
            throw .outputFailed(
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
        _ = context.write(.standardError, "lifesignal: \(text)\n")
    }

    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func red(_ s: String) -> String { color ? "\u{1B}[31m\(s)\u{1B}[0m" : s }
    func yellow(_ s: String) -> String { color ? "\u{1B}[33m\(s)\u{1B}[0m" : s }
    func green(_ s: String) -> String { color ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
}
