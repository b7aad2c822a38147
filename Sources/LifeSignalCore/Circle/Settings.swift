/// The settings I record about myself: each one kept, with the stamp that set it, in one field
/// of my state, where the latest stamp wins. A new setting is its type here, its field in
/// `MemberState` (and `StateSchema`), and one line in the registry.
public protocol MemberSetting: EventBody {
    associatedtype Value: Equatable & Sendable
    /// The field of my state that keeps it.
    static var field: any WritableKeyPath<MemberState, Stamped<Value>?> & Sendable { get }
    /// What I set.
    var value: Value { get }
}

extension MemberSetting {
    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.update(member) { $0[keyPath: Self.field].keepLatest(Stamped(value, stamp)) }
    }
}

/// My name.
public struct NameSet: MemberSetting {
    public static var typeName: String { "nameSet" }
    public static let field = \MemberState.name
    public var value = ""

    public init() {}
    public init(name: String) { value = name }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) { try c.string("name", &value) }
}

/// My invite code; a new one replaces (and invalidates) the old.
public struct CodeSet: MemberSetting {
    public static var typeName: String { "codeSet" }
    public static let field = \MemberState.code
    public var value = ""

    public init() {}
    public init(code: String) { value = code }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) { try c.string("code", &value) }
}

/// My phone number and emergency note (both, as they now are).
public struct DetailsSet: MemberSetting {
    public static var typeName: String { "detailsSet" }
    public static let field = \MemberState.details
    public var value = ProfileDetails()

    public init() {}
    public init(details: ProfileDetails) { value = details }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.record("details", &value)
    }
}

/// How my devices' e-mail is addressed.
public struct MailSet: MemberSetting {
    public static var typeName: String { "mailSet" }
    public static let field = \MemberState.mail
    public var value = MailSettings()

    public init() {}
    public init(mail: MailSettings) { value = mail }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.record("mail", &value)
    }
}

/// How often I check in.
public struct IntervalSet: MemberSetting {
    public static var typeName: String { "intervalSet" }
    public static let field = \MemberState.interval
    public var value = Rules.defaultInterval

    public init() {}
    public init(interval: TimeSpan) { value = interval }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) { try c.span("seconds", &value) }
}

/// I check in by fixed times of day (or, with nil, by the interval again).
public struct ScheduleSet: MemberSetting {
    public static var typeName: String { "scheduleSet" }
    public static let field = \MemberState.schedule
    public var value: DailySchedule?

    public init() {}
    public init(schedule: DailySchedule?) { value = schedule }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.record("schedule", &value, .null)
    }
}

/// How long before my deadline I am reminded; nil turns the reminder off.
public struct ReminderSet: MemberSetting {
    public static var typeName: String { "reminderSet" }
    public static let field = \MemberState.reminder
    public var value: TimeSpan?

    public init() {}
    public init(reminder: TimeSpan?) { value = reminder }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalSpan("seconds", &value, .null)
    }
}

/// I pause my check-ins until a time (or resume now: a pause until now).
public struct PauseSet: MemberSetting {
    public static var typeName: String { "pauseSet" }
    public static let field = \MemberState.pause
    public var value = Pause()

    public init() {}
    public init(pause: Pause) { value = pause }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.record("pause", &value)
    }
}

/// The longest pause I may set without `--yes` (default `Pause.longest`).
public struct PauseLimitSet: MemberSetting {
    public static var typeName: String { "pauseLimitSet" }
    public static let field = \MemberState.pauseLimit
    public var value = Pause.longest

    public init() {}
    public init(limit: TimeSpan) { value = limit }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.span("seconds", &value)
    }
}

/// I set out on a trip: a one-off deadline until my next check-in.
public struct TripSet: MemberSetting {
    public static var typeName: String { "tripSet" }
    public static let field = \MemberState.trip
    public var value = Trip()

    public init() {}
    public init(trip: Trip) { value = trip }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.record("trip", &value)
    }
}

/// Where my check-ins from elsewhere arrive: an ntfy topic URL (nil: none).
public struct InboxSet: MemberSetting {
    public static var typeName: String { "inboxSet" }
    public static let field = \MemberState.inbox
    public var value: String?

    public init() {}
    public init(url: String?) { value = url }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalString("url", &value, .null)
        try c.check(
            value.map { Address.problem(withChannel: ChannelKind.ntfy.channel($0)) == nil } ?? true, "url",
            "must be an ntfy topic URL")
    }
}

/// My grace period after a missed deadline, during which only I am told.
public struct GraceSet: MemberSetting {
    public static var typeName: String { "graceSet" }
    public static let field = \MemberState.grace
    public var value: TimeSpan?

    public init() {}
    public init(grace: TimeSpan?) { value = grace }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalSpan("seconds", &value, .null)
    }
}

/// The delay between tiers of my responders.
public struct EscalationSet: MemberSetting {
    public static var typeName: String { "escalationSet" }
    public static let field = \MemberState.escalation
    public var value = Escalation.defaultDelay

    public init() {}
    public init(delay: TimeSpan) { value = delay }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.span("seconds", &value)
    }
}

/// How often my unanswered alarms are told again; nil turns repeats off.
public struct RepeatSet: MemberSetting {
    public static var typeName: String { "repeatSet" }
    public static let field = \MemberState.repeatEvery
    public var value: TimeSpan?

    public init() {}
    public init(every: TimeSpan?) { value = every }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalSpan("seconds", &value, .null)
    }
}

/// My feed settings and my own delivery channels.
public struct PreferencesSet: MemberSetting {
    public static var typeName: String { "preferencesSet" }
    public static let field = \MemberState.preferences
    public var value = FeedPreferences()

    public init() {}
    public init(preferences: FeedPreferences) { value = preferences }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.record("preferences", &value)
    }
}

/// My heartbeat URLs: pinged on every check-in, or on every delivery run, so that a service
/// outside the circle (Healthchecks, Uptime Kuma) raises the alarm when they stop.
public struct HeartbeatsSet: MemberSetting {
    public static var typeName: String { "heartbeatsSet" }
    public static let field = \MemberState.heartbeats
    public var value = Heartbeats()

    public init() {}
    public init(heartbeats: Heartbeats) { value = heartbeats }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.record("heartbeats", &value)
    }
}
