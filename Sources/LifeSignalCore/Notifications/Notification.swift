/// One entry of a notification feed, with the app's types, titles and texts.
///
/// A notification is a fact about a cause (an alert raised, a deadline missed, a ping) for one
/// recipient — a member of the circle or one of a member's external contacts. Its id is
/// computed from the cause and the recipient, so every device that notices the same cause
/// produces the same id: the feed holds it once and delivery can be idempotent. Its time is
/// the time of the cause, not of the run that noticed it.
public struct Notification: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case alertActivated = "send_manual_alert_active"
        case alertDeactivated = "send_manual_alert_inactive"
        case alertUpdated = "send_manual_alert_updated"
        case dependentAlertUpdated = "receive_dependent_manual_alert_updated"
        case dependentAlert = "receive_dependent_manual_alert_active"
        case dependentAlertResolved = "receive_dependent_manual_alert_inactive"
        case checkInReminder = "check_in_reminder"
        case missedCheckIn = "receive_non_responsive_alert"
        case dependentNonResponsive = "receive_non_responsive_dependent_alert"
        case dependentCheckedIn = "receive_dependent_checked_in"
        case dependentUnreadable = "receive_dependent_records_unreadable"
        case dependentPaused = "receive_dependent_check_ins_paused"
        case dependentResumed = "receive_dependent_check_ins_resumed"
        case acknowledged = "receive_acknowledged"
        case contactAdded = "receive_contact_added"
        case contactRemoved = "receive_contact_removed"
        case roleChanged = "receive_contact_role_changed"
        case pingSent = "send_dependent_ping"
        case pingReceived = "receive_responder_ping"
        case pingCanceled = "cancel_dependent_ping"
        case pingResponded = "receive_dependent_ping_responded"
        case allPingsCleared = "send_clear_all_responder_pings"
        case system = "receive_system_notification"

        /// The app's display title.
        public var title: String {
            switch self {
            case .alertActivated: return "Emergency Alert Activated"
            case .alertDeactivated: return "Emergency Alert Deactivated"
            case .alertUpdated: return "Emergency Alert Updated"
            case .dependentAlertUpdated: return "Dependent Emergency Alert Updated"
            case .dependentAlert: return "Dependent Emergency Alert"
            case .dependentAlertResolved: return "Dependent Alert Resolved"
            case .checkInReminder: return "Check-in Reminder"
            case .missedCheckIn: return "Missed Check-in"
            case .dependentNonResponsive: return "Dependent Non-Responsive"
            case .dependentCheckedIn: return "Dependent Checked In"
            case .dependentUnreadable: return "Dependent's Records Unreadable"
            case .dependentPaused: return "Dependent Paused Check-ins"
            case .dependentResumed: return "Dependent Resumed Check-ins"
            case .acknowledged: return "Acknowledged"
            case .contactAdded: return "Contact Added"
            case .contactRemoved: return "Contact Removed"
            case .roleChanged: return "Role Changed"
            case .pingSent: return "Check-in Request Sent"
            case .pingReceived: return "Check-in Request Received"
            case .pingCanceled: return "Check-in Request Canceled"
            case .pingResponded: return "Check-in Response Received"
            case .allPingsCleared: return "All Requests Cleared"
            case .system: return "System"
            }
        }

        public var category: Category {
            switch self {
            case .alertActivated, .alertDeactivated, .alertUpdated, .dependentAlert, .dependentAlertUpdated,
                .dependentAlertResolved, .acknowledged:
                return .alerts
            case .checkInReminder, .missedCheckIn, .dependentNonResponsive, .dependentCheckedIn, .dependentUnreadable,
                .dependentPaused, .dependentResumed:
                return .checkIns
            case .contactAdded, .contactRemoved, .roleChanged: return .contacts
            case .pingSent, .pingReceived, .pingCanceled, .pingResponded, .allPingsCleared: return .pings
            case .system: return .system
            }
        }

        /// The app's high-priority types: delivered as critical (desktop) or urgent (ntfy).
        public var isEmergency: Bool {
            switch self {
            case .alertActivated, .dependentAlert, .dependentAlertUpdated, .missedCheckIn, .dependentNonResponsive:
                return true
            case .alertDeactivated, .alertUpdated, .dependentAlertResolved, .checkInReminder, .dependentCheckedIn,
                .dependentUnreadable, .dependentPaused, .dependentResumed, .acknowledged, .contactAdded,
                .contactRemoved, .roleChanged, .pingSent, .pingReceived, .pingCanceled, .pingResponded,
                .allPingsCleared, .system:
                return false
            }
        }
    }

    public enum Category: String, CaseIterable, Sendable {
        case alerts, pings, contacts
        case checkIns = "check-ins"
        case system
    }

    /// Who receives it: a member of the circle, or an external contact of `owner`.
    public enum Recipient: Equatable, Hashable, Sendable {
        case member(String)
        case external(owner: String, id: String)

        public var key: String {
            switch self {
            case .member(let id): return id
            case .external(let owner, let id): return "\(owner)/\(id)"
            }
        }
    }

    public var id: String
    public var kind: Kind
    public var title: String
    public var message: String
    /// When its cause happened (the deadline, the alert, the ping).
    public var at: Timestamp
    /// The member it is about.
    public var subject: String
    public var recipient: Recipient
    /// The cause it belongs to, shared by the notifications that start, update and end it (an
    /// alert raised, updated and ended; a deadline's reminder, miss, all-clear and correction):
    /// see `Thread`. Nil for notifications that stand alone, and in feeds written before it.
    public var thread: String?
    /// 1 for the first notice of an alarm; 2, 3, … for the repeats of it that go to those
    /// already told until someone answers (see `Notifications.repeats`).
    public var notice = 1

    public init(
        kind: Kind, cause: String, message: String, at: Timestamp, subject: String, recipient: Recipient,
        thread: Thread? = nil
    ) {
        self.kind = kind
        self.title = kind.title
        self.message = message
        self.at = at
        self.subject = subject
        self.recipient = recipient
        self.thread = thread?.key
        id = Notification.id(kind: kind, cause: cause, subject: subject, recipient: recipient)
    }

    /// The repeat of `first` (a first notice) numbered `notice`, `span` after it went out: a new
    /// message with its own id, in the same thread, that says which notice it is and how long
    /// after the first. Its time is the first's, the time of the cause (the deadline missed, the
    /// alert raised), which every message about it shows.
    public init(repeating first: Notification, notice: Int, after span: TimeSpan) {
        self = first
        self.notice = notice
        let word = Notification.ordinal(notice)
        message =
            word.prefix(1).uppercased() + word.dropFirst() + " notice, \(span.short) after the first: " + first.message
        id = Notification.id(
            kind: first.kind, cause: "\(first.id)|notice|\(notice)", subject: first.subject, recipient: first.recipient)
    }

    /// "second", "third", … "tenth", then "11th", "12th", "21st".
    public static func ordinal(_ n: Int) -> String {
        let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        if n >= 1, n <= words.count { return words[n - 1] }
        let suffix: String
        switch (n % 10, n % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }

    /// What a notification is about, when that outlives one notification.
    public enum Thread: Equatable, Sendable {
        /// A member's alert.
        case alert(String)
        /// A member's deadline.
        case deadline(member: String, at: Timestamp)

        /// What it is, as a responder would say: "alert", "missed check-in".
        public var what: String {
            switch self {
            case .alert: return "alert"
            case .deadline: return "missed check-in"
            }
        }

        public var key: String {
            switch self {
            case .alert(let id): return "alert|\(id)"
            case .deadline(let member, let at): return "deadline|\(member)|\(at.seconds)"
            }
        }

        public init?(key: String) {
            let parts = key.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2, parts[0] == "alert" {
                self = .alert(parts[1])
            } else if parts.count == 3, parts[0] == "deadline", let seconds = Int64(parts[2]) {
                self = .deadline(member: parts[1], at: Timestamp(seconds: seconds))
            } else {
                return nil
            }
        }
    }

    public init(
        id: String, kind: Kind, title: String, message: String, at: Timestamp, subject: String, recipient: Recipient,
        thread: String? = nil
    ) {
        self.id = id
        self.thread = thread
        self.kind = kind
        self.title = title
        self.message = message
        self.at = at
        self.subject = subject
        self.recipient = recipient
    }

    /// 16 hex digits of FNV-1a over the cause and recipient: the same on every machine.
    public static func id(kind: Kind, cause: String, subject: String, recipient: Recipient) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(kind.rawValue)|\(subject)|\(cause)|\(recipient.key)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// A member's manual emergency alert: raised, perhaps updated with a new message, and perhaps
/// ended.
public struct AlertRecord: Equatable, Sendable {
    public var id: String
    /// The message it was raised with.
    public var message: String?
    public var start: Stamp?
    public var end: Stamp?
    /// The latest new message given while it was active.
    public var update: Stamped<String?>?

    public init(id: String) { self.id = id }

    public var isActive: Bool { start != nil && end == nil }

    /// What the alert says now: the latest update's message, else the one it was raised with.
    public var currentMessage: String? { update.map { $0.value } ?? message }

    mutating func merge(_ other: AlertRecord) {
        if let theirs = other.start, start.map({ theirs < $0 }) ?? true {
            start = theirs
            message = other.message
        }
        if let theirs = other.end, end.map({ theirs < $0 }) ?? true { end = theirs }
        if let theirs = other.update { update.keepLatest(theirs) }
    }
}

/// The feed settings a member keeps: the default filter and unread-only, and the channels
/// their own notifications go to.
public struct FeedPreferences: Equatable, Sendable {
    public var category: Notification.Category?
    public var unreadOnly: Bool
    public var channels: [String]

    public init(category: Notification.Category? = nil, unreadOnly: Bool = false, channels: [String] = []) {
        self.category = category
        self.unreadOnly = unreadOnly
        self.channels = channels
    }
}

/// A device's notification feed, kept in its own file (`feed.json`) beside its log: the
/// notifications it has materialized, the recipient's read and cleared marks, and how delivery
/// went. A member's feed is the merge of their devices' feeds. Old entries are dropped, so the
/// file stays small.
public struct Feed: Equatable, Sendable {
    public var notifications: [String: Notification] = [:]
    public var read: Set<String> = []
    public var cleared: Set<String> = []
    public var deliveries: [DeliveryKey: DeliveryState] = [:]

    public init() {}

    /// How long a notification stays in the feed (the app kept 30 days of history).
    public static let window = TimeSpan.days(30)

    /// Adds a notification unless one with its id exists (the first noticed keeps its text).
    @discardableResult
    public mutating func add(_ notification: Notification) -> Bool {
        guard notifications[notification.id] == nil else { return false }
        notifications[notification.id] = notification
        return true
    }

    public mutating func record(_ attempt: DeliveryAttempt, at time: Timestamp) {
        deliveries[DeliveryKey(notification: attempt.notification, channel: attempt.channel), default: DeliveryState()]
            .record(attempt, at: time)
    }

    public mutating func merge(_ other: Feed) {
        // Merging into an empty feed (the first device's) takes it whole, sharing its storage.
        if notifications.isEmpty && read.isEmpty && cleared.isEmpty && deliveries.isEmpty {
            self = other
            return
        }
        for (id, notification) in other.notifications where notifications[id] == nil {
            notifications[id] = notification
        }
        read.formUnion(other.read)
        cleared.formUnion(other.cleared)
        for (key, state) in other.deliveries { deliveries[key, default: DeliveryState()].merge(state) }
    }

    /// Drops what is older than the window before `now`, with its marks and delivery states.
    public mutating func prune(now: Timestamp) {
        let horizon = now - Feed.window
        let old = Set(notifications.values.filter { $0.at < horizon }.map(\.id))
        guard !old.isEmpty else { return }
        for id in old { notifications[id] = nil }
        read.subtract(old)
        cleared.subtract(old)
        deliveries = deliveries.filter { !old.contains($0.key.notification) }
    }

    /// The recipient's visible feed, newest first.
    public func entries(
        for recipient: Notification.Recipient, category: Notification.Category? = nil, unreadOnly: Bool = false
    ) -> [Notification] {
        notifications.values.filter { n in
            n.recipient == recipient && !cleared.contains(n.id) && (category.map { n.kind.category == $0 } ?? true)
                && (!unreadOnly || !read.contains(n.id))
        }.sorted { ($0.at, $0.id) > ($1.at, $1.id) }
    }

    public func unreadCount(for recipient: Notification.Recipient) -> Int {
        notifications.values.filter { $0.recipient == recipient && !read.contains($0.id) && !cleared.contains($0.id) }
            .count
    }
}

extension Notification {
    /// The notification as JSON: how a feed file stores it, and what a channel command reads
    /// on stdin.
    public var json: JSON {
        var to = JSONObject()
        switch recipient {
        case .member(let id): to["member"] = .string(id)
        case .external(let owner, let id):
            to["owner"] = .string(owner)
            to["external"] = .string(id)
        }
        return .object(
            JSONObject([
                ("id", .string(id)), ("type", .string(kind.rawValue)), ("title", .string(title)),
                ("message", .string(message)), ("at", .string(at.rfc3339)), ("subject", .string(subject)),
                ("recipient", .object(to)),
            ]))
    }
}
