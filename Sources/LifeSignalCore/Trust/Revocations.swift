/// The two rules behind a member's revocations and recovery code, for `Speakers`: which
/// revocations stand when devices revoke each other, and which recovery key enrolls.

/// One device's statement that another no longer speaks for the member: `stamp` is the
/// revoking device's record (its device and place in its log), `through` the last record of
/// the revoked device it had seen (nil: none counts).
struct RevocationStatement: Equatable, Sendable {
    var target: String
    var stamp: Stamp
    var through: Int64?

    /// Whether this revocation takes `other` away: `other` was written by the device this one
    /// revokes, after the last of its records this one left counting.
    func voids(_ other: RevocationStatement) -> Bool {
        target == other.stamp.device && (through.map { $0 < other.stamp.seq } ?? true)
    }

    /// The statements that stand, and the devices whose revocations could not be settled.
    ///
    /// A statement stands when every statement that would void it is itself void; it is void
    /// when one that stands voids it (the grounded reading: decided from the statements no one
    /// voids, outwards). What is left undecided is a dispute — two devices that revoked each
    /// other, each before it saw the other's revocation — and stands too, on both sides:
    /// neither device alone can take the member's voice from the other, and the member's
    /// recovery code settles it (a device it enrolls is revoked by nobody).
    static func settle(_ statements: [RevocationStatement]) -> (standing: [RevocationStatement], disputed: Set<String>)
    {
        var voiders: [String: [Int]] = [:]
        for (index, statement) in statements.enumerated() { voiders[statement.target, default: []].append(index) }
        // nil: undecided; true: stands; false: void.
        var decided = [Bool?](repeating: nil, count: statements.count)
        var changed = true
        while changed {
            changed = false
            for index in statements.indices where decided[index] == nil {
                let against = (voiders[statements[index].stamp.device] ?? []).filter {
                    statements[$0].voids(statements[index])
                }
                if against.contains(where: { decided[$0] == true }) {
                    decided[index] = false
                    changed = true
                } else if against.allSatisfy({ decided[$0] == false }) {
                    decided[index] = true
                    changed = true
                }
            }
        }
        var disputed: Set<String> = []
        for index in statements.indices where decided[index] == nil {
            disputed.insert(statements[index].target)
            disputed.insert(statements[index].stamp.device)
        }
        return (statements.indices.filter { decided[$0] != false }.map { statements[$0] }, disputed)
    }
}

/// The member's recovery keys in the order their devices set them: a key enrolls a device
/// (with a certificate it signed) only while it was the current one, that is when the
/// certificate was made before a device of the member set another key. A code replaced by
/// `circle recovery`, on any device, enrolls nothing new; a device it enrolled before stays.
struct RecoveryChain {
    /// Each key, when it was first set and when another key replaced it (nil: the current one).
    private var spans: [String: (from: Stamp, until: Stamp?)] = [:]

    /// The keys set by the devices `reached` (every record of theirs counts) and by the
    /// revoked devices in `retired` (their records up to the point left counting).
    init<Devices: Sequence<String>>(reached: Devices, retired: [String: Int64?], in voices: [String: DeviceVoice]) {
        var set: [(key: String, stamp: Stamp)] = []
        func add(_ voice: DeviceVoice, upTo limit: Int64?) {
            guard let key = voice.recovery else { return }
            let stamp = voice.recoverySet ?? Stamp(at: Timestamp(seconds: 0), device: voice.device, seq: 0)
            if let limit, stamp.seq > limit { return }
            set.append((key, stamp))
        }
        for device in reached { if let voice = voices[device] { add(voice, upTo: nil) } }
        for (device, through) in retired {
            // A revoked device that left nothing counting states nothing.
            guard let through, let voice = voices[device] else { continue }
            add(voice, upTo: through)
        }
        for (key, stamp) in set where spans[key].map({ stamp < $0.from }) ?? true {
            spans[key] = (stamp, nil)
        }
        for (key, span) in spans {
            let replaced = set.filter { $0.key != key && span.from < $0.stamp }.map(\.stamp).min()
            spans[key] = (span.from, replaced)
        }
    }

    /// The key set last (nil: none).
    var current: String? { spans.filter { $0.value.until == nil }.max { $0.value.from < $1.value.from }?.key }

    /// Whether `voice`'s device holds a certificate from a recovery key that was current when
    /// the certificate was recorded.
    func certifies(_ voice: DeviceVoice, member: String) -> Bool {
        guard voice.isSigned, let key = voice.key, let own = voice.roster[voice.device],
            let certificate = own.certificate
        else { return false }
        return spans.contains { recoveryKey, span in
            (span.until.map { own.enrolled < $0 } ?? true)
                && SignedStatement.isValidRecovery(
                    certificate: certificate, member: member, device: voice.device, key: key,
                    recoveryKey: recoveryKey)
        }
    }
}

extension Speakers {
    /// The member's current recovery key, as the devices that count from `pins` state it (the
    /// one set last, by a device that counts or before it was revoked; nil: none). What `init --member` checks a recovery code against: a code
    /// replaced since, on any of the member's devices, is not current.
    public static func currentRecoveryKey(member: String, voices: [DeviceVoice], pins: Set<String>) -> String? {
        resolve(member: member, voices: voices, pins: pins, me: nil).recoveryKey
    }
}
