import LifeSignalCore

/// What this reader verified before, kept privately in `verified.json` beside the cache: for
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

    static func path(_ dataDirectory: String) -> String { Paths.join(dataDirectory, "verified.json") }

    /// The memory of `dataDirectory` (empty when there is none or it cannot be read).
    static func load(_ dataDirectory: String) -> TrustMemory {
        guard !dataDirectory.isEmpty, case .contents(let bytes)? = try? Posix.read(path(dataDirectory)),
            let root = try? JSONParser.parse(bytes), case .object(let o) = root,
            case .object(let members)? = o["members"]
        else { return TrustMemory() }
        var memory = TrustMemory()
        for (member, value) in members.pairs {
            guard Identifier.isValid(member), case .object(let entry) = value else { continue }
            var seen = TrustSeen()
            if case .object(let devices)? = entry["devices"] {
                for (device, value) in devices.pairs {
                    guard Identifier.isValid(device), case .object(let d) = value, case .string(let key)? = d["key"],
                        KeyText.isPublicKey(key), case .int(let seq)? = d["seq"], (0...Limits.counter).contains(seq)
                    else { continue }
                    seen.devices[device] = TrustSeen.Verified(key: key, seq: seq)
                }
            }
            if case .object(let revoked)? = entry["revoked"] {
                for (fingerprint, value) in revoked.pairs {
                    guard KeyText.isFingerprint(fingerprint), case .object(let r) = value,
                        case .string(let at)? = r["at"], let time = Timestamp(rfc3339: at),
                        case .string(let by)? = r["by"], Identifier.isValid(by)
                    else { continue }
                    var through: Int64?
                    if case .int(let n)? = r["through"], (0...Limits.counter).contains(n) { through = n }
                    seen.revoked[fingerprint] = TrustSeen.Revocation(
                        stamp: Stamp(at: time, device: by, seq: 0), through: through)
                }
            }
            memory.members[member] = seen
        }
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
        var out: [(String, JSON)] = []
        for (member, seen) in members.sorted(by: { $0.key < $1.key }) {
            let devices = seen.devices.sorted { $0.key < $1.key }.map { device, verified in
                (device, JSON.object(JSONObject([("key", .string(verified.key)), ("seq", .int(verified.seq))])))
            }
            let revoked = seen.revoked.sorted { $0.key < $1.key }.map { fingerprint, revocation in
                (
                    fingerprint,
                    JSON.object(
                        JSONObject([
                            ("at", .string(revocation.stamp.at.rfc3339)), ("by", .string(revocation.stamp.device)),
                            ("through", .optional(revocation.through)),
                        ]))
                )
            }
            out.append(
                (
                    member,
                    .object(
                        JSONObject([
                            ("devices", .object(JSONObject(devices))), ("revoked", .object(JSONObject(revoked))),
                        ]))
                )
            )
        }
        let json: JSON = .object(JSONObject([("schemaVersion", .int(1)), ("members", .object(JSONObject(out)))]))
        try? Posix.replace(Self.path(dataDirectory), with: json.serializedBytes() + [0x0A], durable: false)
    }

    /// Loads the memory, adds `learned`, and saves it when that changed anything.
    static func remember(_ learned: [String: TrustSeen], in dataDirectory: String) {
        guard !learned.isEmpty, !dataDirectory.isEmpty else { return }
        var memory = load(dataDirectory)
        if memory.merge(learned) { memory.save(dataDirectory) }
    }
}
