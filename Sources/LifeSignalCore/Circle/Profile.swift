/// What a responder needs to know about me, and how my mail goes out: settings of mine, in my
/// log, so every device of the circle puts the same facts in its messages.

/// My phone number and a note for emergencies ("diabetic; a spare key is with the neighbour at
/// no. 12"), shown to my responders and in every message about me.
public struct ProfileDetails: Equatable, Sendable {
    public var phone: String?
    public var emergencyNote: String?

    public init(phone: String?, emergencyNote: String?) {
        self.phone = phone
        self.emergencyNote = emergencyNote
    }

    /// The longest emergency note: a message on a phone's lock screen, not a letter.
    public static let noteLimit = 300
}

/// The sender of the e-mail my devices send (`From:`), and where replies go (`Reply-To:`, e.g.
/// a family list, so a reply reaches every responder).
public struct MailSettings: Equatable, Sendable {
    public var from: String?
    public var replyTo: String?

    public init(from: String?, replyTo: String?) {
        self.from = from
        self.replyTo = replyTo
    }
}

extension ProfileDetails: Schema {
    public init() { self.init(phone: nil, emergencyNote: nil) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalString("phone", &phone, .omitted)
        try c.optionalString("emergencyNote", &emergencyNote, .omitted)
    }
}

extension MailSettings: Schema {
    public init() { self.init(from: nil, replyTo: nil) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalString("from", &from, .omitted)
        try c.optionalString("replyTo", &replyTo, .omitted)
    }
}
