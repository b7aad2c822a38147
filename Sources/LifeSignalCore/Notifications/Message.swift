/// One delivered message, built from a notification and what the circle knows, and rendered
/// per channel (an e-mail, an ntfy push, a webhook document, a command's stdin): who it is
/// about and how to reach them, what happened and when, what to do, and who else was told.
/// Pure: the circle, the sending time and the zone times are shown in come in.
public struct Message: Equatable, Sendable {
    public var id: String
    public var type: String
    /// `critical` (an alert, a missed check-in), `warning` (a reminder, a ping) or `info`.
    public var severity: String
    /// `triggered`, `updated`, `resolved` or `info`: what a pager does with it.
    public var status: String
    /// Leads with the person's name: "Bea missed the 08:30 check-in".
    public var title: String
    public var summary: String
    public var person: Person
    public var recipientName: String
    public var causeAt: Timestamp
    public var sentAt: Timestamp
    /// Labelled facts: when it was due, the last check-in and its note, phone, emergency note.
    public var details: [(label: String, value: String)]
    /// What the recipient can do, concretely.
    public var actions: [String]
    /// The other people told of the same cause, and those still being told (see
    /// `Messages.others`).
    public var alsoTold: [String]
    public var beingTold: [String] = []
    /// False only for a watcher's relay of a miss it could not confirm (its copy of the circle
    /// was not known current after the deadline).
    public var confirmed = true
    /// For a miss: when the person's devices were last heard from, as this sender's copy shows.
    public var lastHeardFrom: Timestamp? = nil
    /// For a relay: the watcher whose device tells, and until when its copy is known current.
    public var relayedBy: String? = nil
    public var copyCurrentAt: Timestamp? = nil
    /// The cause it belongs to (shared by an alarm, its updates and its all-clear), and the
    /// notification this one follows in it, for threading.
    public var thread: String?
    public var follows: String?
    /// 1 for the first notice of an alarm, 2 for its first repeat, and so on.
    public var notice = 1
    /// Buttons that answer from the phone (an ntfy `http` action): "I'm OK".
    public var buttons: [Button] = []

    /// A button that posts `body` to `url` when tapped.
    public struct Button: Equatable, Sendable {
        public var label: String
        public var url: String
        public var body: String

        public init(label: String, url: String, body: String) {
            self.label = label
            self.url = url
            self.body = body
        }
    }
    public var zone: Zone

    public struct Person: Equatable, Sendable {
        public var id: String
        public var name: String
        public var phone: String?
        public var emergencyNote: String?
    }

    /// The zone the times are shown in: its name and rules.
    public struct Zone: Equatable, Sendable {
        public var name: String
        public var rules: ZoneRules

        public init(name: String, rules: ZoneRules) {
            self.name = name
            self.rules = rules
        }

        public static let utc = Zone(name: "UTC", rules: .utc)

        /// `Thu 2 Jul 2026, 08:30 BST`.
        public func text(_ time: Timestamp) -> String {
            let offset = rules.offset(at: time)
            let civil = Civil(seconds: time.seconds + offset.seconds)
            let days = Civil.daysFromCivil(year: civil.year, month: civil.month, day: civil.day)
            let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
            let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
                Int(civil.month - 1)]
            return "\(weekday) \(civil.day) \(month) \(civil.year), \(clock(time)) \(label(time))"
        }

        /// `08:30`.
        public func clock(_ time: Timestamp) -> String {
            let civil = Civil(seconds: time.seconds + rules.offset(at: time).seconds)
            func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(pad(civil.hour)):\(pad(civil.minute))"
        }

        /// The zone's abbreviation at `time`, or its offset when it has none (`+0530`).
        public func label(_ time: Timestamp) -> String {
            let offset = rules.offset(at: time)
            if offset.abbreviation.first?.isLetter == true { return offset.abbreviation }
            return Self.offsetText(offset.seconds, colon: false)
        }

        /// `2026-07-02T08:30:00+01:00`: ISO 8601 with the zone's offset.
        public func iso8601(_ time: Timestamp) -> String {
            let offset = rules.offset(at: time).seconds
            // RFC 3339's form of the local time, with seconds, and the offset for its "Z".
            let local = Timestamp(seconds: time.seconds + offset).rfc3339.dropLast()
            return local + Self.offsetText(offset, colon: true)
        }

        /// RFC 5322: `Thu, 02 Jul 2026 08:30:00 +0100`.
        public func rfc5322(_ time: Timestamp) -> String {
            let offset = rules.offset(at: time).seconds
            let civil = Civil(seconds: time.seconds + offset)
            let days = Civil.daysFromCivil(year: civil.year, month: civil.month, day: civil.day)
            let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
            let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
                Int(civil.month - 1)]
            func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return
                "\(weekday), \(pad(civil.day)) \(month) \(civil.year) \(pad(civil.hour)):\(pad(civil.minute)):\(pad(civil.second)) \(Self.offsetText(offset, colon: false))"
        }

        static func offsetText(_ seconds: Int64, colon: Bool) -> String {
            let sign = seconds < 0 ? "-" : "+"
            let magnitude = seconds.magnitude
            func pad(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return sign + pad(magnitude / 3600) + (colon ? ":" : "") + pad(magnitude % 3600 / 60)
        }
    }

    /// The plain text a person reads: summary, facts, what to do, who else was told, and when
    /// it was sent (the footer can be left out where the channel shows it).
    public func text(footer: Bool = true) -> String {
        var lines = [summary]
        if !details.isEmpty {
            lines.append("")
            lines += details.map { "\($0.label): \($0.value)" }
        }
        if !actions.isEmpty {
            lines += ["", "What to do:"] + actions.map { "- \($0)" }
        }
        var others: [String] = []
        if !alsoTold.isEmpty { others.append("Also told: \(alsoTold.joined(separator: ", ")).") }
        if !beingTold.isEmpty {
            others.append("Also being told (not reached yet): \(beingTold.joined(separator: ", ")).")
        }
        if !others.isEmpty { lines += [""] + others }
        if footer {
            lines += ["", "Sent \(zone.text(sentAt)). Times are \(zone.name).", "Notification \(id)"]
        }
        return lines.joined(separator: "\n")
    }

    public static func == (a: Message, b: Message) -> Bool {
        a.id == b.id && a.title == b.title && a.text() == b.text() && a.sentAt == b.sentAt
    }
}
