/// Which of a member's devices speak for them: the rule that decides whose records count.
///
/// Anyone who can write the circle folder can put a log in any member's folder. A log counts
/// for its member only when it is signed by a device the member's devices vouch for:
/// - **roots** are the devices whose key the reader pinned for that member (from their invite or
///   enrollment code, or seen before), and the reader's own device for its own member;
/// - a device enrolled (with its key) by a device that speaks for the member speaks for them;
///   so does one whose recovery certificate the member's recovery key signed;
/// - a device revoked by one that speaks for the member does not, nor does what only it
///   enrolled;
/// - a log whose signature does not verify counts for nothing.
/// With no pin at all (links made before records were signed) the reader takes, on first
/// sight, the one group of signed devices that vouch for each other and for every other
/// signed device there; when the signed devices do not agree, none is believed. A member none
/// of whose devices has ever signed (an older lifesignal) is believed as before, and so is a
/// device their signing devices enrolled before it signed — until its first signed file.
public struct Speakers: Equatable, Sendable {
    /// What one log in a member's folder is, as far as this reader can tell.
    public enum Standing: Equatable, Sendable {
        /// Signed by a device that speaks for the member.
        case trusted
        /// Not signed, and believed: written by an older lifesignal on a device the member's
        /// devices know (or of a member that has never signed).
        case olderVersion
        /// Not signed, where the member's devices sign: counts for nothing.
        case notSigned
        /// Its signature does not verify: counts for nothing.
        case badSignature(String)
        /// Signed by a key no device of the member enrolled: counts for nothing.
        case notEnrolled
        /// Revoked by another device of the member (when, by whom), and written to since:
        /// counts for nothing.
        case revoked(Stamp)
        /// Revoked, but it has written nothing since the revoking device last saw it: what it
        /// wrote before still counts (a lost phone's last check-in is not taken back).
        case retired(Stamp)
        /// Signed, but the member's signed devices do not vouch for each other and nothing was
        /// pinned to tell which are theirs: nothing signed counts.
        case undecided
        /// Signed by its device, but holding fewer records (`seq`) than the version this reader
        /// verified before (`verified`): an older copy put back by a sync or the git host. It does
        /// not count; what was verified stands where the reader still has it.
        case rolledBack(seq: Int64, verified: Int64)

        public var counts: Bool {
            switch self {
            case .trusted, .olderVersion, .retired: return true
            case .notSigned, .badSignature, .notEnrolled, .revoked, .undecided, .rolledBack: return false
            }
        }
    }

    public var member: String
    /// Every device with a log in the member's folder.
    public var devices: [String: Standing] = [:]
    /// The public key of every signed device that counts (a retired one's too: its files are
    /// still checked against it).
    public var keys: [String: String] = [:]
    /// True when the roots were taken on first sight: the reader had no pin for this member.
    public var firstSight = false
    /// Devices not enrolled that ask to be, with an enrollment code's proof: by device.
    public var requests: [String: EnrollmentRequest] = [:]
    /// Sets of devices that each claim the member and do not vouch for each other, with no code
    /// to tell which is theirs (see Contests.swift).
    public var contest: Contest?
    /// Every revocation of a device found (in the rosters, or seen before): for the reader to
    /// remember.
    public var revocations: [String: TrustSeen.Revocation] = [:]
    /// Devices that revoked each other, each before it saw the other's revocation: both stand
    /// revoked until the member's recovery code settles it (see `RevocationStatement.settle`).
    public var disputed: Set<String> = []
    /// The member's current recovery key, as the devices that count state it (or stated it
    /// before they were revoked): the one a recovery code must match.
    public var recoveryKey: String?
    /// For the reader's own member: signed devices not enrolled here whose rosters vouch for
    /// the reader's device (its other devices that upgraded first; see `TrustUpkeep`).
    public var vouchingForMe: [String: String] = [:]

    /// A device's request to be enrolled (see `Enrollment`).
    public struct EnrollmentRequest: Equatable, Sendable {
        public var key: String
        public var proof: String
    }

    public init(member: String) { self.member = member }

    /// The devices whose records count.
    public var believed: Set<String> { Set(devices.compactMap { $0.value.counts ? $0.key : nil }) }

    /// The fingerprints of the devices that count, for the reader to pin.
    public var fingerprints: Set<String> {
        Set(keys.compactMap { devices[$0.key] == .trusted ? KeyText.fingerprint(ofKey: $0.value) : nil })
    }

