import LifeSignalApp
import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a run of lifesignal takes from the outside world, gathered by `main.swift`.
/// Commands never read the environment, the clock or the terminal any other way, so tests
/// can run them with a fixed time and a temporary directory.
public struct Context {
    public enum Stream: Sendable { case standardOutput, standardError }

    /// The arguments after the program name.
    public var arguments: [String]
    /// The process could not learn its own arguments (the runtime reads them from /proc, which
    /// fails with no file descriptor free): acting on "no arguments" would print the help and
    /// exit 0, and a cron job would never learn its check-in was not recorded.
    public var argumentsUnreadable = false
    public var environment: [String: String]
    /// The system clock; `LIFESIGNAL_NOW` replaces it.
    public var clock: () -> Timestamp
    /// The local zone's offset from UTC at an instant, in seconds.
    public var utcOffset: (Timestamp) -> Int64
    /// The local zone's abbreviation at an instant (`CET`, `BST`), when it has one.
    public var zoneAbbreviation: (Timestamp) -> String? = { _ in nil }
    public var stdinIsTerminal: Bool
    public var stdoutIsTerminal: Bool
    /// The terminal's width when stdout is a terminal.
    public var terminalColumns: Int?
    /// The account's login name, full name (GECOS) and home directory from the password
    /// database, looked up only when needed (HOME unset, or a profile to name).
    public var account: () -> Account?
    public var workingDirectory: String?
    /// Writes text; returns an errno-style failure reason, or nil on success.
    public var write: (Stream, String) -> String?
    /// Reads one line from stdin (for confirmations); nil at end of input.
    public var readLine: () -> String?
    /// Ends the process at once, as a crash would (for the delivery failpoint in tests): no
    /// trap, no backtrace, no cleanup — exit status 137, as after SIGKILL.
    public var crash: () -> Never = { _exit(137) }
    /// This program's own executable, for work it leaves to a background run of itself (a
    /// duress alarm sent after a check-in's output); nil: nothing is started in the background.
    public var executable: () -> String? = { nil }
    /// Reads one line from the terminal without showing it (a duress word); nil where there is
    /// no way to hide it, and then `readLine` is used.
    public var readHiddenLine: (() -> String?)? = nil
    /// The channels and programs the use cases reach (`App.Outside.real`, or a test's fakes).
    public var outside = App.Outside.real

    public init(
        arguments: [String], environment: [String: String], clock: @escaping () -> Timestamp,
        utcOffset: @escaping (Timestamp) -> Int64, stdinIsTerminal: Bool, stdoutIsTerminal: Bool, terminalColumns: Int?,
        account: @escaping () -> Account?,
        workingDirectory: String?, write: @escaping (Stream, String) -> String?, readLine: @escaping () -> String?
    ) {
        self.arguments = arguments
        self.environment = environment
        self.clock = clock
        self.utcOffset = utcOffset
        self.stdinIsTerminal = stdinIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
        self.terminalColumns = terminalColumns
        self.account = account
        self.workingDirectory = workingDirectory
        self.write = write
        self.readLine = readLine
    }
}

/// An entry of the password database.
public struct Account: Sendable {
    public var name: String?
    public var fullName: String?
    public var home: String?

    public init(name: String?, fullName: String?, home: String?) {
        self.name = name
        self.fullName = fullName
        self.home = home
    }
}

extension Account {
    /// This process's account, read from `/etc/passwd` itself; nil when it lists none.
    ///
    /// Not `getpwuid_r`: that goes through glibc's NSS, which a statically linked binary cannot
    /// load safely — the shipped lifesignal crashed in libnss_systemd for a user id the file
    /// does not list (a container, a service account under cron). Accounts that live only in
    /// LDAP or systemd's dynamic users are not found here; the callers fall back to `$USER`
    /// and the name "Me", and to `HOME` (or a clear error) for the home directory.
    public static func lookUp() -> Account? {
        guard let file = fopen("/etc/passwd", "re") else { return nil }
        defer { fclose(file) }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while text.count < 16 << 20 {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            text += buffer[0..<n]
        }
        return entry(uid: UInt32(getuid()), in: String(decoding: text, as: UTF8.self))
    }

    /// The entry for `uid` in the text of a passwd(5) file: `name:password:uid:gid:gecos:home:shell`.
    public static func entry(uid: UInt32, in passwd: String) -> Account? {
        for line in passwd.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 7, UInt32(fields[2]) == uid else { continue }
            func text(_ field: Substring) -> String? { field.isEmpty ? nil : String(field) }
            return Account(name: text(fields[0]), fullName: text(fields[4]), home: text(fields[5]))
        }
        return nil
    }
}
