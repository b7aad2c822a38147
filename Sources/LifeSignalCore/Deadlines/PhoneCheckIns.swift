/// "I'm OK" from a phone, with no server of our own. A member names an ntfy topic as their
/// inbox (`checkin inbox`); each reminder and missed check-in sent to their own ntfy channel
/// carries a button that posts a one-time token to it; every circle device reads the inboxes
/// of its member and of its member's dependents and records the taps it finds.
///
/// The token is the proof. A device hands out only tokens its member committed to first, in
/// their own signed records (the hash of each, `TokenIssued`, written before the button is
/// sent). So a tap recorded in anyone's log (`PhoneTapped`) counts for the member — the one
/// kind of record that may speak for another member — only when its token hashes to one of
/// that member's commitments, within `validity` of it. Each token counts once: the earliest
/// use; a replay, an unknown or an expired token changes nothing.
public enum PhoneCheckIns {
    /// How long a handed-out token can be used: the buttons of a weekend's reminders still work
    /// with every machine off.
    public static let validity = TimeSpan.days(7)
    /// The commitments a member's state keeps (the newest, of each kind), and the taps (the
    /// earliest uses): room for a tap of every commitment kept, so a token is never forgotten
    /// as used while it is still good.
    public static let tokenLimit = 64
    public static let tapLimit = 2 * tokenLimit
    /// The members other than its own a log may hold taps for.
    public static let othersLimit = 64
    /// What a tap posts to the inbox: this prefix, then the token.
    public static let prefix = "lifesignal-ok "
    /// A token: 32 lowercase hex digits (16 random bytes).
    public static let tokenLength = 16

    /// The commitment to `token`: published before the token is handed out.
    public static func commitment(of token: String) -> String {
        KeyText.hex(SHA512.hash(Array("lifesignal phone token 1\n\(token)".utf8)).prefix(16))
    }

    public static func isToken(_ text: String) -> Bool { KeyText.bytes(text, count: tokenLength) != nil }

    /// The token in an inbox message's text, if it is a tap of ours.
    public static func token(inMessage text: String) -> String? {
        guard text.hasPrefix(prefix) else { return nil }
        let token = String(text.dropFirst(prefix.count))
        return isToken(token) ? token : nil
    }

    /// What a tap of `token` at `at` would do for a member with `state`.
    public enum Verdict: Equatable, Sendable {
        case counts
        case unknown
        case used(at: Timestamp)
        case expired(issued: Timestamp)
        /// A token whose button was withdrawn (see `ButtonsWithdrawn`).
        case withdrawn(at: Timestamp)
    }

    /// Whether a tap that would count as a check-in made since the last one and by `deadline`
    /// could be waiting unread: an "I'm OK" token was handed out, unused and not withdrawn,
    /// whose time to be tapped reaches into that span. Without one, an inbox not read changes
    /// nothing about a miss.
    public static func mayWait(before deadline: Timestamp, in state: MemberState) -> Bool {
        let since = state.lastCheckIn(asOf: deadline)?.at ?? Timestamp(seconds: .min)
        return state.tokens.contains { hash, issued in
            state.phoneTaps[hash] == nil && state.withdrawal(of: PhoneCheckIns.phone, issued: issued) == nil
                && issued - MemberState.clockTolerance <= deadline && issued + validity >= since
        }
    }

    public static func verdict(of token: String, at: Timestamp, for state: MemberState) -> Verdict {
        let hash = commitment(of: token)
        guard let issued = state.tokens[hash] else { return .unknown }
        if let tap = state.phoneTaps[hash], tap.at != at { return .used(at: tap.at) }
        if let withdrawn = state.withdrawal(of: PhoneCheckIns.phone, issued: issued) {
            return .withdrawn(at: withdrawn)
        }
        guard at >= issued - MemberState.clockTolerance, at <= issued + validity else {
            return .expired(issued: issued)
        }
        return .counts
    }
}

/// A tap of an "I'm OK" button, as a device read it from an inbox: the token, when the inbox
/// stamped it, and the record of the device that read it.
public struct PhoneTap: Equatable, Sendable {
    public var token: String
    public var at: Timestamp
    public var recorded: Stamp
}

extension MemberState {
    /// Keeps an "I'm on it" commitment (the earliest of a hash), and only the newest
    /// `PhoneCheckIns.tokenLimit` of them: in a log's fold and in a merge of devices alike.
    mutating func remember(ack hash: String, _ commitment: AckCommitment) {
        if let known = ackTokens[hash], known.issued <= commitment.issued { return }
        ackTokens[hash] = commitment
        guard ackTokens.count > PhoneCheckIns.tokenLimit else { return }
        let oldest = ackTokens.min { ($0.value.issued, $0.key) < ($1.value.issued, $1.key) }
        if let oldest { ackTokens[oldest.key] = nil }
    }

