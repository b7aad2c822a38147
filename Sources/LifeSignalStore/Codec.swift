import LifeSignalCore

/// How events and per-device state are written in the circle's files, and read back with
/// every field checked. One place for the on-disk shape; `schemaVersion` guards it.
enum Codec {
    /// The largest sequence number or count a file may hold (2^53, the largest integer every
    /// JSON reader keeps exact). Appending adds to these, so a hand-edited or damaged
    /// Int64.max must be refused as damage here rather than trap on overflow later.
    static let maximumCounter: Int64 = 1 << 53

    static func encode(_ event: Event) -> JSON {
        var object = JSONObject([
            ("seq", .int(event.seq)), ("at", .string(event.at.rfc3339)), ("clock", .int(event.clock)),
            ("type", .string(event.body.typeName)),
        ])
        switch event.body {
        case .checkIn(let note): if let note { object["note"] = .string(note) }
        case .nameSet(let name): object["name"] = .string(name)
        case .intervalSet(let span): object["seconds"] = .int(span.seconds)
        case .reminderSet(let span): object["seconds"] = .optional(span?.seconds)
        case .codeSet(let code): object["code"] = .string(code)
        case .relationSet(let member, let roles):
            object["member"] = .string(member)
            object["roles"] = roles.map(encode) ?? .null
        case .externalSet(let id, let contact):
            object["id"] = .string(id)
            object["contact"] = contact.map(encode) ?? .null
        case .pingSent(let id, let to):
            object["id"] = .string(id)
            object["to"] = .string(to)
        case .pingEnded(let id, let from, let to, let end):
            object["id"] = .string(id)
            object["from"] = .string(from)
            object["to"] = .string(to)
            object["end"] = .string(end.rawValue)
        case .alertRaised(let id, let message):
            object["id"] = .string(id)
            if let message { object["message"] = .string(message) }
        case .alertEnded(let id): object["id"] = .string(id)
        case .preferencesSet(let preferences): object["preferences"] = encode(preferences)
        }
        return .object(object)
    }

    static func decodeEvent(_ cursor: JSONCursor) throws(JSONShapeError) -> Event {
        let o = try cursor.object()
        let seqCursor = try o.required("seq")
        let seq = try seqCursor.int()
        guard seq > 0, seq <= maximumCounter else { throw seqCursor.fail("must be from 1 to \(maximumCounter)") }
        let at = try o.required("at").timestamp()
        let clockCursor = try o.required("clock")
        let clock = try clockCursor.int()
        guard clock >= 0 else { throw clockCursor.fail("must not be negative") }
        let type = try o.required("type")
        let body: EventBody
        switch try type.string() {
        case "checkIn":
            let note = try o.optional("note")?.string()
            body = .checkIn(note: note)
        case "nameSet": body = .nameSet(try o.required("name").string())
        case "intervalSet": body = .intervalSet(try span(o.required("seconds")))
        case "reminderSet":
            body = .reminderSet(try o.optional("seconds").map { c throws(JSONShapeError) in try span(c) })
        case "codeSet": body = .codeSet(try o.required("code").string())
        case "relationSet":
            body = .relationSet(
                member: try id(o.required("member")),
                roles: try o.optional("roles").map { c throws(JSONShapeError) in try roles(c) })
        case "externalSet":
            body = .externalSet(
                id: try id(o.required("id")),
                contact: try o.optional("contact").map { c throws(JSONShapeError) in try external(c) })
        case "pingSent": body = .pingSent(id: try id(o.required("id")), to: try id(o.required("to")))
        case "pingEnded":
            let endCursor = try o.required("end")
            guard let end = Ping.End(rawValue: try endCursor.string()) else { throw endCursor.fail("unknown ping end") }
            body = .pingEnded(
                id: try id(o.required("id")), from: try id(o.required("from")), to: try id(o.required("to")), end: end)
        case "alertRaised":
            body = .alertRaised(id: try id(o.required("id")), message: try o.optional("message")?.string())
        case "alertEnded": body = .alertEnded(id: try id(o.required("id")))
        case "preferencesSet": body = .preferencesSet(try preferences(o.required("preferences")))
        case let other: throw type.fail("unknown event type \"\(other)\"")
        }
        return Event(seq: seq, at: at, clock: clock, body: body)
    }

    /// The longest interval or reminder a file may hold (a century).
    static let maximumSpan: Int64 = 100 * 366 * 86_400

    static func span(_ cursor: JSONCursor) throws(JSONShapeError) -> TimeSpan {
        let seconds = try cursor.int()
        guard seconds > 0, seconds <= maximumSpan else { throw cursor.fail("must be a positive number of seconds") }
        return TimeSpan(seconds: seconds)
    }

    static func id(_ cursor: JSONCursor) throws(JSONShapeError) -> String {
        let text = try cursor.string()
        guard Identifier.isValid(text) else { throw cursor.fail("\"\(text)\" is not a lifesignal id") }
        return text
    }

