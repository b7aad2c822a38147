import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the programs channels run are found, and what keeps one from working as cron would
/// run it. cron's PATH is `/usr/bin:/bin`; a mailer lives in `/usr/sbin` (msmtp-mta, postfix,
/// exim), so a crontab without a PATH line would fail every e-mail if PATH were the only place
/// looked: `sendmail` is also looked for where mail programs conventionally are.
public enum Programs {
    /// The PATH cron gives its jobs.
    public static let cronPath = "/usr/bin:/bin"

    /// Where a `sendmail` is looked for after PATH.
    public static let sendmailPlaces = ["/usr/sbin/sendmail", "/usr/lib/sendmail"]

    /// The absolute path of `program` as a channel would run it with `path`: on PATH, and for
    /// `sendmail` then in its conventional places; nil when it is nowhere.
    public static func locate(_ program: String, path: String) -> String? {
        if let found = ChildProcess.locate(program, path: path) { return found }
        guard program == "sendmail" else { return nil }
        return sendmailPlaces.first { access($0, X_OK) == 0 }
    }

    /// "not installed" for a channel's program, naming where it was looked for.
    static func missing(_ channel: Delivery.Channel, path: String) -> String {
        guard channel.program == "sendmail" else {
            return "\(channel.program) is not installed or not on PATH (\(path)); install \(channel.package)"
        }
        return
            "sendmail is not installed (looked on PATH \(path), then \(sendmailPlaces.joined(separator: ", "))); install \(channel.package)"
    }

    /// Why `uri`'s program would not work when cron runs `notify deliver` — not found with
    /// cron's PATH, or msmtp as the mailer with no configuration — or nil. `environment` is
    /// this process's (its HOME and XDG_CONFIG_HOME say where msmtp looks).
    public static func cronProblem(of uri: String, environment: [String: String]) -> String? {
        guard let channel = Delivery.Channel(uri) else { return nil }
        guard let program = locate(channel.program, path: cronPath) else {
            let here = locate(channel.program, path: environment["PATH"] ?? "")
            let found = here.map { "it is \($0) here, not on cron's PATH (\(cronPath))" } ?? "it is not installed"
            return
                "\(channel.program) would not be found when cron runs lifesignal: \(found); install \(channel.package)"
                + (here == nil ? "" : " or add PATH=… to the crontab")
        }
        if channel.program == "sendmail", isMSMTP(program), msmtpConfiguration(environment) == nil {
            return
                "\(program) is msmtp, which has no configuration file (~/.msmtprc, ~/.config/msmtp/config or /etc/msmtprc), so no e-mail can leave; write one as the \"E-mail\" section of lifesignal's guide (docs/GUIDE.md) shows"
        }
        return nil
    }

    /// Whether `path` is msmtp (often a link named sendmail).
    static func isMSMTP(_ path: String) -> Bool {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return false }
        let real = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Paths.lastComponent(of: real).hasPrefix("msmtp")
    }

    /// The configuration file msmtp would read, or nil when there is none.
    static func msmtpConfiguration(_ environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            candidates.append(Paths.join(config, "msmtp/config"))
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            candidates += [Paths.join(home, ".msmtprc"), Paths.join(home, ".config/msmtp/config")]
        }
        candidates.append("/etc/msmtprc")
        return candidates.first { access($0, R_OK) == 0 }
    }
}