    /// Keeps a commitment, and only the newest `PhoneCheckIns.tokenLimit` of them.
    mutating func remember(token hash: String, issued: Timestamp) {
        if let known = tokens[hash], known <= issued { return }
        tokens[hash] = issued
        guard tokens.count > PhoneCheckIns.tokenLimit else { return }
        let oldest = tokens.min { ($0.value, $0.key) < ($1.value, $1.key) }
        if let oldest { tokens[oldest.key] = nil }
    }

    /// Keeps the earliest use of each token, and at most `PhoneCheckIns.tapLimit` taps: beyond
    /// that, first one whose token no device of this member committed to (junk anyone can write),
    /// then the oldest.
    mutating func remember(tap: PhoneTap) {
        let hash = PhoneCheckIns.commitment(of: tap.token)
        if let known = phoneTaps[hash], (known.at, known.recorded) <= (tap.at, tap.recorded) { return }
        phoneTaps[hash] = tap
        guard phoneTaps.count > PhoneCheckIns.tapLimit else { return }
        func kept(_ hash: String) -> Int { tokens[hash] != nil || ackTokens[hash] != nil ? 1 : 0 }
        let victim = phoneTaps.min { (kept($0.key), $0.value.at, $0.key) < (kept($1.key), $1.value.at, $1.key) }
        if let victim { phoneTaps[victim.key] = nil }
    }

    /// The latest tap that counts at `now`, as a check-in from the phone.
    func phoneCheckIn(asOf now: Timestamp) -> CheckIn? {
        guard !phoneTaps.isEmpty else { return nil }
        let limit = now + Self.clockTolerance
        var latest: PhoneTap?
        for tap in phoneTaps.values where tap.at <= limit && tap.at > (latest?.at ?? Timestamp(seconds: .min)) {
            if PhoneCheckIns.verdict(of: tap.token, at: tap.at, for: self) == .counts { latest = tap }
        }
        return latest.map { tap in
            var checkIn = CheckIn(
                stamp: Stamp(clock: tap.recorded.clock, at: tap.at, device: tap.recorded.device, seq: tap.recorded.seq),
                note: nil)
            checkIn.fromPhone = true
            return checkIn
        }
    }
}

/// I will hand out the token whose commitment is `hash` (in a button of a message to me).
public struct TokenIssued: EventBody {
    public static var typeName: String { "tokenIssued" }
    public var hash = ""

    public init() {}
    public init(hash: String) { self.hash = hash }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("hash", &hash)
        try c.check(KeyText.bytes(hash, count: 16) != nil, "hash", "must be 32 lowercase hex digits")
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.update(member) { $0.remember(token: hash, issued: stamp.at) }
    }
}

/// A tap for `member` found in their inbox by this device, stamped by the inbox at `at`. It
/// speaks for `member` only through its token (see `PhoneCheckIns`).
public struct PhoneTapped: EventBody {
    public static var typeName: String { "phoneTapped" }
    public var member = ""
    public var token = ""
    public var at: Int64 = 0

    public init() {}
    public init(member: String, token: String, at: Timestamp) {
        self.member = member
        self.token = token
        self.at = at.seconds
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &member)
        try c.string("token", &token)
        try c.check(PhoneCheckIns.isToken(token), "token", "must be 32 lowercase hex digits")
        try c.int("tappedAt", &at, in: 0...Limits.counter)
    }

    public func fold(into circle: inout CircleState, member _: String, stamp: Stamp) {
        circle.update(member) { $0.remember(tap: PhoneTap(token: token, at: Timestamp(seconds: at), recorded: stamp)) }
    }
}

// MARK: - How the state keeps them

/// A token commitment and when it was issued.
struct TokenEntry: KeyedEntry {
    var key = ""
    var value = Timestamp(seconds: 0)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("hash", &key)
        try c.seconds("issued", &value)
    }
}

/// A tap for another member than the log's, found in their inbox.
struct OthersTapEntry: SchemaEntry {
    var member = ""
    var tap = PhoneTap(token: "", at: Timestamp(seconds: 0), recorded: .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &member)
        var entry = PhoneTapEntry(key: "", value: tap)
        try entry.code(&c)
        tap = entry.value
    }

    static func entries(of collection: [String: MemberState]) -> [OthersTapEntry] {
        collection.flatMap { member, state in
            state.phoneTaps.values.map { tap in
                var entry = OthersTapEntry()
                entry.member = member
                entry.tap = tap
                return entry
            }
        }
    }
    static func insert(_ entry: OthersTapEntry, into collection: inout [String: MemberState]) {
        // A device reads the inboxes of its member's dependents only: a log naming more members
        // than that could hold is bounded, not believed to have made a circle of thousands.
        guard collection[entry.member] != nil || collection.count < PhoneCheckIns.othersLimit else { return }
        collection[entry.member, default: MemberState()].remember(tap: entry.tap)
    }
    static func reserve(_ count: Int, in collection: inout [String: MemberState]) {}
    func precedes(_ other: OthersTapEntry) -> Bool {
        (member, tap.at.seconds, tap.token) < (other.member, other.tap.at.seconds, other.tap.token)
    }
}

