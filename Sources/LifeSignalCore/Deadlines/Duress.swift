/// The duress check-in's rules: how the word is kept (a salted PBKDF2-HMAC-SHA-512 hash, never
/// the word) and recognised in a check-in's note, who is told and through which channels, and
/// what they read. A check-in whose note is the word is, everywhere else, an ordinary
/// check-in; only the private state on the device that took it (`DuressState`) and the
/// messages to the people told know otherwise.
public enum Duress {
    /// PBKDF2 rounds for a new word: about 30 ms on a 2020s laptop core (1.6 µs a round,
    /// measured), paid by every check-in with a note while a word is set, so that a duress
    /// check-in takes exactly as long as any other with a note.
    public static let defaultRounds = 20_000
    /// The fewest rounds a stored setting may name (a test's setting uses these).
    public static let fewestRounds = 1
    public static let saltLength = 16
    public static let hashLength = 32
    /// The shortest word (after trimming): one a person cannot type by accident as a note.
    public static let shortestWord = 4

    /// The word as it is compared: without surrounding white space, in lower case.
    public static func normalized(_ text: String) -> String { text.trimmingWhitespace.lowercased() }

    /// Why `word` cannot be a duress word, or nil.
    public static func problem(withWord word: String) -> String? {
        let trimmed = normalized(word)
        if trimmed.count < shortestWord {
            return "a duress word needs at least \(shortestWord) characters (not counting spaces around it)"
        }
        return Rules.problem(withText: word, field: "duress word")
    }

    /// The setting kept for `word` with `salt` (random, `saltLength` bytes).
    public static func setting(word: String, salt: [UInt8], rounds: Int = defaultRounds) -> DuressSetting? {
        guard
            let hash = try? PBKDF2.sha512(
                password: Array(normalized(word).utf8), salt: salt, iterations: rounds, length: hashLength)
        else { return nil }
        return DuressSetting(salt: salt, hash: hash, rounds: rounds)
    }

    /// Whether a check-in's `note` is the word `setting` keeps. The hash is always worked out in
    /// full, so a note that is the word takes as long as any other.
    public static func matches(_ note: String, _ setting: DuressSetting) -> Bool {
        guard
            let hash = try? PBKDF2.sha512(
                password: Array(normalized(note).utf8), salt: setting.salt, iterations: max(1, setting.rounds),
                length: hashLength)
        else { return false }
        return PBKDF2.equal(hash, setting.hash)
    }

    /// Someone told of a duress check-in, and the channels that reach them from this device.
    public struct Target: Equatable, Sendable {
        public var contact: String
        public var name: String
        public var member: Bool
        public var channels: [String]

        public init(contact: String, name: String, member: Bool, channels: [String]) {
            self.contact = contact
            self.name = name
            self.member = member
            self.channels = channels
        }
    }

    /// The channels that reach `recipient` from `me`'s device `device` for a duress message:
    /// theirs this device may run, never a desktop pop-up on this screen.
    public static func channels(
        to recipient: Notification.Recipient, me: String, device: String, circle: CircleState
    ) -> [String] {
        DeliveryRules.channels(to: recipient, me: me, device: device, circle: circle).filter {
            ChannelKind(of: $0) != .desktop
        }
    }

    /// Who `me`'s device `device` tells: every external responder (through their channels this
    /// device may run) and every member who watches over `me` and whom `me` confirmed (through
    /// their network channels), less those `leftOut`. Never a desktop pop-up: it shows on the
    /// screen of this device, which the person forcing the check-in may be watching. Never
    /// through the circle folder, nor to `me`'s own channels (a phone in the same hands).
    public static func targets(of me: String, device: String, circle: CircleState, leftOut: Set<String>) -> [Target] {
        circle.contacts(of: me).compactMap { contact in
            guard contact.roles.responder, !leftOut.contains(contact.id) else { return nil }
            let recipient: Notification.Recipient
            switch contact.kind {
            case .member:
                guard contact.confirmedByMe else { return nil }
                recipient = .member(contact.id)
            case .external:
                recipient = .external(owner: me, id: contact.id)
            }
            let channels = Self.channels(to: recipient, me: me, device: device, circle: circle)
            guard !channels.isEmpty else { return nil }
            return Target(contact: contact.id, name: contact.name, member: contact.kind == .member, channels: channels)
        }
    }

