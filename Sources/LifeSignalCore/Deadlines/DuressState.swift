/// What one device keeps, privately, about duress check-ins: the word's setting, whom the
/// person left out, and each alarm or all-clear to send or sent, per recipient and channel.
/// Kept in the data directory (`state.bin`), never in the circle, in a binary form with no
/// word, name, address or text in it: contact and device ids, times, and a fingerprint per
/// channel (see `Duress.fingerprint`). Nothing but `checkin duress status` shows it.
public struct DuressState: Equatable, Sendable {
    public var setting: DuressSetting?
    /// Contact ids the person left out (`contacts edit NAME --duress off`).
    public var leftOut: Set<String> = []
    public var sends: [DuressSend] = []

    public init(setting: DuressSetting? = nil, leftOut: Set<String> = [], sends: [DuressSend] = []) {
        self.setting = setting
        self.leftOut = leftOut
        self.sends = sends
    }

    /// Nothing to keep: the file can go.
    public var isEmpty: Bool { setting == nil && leftOut.isEmpty && sends.isEmpty }

    /// How long an attempt in progress keeps others from sending the same (a crashed run's
    /// claim runs out, and the next run sends again: at least once).
    public static let claimSeconds: Int64 = 120

    /// The sends a run may try at `clock` (the real time: claims are between processes).
    public func due(clock: Timestamp) -> [Int] {
        sends.indices.filter { sends[$0].sent == nil && (sends[$0].claimedUntil.map { $0 <= clock } ?? true) }
    }

    /// Queues the alarm of a duress check-in at `at` on `device` to every channel of `targets`.
    public mutating func raise(at: Timestamp, device: String, targets: [Duress.Target]) {
        for target in targets {
            for channel in target.channels {
                sends.append(
                    DuressSend(
                        kind: .alarm, alarmAt: at, cause: at, device: device, contact: target.contact,
                        member: target.member, channel: Duress.fingerprint(channel)))
            }
        }
    }

    /// Ends every alarm at `at`: an all-clear for each one sent (or being sent), and those not
    /// sent yet are dropped. Returns the contacts that will be told it is over.
    public mutating func clear(at: Timestamp, device: String) -> Set<String> {
        var told: Set<String> = []
        var kept: [DuressSend] = []
        for send in sends {
            switch send.kind {
            case .clear:
                kept.append(send)
            case .alarm where send.cleared:
                kept.append(send)
            case .alarm:
                guard send.sent != nil || send.claimedUntil != nil else { continue }
                var ended = send
                ended.cleared = true
                kept.append(ended)
                var allClear = DuressSend(
                    kind: .clear, alarmAt: send.alarmAt, cause: at, device: device, contact: send.contact,
                    member: send.member, channel: send.channel)
                allClear.alarmDevice = send.device
                kept.append(allClear)
                told.insert(send.contact)
            }
        }
        sends = kept
        return told
    }

    /// Whether an alarm is in force: raised and not cleared.
    public var alarmInForce: Bool { sends.contains { $0.kind == .alarm && !$0.cleared } }

    /// `send`'s channel is no longer one of its recipient's (they changed it, or are gone): the
    /// message goes to the channels they have now, `channels` (fingerprints), each once, as a
    /// send of its own tried from the start; with none, nothing is left to try. A send retried
    /// for ever to an address its recipient gave up would tell nobody.
    public mutating func follow(_ send: DuressSend, to channels: [UInt64]) {
        guard let index = sends.firstIndex(where: { $0.isSame(as: send) }), sends[index].sent == nil else { return }
        sends.remove(at: index)
        for channel in channels where !sends.contains(where: { $0.isSame(as: send, but: channel) }) {
            var moved = send
            moved.channel = channel
            moved.tries = 0
            moved.claimedUntil = nil
            sends.append(moved)
        }
    }
}

/// One message of a duress alarm or its all-clear to one channel of one recipient.
public struct DuressSend: Equatable, Sendable {
    public enum Kind: UInt8, Sendable {
        case alarm = 1
        case clear = 2
    }

    public var kind: Kind
    /// The duress check-in this is about.
    public var alarmAt: Timestamp
    /// When it happened: the check-in, or the `duress clear`.
    public var cause: Timestamp
    /// The device that took the duress check-in (for an all-clear, the one that cleared it).
    public var device: String
    public var contact: String
    public var member: Bool
    /// The channel's fingerprint (`Duress.fingerprint`).
    public var channel: UInt64
    public var sent: Timestamp? = nil
    public var tries: Int = 0
    /// An attempt in progress until then (real time).
    public var claimedUntil: Timestamp? = nil
    /// An alarm whose all-clear was queued.
    public var cleared = false
    /// For an all-clear: the device that took the check-in it clears.
    public var alarmDevice: String? = nil

    public init(
        kind: Kind, alarmAt: Timestamp, cause: Timestamp, device: String, contact: String, member: Bool, channel: UInt64
    ) {
        self.kind = kind
        self.alarmAt = alarmAt
        self.cause = cause
        self.device = device
        self.contact = contact
        self.member = member
        self.channel = channel
    }
}

