/// The kinds of channel a notification leaves the machine through, and the one place their
/// schemes are spelled: how a channel URI starts, what it needs, whether it may run for
/// others, and how help and completion show it. Parsing a URI, checking it
/// (`Address.problem(withChannel:)`) and running it (`Delivery`) all switch over this.
public enum ChannelKind: CaseIterable, Sendable {
    case desktop
    case mail
    case ntfy
    case webhook
    case apprise
    case exec

    /// How a channel of this kind starts (a webhook is its URL: `https://`, or `http://` for
    /// this machine).
    public var scheme: String {
        switch self {
        case .desktop: "desktop:"
        case .mail: "mailto:"
        case .ntfy: "ntfy:"
        case .webhook: "https://"
        case .apprise: "apprise:"
        case .exec: "exec:"
        }
    }

    /// Its form in help and errors.
    public var form: String {
        switch self {
        case .desktop: "desktop:"
        case .mail: "mailto:ADDRESS"
        case .ntfy: "ntfy:https://HOST/TOPIC"
        case .webhook: "https://… (webhook)"
        case .apprise: "apprise:URL"
        case .exec: "exec:COMMAND"
        }
    }

    /// What a shell's completion offers to start one with.
    public var completionPrefix: String { self == .ntfy ? "ntfy:https://" : scheme }

    /// The kind of `channel`, or nil for a URI of no kind lifesignal knows.
    public init?(of channel: String) {
        if channel == Self.desktop.scheme {
            self = .desktop
        } else if channel.hasPrefix(Self.webURLScheme(secure: false)) {
            self = .webhook
        } else if let kind = Self.allCases.first(where: { $0 != .desktop && channel.hasPrefix($0.scheme) }) {
            self = kind
        } else {
            return nil
        }
    }

    /// What follows the scheme in `channel` (a webhook's whole URL).
    public func target(of channel: String) -> String {
        self == .webhook ? channel : String(channel.dropFirst(scheme.count))
    }

    /// The channel of this kind that reaches `target` (a webhook's URL, an ntfy topic URL…).
    public func channel(_ target: String) -> String {
        switch self {
        case .desktop: scheme
        case .webhook: target
        case .mail, .ntfy, .apprise, .exec: scheme + target
        }
    }

    /// Whether it may run on someone else's behalf, or from a setting another device made: the
    /// network ones. A command or a desktop pop-up names programs of one machine, and runs
    /// only on the device that set it.
    public var runsForOthers: Bool {
        switch self {
        case .mail, .ntfy, .webhook, .apprise: true
        case .desktop, .exec: false
        }
    }

    /// Whether it reaches a server by a URL (where a topic in the circle folder can be read).
    public var isNetworkURL: Bool {
        switch self {
        case .ntfy, .webhook, .apprise: true
        case .desktop, .mail, .exec: false
        }
    }

    /// The program it runs, for "not installed" messages.
    public var program: String {
        switch self {
        case .desktop: "notify-send"
        case .mail: "sendmail"
        case .ntfy, .webhook: "curl"
        case .apprise: "apprise"
        case .exec: "sh"
        }
    }

    /// Where that program comes from.
    public var package: String {
        switch self {
        case .desktop: "libnotify-bin"
        case .mail: "msmtp-mta or another sendmail"
        case .ntfy, .webhook: "curl"
        case .apprise: "apprise (pip install apprise)"
        case .exec: "a POSIX shell"
        }
    }

    /// Every form, for help and the error that names them.
    public static var forms: String {
        allCases.dropLast().map(\.form).joined(separator: ", ") + " or " + (allCases.last?.form ?? "")
    }

    /// The scheme of a web URL: `https://`, or `http://` (accepted for this machine only).
    public static func webURLScheme(secure: Bool) -> String { secure ? "https://" : "http://" }

    /// Whether `url` is a web URL (https, or http).
    public static func isWebURL(_ url: String) -> Bool {
        url.hasPrefix(webURLScheme(secure: true)) || url.hasPrefix(webURLScheme(secure: false))
    }
}
