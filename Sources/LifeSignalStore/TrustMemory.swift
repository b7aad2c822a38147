import LifeSignalCore

/// What this reader verified before, kept privately in `verified.bin` beside the cache: for
/// each device of the members whose logs it checks, the key it signed with and the highest
/// record verified; and every key it saw revoked. A file put back in the circle — by a sync or
/// the git host, validly signed but older — can then neither take back what was verified nor
/// undo a revocation, even on a full read with no cache (see `TrustSeen` in Speakers.swift).
///
/// Unlike the cache it is not rebuilt from the circle: losing it forgets only what it held (a
/// rollback made before the next read would then go unseen). It is small — one entry per
/// device of the people this reader is linked with — and written, best effort, when it grows.
struct TrustMemory: Equatable, Sendable {
    var members: [String: TrustSeen] = [:]

    static func path(_ dataDirectory: String) -> String { Paths.join(dataDirectory, "verified.bin") }

    /// The memory of `dataDirectory` (empty when there is none or it cannot be read). It is in
    /// the cache's compact form, with its checksum.
    static func load(_ dataDirectory: String) -> TrustMemory {
        guard !dataDirectory.isEmpty, case .contents(let bytes)? = try? Posix.read(path(dataDirectory)) else {
            return TrustMemory()
        }
        do throws(CacheCodec.Damaged) {
            var r = try CacheCodec.reader(bytes)
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
            return memory
        } catch {
            return TrustMemory()
        }
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
        try? Posix.replace(Self.path(dataDirectory), with: CacheCodec.file(w), durable: false)
    }

    /// Loads the memory, adds `learned`, and saves it when that changed anything.
    static func remember(_ learned: [String: TrustSeen], in dataDirectory: String) {
        guard !learned.isEmpty, !dataDirectory.isEmpty else { return }
        var memory = load(dataDirectory)
        if memory.merge(learned) { memory.save(dataDirectory) }
    }
}
