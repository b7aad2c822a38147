import LifeSignalCore

/// The private cache's file format: a compact binary form, because the cache is read on every
/// run and never by people, and parsing it as JSON was most of what `status` cost.
///
/// Layout: the magic `LSCACHE`, a format byte, an FNV-1a checksum of everything after it, a
/// table of every distinct string (so each id, name and path is stored, and allocated when
/// read, once), then the fields in the order the writer wrote them. Integers are LEB128
/// varints, zig-zagged when signed. Anything that does not check out — another magic or
/// format, a checksum mismatch, a read past the end, a string index outside the table, an
/// invalid id — makes the whole cache unusable, which only costs one full read of the circle.
///
/// It holds the same `CircleState` the logs hold as JSON (see `Codec`); `CacheCodecTests`
/// round-trips every field of it.
enum CacheCodec {
    static let magic: [UInt8] = Array("LSCACHE".utf8)
    static let format: UInt8 = 1
    /// Magic, format byte and checksum.
    static let headerSize = 16

    struct Damaged: Error {}

    /// FNV-1a, 64 bits: enough to tell a damaged or truncated file from a whole one.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}

/// Writes values in the cache's format.
struct CacheWriter {
    /// A string compared and hashed by its UTF-8 bytes: `String` equality treats canonically
    /// equivalent text (é and e + ◌́) as one, but the cache must give back exactly the bytes
    /// a full read would (names, notes, channel paths).
    private struct Bytes: Hashable {
        let text: String
        static func == (a: Bytes, b: Bytes) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
        func hash(into hasher: inout Hasher) {
            var text = self.text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    private var body: [UInt8] = []
    private var index: [Bytes: Int] = [:]
    private var table: [String] = []

    init() { body.reserveCapacity(8 << 10) }

    mutating func uint(_ value: UInt64) { CacheCodec.appendVarint(value, to: &body) }
    mutating func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    mutating func count(_ value: Int) { uint(UInt64(value)) }
    mutating func bool(_ value: Bool) { body.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        if let i = index[Bytes(text: value)] {
            count(i)
        } else {
            index[Bytes(text: value)] = table.count
            count(table.count)
            table.append(value)
        }
    }

    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func strings(_ values: [String]) {
        count(values.count)
        for value in values { string(value) }
    }

    /// The whole file: header, string table, body.
    func bytes() -> [UInt8] {
        var file = CacheCodec.magic + [CacheCodec.format] + [UInt8](repeating: 0, count: 8)
        file.reserveCapacity(file.count + body.count + table.count * 40)
        CacheCodec.appendVarint(UInt64(table.count), to: &file)
        for text in table {
            CacheCodec.appendVarint(UInt64(text.utf8.count), to: &file)
            file.append(contentsOf: text.utf8)
        }
        file.append(contentsOf: body)
        var sum = CacheCodec.checksum(file[CacheCodec.headerSize...])
        for i in 8..<CacheCodec.headerSize {
            file[i] = UInt8(truncatingIfNeeded: sum)
            sum >>= 8
        }
        return file
    }
}

/// Reads values in the cache's format; every read checks its bounds and throws `Damaged`.
struct CacheReader {
    private let bytes: [UInt8]
    private var position: Int
    private var table: [String] = []
    /// Whether each table entry is a valid id, once asked: 0 not yet, 1 valid, 2 not.
    private var idChecked: [UInt8] = []

    init(_ bytes: [UInt8]) throws(CacheCodec.Damaged) {
        let h = CacheCodec.headerSize
        guard bytes.count >= h, bytes[0..<7].elementsEqual(CacheCodec.magic), bytes[7] == CacheCodec.format else {
            throw CacheCodec.Damaged()
        }
        var stored: UInt64 = 0
        for i in (8..<h).reversed() { stored = stored << 8 | UInt64(bytes[i]) }
        guard CacheCodec.checksum(bytes[h...]) == stored else { throw CacheCodec.Damaged() }
        self.bytes = bytes
        position = h
        let n = try count()
        table.reserveCapacity(n)
        for _ in 0..<n {
            let length = try count()
            guard length <= bytes.count - position else { throw CacheCodec.Damaged() }
            table.append(String(decoding: bytes[position..<(position + length)], as: UTF8.self))
            position += length
        }
        idChecked = Array(repeating: 0, count: n)
    }

    var atEnd: Bool { position == bytes.count }

    mutating func uint() throws(CacheCodec.Damaged) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count, shift < 64 {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        throw CacheCodec.Damaged()
    }

