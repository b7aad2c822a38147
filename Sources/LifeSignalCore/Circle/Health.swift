/// How the links out of this machine have been doing: each delivery channel and each
/// heartbeat URL, and when `notify deliver` last ran here. Kept by each data directory for
/// itself (`health.json`, not synced, not durable: losing it loses only this history), read by
/// `status` and `doctor` to say when something has been failing.
public struct Health: Equatable, Sendable {
    public var channels: [String: LinkHealth] = [:]
    public var heartbeats: [String: LinkHealth] = [:]
    public var lastDeliver: Timestamp?
    /// How the sync engine's link has been doing: for git, `circle sync`'s fetches (its last
    /// success is until when a git circle is known current); for Syncthing, its API's answers.
    public var sync = LinkHealth()
    /// The inboxes this device reads (see `PhoneCheckIns`), by URL: whose, the last message
    /// seen, and how the last reads went.
    public var inboxes: [String: InboxHealth] = [:]

    public init() {}
}

/// One inbox this device reads: the member it belongs to, the id of the last message read
/// (the next read asks for what came after it), and how reading it has been going.
public struct InboxHealth: Equatable, Sendable {
    public var member: String
    public var lastSeen: String?
    public var link = LinkHealth()

    public init(member: String, lastSeen: String? = nil, link: LinkHealth = LinkHealth()) {
        self.member = member
        self.lastSeen = lastSeen
        self.link = link
    }
}

/// One channel's or heartbeat URL's record: the last success, the last failure and what it
/// said, and since when it has been failing without a success in between.
public struct LinkHealth: Equatable, Sendable {
    public var lastSuccess: Timestamp?
    public var lastFailure: Timestamp?
    public var failingSince: Timestamp?
    public var lastError: String?
    /// How many notifications wait for it (a channel's only).
    public var waiting = 0

    public init(
        lastSuccess: Timestamp? = nil, lastFailure: Timestamp? = nil, failingSince: Timestamp? = nil,
        lastError: String? = nil, waiting: Int = 0
    ) {
        self.lastSuccess = lastSuccess
        self.lastFailure = lastFailure
        self.failingSince = failingSince
        self.lastError = lastError
        self.waiting = waiting
    }

    /// A channel failing this long is worth a warning on every `status`.
    public static let failingWarning = TimeSpan.hours(1)

    public mutating func record(error: String?, at time: Timestamp) {
        if let error {
            lastFailure = time
            lastError = error
            if failingSince == nil { failingSince = time }
        } else {
            lastSuccess = time
            failingSince = nil
        }
    }
}
