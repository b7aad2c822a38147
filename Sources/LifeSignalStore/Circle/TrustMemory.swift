import LifeSignalCore

/// What this reader verified before, kept privately in `verified.bin` beside the cache: for
/// each device of the members whose logs it checks, the key it signed with and the highest
/// record verified; and every key it saw revoked. A file put back in the circle — by a sync or
/// the git host, validly signed but older — can then neither take back what was verified nor
/// undo a revocation, even on a full read with no cache (see `TrustSeen` in Speakers.swift).
///
/// It is a record, not a cache, and has a format of its own: it is not rebuilt from the circle,
/// and losing it forgets only what it held (a rollback made before the next read would then go
/// unseen). A damaged one is not believed at all: the run that finds it says so, reads every
/// log in full (no cache, which holds whom it verified) and writes it anew. It is small — one
/// entry per device of the people this reader is linked with — and written, best effort, when
/// it grows.
struct TrustMemory: Equatable, Sendable {
    var members: [String: TrustSeen] = [:]

    static func path(_ dataDirectory: String) -> String { DataFile.verified.path(in: dataDirectory) }

    /// The file's own header: a magic, its version, and a checksum of what follows.
    static let magic: [UInt8] = Array("LSTRUST".utf8)
    static let version: UInt8 = 1
    static let headerSize = 16

    /// The memory of `dataDirectory` (empty when there is none). A file that does not check out
    /// is `damaged`: nothing in it is believed, and the next full read verifies every log again
    /// and writes it anew (see `Store.readCircle`).
    ///
    /// A file there that cannot be read at all (no permission, an I/O error, not a file, too
    /// large) is damaged too, never "nothing verified yet"; and since what it holds is unknown,
    /// it is never written over (see `save`).
    static func read(_ dataDirectory: String) -> (memory: TrustMemory, damaged: Bool) {
        guard !dataDirectory.isEmpty else { return (TrustMemory(), false) }
        let bytes: [UInt8]
        switch contents(dataDirectory) {
        case .missing: return (TrustMemory(), false)
        case .unreadable: return (TrustMemory(), true)
        case .bytes(let found): bytes = found
        }
        do throws(CacheCodec.Damaged) {
            return (try decode(bytes), false)
        } catch {
            return (TrustMemory(), true)
        }
    }

    static func load(_ dataDirectory: String) -> TrustMemory { read(dataDirectory).memory }

    /// The memory for a full read of the circle. Nothing in a damaged file is believed: it is
    /// written anew, empty, and that read's verifications fill it (said once, by that run).
    static func readForFullRead(_ dataDirectory: String, damaged: inout Bool) -> TrustMemory {
        let found = read(dataDirectory)
        if found.damaged { found.memory.save(dataDirectory) }
        damaged = found.damaged
        return found.memory
    }

    /// Whether the file is there but does not check out (its header and checksum alone): no
    /// cache is used then, as the cache holds whom the damaged memory vouched for.
    static func isDamaged(_ dataDirectory: String) -> Bool {
        switch contents(dataDirectory) {
        case .missing: return false
        case .unreadable: return true
        case .bytes(let bytes): return (try? reader(bytes)) == nil
        }
    }

    /// What lies at the memory's path: nothing, a file that cannot be read, or its bytes.
    private enum Contents {
        case missing, unreadable
        case bytes([UInt8])
    }

    private static func contents(_ dataDirectory: String) -> Contents {
        do throws(SystemError) {
            switch try Posix.read(path(dataDirectory)) {
            case .missing: return .missing
            case .contents(let bytes): return .bytes(bytes)
            }
        } catch {
            return .unreadable
        }
    }

    /// A reader of the fields, once the header and checksum check out.
    private static func reader(_ bytes: [UInt8]) throws(CacheCodec.Damaged) -> BinaryReader {
        if bytes.starts(with: CacheCodec.magic) { return try legacyReader(bytes) }
        guard bytes.count >= headerSize, bytes.starts(with: magic), bytes[magic.count] == version,
            CacheCodec.checksum(bytes[headerSize...]) == CacheCodec.storedChecksum(bytes, at: 8)
        else { throw CacheCodec.Damaged() }
        return try BinaryReader(bytes, from: headerSize)
    }

