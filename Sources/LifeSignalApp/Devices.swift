import LifeSignalCore
import LifeSignalStore

/// Who speaks for whom (see `Speakers`): the doubts a run tells about records that count for
/// nothing, what every write records to keep that current (`TrustUpkeep`), and the device use
/// cases — an enrollment code for a new device, the list of devices, revoking one, a new
/// recovery code.
extension App {
    /// How long an enrollment code can be used.
    public static let enrollmentValidity = TimeSpan.hours(1)

    /// The doubts about whose records count, for my member and every member linked with me
    /// (other members' folders are theirs to look after). `accepted`: devices this run enrolled.
    /// Of the logs in one folder that count for nothing, a few are named and the rest counted
    /// (whoever can write the folder can make thousands).
    func trustWarnings(
        _ speakers: [String: Speakers], rejected: [Store.Rejected], circle: CircleState, store: Store,
        accepted: [String] = []
    ) -> [Warning] {
        let me = store.identity.member
        let doubts = speakers.filter { $0.value.hasDoubts }
        guard !doubts.isEmpty || !rejected.isEmpty else { return [] }
        let linked = Set(circle.linkedMembers(of: me))
        // The code this device made is read only when a device of mine asks to be enrolled.
        let asking = !(speakers[me]?.requests.isEmpty ?? true)
        let pending = asking ? store.pendingEnrollment().flatMap { $0.expires > now ? $0 : nil } : nil
        var warnings: [Warning] = []
        for (member, found) in doubts.sorted(by: { $0.key < $1.key }) where member == me || linked.contains(member) {
            let name = circle.members[member]?.name?.value ?? member
            if let dispute = Self.dispute(found, name: member == me ? nil : name, device: store.identity.device) {
                warnings.append(dispute)
            }
            if let contest = found.contest {
                warnings.append(.devicesContested(name: name, groups: contest.groups, taken: contest.taken))
            }
            let said = found.disputed.union(found.contest?.groups.flatMap { $0 } ?? [])
            var setAside: [Warning] = []
            for (device, standing) in found.setAside where !accepted.contains(device) && !said.contains(device) {
                if member == me, device == store.identity.device {
                    if case .revoked(let stamp) = standing {
                        warnings.append(.thisDeviceRevoked(by: stamp.device, at: stamp.at))
                    }
                    continue
                }
                let waiting =
                    member == me
                    && (pending.map { pending in
                        found.requests[device].map {
                            Enrollment.proof(secret: pending.secret, member: me, device: device, key: $0.key)
                                == $0.proof
                        } ?? false
                    } ?? false)
                if waiting {
                    let path = store.logPath(member: member, device: device)
                    warnings.append(.deviceNotYours(device: device, path: path, standing: standing, waiting: true))
                } else {
                    setAside.append(Self.setAside(member, device, standing, kept: false, circle: circle, store: store))
                }
            }
            warnings += setAside.prefix(Self.namedLeftOut)
            if setAside.count > Self.namedLeftOut {
                warnings.append(
                    .moreNotBelieved(name: member == me ? nil : name, count: setAside.count - Self.namedLeftOut))
            }
            for device in found.olderVersions where !(member == me && device == store.identity.device) {
                warnings.append(.olderVersion(name: member == me ? nil : name, device: device))
            }
        }
        for file in rejected where file.member == me || linked.contains(file.member) {
            warnings.append(
                Self.setAside(file.member, file.device, file.standing, kept: true, circle: circle, store: store))
        }
        return warnings
    }

    /// A log set aside (or, with `kept`, whose last verified version stands).
    static func setAside(
        _ member: String, _ device: String, _ standing: Speakers.Standing, kept: Bool, circle: CircleState, store: Store
    ) -> Warning {
        let path = store.logPath(member: member, device: device)
        let name = member == store.identity.member ? nil : circle.members[member]?.name?.value ?? member
        if case .rolledBack(let seq, let verified) = standing {
            return .recordsRolledBack(name: name, device: device, path: path, seq: seq, verified: verified, kept: kept)
        }
        guard let name else { return .deviceNotYours(device: device, path: path, standing: standing, waiting: false) }
        return .recordsNotSigned(name: name, device: device, path: path, standing: standing, kept: kept)
    }