    /// The devices that count for nothing, by device.
    public var setAside: [(device: String, standing: Standing)] {
        devices.filter { !$0.value.counts }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Whether anything here is to be said: a device that counts for nothing, or one that does
    /// not sign yet.
    public var hasDoubts: Bool { devices.values.contains { !$0.counts || $0 == .olderVersion } }

    /// The devices believed though they do not sign yet.
    public var olderVersions: [String] { devices.filter { $0.value == .olderVersion }.map(\.key).sorted() }
}

extension Speakers {
    /// Decides which of `member`'s logs count for this reader, which pinned `pins` for them and
    /// verified `seen` of them before. `me` is the reader's own device when `member` is the
    /// reader's own member.
    public static func resolve(
        member: String, voices given: [DeviceVoice], pins: Set<String>, me: String?, seen: TrustSeen = TrustSeen(),
        fromCode: Set<String> = []
    ) -> Speakers {
        var speakers = Speakers(member: member)
        let voices = speakers.screen(given, seen: seen, me: me, fromCode: fromCode)
        var byDevice: [String: DeviceVoice] = [:]
        for voice in voices { byDevice[voice.device] = voice }
        let signed = voices.filter(\.isSigned)
        var roots = Set(
            signed.filter { $0.key.flatMap(KeyText.fingerprint(ofKey:)).map(pins.contains) ?? false }.map(\.device))
        if let me, byDevice[me]?.isSigned ?? false { roots.insert(me) }
        if roots.isEmpty {
            if !pins.isEmpty || signed.isEmpty {
                // Pinned devices that are gone leave nobody; a member that never signed is
                // believed as before.
                for voice in voices {
                    speakers.devices[voice.device] = standing(
                        of: voice, neverSigned: pins.isEmpty && signed.isEmpty, revoked: nil)
                }
                speakers.keepOwn(me, signed: me.flatMap { byDevice[$0]?.isSigned } ?? false)
                return speakers
            }
            roots = speakers.firstSightRoots(signed, in: byDevice, member: member)
            speakers.firstSight = true
        } else if me == nil {
            roots = speakers.settle(roots, fromCode: fromCode, in: byDevice, member: member)
        }
        if roots.isEmpty {
            // Candidates none of which is taken: nothing signed counts, and it is said.
            for voice in voices { speakers.devices[voice.device] = voice.isSigned ? .undecided : .notSigned }
            return speakers
        }
        // Every revocation stated by a device reached before revocations are applied, or seen
        // before by this reader…
        let (before, revoked, disputed) = revocations(from: roots, in: byDevice, member: member, seen: seen)
        speakers.revocations = revoked
        speakers.disputed = disputed
        let stamps = revoked.mapValues(\.stamp)
        // …then who is reached without passing through a revoked device.
        var reached = reach(
            from: roots.filter { revoked[$0] == nil }, in: byDevice, member: member, revoked: stamps,
            retired: revoked.mapValues(\.through))
        for (device, revocation) in revoked where before.contains(device) && device != me {
            // Silent since it was revoked: what it wrote before still counts, and it vouches for
            // nobody. (The reader's own device is not silent: it is running.)
            if let voice = byDevice[device], let last = revocation.through, voice.lastSeq <= last {
                reached[device] = .retired(revocation.stamp)
            }
        }
        speakers.place(voices, reached: reached, revoked: stamps)
        speakers.keepOwn(me, signed: me.flatMap { byDevice[$0]?.isSigned } ?? false)
        speakers.noteVouchers(for: me, in: byDevice)
        speakers.recoveryKey =
            RecoveryChain(
                reached: reached.keys.filter { revoked[$0] == nil }, retired: revoked.mapValues(\.through), in: byDevice
            ).current
        return speakers
    }

    /// Each voice's standing: as reached, or why not (a set of a contest not counted is
    /// undecided); the keys of those that count, and the requests to be enrolled.
    private mutating func place(_ voices: [DeviceVoice], reached: [String: Standing], revoked: [String: Stamp]) {
        let untaken = Set(contest?.untaken ?? [])
        for voice in voices {
            devices[voice.device] =
                untaken.contains(voice.device)
                ? .undecided
                : reached[voice.device] ?? Self.standing(of: voice, neverSigned: false, revoked: revoked[voice.device])
            if devices[voice.device]?.counts ?? false, voice.isSigned, let key = voice.key {
                keys[voice.device] = key
            }
            if devices[voice.device] == .notEnrolled, let key = voice.key,
                let own = voice.roster[voice.device], own.key == key, let proof = own.proof
            {
                requests[voice.device] = EnrollmentRequest(key: key, proof: proof)
            }
        }
    }