    static func encode(_ roles: Roles) -> JSON {
        .object(JSONObject([("responder", .bool(roles.responder)), ("dependent", .bool(roles.dependent))]))
    }

    static func roles(_ cursor: JSONCursor) throws(JSONShapeError) -> Roles {
        let o = try cursor.object()
        return Roles(responder: try o.required("responder").bool(), dependent: try o.required("dependent").bool())
    }

    static func encode(_ contact: ExternalContact) -> JSON {
        .object(
            JSONObject([
                ("name", .string(contact.name)), ("notify", .array(contact.notify.map(JSON.string))),
                ("email", .array(contact.email.map(JSON.string))), ("phone", .array(contact.phone.map(JSON.string))),
            ]))
    }

    static func external(_ cursor: JSONCursor) throws(JSONShapeError) -> ExternalContact {
        let o = try cursor.object()
        func strings(_ key: String) throws(JSONShapeError) -> [String] {
            try o.required(key).array().map { c throws(JSONShapeError) in try c.string() }
        }
        return ExternalContact(
            name: try o.required("name").string(), notify: try strings("notify"), email: try strings("email"),
            phone: try strings("phone"))
    }

    static func encode(_ p: FeedPreferences) -> JSON {
        .object(
            JSONObject([
                ("category", .optional(p.category?.rawValue)), ("unreadOnly", .bool(p.unreadOnly)),
                ("channels", .array(p.channels.map(JSON.string))),
            ]))
    }

    static func preferences(_ cursor: JSONCursor) throws(JSONShapeError) -> FeedPreferences {
        let o = try cursor.object()
        var p = FeedPreferences()
        if let c = o.optional("category") {
            guard let category = Notification.Category(rawValue: try c.string()) else {
                throw c.fail("unknown category")
            }
            p.category = category
        }
        p.unreadOnly = try o.required("unreadOnly").bool()
        p.channels = try o.required("channels").array().map { c throws(JSONShapeError) in try c.string() }
        return p
    }

    // MARK: State summary of one device's events

    /// A stamp's fields. Its device is implied: a log holds only its own device's stamps.
    static func stamp(_ s: Stamp) -> [(key: String, value: JSON)] {
        [("at", .string(s.at.rfc3339)), ("clock", .int(s.clock)), ("seq", .int(s.seq))]
    }

    /// Reads a stamp of `device`, the device whose log holds it.
    static func stamp(_ entry: JSONObjectCursor, device: String) throws(JSONShapeError) -> Stamp {
        let clock = try entry.required("clock").int()
        let seq = try entry.required("seq").int()
        return Stamp(clock: clock, at: try entry.required("at").timestamp(), device: device, seq: seq)
    }

    static func encode(_ state: MemberState) -> JSON {
        var o = JSONObject()
        if let name = state.name {
            o["name"] = .object(JSONObject([("value", .string(name.value))] + stamp(name.stamp)))
        }
        if let interval = state.interval {
            o["interval"] = .object(JSONObject([("seconds", .int(interval.value.seconds))] + stamp(interval.stamp)))
        }
        if let reminder = state.reminder {
            o["reminder"] = .object(
                JSONObject([("seconds", .optional(reminder.value?.seconds))] + stamp(reminder.stamp)))
        }
        if let code = state.code {
            o["code"] = .object(JSONObject([("value", .string(code.value))] + stamp(code.stamp)))
        }
        if let last = state.lastCheckIn {
            var entry = JSONObject(stamp(last.stamp))
            if let note = last.note { entry["note"] = .string(note) }
            o["lastCheckIn"] = .object(entry)
        }
        if !state.alerts.isEmpty {
            o["alerts"] = .array(
                state.alerts.values.sorted { $0.id < $1.id }.map { alert in
                    var entry = JSONObject([("id", .string(alert.id)), ("message", .optional(alert.message))])
                    entry["start"] = alert.start.map { .object(JSONObject(stamp($0))) } ?? .null
                    entry["end"] = alert.end.map { .object(JSONObject(stamp($0))) } ?? .null
                    return .object(entry)
                })
        }
        if let preferences = state.preferences {
            o["preferences"] = .object(JSONObject([("value", encode(preferences.value))] + stamp(preferences.stamp)))
        }
        o["checkIns"] = .int(state.checkInCount)
        return .object(o)
    }