    /// Devices of a member that revoked each other (`name` nil: of mine; `device`: this one).
    static func dispute(_ found: Speakers, name: String?, device: String) -> Warning? {
        guard !found.disputed.isEmpty else { return nil }
        return .devicesRevokedEachOther(
            name: name, devices: found.disputed.sorted(), thisDevice: name == nil && found.disputed.contains(device))
    }

    /// What a write did to keep trust current (see `keepTrust`).
    struct TrustKept {
        /// The device it enrolled, with the code this device made.
        var accepted: [String] = []
        /// More than one device used that code: none was enrolled, and the code is forgotten.
        var usedTwice: [String] = []
        /// The members whose keys it took on first sight: by id, and by name.
        var firstSightIDs: [String] = []
        var firstSight: [String] = []
        var forgetCode: Bool { !accepted.isEmpty || !usedTwice.isEmpty }

        /// A member whose key the write took from their code (`pins`, as it left them) was not
        /// taken on first sight.
        mutating func forgetScanned(_ pins: [String: [String: Pin]]) {
            let named = zip(firstSightIDs, firstSight).filter { id, _ in
                !(pins[id]?.values.contains { $0.fromCode } ?? false)
            }
            (firstSightIDs, firstSight) = (named.map(\.0), named.map(\.1))
        }
    }

    /// What a write records to keep trust current, before the use case runs: the enrollment it
    /// accepts (the one device of mine that proves it holds the code this device made — when
    /// two did, someone else saw the code, and neither is), the pins and keys `TrustUpkeep`
    /// asks for.
    static func keepTrust(_ transaction: inout Transaction, circle: CircleState, now: Timestamp) -> TrustKept {
        let me = transaction.member
        var kept = TrustKept()
        if let pending = transaction.store.pendingEnrollment(), pending.expires > now {
            let using = (transaction.speakers[me]?.requests ?? [:]).filter { device, request in
                Enrollment.proof(secret: pending.secret, member: me, device: device, key: request.key) == request.proof
            }
            if using.count == 1, let (device, request) = using.first {
                transaction.record(DeviceEnrolled(device: device, key: request.key), at: now)
                kept.accepted = [device]
            } else if using.count > 1 {
                kept.usedTwice = using.keys.sorted()
            }
        }
        let mine = transaction.memberState
        let firstSight = TrustUpkeep.firstSight(me: me, mine: mine, circle: circle, speakers: transaction.speakers)
        let records = TrustUpkeep.records(
            me: me, device: transaction.store.identity.device, mine: mine, circle: circle,
            speakers: transaction.speakers, firstSigned: transaction.log.key == nil && !transaction.createdProfile)
        for record in records { transaction.record(record, at: now) }
        kept.firstSightIDs = firstSight
        kept.firstSight = firstSight.map { circle.members[$0]?.name?.value ?? $0 }
        return kept
    }

    /// A one-time code that makes a new device of mine (`circle enroll`), valid for
    /// `enrollmentValidity`; this device accepts the device that uses it on its next write.
    public struct EnrollmentCode: Sendable {
        public var code: String
        public var expires: Timestamp
    }

    public func enrollmentCode() throws(AppError) -> EnrollmentCode {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<Enrollment.secretLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let pending = PendingEnrollment(secret: secret, expires: now + Self.enrollmentValidity)
        return try write { transaction throws(AppError) in
            let store = transaction.store
            try AppError.wrap { () throws(StoreError) in try store.savePendingEnrollment(pending) }
            let code = PassedCode.enrollment(
                member: transaction.member, enroller: transaction.signer.fingerprint, secret: secret)
            return EnrollmentCode(code: code.text, expires: pending.expires)
        }
    }