/// A tap found in an inbox, by the commitment of its token.
struct PhoneTapEntry: KeyedEntry {
    var key = ""
    var value = PhoneTap(token: "", at: Timestamp(seconds: 0), recorded: .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("token", &value.token)
        try c.check(PhoneCheckIns.isToken(value.token), "token", "must be 32 lowercase hex digits")
        try c.seconds("tappedAt", &value.at)
        try c.stamp(&value.recorded)
        key = PhoneCheckIns.commitment(of: value.token)
    }
}

// MARK: - "I'm on it" from a responder's phone

/// A token for an external responder's "I'm on it" button, committed by the device that sent
/// them the alarm: whose contact they are, which contact, and the alarm's thread.
public struct AckCommitment: Equatable, Sendable {
    public var thread: String
    public var owner: String
    public var contact: String
    public var issued: Timestamp
}

/// I will hand out, in an alarm sent to `owner`'s external contact `contact`, the "I'm on it"
/// token whose commitment is `hash`.
public struct AckTokenIssued: EventBody {
    public static var typeName: String { "ackTokenIssued" }
    public var hash = ""
    public var thread = ""
    public var owner = ""
    public var contact = ""

    public init() {}
    public init(hash: String, thread: String, owner: String, contact: String) {
        self.hash = hash
        self.thread = thread
        self.owner = owner
        self.contact = contact
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("hash", &hash)
        try c.check(KeyText.bytes(hash, count: 16) != nil, "hash", "must be 32 lowercase hex digits")
        try c.string("thread", &thread)
        try c.check(Notification.Thread(key: thread) != nil, "thread", "must be a missed check-in's or an alert's")
        try c.id("owner", &owner)
        try c.id("contact", &contact)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        let commitment = AckCommitment(thread: thread, owner: owner, contact: contact, issued: stamp.at)
        circle.update(member) { $0.remember(ack: hash, commitment) }
    }
}

extension PhoneCheckIns {
    /// What an "I'm on it" tap posts: this prefix, then the token.
    public static let ackPrefix = "lifesignal-ack "

    /// The token in an inbox message's text, if it is an "I'm on it" tap.
    public static func ackToken(inMessage text: String) -> String? {
        guard text.hasPrefix(ackPrefix) else { return nil }
        let token = String(text.dropFirst(ackPrefix.count))
        return isToken(token) ? token : nil
    }

    /// What a tap at `at` of an "I'm on it" `token` would do, when `member`'s own devices
    /// committed to it. Only theirs count: the button goes out only from the devices of the
    /// person the alarm is about, through a topic kept on that device (see `Outbox`), so a
    /// watcher — who reads the circle, and could commit tokens of their own — cannot say a
    /// responder is on it.
    public static func ackVerdict(of token: String, at: Timestamp, committedBy member: String, in circle: CircleState)
        -> Verdict
    {
        let hash = commitment(of: token)
        guard let state = circle.members[member], let commitment = state.ackTokens[hash] else { return .unknown }
        if let tap = state.phoneTaps[hash], tap.at != at { return .used(at: tap.at) }
        if let withdrawn = state.withdrawal(of: commitment.contact, issued: commitment.issued) {
            return .withdrawn(at: withdrawn)
        }
        guard at >= commitment.issued - MemberState.clockTolerance, at <= commitment.issued + validity else {
            return .expired(issued: commitment.issued)
        }
        return .counts
    }
}

extension CircleState {
    /// The "I'm on it" taps of external responders that count for `thread`: each on a token
    /// committed by `subject`'s own device (see `ackVerdict`), used once, within
    /// `PhoneCheckIns.validity`.
    func phoneAcknowledgements(of thread: Notification.Thread, subject: String) -> [Acknowledgement] {
        guard let state = members[subject], !state.ackTokens.isEmpty else { return [] }
        return state.phoneTaps.compactMap { hash, tap in
            guard let commitment = state.ackTokens[hash], commitment.thread == thread.key, commitment.owner == subject,
                state.withdrawal(of: commitment.contact, issued: commitment.issued) == nil,
                tap.at >= commitment.issued - MemberState.clockTolerance,
                tap.at <= commitment.issued + PhoneCheckIns.validity
            else { return nil }
            var ack = Acknowledgement(
                by: subject,
                stamp: Stamp(clock: tap.recorded.clock, at: tap.at, device: tap.recorded.device, seq: tap.recorded.seq))
            ack.external = commitment.contact
            return ack
        }
    }
}

/// An "I'm on it" commitment as a state keeps it.
struct AckTokenEntry: KeyedEntry {
    var key = ""
    var value = AckCommitment(thread: "", owner: "", contact: "", issued: Timestamp(seconds: 0))

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("hash", &key)
        try c.string("thread", &value.thread)
        try c.id("owner", &value.owner)
        try c.id("contact", &value.contact)
        try c.seconds("issued", &value.issued)
    }
}
