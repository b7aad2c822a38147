/// How a dependent looks to a responder at an instant, in the app's priority: an active alert
/// first, then non-responsive (past the deadline), then pinged (a ping of mine is pending), then
/// the countdown, and last "No check-in". Never stored; computed from the circle and `now`.
public struct DependentStatus: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case alert
        /// Their records cannot be read here: whether they check in is unknown.
        case unreadable
        case nonResponsive
        case pinged
        case countdown
        /// Their check-ins are paused: no deadline until the pause ends.
        case paused
        case noCheckIn

        /// Lower sorts first.
        public var priority: Int {
            switch self {
            case .alert: return 0
            case .unreadable, .nonResponsive: return 1
            case .pinged: return 2
            case .countdown, .paused, .noCheckIn: return 3
            }
        }
    }

    public var kind: Kind
    public var checkIn: CheckInStatus
    /// When the alert was raised, the records became unreadable, the deadline passed, or my
    /// pending ping was sent.
    public var since: Timestamp?
    /// The app's status text: "Sent out an alert 10m ago", "Records unreadable for 3h",
    /// "Non-responsive 2h 5m ago", "Pinged 5m ago", "1d 4h", "No check-in".
    public var text: String

    public init(
        member: MemberState, alertSince: Timestamp?, pendingPingSent: Timestamp?, unreadableSince: Timestamp? = nil,
        now: Timestamp, vouches: [Vouch] = []
    ) {
        checkIn = CheckInStatus(member: member, now: now, vouches: vouches)
        if let alertSince {
            kind = .alert
            since = alertSince
            text = "Sent out an alert \(DependentStatus.ago(alertSince, now))"
        } else if let unreadableSince {
            kind = .unreadable
            // (A time at or before 1970: a folder gone, whose last change this reader cannot know.)
            let known = unreadableSince.seconds > 0
            since = known ? unreadableSince : nil
            let span = now - unreadableSince
            text =
                !known
                ? "Records unreadable (since an unknown time)"
                : span.seconds < 60 ? "Records unreadable" : "Records unreadable for \(span.short)"
        } else if checkIn.phase == .overdue, let deadline = checkIn.deadline {
            kind = .nonResponsive
            since = deadline
            text = "Non-responsive \(DependentStatus.ago(deadline, now))"
        } else if let pendingPingSent {
            kind = .pinged
            since = pendingPingSent
            text = "Pinged \(DependentStatus.ago(pendingPingSent, now))"
        } else if let pause = checkIn.pause {
            kind = .paused
            since = pause.stamp.at
            text = "Paused for \((pause.value.until - now).short)"
        } else if let left = checkIn.timeLeft {
            kind = .countdown
            since = nil
            text = left.short
        } else {
            kind = .noCheckIn
            since = nil
            text = "No check-in"
        }
    }

    /// Someone who may be in trouble: in an alert, past their deadline, or unknown because
    /// their records cannot be read. A responder's `status` exits non-zero for these.
    public var needsAttention: Bool {
        switch kind {
        case .alert, .unreadable, .nonResponsive: return true
        case .pinged, .countdown, .paused, .noCheckIn: return false
        }
    }

    /// "just now" under a minute, else "2h 5m ago".
    public static func ago(_ time: Timestamp, _ now: Timestamp) -> String {
        let span = now - time
        return span.seconds < 60 ? "just now" : "\(span.short) ago"
    }

    /// The app's order: by priority group; within the group, least time left first (a
    /// dependent who never checked in comes first among the others, as in the app's Time Left
    /// sort); then by name.
    public static func sorted<T>(_ items: [T], status: (T) -> DependentStatus, name: (T) -> String) -> [T] {
        let keys = items.map { item in SortKey(status(item), name: name(item)) }
        return items.indices.sorted { keys[$0] < keys[$1] }.map { items[$0] }
    }

    private struct SortKey: Comparable {
        var priority: Int
        var timeLeft: Int64
        var name: String

        init(_ status: DependentStatus, name: String) {
            priority = status.kind.priority
            timeLeft = status.checkIn.timeLeft?.seconds ?? Int64.min
            self.name = name.lowercased()
        }

        static func < (a: SortKey, b: SortKey) -> Bool {
            (a.priority, a.timeLeft, a.name) < (b.priority, b.timeLeft, b.name)
        }
    }
}
