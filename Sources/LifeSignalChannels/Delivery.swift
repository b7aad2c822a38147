import LifeSignalCore

/// Sends one notification through one channel, by running the channel's program with
/// `ChildProcess`: in its own session, with an allow-listed environment, a timeout after which
/// the whole process group is ended, and capped output. The notification's data reaches the
/// program only through `LIFESIGNAL_*` environment variables and the notification's JSON (or
/// an e-mail, or a curl configuration) on stdin; the command strings below are constants, so no
/// name, note or message is ever parsed by a shell.
public enum Delivery {
    /// What a channel URI asks for (see `Address.problem(withChannel:)` for the accepted forms).
    public enum Channel: Equatable, Sendable {
        case desktop
        case mail(String)
        case ntfy(String)
        case webhook(String)
        case apprise(String)
        case exec(String)

        public init?(_ uri: String) {
            guard Address.problem(withChannel: uri) == nil, let kind = ChannelKind(of: uri) else { return nil }
            let target = kind.target(of: uri)
            switch kind {
            case .desktop: self = .desktop
            case .mail: self = .mail(target)
            case .ntfy: self = .ntfy(target)
            case .webhook: self = .webhook(target)
            case .apprise: self = .apprise(target)
            case .exec: self = .exec(target)
            }
        }

        public var kind: ChannelKind {
            switch self {
            case .desktop: .desktop
            case .mail: .mail
            case .ntfy: .ntfy
            case .webhook: .webhook
            case .apprise: .apprise
            case .exec: .exec
            }
        }

        /// The program it needs, for "not installed" messages.
        public var program: String { kind.program }
        var package: String { kind.package }
    }

    /// The variables a channel's program gets about the message, and what each holds (the
    /// man page's CHANNELS section lists them from here).
    public static let variables: [(name: String, meaning: String)] = [
        ("LIFESIGNAL_ID", "the notification's id, the same on every retry and machine"),
        ("LIFESIGNAL_TYPE", "what happened, e.g. receive_non_responsive_dependent_alert"),
        ("LIFESIGNAL_CATEGORY", "alerts, check-ins, pings, contacts or system"),
        ("LIFESIGNAL_SEVERITY", "critical, warning or info"),
        ("LIFESIGNAL_STATUS", "triggered, updated, resolved or info"),
        ("LIFESIGNAL_DEDUPE_KEY", "the same for an alarm, its updates and its all-clear"),
        ("LIFESIGNAL_TITLE", "one line, leading with the person's name"),
        ("LIFESIGNAL_MESSAGE", "the summary"),
        ("LIFESIGNAL_TEXT", "the whole message as plain text"),
        ("LIFESIGNAL_SUBJECT", "the id of the member it is about"),
        ("LIFESIGNAL_SUBJECT_NAME", "their name"),
        ("LIFESIGNAL_TIME", "when it happened, RFC 3339 UTC"),
        ("LIFESIGNAL_URGENT", "1 for an alert or a missed check-in, else 0"),
        ("LIFESIGNAL_CHANNEL", "the channel URI"),
    ]

    /// Variables passed through from lifesignal's own environment, when set: what programs
    /// need to find each other and reach a desktop session, nothing else (no tokens, no keys).
    public static let passedThrough = [
        "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "USER", "LOGNAME", "DISPLAY", "WAYLAND_DISPLAY",
        "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
    ]

    /// One attempt, in seconds at most `timeout` (+ the grace to end the process group).
    /// `message` is what the recipient reads; `mail` addresses the e-mail of this machine's
    /// member (nil: the account at localhost).
    public static func send(
        _ notification: Notification, as message: Message, through uri: String, mail: MailSettings?,
        environment: [String: String], timeout: Double
    ) -> DeliveryAttempt {
        func outcome(_ error: String?) -> DeliveryAttempt {
            DeliveryAttempt(notification: notification.id, channel: uri, succeeded: error == nil, error: error)
        }
        guard let channel = Channel(uri) else { return outcome("not a channel lifesignal knows") }
        var env = self.environment(for: notification, message, through: uri, from: environment)
        let (arguments, input) = command(
            for: notification, message, through: channel, mail: mail, environment: &env, timeout: timeout)
        // Look the real program up first (a shell-run one too), so "not installed" names it.
        if Programs.locate(channel.program, path: env["PATH"] ?? "") == nil {
            return outcome(Programs.missing(channel, path: env["PATH"] ?? ""))
        }
        do {
            let result = try ChildProcess.run(
                arguments, environment: env, stdin: input, timeout: timeout, outputLimit: 16 * 1024)
            return outcome(failure(of: result, program: channel.program, timeout: timeout))
        } catch {
            switch error {
            case .notFound(_, let path):
                return outcome(Programs.missing(channel, path: path))
            case .spawnFailed(let program, let reason):
                return outcome("could not start \(program): \(reason)")
            }
        }
    }