    /// The voices this reader may weigh: an older copy of a device's log than it verified, or
    /// one signed by another key than the one it verified (or not at all), is nothing.
    /// A key the reader took from the member's own code (`fromCode`) is weighed whatever was
    /// verified of that device before: the code settles which key is theirs.
    private mutating func screen(_ given: [DeviceVoice], seen: TrustSeen, me: String?, fromCode: Set<String>)
        -> [DeviceVoice]
    {
        var voices: [DeviceVoice] = []
        for voice in given {
            let scanned = voice.key.flatMap(KeyText.fingerprint(ofKey:)).map(fromCode.contains) ?? false
            guard let known = seen.devices[voice.device], voice.device != me, !(scanned && voice.key != known.key)
            else {
                voices.append(voice)
                continue
            }
            if voice.key == nil {
                devices[voice.device] = .notSigned
            } else if voice.key != known.key {
                devices[voice.device] =
                    voice.signature == .valid
                    ? .notEnrolled : Self.standing(of: voice, neverSigned: false, revoked: nil)
            } else if voice.signature == .valid, voice.lastSeq < known.seq {
                devices[voice.device] = .rolledBack(seq: voice.lastSeq, verified: known.seq)
            } else {
                voices.append(voice)
            }
        }
        return voices
    }

    /// For the reader's own member: the signed devices not enrolled here that vouch for `me`.
    private mutating func noteVouchers(for me: String?, in voices: [String: DeviceVoice]) {
        guard let me, let mine = voices[me] else { return }
        for voice in voices.values where voice.device != me && devices[voice.device] == .notEnrolled {
            guard let key = voice.key, let entry = voice.roster[me], entry.key == nil || entry.key == mine.key
            else { continue }
            vouchingForMe[voice.device] = key
        }
    }

    /// The devices reached from `roots` before revocations apply (or revoked as this reader saw
    /// before), every revocation that stands, and the devices whose revocations of each other
    /// could not be settled. A revocation stands unless its writer was itself revoked by one
    /// that stands and that had not seen it: what a revoked device writes after the last of
    /// its records the revoking device saw counts for nothing, revocations included (a stolen
    /// laptop, already revoked, cannot revoke the device that revoked it). Two devices that
    /// each revoked the other before seeing the other's revocation both stand revoked, which
    /// the member's recovery code settles: neither can silence the other alone.
    private static func revocations(
        from roots: Set<String>, in voices: [String: DeviceVoice], member: String, seen: TrustSeen
    ) -> (before: Set<String>, revoked: [String: TrustSeen.Revocation], disputed: Set<String>) {
        var statements: [RevocationStatement] = []
        for voice in voices.values {
            guard let fingerprint = voice.key.flatMap(KeyText.fingerprint(ofKey:)),
                let known = seen.revoked[fingerprint]
            else { continue }
            statements.append(RevocationStatement(target: voice.device, stamp: known.stamp, through: known.through))
        }
        // (One key a device, so one remembered revocation a device.)
        var remembered: [String: Stamp] = [:]
        var retired: [String: Int64?] = [:]
        for statement in statements {
            remembered[statement.target] = statement.stamp
            retired[statement.target] = statement.through
        }
        let before = reach(from: roots, in: voices, member: member, revoked: remembered, retired: retired)
        for device in before.keys {
            for (other, entry) in voices[device]?.roster ?? [:] where other != device {
                guard let stamp = entry.revoked, entry.key == nil || entry.key == voices[other]?.key else { continue }
                statements.append(RevocationStatement(target: other, stamp: stamp, through: entry.revokedThrough))
            }
        }
        let (standing, disputed) = RevocationStatement.settle(statements)
        var revoked: [String: TrustSeen.Revocation] = [:]
        for statement in standing where revoked[statement.target].map({ statement.stamp < $0.stamp }) ?? true {
            revoked[statement.target] = TrustSeen.Revocation(stamp: statement.stamp, through: statement.through)
        }
        return (Set(before.keys).union(remembered.keys), revoked, disputed)
    }