    /// A new recovery code (`circle recovery`): it replaces the one before, which no longer
    /// enrolls a device. Shown once; nothing keeps it.
    public func newRecoveryCode() throws(AppError) -> String {
        var generator = SystemRandomNumberGenerator()
        let key = SigningKey.generate(using: &generator)
        let now = self.now
        return try write { transaction throws(AppError) in
            transaction.record(RecoveryKeySet(key: key.publicKeyText), at: now)
            return PassedCode.recovery(member: transaction.member, seed: key.seed).text
        }
    }

    /// Ends a device of mine (`circle revoke DEVICE`): what it records from now on counts for
    /// nobody. `text` is its id or the start of it. Returns the device's id.
    public func revoke(_ text: String) throws(AppError) -> String {
        let now = self.now
        return try write { transaction throws(AppError) in
            let me = transaction.member
            let found = transaction.speakers[me]
            let roster = transaction.memberState.devices
            let known = Set(roster.keys).union(found?.devices.keys ?? [:].keys)
            let matches = known.filter { $0 == text || (text.count >= 4 && $0.hasPrefix(text.lowercased())) }
            guard matches.count == 1, let device = matches.first else {
                throw .refused(.devices(.unknownDevice(text, known: known.sorted())))
            }
            if device == transaction.store.identity.device { throw .refused(.devices(.cannotRevokeThisDevice)) }
            // A revoked device speaks for nobody: what it would record here counts for nothing.
            switch found?.devices[transaction.store.identity.device] {
            case .revoked(let stamp)?, .retired(let stamp)?:
                throw .refused(.devices(.thisDeviceIsRevoked(by: stamp.device, at: stamp.at)))
            case .trusted?, .olderVersion?, .notSigned?, .badSignature?, .notEnrolled?, .undecided?, .rolledBack?, nil:
                break
            }
            if let revoked = roster[device]?.revoked {
                throw .refused(.devices(.alreadyRevoked(device, at: revoked.at)))
            }
            // What it wrote until now, as this device sees it, still counts while it stays silent;
            // but not its revocation of a device it is in a dispute with (see `Speakers.disputed`):
            // the device that settles a dispute takes the other side.
            let log = try? transaction.store.readLog(member: me, device: device)
            var through = log?.lastSeq
            if found?.disputed.contains(device) ?? false, let statements = log?.memberState.devices {
                for (other, entry) in statements where other != device && found?.disputed.contains(other) ?? false {
                    if let stamp = entry.revoked, stamp.device == device { through = min(through ?? 0, stamp.seq - 1) }
                }
            }
            transaction.record(
                DeviceRevoked(device: device, key: found?.keys[device] ?? roster[device]?.key, through: through),
                at: now)
            return device
        }
    }

    /// One member's devices as this device sees them (`circle devices`).
    public struct MemberDevices: Sendable {
        public var member: String
        public var name: String
        public var isMe: Bool
        public var devices: [DeviceView]
        /// This device took their keys on first sight (their code predates signing).
        public var firstSight: Bool
    }

    public struct DeviceView: Sendable {
        public var id: String
        public var thisDevice: Bool
        public var standing: Speakers.Standing
        public var fingerprint: String?
        /// How it came to speak for its member (nil: nothing here says).
        public var origin: DeviceEntry.Origin?
    }

    /// My devices and those of every member linked with me.
    public func devices() throws(AppError) -> [MemberDevices] {
        let (store, snapshot) = try read()
        let me = store.identity.member
        let circle = snapshot.state
        let members = [me] + circle.linkedMembers(of: me)
        return members.compactMap { member in
            guard let found = snapshot.speakers[member] else { return nil }
            let roster = circle.members[member]?.devices ?? [:]
            let views = found.devices.keys.sorted().map { device in
                let entry = roster[device]
                return DeviceView(
                    id: device, thisDevice: member == me && device == store.identity.device,
                    standing: found.devices[device] ?? .notEnrolled,
                    fingerprint: (found.keys[device] ?? entry?.key).flatMap(KeyText.fingerprint(ofKey:)),
                    origin: DeviceEntry.origin(of: device, in: roster))
            }
            return MemberDevices(
                member: member, name: circle.members[member]?.name?.value ?? member, isMe: member == me,
                devices: views, firstSight: found.firstSight)
        }
    }
}