    /// What the channel's program gets: the allow-listed variables of lifesignal's own
    /// environment, and the message's fields as `LIFESIGNAL_*`.
    static func environment(
        for notification: Notification, _ message: Message, through uri: String, from environment: [String: String]
    ) -> [String: String] {
        var env: [String: String] = [:]
        for key in passedThrough { if let value = environment[key], !value.isEmpty { env[key] = value } }
        if env["PATH"] == nil { env["PATH"] = "/usr/bin:/bin" }
        env["LIFESIGNAL_ID"] = notification.id
        env["LIFESIGNAL_TYPE"] = notification.kind.rawValue
        env["LIFESIGNAL_CATEGORY"] = notification.kind.category.rawValue
        env["LIFESIGNAL_SEVERITY"] = message.severity
        env["LIFESIGNAL_STATUS"] = message.status
        env["LIFESIGNAL_DEDUPE_KEY"] = message.thread ?? message.id
        env["LIFESIGNAL_TITLE"] = message.title
        env["LIFESIGNAL_MESSAGE"] = message.summary
        env["LIFESIGNAL_TEXT"] = message.text()
        env["LIFESIGNAL_SUBJECT"] = notification.subject
        env["LIFESIGNAL_SUBJECT_NAME"] = message.person.name
        env["LIFESIGNAL_TIME"] = notification.at.rfc3339
        env["LIFESIGNAL_URGENT"] = notification.kind.isEmergency ? "1" : "0"
        env["LIFESIGNAL_CHANNEL"] = uri
        return env
    }

    /// The program line and its stdin for one channel; the command strings are constants.
    static func command(
        for notification: Notification, _ message: Message, through channel: Channel, mail: MailSettings?,
        environment env: inout [String: String], timeout: Double
    ) -> (arguments: [String], input: [UInt8]) {
        let document = MessageDocument.json(message).serializedBytes(pretty: false) + [0x0A]
        let urgent = notification.kind.isEmergency
        switch channel {
        case .desktop:
            env["LIFESIGNAL_URGENCY"] = urgent ? "critical" : "normal"
            let line =
                #"exec notify-send -u "$LIFESIGNAL_URGENCY" -a lifesignal -- "$LIFESIGNAL_TITLE" "$LIFESIGNAL_MESSAGE""#
            return (["sh", "-c", line], [])
        case .mail(let address):
            let user = env["USER"] ?? env["LOGNAME"] ?? "lifesignal"
            let sendmail = Programs.locate("sendmail", path: env["PATH"] ?? "") ?? "sendmail"
            return (
                ["\(sendmail)", "-t", "-i"], Array(Mail.message(message, to: address, mail: mail, user: user).utf8)
            )
        case .ntfy(let url):
            return (["curl", "--config", "-"], Array(Ntfy.config(message, url: url, timeout: timeout).utf8))
        case .webhook(let url):
            let config = Curl.config([
                ("url", url), ("max-time", Curl.maxTime(timeout)), ("header", "Content-Type: application/json"),
                ("header", "X-LifeSignal-Id: \(notification.id)"),
                ("data-raw", String(decoding: document, as: UTF8.self)),
            ])
            return (["curl", "--config", "-"], Array(config.utf8))
        case .apprise(let url):
            env["LIFESIGNAL_APPRISE_URL"] = url
            env["LIFESIGNAL_APPRISE_TYPE"] = urgent ? "failure" : "info"
            // The body on stdin (apprise reads it when -b is absent); the title through the
            // environment, expanded by a constant command line.
            let line =
                #"exec apprise -n "$LIFESIGNAL_APPRISE_TYPE" -t "$LIFESIGNAL_TITLE" -- "$LIFESIGNAL_APPRISE_URL""#
            return (["sh", "-c", line], Array(message.text(footer: false).utf8))
        case .exec(let command):
            return (["sh", "-c", command], document)
        }
    }

    /// Why a run failed, or nil when it succeeded.
    static func failure(of result: ChildProcess.Result, program: String, timeout: Double) -> String? {
        if result.succeeded { return nil }
        // The last few lines, not just the last: msmtp (as sendmail) ends with a generic "could
        // not send mail" after the line with the server's reason (e.g. "550 5.1.1 …"), and that
        // reason is what the user needs to read in cron's mail.
        let said = String(decoding: result.stderr.isEmpty ? result.stdout : result.stderr, as: UTF8.self)
            .split(separator: "\n").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }.suffix(3)
            .joined(separator: "; ")
        let detail = said.isEmpty ? "" : ": \(said.prefix(300))"
        if result.timedOut { return "\(program) did not finish within \(Int(timeout))s and was stopped\(detail)" }
        if let signal = result.signal { return "\(program) was ended by signal \(signal)\(detail)" }
        return "\(program) exited with status \(result.status ?? -1)\(detail)"
    }
}

/// A curl configuration read from stdin (`curl --config -`), so URLs, headers and bodies
/// never appear on a command line.
enum Curl {
    /// curl's own limit, kept above the channel timeout as a backstop only. When both were
    /// the same, curl's "(28) Operation timed out" and lifesignal's stop raced: the error's
    /// detail came out as curl's message, or cut short (just "c") by the SIGTERM arriving
    /// while curl wrote it. Now the channel timeout alone ends a hanging request.
    static func maxTime(_ timeout: Double) -> String { String(Int(timeout) + 5) }

    static func config(_ options: [(String, String)]) -> String {
        // globoff: a URL is an address, never a pattern (curl's glob errors repeat the whole URL,
        // and a private topic's URL must never reach a record).
        var text = "silent\nshow-error\nfail\ngloboff\n"
        for (name, value) in options { text += "\(name) = \"\(escape(value))\"\n" }
        return text
    }

    /// Quoted-string escapes of curl's config syntax.
    static func escape(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
