import LifeSignalCore

/// What the cache keeps of trust: whose logs counted for every member whose logs were checked
/// (see CircleTrust.swift), so that a run that reads nothing new checks no signature, and a
/// refresh checks only the changed log — against the key its device was trusted with. A change
/// that could change who speaks for a member (a new or set-aside device, an enrollment, a
/// revocation, a new recovery key or pin) is left to a full read.
extension Store {
    /// What a refresh does with a changed log.
    enum RefreshTrust: Equatable {
        /// Fold it in alone.
        case fold
        /// Keep what was verified of it before: its new version does not verify (`problem`).
        case keep(String)
        /// Keep what was verified of it before: its new version verifies but holds fewer records.
        case rolledBack(seq: Int64, verified: Int64)
        /// Leave it to a full read.
        case fullRead
    }

    /// What to do with the changed log `log` (read from `bytes`) of a cache's member.
    func refreshTrust(_ log: inout DeviceLog, bytes: [UInt8], in cache: CircleCache) -> RefreshTrust {
        guard let speakers = cache.speakers[log.member] else {
            // Nobody checked this member's logs: unless it now states something between members
            // (then it must be checked, by a full read), it is taken as it is, as before.
            return log.state.statesBetweenMembers ? .fullRead : .fold
        }
        switch speakers.devices[log.device] {
        case .trusted?:
            guard let key = speakers.keys[log.device] else { return .fullRead }
            // Not signed by the key it was trusted with any more: what was verified stands.
            guard log.key == key else {
                // Unless this reader took that key from the member's own code since: the code
                // settles which key is theirs, which the full read weighs.
                let fingerprint = log.key.flatMap(KeyText.fingerprint(ofKey:)) ?? ""
                let pins = cache.own.members[cache.member]?.pins[log.member]
                if pins?[fingerprint]?.fromCode ?? false { return .fullRead }
                return .keep("it is no longer signed with the device's key")
            }
            log.checkSignature(bytes)
            if case .invalid(let problem)? = log.signature { return .keep(problem) }
            if let verified = cache.seen[log.member]?.devices[log.device], verified.key == key,
                log.lastSeq < verified.seq
            {
                return .rolledBack(seq: log.lastSeq, verified: verified.seq)
            }
        case .olderVersion?:
            guard log.key == nil, !Signing.isSigned(bytes) else { return .fullRead }
        default:
            // A retired device that writes again is revoked, a set-aside one may now count:
            // the full read says so.
            return .fullRead
        }
        // What it says of who speaks for the member must be what was known.
        let known = cache.others.members[log.member] ?? MemberState()
        let state = log.memberState
        guard state.devices.allSatisfy({ known.devices[$0.key]?.vouchesAlike($0.value) ?? false }),
            state.recovery.map({ known.recovery?.value == $0.value }) ?? true
        else { return .fullRead }
        if log.member == cache.member {
            let pins = state.pins.allSatisfy { member, keys in keys.keys.allSatisfy { known.pins[member]?[$0] != nil } }
            guard pins else { return .fullRead }
        }
        return .fold
    }
}

extension CircleCache {
    /// Remembers that `log` (of a device that counts, its signature checked) was verified.
    mutating func learn(_ log: DeviceLog) {
        guard let key = log.key, log.signature == .valid, speakers[log.member] != nil else { return }
        var seen = learned[log.member] ?? TrustSeen()
        seen.devices[log.device] = TrustSeen.Verified(key: key, seq: log.lastSeq)
        learned[log.member] = seen
    }

    /// Whether every member this reader must check — its own, those linked with it, those it
    /// pinned — was checked when the cache was made. A link made since (by this device or by
    /// the other side) means a full read, which checks them.
    var coversTrust: Bool {
        trustRequired.allSatisfy { speakers[$0] != nil || ($0 != member && others.members[$0] == nil) }
    }

    /// The members this reader must check: itself, every member with a relation to it (ended
    /// ones too), every member it pinned.
    var trustRequired: Set<String> { Self.trustRequired(of: member, in: [own, others]) }