    /// A short fingerprint of a channel URI: what the private state keeps instead of the URI, so
    /// that it names no address a person browsing the data directory could read.
    public static func fingerprint(_ channel: String) -> UInt64 {
        SHA512.hash(Array(channel.utf8)).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The notification and message for one send: the alarm or the all-clear about `me`'s
    /// duress check-in at `send.cause`, to `target`. The alarm names the check-in before it and
    /// its note, passing over those `wasDuress` says were made with the word (never sent).
    public static func message(
        _ send: DuressSend, to target: Target, me: String, circle: CircleState, sentAt: Timestamp, zone: Message.Zone,
        wasDuress: (MemberState.CheckIn) -> Bool
    ) -> (Notification, Message) {
        let recipient: Notification.Recipient =
            target.member ? .member(target.contact) : .external(owner: me, id: target.contact)
        let kind: Notification.Kind = send.kind == .alarm ? .dependentAlert : .dependentAlertResolved
        let state = circle.members[me] ?? MemberState()
        let name = state.name?.value ?? "A member of your circle"
        let when = "\(zone.clock(send.alarmAt)) \(zone.label(send.alarmAt))"
        let device = String(send.device.prefix(8))
        let summary: String
        switch send.kind {
        case .alarm:
            summary =
                "\(name) checked in with their duress word at \(when) from their device \(device). They may be with someone forcing them to. Do not call or text them; go, or send someone, or call the local emergency number."
        case .clear:
            summary =
                "\(name) says the duress alarm of \(when) is over: they are safe. This was sent from their device \(device) at \(zone.clock(send.cause)) \(zone.label(send.cause))."
        }
        var notification = Notification(
            kind: kind, cause: "duress|\(send.alarmAt.seconds)|\(send.device)|\(send.kind.rawValue)", message: summary,
            at: send.cause, subject: me, recipient: recipient)
        notification.title = send.kind == .alarm ? "\(name) may be in danger" : "\(name) is safe"
        var message = Messages.make(notification, circle: circle, feed: Feed(), sentAt: sentAt, zone: zone)
        message.title =
            send.kind == .alarm
            ? "\(name) checked in under duress: they may be in danger" : "\(name) is safe: the duress alarm is over"
        message.summary = summary
        message.alsoTold = []
        message.beingTold = []
        message.details = []
        if send.kind == .alarm {
            // The check-in before it that was not itself made under duress (whose note is the word).
            let earlier = (state.recentCheckIns + (state.lastCheckIn.map { [$0] } ?? [])).filter {
                $0.at < send.alarmAt
            }
            if let before = earlier.sorted(by: { $0.at > $1.at }).prefix(5).first(where: { !wasDuress($0) }) {
                let note = before.note.map { ", note “\($0)”" } ?? ""
                message.details.append(("Check-in before it", "\(zone.text(before.at))\(note)"))
            }
            message.actions = [
                "Do not call or text \(name): whoever is with them may see it.",
                "Go, or send someone you trust, or call the local emergency number.",
            ]
        } else {
            message.actions = []
        }
        if let phone = message.person.phone { message.details.append(("Phone", phone)) }
        if let note = message.person.emergencyNote { message.details.append(("Emergency note", note)) }
        return (notification, message)
    }
}

/// The duress word as this device keeps it: a salt, the PBKDF2-HMAC-SHA-512 hash of the
/// normalised word and the number of rounds.
public struct DuressSetting: Equatable, Sendable {
    public var salt: [UInt8]
    public var hash: [UInt8]
    public var rounds: Int

    public init(salt: [UInt8], hash: [UInt8], rounds: Int) {
        self.salt = salt
        self.hash = hash
        self.rounds = rounds
    }
}