    mutating func int() throws(CacheCodec.Damaged) -> Int64 {
        let u = try uint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// A count of things that follow: never more than the bytes left, each taking at least one.
    mutating func count() throws(CacheCodec.Damaged) -> Int {
        let u = try uint()
        guard u <= UInt64(bytes.count - position) else { throw CacheCodec.Damaged() }
        return Int(u)
    }

    /// A signed number that must lie in `range`: the cache is held to the limits the logs are
    /// held to, so a crafted one cannot carry a value that traps later (an overflowing sum).
    mutating func int(in range: ClosedRange<Int64>) throws(CacheCodec.Damaged) -> Int64 {
        let value = try int()
        guard range.contains(value) else { throw CacheCodec.Damaged() }
        return value
    }

    mutating func bool() throws(CacheCodec.Damaged) -> Bool {
        guard position < bytes.count, bytes[position] <= 1 else { throw CacheCodec.Damaged() }
        position += 1
        return bytes[position - 1] == 1
    }

    private mutating func tableIndex() throws(CacheCodec.Damaged) -> Int {
        let u = try uint()
        guard u < UInt64(table.count) else { throw CacheCodec.Damaged() }
        return Int(u)
    }

    mutating func string() throws(CacheCodec.Damaged) -> String { table[try tableIndex()] }

    /// A member, device or other id: checked like ids from the logs, since ids end up in paths.
    mutating func id() throws(CacheCodec.Damaged) -> String {
        let i = try tableIndex()
        if idChecked[i] == 0 { idChecked[i] = Identifier.isValid(table[i]) ? 1 : 2 }
        guard idChecked[i] == 1 else { throw CacheCodec.Damaged() }
        return table[i]
    }

    mutating func optionalString() throws(CacheCodec.Damaged) -> String? { try bool() ? try string() : nil }

    mutating func strings() throws(CacheCodec.Damaged) -> [String] {
        let n = try count()
        var values: [String] = []
        values.reserveCapacity(n)
        for _ in 0..<n { values.append(try string()) }
        return values
    }
}

// MARK: The circle's state

extension CacheWriter {
    mutating func stamp(_ s: Stamp) {
        int(s.clock)
        int(s.at.seconds)
        string(s.device)
        int(s.seq)
    }

    mutating func optionalStamp(_ s: Stamp?) {
        bool(s != nil)
        if let s { stamp(s) }
    }

    mutating func member(_ state: MemberState) {
        bool(state.name != nil)
        if let name = state.name {
            string(name.value)
            stamp(name.stamp)
        }
        bool(state.interval != nil)
        if let interval = state.interval {
            int(interval.value.seconds)
            stamp(interval.stamp)
        }
        // 0: never set, 1: set to off, 2: set to a duration.
        switch state.reminder {
        case nil: count(0)
        case let reminder?:
            if let span = reminder.value {
                count(2)
                int(span.seconds)
            } else {
                count(1)
            }
            stamp(reminder.stamp)
        }
        bool(state.code != nil)
        if let code = state.code {
            string(code.value)
            stamp(code.stamp)
        }
        count(state.alerts.count)
        for alert in state.alerts.values {
            string(alert.id)
            optionalString(alert.message)
            optionalStamp(alert.start)
            optionalStamp(alert.end)
        }
        bool(state.preferences != nil)
        if let preferences = state.preferences {
            optionalString(preferences.value.category?.rawValue)
            bool(preferences.value.unreadOnly)
            strings(preferences.value.channels)
            stamp(preferences.stamp)
        }
        bool(state.lastCheckIn != nil)
        if let last = state.lastCheckIn {
            stamp(last.stamp)
            optionalString(last.note)
        }
        int(state.checkInCount)
    }