    static func trustRequired(of member: String, in circles: [CircleState]) -> Set<String> {
        var required: Set<String> = [member]
        for circle in circles {
            for pair in circle.relations.keys where pair.low == member || pair.high == member {
                required.insert(pair.other(than: member))
            }
            required.formUnion(circle.members[member]?.pins.keys ?? [:].keys)
        }
        return required
    }

    /// Whether a cache may be kept of a read with these findings: not while a device of this
    /// member, or of a member linked with it, has logs that count for nothing (the warning must
    /// be said on every run until it is fixed, and each run reads it again).
    static func mayKeep(_ read: Store.CircleRead, member: String) -> Bool {
        // Linked with this member as either side recorded it (without merging the circle).
        var linked: Set<String> = [member]
        for relations in [read.others.relations] + read.logs.map(\.state.relations) {
            for (pair, roles) in relations where roles.value != nil && (pair.low == member || pair.high == member) {
                linked.insert(pair.other(than: member))
            }
        }
        return !read.speakers.contains { linked.contains($0.key) && !$0.value.setAside.isEmpty }
    }
}

extension BinaryWriter {
    mutating func speakers(_ all: [String: Speakers]) {
        count(all.count)
        for (member, speakers) in all.sorted(by: { $0.key < $1.key }) {
            string(member)
            bool(speakers.firstSight)
            count(speakers.devices.count)
            for (device, standing) in speakers.devices.sorted(by: { $0.key < $1.key }) {
                string(device)
                switch standing {
                case .trusted: uint(0)
                case .olderVersion: uint(1)
                case .notSigned: uint(2)
                case .badSignature(let problem):
                    uint(3)
                    string(problem)
                case .notEnrolled: uint(4)
                case .revoked(var stamp):
                    uint(5)
                    self.stamp(&stamp)
                case .undecided: uint(6)
                case .retired(var stamp):
                    uint(7)
                    self.stamp(&stamp)
                case .rolledBack(let seq, let verified):
                    uint(8)
                    int(seq)
                    int(verified)
                }
                bool(speakers.keys[device] != nil)
                if let key = speakers.keys[device] { string(key) }
            }
        }
    }
}

extension BinaryReader {
    mutating func speakers() throws(CacheCodec.Damaged) -> [String: Speakers] {
        var all: [String: Speakers] = [:]
        for _ in 0..<(try count()) {
            var speakers = Speakers(member: try id())
            speakers.firstSight = try bool()
            for _ in 0..<(try count()) {
                let device = try id()
                let standing: Speakers.Standing
                switch try uint() {
                case 0: standing = .trusted
                case 1: standing = .olderVersion
                case 2: standing = .notSigned
                case 3: standing = .badSignature(try string())
                case 4: standing = .notEnrolled
                case 5:
                    var stamp = Stamp(at: Timestamp(seconds: 0), device: "", seq: 0)
                    try self.stamp(&stamp)
                    standing = .revoked(stamp)
                case 6: standing = .undecided
                case 7:
                    var stamp = Stamp(at: Timestamp(seconds: 0), device: "", seq: 0)
                    try self.stamp(&stamp)
                    standing = .retired(stamp)
                case 8:
                    standing = .rolledBack(
                        seq: try int(in: 0...Limits.counter), verified: try int(in: 0...Limits.counter))
                default: throw CacheCodec.Damaged()
                }
                speakers.devices[device] = standing
                if try bool() {
                    // Checked where it is used: a key that is not one verifies nothing.
                    let key = try string()
                    guard key.utf8.count == 2 * Ed25519.publicKeyLength else { throw CacheCodec.Damaged() }
                    speakers.keys[device] = key
                }
            }
            all[speakers.member] = speakers
        }
        return all
    }
}

extension Store {
    /// A log of a device that counts whose new version does not verify: the last verified
    /// state stands, and this says why the new one was not believed.
    public struct Rejected: Equatable, Sendable {
        public var member: String
        public var device: String
        /// Why the new version is not believed: its signature, or fewer records than verified.
        public var standing: Speakers.Standing
    }
}
