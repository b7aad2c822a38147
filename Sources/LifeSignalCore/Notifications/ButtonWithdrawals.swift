/// Buttons taken back. A device that stops sending buttons through a topic — the topic
/// changed, was removed, or became readable by the circle — records this, so that a token
/// still unused on that topic, which someone else may now read, counts for nothing: only
/// buttons handed out after the withdrawal do. `of` is `PhoneCheckIns.phone` for the member's
/// own "I'm OK" buttons, or the external contact whose "I'm on it" buttons they were.
public struct ButtonsWithdrawn: EventBody {
    public static var typeName: String { "buttonsWithdrawn" }
    public var of = PhoneCheckIns.phone

    public init() {}
    public init(of: String) { self.of = of }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("of", &of)
        try c.check(
            of == PhoneCheckIns.phone || Identifier.isValid(of), "of", "must be \"phone\" or an external contact's id")
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.update(member) { $0.withdraw(buttonsOf: of, at: stamp.at) }
    }
}

extension PhoneCheckIns {
    /// What `ButtonsWithdrawn.of` names for the member's own "I'm OK" buttons.
    public static let phone = "phone"
}

extension MemberState {
    /// Keeps the latest withdrawal of each topic's buttons, and only the newest
    /// `PhoneCheckIns.tokenLimit` of them: in a log's fold and in a merge of devices alike.
    mutating func withdraw(buttonsOf key: String, at time: Timestamp) {
        if let known = withdrawn[key], known >= time { return }
        withdrawn[key] = time
        guard withdrawn.count > PhoneCheckIns.tokenLimit else { return }
        let oldest = withdrawn.min { ($0.value, $0.key) < ($1.value, $1.key) }
        if let oldest { withdrawn[oldest.key] = nil }
    }

    /// When the buttons a token issued at `issued` for `key` belongs to were withdrawn, if they
    /// were: a withdrawal covers what was handed out before its second, never a button of the
    /// same second (which is the new topic's, in the run that withdrew the old one).
    func withdrawal(of key: String, issued: Timestamp) -> Timestamp? {
        withdrawn[key].flatMap { issued < $0 ? $0 : nil }
    }

    /// Whether buttons handed out for `key` (see `ButtonsWithdrawn.of`) are still out, with no
    /// withdrawal covering them.
    public func hasButtonsOut(for key: String) -> Bool {
        if key == PhoneCheckIns.phone { return tokens.values.contains { withdrawal(of: key, issued: $0) == nil } }
        return ackTokens.values.contains { $0.contact == key && withdrawal(of: key, issued: $0.issued) == nil }
    }
}

/// A withdrawal as a state keeps it: whose buttons, and when.
struct WithdrawnEntry: KeyedEntry {
    var key = ""
    var value = Timestamp(seconds: 0)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("of", &key)
        try c.seconds("at", &value)
    }
}