    static func decodeState(_ cursor: JSONCursor, device: String) throws(JSONShapeError) -> MemberState {
        let o = try cursor.object()
        var state = MemberState()
        func stamp(_ entry: JSONObjectCursor) throws(JSONShapeError) -> Stamp { try Codec.stamp(entry, device: device) }
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
        if let c = o.optional("code") {
            let e = try c.object()
            state.code = Stamped(try e.required("value").string(), try stamp(e))
        }
        if let c = o.optional("lastCheckIn") {
            let e = try c.object()
            state.lastCheckIn = MemberState.CheckIn(stamp: try stamp(e), note: try e.optional("note")?.string())
        }
        if let c = o.optional("alerts") {
            for entry in try c.array() {
                let e = try entry.object()
                var alert = AlertRecord(id: try id(e.required("id")))
                alert.message = try e.optional("message")?.string()
                if let start = e.optional("start") { alert.start = try stamp(start.object()) }
                if let end = e.optional("end") { alert.end = try stamp(end.object()) }
                state.alerts[alert.id] = alert
            }
        }
        if let c = o.optional("preferences") {
            let e = try c.object()
            state.preferences = Stamped(try preferences(e.required("value")), try stamp(e))
        }
        let count = try o.required("checkIns")
        state.checkInCount = try count.int()
        guard (0...maximumCounter).contains(state.checkInCount) else {
            throw count.fail("must be from 0 to \(maximumCounter)")
        }
        return state
    }
}

extension Codec {
    /// One device's `CircleState`: the member's own profile, and the relations, external
    /// contacts and pings this device wrote. Every stamp in it is this device's.
    static func encode(_ circle: CircleState, member: String) -> JSON {
        guard case .object(var o) = encode(circle.members[member] ?? MemberState()) else { return .null }
        for (key, value) in encodeFacts(circle) { o[key] = value }
        return .object(o)
    }

    static func decodeCircle(_ cursor: JSONCursor, member: String, device: String) throws(JSONShapeError) -> CircleState
    {
        var circle = CircleState()
        circle.members[member] = try decodeState(cursor, device: device)
        try decodeFacts(cursor.object(), device: device, into: &circle)
        return circle
    }

    /// Relations, external contacts and pings.
    static func encodeFacts(_ circle: CircleState) -> [(key: String, value: JSON)] {
        let relations: JSON = .array(
            circle.relations.sorted { ($0.key.low, $0.key.high) < ($1.key.low, $1.key.high) }.map { pair, value in
                .object(
                    JSONObject(
                        [
                            ("low", .string(pair.low)), ("high", .string(pair.high)),
                            ("roles", value.value.map(encode) ?? .null),
                        ] + stamp(value.stamp)))
            })
        var externals: [JSON] = []
        for (owner, contacts) in circle.externals.sorted(by: { $0.key < $1.key }) {
            for (id, value) in contacts.sorted(by: { $0.key < $1.key }) {
                externals.append(
                    .object(
                        JSONObject(
                            [
                                ("owner", .string(owner)), ("id", .string(id)),
                                ("contact", value.value.map(encode) ?? .null),
                            ] + stamp(value.stamp))))
            }
        }
        let pings: JSON = .array(
            circle.pings.values.sorted { $0.id < $1.id }.map { ping in
                var entry = JSONObject([
                    ("id", .string(ping.id)), ("from", .string(ping.from)), ("to", .string(ping.to)),
                ])
                entry["sent"] = ping.sent.map { .object(JSONObject(stamp($0))) } ?? .null
                if let kind = ping.endKind, let end = ping.endStamp {
                    entry["end"] = .object(JSONObject([("kind", .string(kind.rawValue))] + stamp(end)))
                } else {
                    entry["end"] = .null
                }
                return .object(entry)
            })
        return [("relations", relations), ("externals", .array(externals)), ("pings", pings)]
    }

    static func decodeFacts(_ o: JSONObjectCursor, device: String, into circle: inout CircleState)
        throws(JSONShapeError)
    {
        func stamp(_ entry: JSONObjectCursor) throws(JSONShapeError) -> Stamp { try Codec.stamp(entry, device: device) }
        for c in try o.required("relations").array() {
            let e = try c.object()
            let low = try id(e.required("low"))
            let high = try id(e.required("high"))
            guard low < high else { throw c.fail("low must sort before high") }
            let value = try e.optional("roles").map { c throws(JSONShapeError) in try roles(c) }
            circle.relations[Pair(low, high)] = Stamped(value, try stamp(e))
        }
        for c in try o.required("externals").array() {
            let e = try c.object()
            let value = try e.optional("contact").map { c throws(JSONShapeError) in try external(c) }
            circle.externals[try id(e.required("owner")), default: [:]][try id(e.required("id"))] = Stamped(
                value, try stamp(e))
        }
        for c in try o.required("pings").array() {
            let e = try c.object()
            var ping = Ping(
                id: try id(e.required("id")), from: try id(e.required("from")), to: try id(e.required("to")))
            if let sent = e.optional("sent") { ping.sent = try stamp(sent.object()) }
            if let end = e.optional("end") {
                let endObject = try end.object()
                let kindCursor = try endObject.required("kind")
                guard let kind = Ping.End(rawValue: try kindCursor.string()) else {
                    throw kindCursor.fail("unknown ping end")
                }
                ping.endKind = kind
                ping.endStamp = try stamp(endObject)
            }
            circle.pings[ping.id] = ping
        }
    }
}
