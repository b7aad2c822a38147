import LifeSignalCore

/// How events and per-device state are written in the circle's files, and read back with
/// every field checked. One place for the on-disk shape; `schemaVersion` guards it.
enum Codec {
    /// The largest sequence number or count a file may hold (2^53, the largest integer every
    /// JSON reader keeps exact). Appending adds to these, so a hand-edited or damaged
    /// Int64.max must be refused as damage here rather than trap on overflow later.
    static let maximumCounter: Int64 = 1 << 53

    static func encode(_ event: Event) -> JSON {
        var object = JSONObject([("seq", .int(event.seq)), ("at", .string(event.at.rfc3339)), ("type", .string(event.body.typeName))])
        switch event.body {
        case .checkIn(let note): if let note { object["note"] = .string(note) }
        case .nameSet(let name): object["name"] = .string(name)
        case .intervalSet(let span): object["seconds"] = .int(span.seconds)
        case .reminderSet(let span): object["seconds"] = .optional(span?.seconds)
        }
        return .object(object)
    }

    static func decodeEvent(_ cursor: JSONCursor) throws(JSONShapeError) -> Event {
        let o = try cursor.object()
        let seqCursor = try o.required("seq")
        let seq = try seqCursor.int()
        guard seq > 0, seq <= maximumCounter else { throw seqCursor.fail("must be from 1 to \(maximumCounter)") }
        let at = try o.required("at").timestamp()
        let type = try o.required("type")
        let body: EventBody
        switch try type.string() {
        case "checkIn":
            let note = try o.optional("note")?.string()
            body = .checkIn(note: note)
        case "nameSet": body = .nameSet(try o.required("name").string())
        case "intervalSet": body = .intervalSet(try span(o.required("seconds")))
        case "reminderSet": body = .reminderSet(try o.optional("seconds").map { c throws(JSONShapeError) in try span(c) })
        case let other: throw type.fail("unknown event type \"\(other)\"")
        }
        return Event(seq: seq, at: at, body: body)
    }

    static func span(_ cursor: JSONCursor) throws(JSONShapeError) -> TimeSpan {
        let seconds = try cursor.int()
        guard seconds > 0, seconds <= 100 * 366 * 86_400 else { throw cursor.fail("must be a positive number of seconds") }
        return TimeSpan(seconds: seconds)
    }

    // MARK: State summary of one device's events

    static func encode(_ state: MemberState) -> JSON {
        var o = JSONObject()
        func stamp(_ s: Stamp) -> [(key: String, value: JSON)] { [("at", .string(s.at.rfc3339)), ("seq", .int(s.seq))] }
        if let name = state.name { o["name"] = .object(JSONObject([("value", .string(name.value))] + stamp(name.stamp))) }
        if let interval = state.interval {
            o["interval"] = .object(JSONObject([("seconds", .int(interval.value.seconds))] + stamp(interval.stamp)))
        }
        if let reminder = state.reminder {
            o["reminder"] = .object(JSONObject([("seconds", .optional(reminder.value?.seconds))] + stamp(reminder.stamp)))
        }
        if let last = state.lastCheckIn {
            var entry = JSONObject(stamp(last.stamp))
            if let note = last.note { entry["note"] = .string(note) }
            o["lastCheckIn"] = .object(entry)
        }
        o["checkIns"] = .int(state.checkInCount)
        return .object(o)
    }

    static func decodeState(_ cursor: JSONCursor, device: String) throws(JSONShapeError) -> MemberState {
        let o = try cursor.object()
        var state = MemberState()
        func stamp(_ entry: JSONObjectCursor) throws(JSONShapeError) -> Stamp {
            Stamp(at: try entry.required("at").timestamp(), device: device, seq: try entry.required("seq").int())
        }
        if let c = o.optional("name") {
            let e = try c.object()
            state.name = Stamped(try e.required("value").string(), try stamp(e))
        }
        if let c = o.optional("interval") {
            let e = try c.object()
            state.interval = Stamped(try span(e.required("seconds")), try stamp(e))
        }
        if let c = o.optional("reminder") {
            let e = try c.object()
            let value = try e.optional("seconds").map { c throws(JSONShapeError) in try span(c) }
            state.reminder = Stamped(value, try stamp(e))
        }
        if let c = o.optional("lastCheckIn") {
            let e = try c.object()
            state.lastCheckIn = MemberState.CheckIn(stamp: try stamp(e), note: try e.optional("note")?.string())
        }
        let count = try o.required("checkIns")
        state.checkInCount = try count.int()
        guard (0...maximumCounter).contains(state.checkInCount) else { throw count.fail("must be from 0 to \(maximumCounter)") }
        return state
    }
}