    /// A file lifesignal wrote in the cache's form, before the memory had a format of its own
    /// (its fields were the same): the magic, the cache's format number then (any: the
    /// cache's number moved while these fields did not), a checksum, the cache's empty
    /// entries.
    private static func legacyReader(_ bytes: [UInt8]) throws(CacheCodec.Damaged) -> BinaryReader {
        let legacyHeader = 16
        guard bytes.count >= legacyHeader,
            CacheCodec.checksum(bytes[legacyHeader...]) == CacheCodec.storedChecksum(bytes, at: 8)
        else { throw CacheCodec.Damaged() }
        return try BinaryReader(bytes, from: try CacheEntries(bytes, from: legacyHeader).end)
    }

    private static func decode(_ bytes: [UInt8]) throws(CacheCodec.Damaged) -> TrustMemory {
        var r = try reader(bytes)
        var memory = TrustMemory()
        for _ in 0..<(try r.count()) {
            let member = try r.id()
            var seen = TrustSeen()
            for _ in 0..<(try r.count()) {
                let device = try r.id()
                let key = try r.string()
                guard key.utf8.count == 2 * Ed25519.publicKeyLength else { throw CacheCodec.Damaged() }
                seen.devices[device] = TrustSeen.Verified(key: key, seq: try r.int(in: 0...Limits.counter))
            }
            for _ in 0..<(try r.count()) {
                let fingerprint = try r.string()
                var stamp = Stamp(at: Timestamp(seconds: 0), device: "", seq: 0)
                try r.stamp(&stamp)
                let through = try r.bool() ? try r.int(in: 0...Limits.counter) : nil
                seen.revoked[fingerprint] = TrustSeen.Revocation(stamp: stamp, through: through)
            }
            memory.members[member] = seen
        }
        guard r.atEnd else { throw CacheCodec.Damaged() }
        return memory
    }

    /// Adds what `learned` holds; true when that changed anything.
    mutating func merge(_ learned: [String: TrustSeen]) -> Bool {
        var changed = false
        for (member, seen) in learned {
            var known = members[member] ?? TrustSeen()
            for (device, verified) in seen.devices {
                let before = known.devices[device]
                if before == nil || (before?.key == verified.key && verified.seq > before?.seq ?? 0) {
                    known.devices[device] = verified
                }
            }
            for (fingerprint, revocation) in seen.revoked where known.revoked[fingerprint] == nil {
                known.revoked[fingerprint] = revocation
            }
            if known != members[member] {
                members[member] = known
                changed = true
            }
        }
        return changed
    }

    /// Writes it (not durable: like the cache, a lost write only forgets).
    func save(_ dataDirectory: String) {
        var w = BinaryWriter()
        w.count(members.count)
        for (member, seen) in members.sorted(by: { $0.key < $1.key }) {
            w.string(member)
            w.count(seen.devices.count)
            for (device, verified) in seen.devices.sorted(by: { $0.key < $1.key }) {
                w.string(device)
                w.string(verified.key)
                w.int(verified.seq)
            }
            w.count(seen.revoked.count)
            for (fingerprint, revocation) in seen.revoked.sorted(by: { $0.key < $1.key }) {
                w.string(fingerprint)
                var stamp = revocation.stamp
                w.stamp(&stamp)
                w.bool(revocation.through != nil)
                if let through = revocation.through { w.int(through) }
            }
        }
        var file = Self.magic + [Self.version] + [UInt8](repeating: 0, count: 8)
        w.write(to: &file)
        var sum = CacheCodec.checksum(file[Self.headerSize...])
        for i in 8..<Self.headerSize {
            file[i] = UInt8(truncatingIfNeeded: sum)
            sum >>= 8
        }
        // A file that cannot be read holds what is unknown here: it is said, and left alone.
        if case .unreadable = Self.contents(dataDirectory) { return }
        try? Posix.replace(Self.path(dataDirectory), with: file, durable: false)
    }

    /// Loads the memory, adds `learned`, and saves it when that changed anything.
    static func remember(_ learned: [String: TrustSeen], in dataDirectory: String) {
        guard !learned.isEmpty, !dataDirectory.isEmpty else { return }
        var memory = load(dataDirectory)
        if memory.merge(learned) { memory.save(dataDirectory) }
    }
}

extension Store {
    /// Where this device keeps what it verified before (see `TrustMemory`).
    public var trustMemoryPath: String { TrustMemory.path(dataDirectory) }
}