extension DuressSend {
    /// The same message to the same channel (whatever its progress).
    public func isSame(as other: DuressSend) -> Bool { isSame(as: other, but: other.channel) }

    /// The same message as `other`, to `channel`.
    func isSame(as other: DuressSend, but channel: UInt64) -> Bool {
        kind == other.kind && alarmAt == other.alarmAt && device == other.device && contact == other.contact
            && self.channel == channel && cause == other.cause
    }
}

// MARK: - The binary form

extension DuressState {
    /// Four bytes that say what the file is to lifesignal, not to a person; then a version.
    static let magic: [UInt8] = [0x4c, 0x53, 0x53, 0x54]
    static let version: UInt64 = 1

    /// Why bytes are not a state this version reads.
    public enum Damaged: Error, Equatable, Sendable {
        case notOurs
        case newerVersion(UInt64)
        case truncated
    }

    public func encoded() -> [UInt8] {
        var bytes = Self.magic
        func uint(_ value: UInt64) { BinaryWriter.appendVarint(value, to: &bytes) }
        func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
        func blob(_ value: [UInt8]) {
            uint(UInt64(value.count))
            bytes += value
        }
        func time(_ value: Timestamp?) {
            bytes.append(value == nil ? 0 : 1)
            if let value { int(value.seconds) }
        }
        uint(Self.version)
        if let setting {
            bytes.append(1)
            blob(setting.salt)
            blob(setting.hash)
            uint(UInt64(max(0, setting.rounds)))
        } else {
            bytes.append(0)
        }
        uint(UInt64(leftOut.count))
        for id in leftOut.sorted() { blob(Array(id.utf8)) }
        uint(UInt64(sends.count))
        for send in sends {
            bytes.append(send.kind.rawValue)
            int(send.alarmAt.seconds)
            int(send.cause.seconds)
            blob(Array(send.device.utf8))
            blob(Array(send.contact.utf8))
            bytes.append((send.member ? 1 : 0) | (send.cleared ? 2 : 0))
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: send.channel >> UInt64(shift)))
            }
            time(send.sent)
            uint(UInt64(max(0, send.tries)))
            time(send.claimedUntil)
            blob(Array((send.alarmDevice ?? "").utf8))
        }
        return bytes
    }

    public init(decoding bytes: [UInt8]) throws(Damaged) {
        guard bytes.starts(with: Self.magic) else { throw .notOurs }
        var reader = Reader(bytes: bytes, position: Self.magic.count)
        let version = try reader.uint()
        guard version <= Self.version else { throw .newerVersion(version) }
        self.init()
        if try reader.byte() == 1 {
            setting = DuressSetting(
                salt: try reader.blob(), hash: try reader.blob(), rounds: Int(try reader.uint(below: 1 << 32)))
        }
        for _ in 0..<(try reader.uint(below: 1 << 20)) { leftOut.insert(try reader.text()) }
        for _ in 0..<(try reader.uint(below: 1 << 20)) {
            guard let kind = DuressSend.Kind(rawValue: try reader.byte()) else { throw .notOurs }
            let alarmAt = Timestamp(seconds: try reader.int())
            let cause = Timestamp(seconds: try reader.int())
            let device = try reader.text()
            let contact = try reader.text()
            let flags = try reader.byte()
            var channel: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 8) { channel |= UInt64(try reader.byte()) << UInt64(shift) }
            var send = DuressSend(
                kind: kind, alarmAt: alarmAt, cause: cause, device: device, contact: contact, member: flags & 1 != 0,
                channel: channel)
            send.cleared = flags & 2 != 0
            send.sent = try reader.time()
            send.tries = Int(try reader.uint(below: 1 << 32))
            send.claimedUntil = try reader.time()
            let alarmDevice = try reader.text()
            send.alarmDevice = alarmDevice.isEmpty ? nil : alarmDevice
            sends.append(send)
        }
    }

    /// Reads the fields `encoded` writes, every read bounded by the bytes there are.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int

        mutating func byte() throws(Damaged) -> UInt8 {
            guard position < bytes.count else { throw .truncated }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint() throws(Damaged) -> UInt64 {
            do {
                return try BinaryReader.varint(bytes, at: &position)
            } catch {
                throw .truncated
            }
        }

        mutating func uint(below limit: UInt64) throws(Damaged) -> UInt64 {
            let value = try uint()
            guard value < limit else { throw .notOurs }
            return value
        }

        mutating func int() throws(Damaged) -> Int64 {
            let raw = try uint()
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        mutating func blob() throws(Damaged) -> [UInt8] {
            let count = Int(try uint(below: 1 << 16))
            guard count <= bytes.count - position else { throw .truncated }
            defer { position += count }
            return Array(bytes[position..<position + count])
        }

        mutating func text() throws(Damaged) -> String { String(decoding: try blob(), as: UTF8.self) }

        mutating func time() throws(Damaged) -> Timestamp? {
            try byte() == 0 ? nil : Timestamp(seconds: try int())
        }
    }
}