    /// The reader's own device counts for itself unless another of its member's devices
    /// revoked it (which the reader must hear).
    private mutating func keepOwn(_ me: String?, signed: Bool) {
        guard let me, devices[me] != nil else { return }
        switch devices[me] {
        case .revoked?, .retired?: return
        case .trusted?, .olderVersion?, .notSigned?, .badSignature?, .notEnrolled?, .undecided?, .rolledBack?, nil:
            break
        }
        devices[me] = signed ? .trusted : .olderVersion
    }

    /// The standing of a log no trusted device reached.
    private static func standing(of voice: DeviceVoice, neverSigned: Bool, revoked: Stamp?) -> Standing {
        if case .invalid(let problem) = voice.signature { return .badSignature(problem) }
        if let revoked { return .revoked(revoked) }
        if voice.isSigned { return .notEnrolled }
        return neverSigned ? .olderVersion : .notSigned
    }

    /// The devices reached from `roots` through enrollments (and recovery certificates), with
    /// their standing, passing through none in `revoked`. `retired`: revoked devices whose
    /// records up to a point (nil: none) still count, for the recovery key they stated.
    ///
    /// A device the member's recovery key enrolled is a root of its own, when its certificate
    /// was made while that key was the member's current one (`RecoveryChain`): a code replaced
    /// by `circle recovery` enrolls nothing new. A device taken on a certificate that a key
    /// stated further on shows was made too late is left out, and the rest reached again.
    static func reach(
        from roots: Set<String>, in voices: [String: DeviceVoice], member: String, revoked: [String: Stamp],
        retired: [String: Int64?] = [:]
    ) -> [String: Standing] {
        // (Nearly every member's devices were enrolled by each other: no certificate to weigh.)
        guard voices.values.contains(where: { $0.roster[$0.device]?.certificate != nil }) else {
            return reachOnce(
                from: roots, in: voices, member: member, revoked: revoked, retired: [:], excluded: [], recovering: false
            ).reached
        }
        var excluded: Set<String> = []
        while true {
            let (reached, recovered) = reachOnce(
                from: roots, in: voices, member: member, revoked: revoked, retired: retired, excluded: excluded,
                recovering: true)
            let chain = RecoveryChain(reached: reached.keys, retired: retired, in: voices)
            let late = recovered.filter { !chain.certifies($0, member: member) }
            guard !late.isEmpty else { return reached }
            excluded.formUnion(late.map(\.device))
        }
    }

    private static func reachOnce(
        from roots: Set<String>, in voices: [String: DeviceVoice], member: String, revoked: [String: Stamp],
        retired: [String: Int64?], excluded: Set<String>, recovering: Bool
    ) -> (reached: [String: Standing], recovered: [DeviceVoice]) {
        var reached: [String: Standing] = [:]
        var recoveredAll: [DeviceVoice] = []
        var queue: [String] = []
        for root in roots.sorted() {
            guard let voice = voices[root] else { continue }
            reached[root] = voice.isSigned ? .trusted : .olderVersion
            queue.append(root)
        }
        while true {
            while let device = queue.popLast() {
                for (other, entry) in voices[device]?.roster ?? [:]
                where other != device && reached[other] == nil && revoked[other] == nil {
                    guard let target = voices[other] else { continue }
                    switch target.signature {
                    case .valid where entry.key == nil || entry.key == target.key:
                        reached[other] = .trusted
                    case .unsigned where entry.key == nil:
                        reached[other] = .olderVersion
                    case .valid, .unsigned, .invalid:
                        continue
                    }
                    queue.append(other)
                }
            }
            guard recovering else { return (reached, []) }
            let chain = RecoveryChain(reached: reached.keys, retired: retired, in: voices)
            let recovered = voices.values.filter { voice in
                reached[voice.device] == nil && revoked[voice.device] == nil && !excluded.contains(voice.device)
                    && chain.certifies(voice, member: member)
            }
            guard !recovered.isEmpty else { return (reached, recoveredAll) }
            for voice in recovered.sorted(by: { $0.device < $1.device }) {
                reached[voice.device] = .trusted
                queue.append(voice.device)
                recoveredAll.append(voice)
            }
        }
    }
}