    mutating func circle(_ circle: CircleState) {
        count(circle.members.count)
        for (id, state) in circle.members {
            string(id)
            member(state)
        }
        count(circle.relations.count)
        for (pair, value) in circle.relations {
            string(pair.low)
            string(pair.high)
            // 0: removed, else 1 + responder + 2 × dependent.
            count(value.value.map { 1 + ($0.responder ? 1 : 0) + ($0.dependent ? 2 : 0) } ?? 0)
            stamp(value.stamp)
        }
        count(circle.externals.count)
        for (owner, contacts) in circle.externals {
            string(owner)
            count(contacts.count)
            for (id, value) in contacts {
                string(id)
                bool(value.value != nil)
                if let contact = value.value {
                    string(contact.name)
                    strings(contact.notify)
                    strings(contact.email)
                    strings(contact.phone)
                }
                stamp(value.stamp)
            }
        }
        count(circle.pings.count)
        for ping in circle.pings.values {
            string(ping.id)
            string(ping.from)
            string(ping.to)
            optionalStamp(ping.sent)
            optionalString(ping.endKind?.rawValue)
            optionalStamp(ping.endStamp)
        }
    }
}

extension CacheReader {
    mutating func stamp() throws(CacheCodec.Damaged) -> Stamp {
        let clock = try int(in: 0...Codec.maximumCounter)
        let at = try int(in: Timestamp.earliest...Timestamp.latest)
        return Stamp(
            clock: clock, at: Timestamp(seconds: at), device: try id(), seq: try int(in: 1...Codec.maximumCounter))
    }

    mutating func span() throws(CacheCodec.Damaged) -> TimeSpan {
        TimeSpan(seconds: try int(in: 1...Codec.maximumSpan))
    }

    mutating func optionalStamp() throws(CacheCodec.Damaged) -> Stamp? { try bool() ? try stamp() : nil }

    mutating func member() throws(CacheCodec.Damaged) -> MemberState {
        var state = MemberState()
        if try bool() {
            let value = try string()
            state.name = Stamped(value, try stamp())
        }
        if try bool() {
            let value = try span()
            state.interval = Stamped(value, try stamp())
        }
        switch try count() {
        case 0: break
        case 1: state.reminder = Stamped(nil, try stamp())
        case 2:
            let value = try span()
            state.reminder = Stamped(value, try stamp())
        default: throw CacheCodec.Damaged()
        }
        if try bool() {
            let value = try string()
            state.code = Stamped(value, try stamp())
        }
        let alerts = try count()
        state.alerts.reserveCapacity(alerts)
        for _ in 0..<alerts {
            var alert = AlertRecord(id: try id())
            alert.message = try optionalString()
            alert.start = try optionalStamp()
            alert.end = try optionalStamp()
            state.alerts[alert.id] = alert
        }
        if try bool() {
            var preferences = FeedPreferences()
            if let category = try optionalString() {
                guard let known = Notification.Category(rawValue: category) else { throw CacheCodec.Damaged() }
                preferences.category = known
            }
            preferences.unreadOnly = try bool()
            preferences.channels = try strings()
            state.preferences = Stamped(preferences, try stamp())
        }
        if try bool() {
            let stamp = try stamp()
            state.lastCheckIn = MemberState.CheckIn(stamp: stamp, note: try optionalString())
        }
        state.checkInCount = try int(in: 0...Codec.maximumCounter)
        return state
    }

    mutating func circle() throws(CacheCodec.Damaged) -> CircleState {
        var circle = CircleState()
        let members = try count()
        circle.members.reserveCapacity(members)
        for _ in 0..<members {
            let id = try id()
            circle.members[id] = try member()
        }
        let relations = try count()
        circle.relations.reserveCapacity(relations)
        for _ in 0..<relations {
            let low = try id()
            let high = try id()
            guard low < high else { throw CacheCodec.Damaged() }
            let code = try count()
            guard code <= 4 else { throw CacheCodec.Damaged() }
            let roles = code == 0 ? nil : Roles(responder: (code - 1) & 1 != 0, dependent: (code - 1) & 2 != 0)
            circle.relations[Pair(low, high)] = Stamped(roles, try stamp())
        }
        let owners = try count()
        circle.externals.reserveCapacity(owners)
        for _ in 0..<owners {
            let owner = try id()
            let n = try count()
            var contacts: [String: Stamped<ExternalContact?>] = [:]
            contacts.reserveCapacity(n)
            for _ in 0..<n {
                let id = try id()
                var contact: ExternalContact?
                if try bool() {
                    contact = ExternalContact(
                        name: try string(), notify: try strings(), email: try strings(), phone: try strings())
                }
                contacts[id] = Stamped(contact, try stamp())
            }
            circle.externals[owner] = contacts
        }
        let pings = try count()
        circle.pings.reserveCapacity(pings)
        for _ in 0..<pings {
            var ping = Ping(id: try id(), from: try id(), to: try id())
            ping.sent = try optionalStamp()
            if let kind = try optionalString() {
                guard let known = Ping.End(rawValue: kind) else { throw CacheCodec.Damaged() }
                ping.endKind = known
            }
            ping.endStamp = try optionalStamp()
            circle.pings[ping.id] = ping
        }
        return circle
    }
}
