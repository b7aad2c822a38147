/// A responder can vouch — within limits: "I have seen them and they are fine". Only during a
/// miss of someone they watch over, for that missed deadline. It ends the miss (those told
/// hear it, with the note and who vouched) and starts the next countdown from the vouch, so
/// the switch stays armed; it is the voucher's word, never the member's check-in. Two misses
/// in a row ended only by vouches make the next miss one that cannot be vouched away, so no
/// responder can keep a switch quiet for long.
public struct Vouch: Equatable, Sendable {
    /// The member who vouched (the one whose folder holds the record).
    public var by: String
    /// The missed deadline it ends.
    public var deadline: Timestamp
    public var note: String?
    public var stamp: Stamp
    public var at: Timestamp { stamp.at }
}

public enum Vouching {
    /// How many misses in a row may be ended by vouches before the next cannot be.
    public static let inARow = 2
    /// The vouches a circle keeps per member and voucher (the latest): one who may not vouch
    /// cannot push out the vouches of one who may.
    public static let kept = 4

    /// How long after a missed deadline a vouch for it may be made: the person's interval, at
    /// least an hour and at most a day. A vouch is for a miss happening now; one dated later
    /// (a voucher's machine rewriting its own record to slide it forward) ends nothing.
    public static func window(for interval: TimeSpan) -> TimeSpan {
        min(max(interval, .hours(1)), .hours(24))
    }

    /// The vouches that count, oldest first, with how many misses in a row they ended by `now`
    /// (a check-in of the member's own since the last one starts the count again): each ends
    /// the deadline the member had when it was made, after that deadline, and not a third miss
    /// in a row.
    static func accepted(_ vouches: [Vouch], member: MemberState, now: Timestamp) -> (last: Vouch?, inARow: Int) {
        var last: Vouch?
        var run = 0
        for vouch in vouches.sorted(by: { Stamp.earlierInTime($0.stamp, $1.stamp) })
        where vouch.at <= now + MemberState.clockTolerance {
            if let last, let checkIn = member.lastCheckIn(asOf: vouch.at), checkIn.at > last.at { run = 0 }
            let before = CheckInStatus(member: member, now: vouch.at, counting: last)
            guard before.phase == .overdue, before.deadline == vouch.deadline, run < inARow,
                vouch.at <= vouch.deadline + window(for: member.effectiveInterval)
            else { continue }
            last = vouch
            run += 1
        }
        if let last, let checkIn = member.lastCheckIn(asOf: now), checkIn.at > last.at { run = 0 }
        return (last, run)
    }
}

/// I vouch for `member`, someone I watch over, for their missed `deadline`.
public struct Vouched: EventBody {
    public static var typeName: String { "vouched" }
    public var member = ""
    public var deadline: Int64 = 0
    public var note: String?

    public init() {}
    public init(member: String, deadline: Timestamp, note: String?) {
        self.member = member
        self.deadline = deadline.seconds
        self.note = note
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &member)
        try c.int("deadline", &deadline, in: 0...Limits.counter)
        try c.optionalString("note", &note, .omitted)
        try c.check(
            note.map { Rules.problem(withText: $0, field: "note") == nil } ?? true, "note", "is not a usable note")
    }

    public func fold(into circle: inout CircleState, member by: String, stamp: Stamp) {
        circle.vouch(Vouch(by: by, deadline: Timestamp(seconds: deadline), note: note, stamp: stamp), for: member)
    }
}

extension CircleState {
    /// Keeps a vouch (once per voucher and deadline, the earliest), and only the latest few of
    /// each voucher's.
    mutating func vouch(_ vouch: Vouch, for member: String) {
        var list = vouches[member] ?? []
        if let index = list.firstIndex(where: { $0.by == vouch.by && $0.deadline == vouch.deadline }) {
            guard vouch.stamp < list[index].stamp else { return }
            list[index] = vouch
        } else {
            list.append(vouch)
        }
        list.sort { Stamp.earlierInTime($0.stamp, $1.stamp) }
        let theirs = list.filter { $0.by == vouch.by }
        if theirs.count > Vouching.kept, let oldest = theirs.first {
            list.removeAll { $0.by == oldest.by && $0.deadline == oldest.deadline }
        }
        vouches[member] = list
    }

    /// The vouches for `member` by those who answer for them (`answersFor`).
    public func vouches(for member: String) -> [Vouch] {
        (vouches[member] ?? []).filter { answersFor(member, watcher: $0.by) }
    }

    /// Where `member` stands at `now`, vouches for them counted: the one way to ask for someone
    /// else's status.
    public func status(of member: String, now: Timestamp) -> CheckInStatus {
        CheckInStatus(member: members[member] ?? MemberState(), now: now, vouches: vouches(for: member))
    }
}

/// A vouch as a state keeps it: the member it is for, then the vouch.
struct VouchEntry: SchemaEntry {
    var member = ""
    var value = Vouch(by: "", deadline: Timestamp(seconds: 0), note: nil, stamp: .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &member)
        try c.id("by", &value.by)
        var deadline = value.deadline.seconds
        try c.int("deadline", &deadline, in: 0...Limits.counter)
        value.deadline = Timestamp(seconds: deadline)
        try c.optionalString("note", &value.note, .omitted)
        try c.stamp(&value.stamp)
    }

    static func entries(of collection: [String: [Vouch]]) -> [VouchEntry] {
        collection.flatMap { member, list in
            list.map { vouch in
                var entry = VouchEntry()
                entry.member = member
                entry.value = vouch
                return entry
            }
        }
    }
    static func insert(_ entry: VouchEntry, into collection: inout [String: [Vouch]]) {
        var circle = CircleState()
        circle.vouches = collection
        circle.vouch(entry.value, for: entry.member)
        collection = circle.vouches
    }
    static func reserve(_ count: Int, in collection: inout [String: [Vouch]]) {}
    func precedes(_ other: VouchEntry) -> Bool {
        (member, value.deadline.seconds, value.by) < (other.member, other.value.deadline.seconds, other.value.by)
    }
}

extension Notifications {
    /// The vouches for me, each told to me: "Bea vouched for you". (Those told of the miss a
    /// vouch ended hear it as its all-clear, see `allClears`.)
    static func vouchesForMe(circle: CircleState, me: String, since horizon: Timestamp) -> [Notification] {
        circle.vouches(for: me).filter { $0.at >= horizon }.map { vouch in
            let note = vouch.note.map { ": “\($0)”" } ?? ""
            return Notification(
                kind: .system, cause: "vouch|\(vouch.by)|\(vouch.deadline.seconds)",
                message:
                    "\(name(vouch.by, in: circle)) vouched for you at \(utc(vouch.at)), after you missed the check-in due \(utc(vouch.deadline))\(note). Your countdown restarted then; check in yourself when you can ('lifesignal checkin').",
                at: vouch.at, subject: me, recipient: .member(me))
        }
    }

    /// The all-clear of a miss that a vouch ended, for one who was told of it.
    static func vouchAllClear(_ vouch: Vouch, subject: String, circle: CircleState) -> String {
        let note = vouch.note.map { ": “\($0)”" } ?? ""
        return
            "Vouched: \(name(vouch.by, in: circle)) has seen \(name(subject, in: circle)) and says they are fine (at \(utc(vouch.at)))\(note). The missed check-in due \(utc(vouch.deadline)) is ended, and their countdown restarted from the vouch."
    }
}
