/// Which devices speak for a member, as the member's own devices state it: each device's log
/// lists the devices it enrolled (with their public keys) and those it revoked, and says the
/// public key of the member's recovery code. A member also pins the keys of the members they
/// are linked with. Who is believed is decided from these by `Speakers` (Speakers.swift).

/// One device of a member, as one of the member's devices recorded it.
public struct DeviceEntry: Equatable, Sendable {
    /// Its public key, as 64 hex digits; nil for a device enrolled before it signed (a device of
    /// an older lifesignal, taken as it is until its first signed file).
    public var key: String?
    /// When, and by which device, it was enrolled.
    public var enrolled: Stamp
    /// When, and by which device, it was revoked, and the last of its records the revoking
    /// device had seen then (they still count while it writes nothing more).
    public var revoked: Stamp?
    public var revokedThrough: Int64?
    /// For a device's entry about itself: the proof that it holds an enrollment code (see
    /// `Enrollment`), which the enrolling device checks.
    public var proof: String?
    /// For a device's entry about itself: its enrollment signed with the member's recovery key.
    public var certificate: String?

    /// Combines two statements about `device`: a key once known stays (the earliest stated
    /// wins), the earliest enrollment (a device's request to be enrolled only when no device
    /// enrolled it) and the earliest revocation are kept.
    mutating func merge(_ other: DeviceEntry, device: String) {
        if let theirs = other.key, key == nil || (theirs != key && other.enrolled < enrolled) { key = theirs }
        let requests = (isRequest(of: device), other.isRequest(of: device))
        if requests.0 == requests.1 ? other.enrolled < enrolled : requests.0 { enrolled = other.enrolled }
        if let theirs = other.revoked, revoked.map({ theirs < $0 }) ?? true {
            revoked = theirs
            revokedThrough = other.revokedThrough
        }
        proof = proof ?? other.proof
        certificate = certificate ?? other.certificate
    }

    /// Whether two statements about a device say the same of who speaks: the same key, the same
    /// revocation (when, and what it left counting).
    public func vouchesAlike(_ other: DeviceEntry) -> Bool {
        key == other.key && revoked == other.revoked && revokedThrough == other.revokedThrough
    }

    /// Whether this is `device`'s own request to be enrolled with an enrollment code.
    func isRequest(of device: String) -> Bool { enrolled.device == device && proof != nil }

    /// How the device came to speak for its member, as this entry tells.
    public func origin(of device: String) -> Origin {
        guard enrolled.device == device else { return .enrolled(by: enrolled.device, at: enrolled.at) }
        if certificate != nil { return .recoveryCode(at: enrolled.at) }
        return proof == nil ? .firstDevice : .waiting
    }

    /// How `device` came to speak for its member, in a member's merged roster: nil when no
    /// entry tells (the member's first device states none of itself). A device's vouch for the
    /// device that enrolled it (mutual vouching, see `Speakers`) is not how that one came:
    /// a device enrolled only by a device it had enrolled before has no origin of its own.
    public static func origin(of device: String, in roster: [String: DeviceEntry]) -> Origin? {
        guard let entry = roster[device] else { return nil }
        let origin = entry.origin(of: device)
        guard case .enrolled(let by, _) = origin, let theirs = roster[by], theirs.enrolled < entry.enrolled,
            case .enrolled(device, _) = theirs.origin(of: by)
        else { return origin }
        return nil
    }

    public enum Origin: Equatable, Sendable {
        /// The member's first device, set up with their profile.
        case firstDevice
        case enrolled(by: String, at: Timestamp)
        case recoveryCode(at: Timestamp)
        /// It asked to be enrolled; no device of the member did yet.
        case waiting
    }
}

/// A device of my member speaks for me: enrolled by me (or, an entry about the writing device
/// itself, its request to be enrolled, with a proof or a recovery certificate). `key` nil: a
/// device of an older lifesignal, known before it signed.
public struct DeviceEnrolled: EventBody {
    public static var typeName: String { "deviceEnrolled" }
    public var device = ""
    public var key: String?
    public var proof: String?
    public var certificate: String?

    public init() {}
    public init(device: String, key: String?, proof: String? = nil, certificate: String? = nil) {
        self.device = device
        self.key = key
        self.proof = proof
        self.certificate = certificate
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("device", &device)
        try c.publicKey("key", &key)
        try c.optionalString("proof", &proof, .omitted)
        try c.optionalString("certificate", &certificate, .omitted)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        let entry = DeviceEntry(key: key, enrolled: stamp, proof: proof, certificate: certificate)
        circle.update(member) { state in
            if var known = state.devices[device] {
                known.merge(entry, device: device)
                state.devices[device] = known
            } else {
                state.devices[device] = entry
            }
        }
    }
}

/// A device of my member no longer speaks for me: what it writes after its record `through`
/// (the last of its records I had seen) makes everything it wrote count for nothing.
public struct DeviceRevoked: EventBody {
    public static var typeName: String { "deviceRevoked" }
    public var device = ""
    public var key: String?
    public var through: Int64?

    public init() {}
    public init(device: String, key: String?, through: Int64?) {
        self.device = device
        self.key = key
        self.through = through
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("device", &device)
        try c.publicKey("key", &key)
        try c.optionalInt("through", &through, in: 0...Limits.counter, .omitted)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        let entry = DeviceEntry(key: key, enrolled: stamp, revoked: stamp, revokedThrough: through)
        circle.update(member) { state in
            if var known = state.devices[device] {
                if known.revoked.map({ stamp < $0 }) ?? true {
                    known.revoked = stamp
                    known.revokedThrough = through
                }
                state.devices[device] = known
            } else {
                state.devices[device] = entry
            }
        }
    }
}

/// The public key of my recovery code (a new code replaces the old).
public struct RecoveryKeySet: EventBody {
    public static var typeName: String { "recoveryKeySet" }
    public var key: String?

    public init() {}
    public init(key: String) { self.key = key }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) { try c.publicKey("key", &key) }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        guard let key else { return }
        circle.update(member) { $0.recovery.keepLatest(Stamped(key, stamp)) }
    }
}

/// I hold that the device with this key fingerprint speaks for `member`: from their invite or
/// enrollment code (`fromCode`), or seen enrolled by one that does, or taken on first sight.
public struct KeyPinned: EventBody {
    public static var typeName: String { "keyPinned" }
    public var member = ""
    public var fingerprint = ""
    public var fromCode = false

    public init() {}
    public init(member: String, fingerprint: String, fromCode: Bool = false) {
        self.member = member
        self.fingerprint = fingerprint
        self.fromCode = fromCode
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &member)
        try c.string("fingerprint", &fingerprint)
        try c.check(KeyText.isFingerprint(fingerprint), "fingerprint", "must be 32 lowercase hex digits")
        try c.pinSource(&fromCode)
    }

    public func fold(into circle: inout CircleState, member writer: String, stamp: Stamp) {
        let pin = Pin(stamp: stamp, fromCode: fromCode)
        circle.update(writer) { state in state.pins[member, default: [:]][fingerprint, default: pin].merge(pin) }
    }
}

/// One key a member pinned of another: when first, and whether it came from a code the member
/// was given (a code settles who is who; a key taken on first sight or seen enrolled does not).
public struct Pin: Equatable, Sendable {
    public var stamp: Stamp
    public var fromCode: Bool

    public init(stamp: Stamp, fromCode: Bool = false) {
        self.stamp = stamp
        self.fromCode = fromCode
    }

    /// The earliest pin of a key, from a code if any pin of it was.
    mutating func merge(_ other: Pin) {
        stamp = min(stamp, other.stamp)
        fromCode = fromCode || other.fromCode
    }
}

// MARK: - The roster and pins in a member's state (see StateSchema.swift)

struct DeviceEntryRecord: KeyedEntry {
    var key = ""
    var value = DeviceEntry(key: nil, enrolled: .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("device", &key)
        try c.publicKey("key", &value.key)
        try c.stamp(&value.enrolled)
        try c.stampRecord("revoked", &value.revoked)
        try c.optionalInt("revokedThrough", &value.revokedThrough, in: 0...Limits.counter, .omitted)
        try c.optionalString("proof", &value.proof, .omitted)
        try c.optionalString("certificate", &value.certificate, .omitted)
    }
}

/// One key fingerprint a member pinned of another; the state keeps them by member, then by
/// fingerprint.
struct PinEntry: NestedEntry {
    var outer = ""
    var inner = ""
    var value = Pin(stamp: .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &outer)
        try c.string("fingerprint", &inner)
        try c.check(KeyText.isFingerprint(inner), "fingerprint", "must be 32 lowercase hex digits")
        try c.stamp(&value.stamp)
        try c.pinSource(&value.fromCode)
    }
}

extension FieldCoder {
    /// Where a pin came from: `"from": "code"` for a code the member was given, left out
    /// otherwise (an older lifesignal reads the pin and leaves the field).
    mutating func pinSource(_ fromCode: inout Bool) throws(Failure) {
        var source: String? = fromCode ? "code" : nil
        try optionalString("from", &source, .omitted)
        try check(source == nil || source == "code", "from", "must be \"code\" or left out")
        fromCode = source != nil
    }

    /// A public key as 64 lowercase hex digits, null when there is none.
    mutating func publicKey(_ key: String, _ value: inout String?) throws(Failure) {
        try optionalString(key, &value, .null)
        try check(value.map(KeyText.isPublicKey) ?? true, key, "must be a public key (64 lowercase hex digits)")
    }
}

/// The statements a key signs beside the files: each starts with its own domain line, so that no
/// signature made for one purpose verifies for another (a log's head, a feed, an archive
/// segment, a recovery certificate).
public enum SignedStatement {
    /// What the recovery key signs to enroll a device: "this device speaks for this member".
    public static func recovery(member: String, device: String, key: String) -> [UInt8] {
        Array("lifesignal recovery certificate 1\n\(member)\n\(device)\n\(key)\n".utf8)
    }

    /// Whether `certificate` (hex) is the recovery key's signature enrolling `device` with `key`.
    public static func isValidRecovery(
        certificate: String, member: String, device: String, key: String, recoveryKey: String
    ) -> Bool {
        guard let signature = KeyText.bytes(certificate, count: Ed25519.signatureLength),
            let publicKey = KeyText.bytes(recoveryKey, count: Ed25519.publicKeyLength)
        else { return false }
        return Ed25519.verify(
            signature: signature, message: recovery(member: member, device: device, key: key), publicKey: publicKey)
    }
}

/// An enrollment code's secret and what a new device shows with it. The enrolling device keeps
/// the secret privately for a short time; the new device records `proof` in its log, binding the
/// secret to its member, device and key, so the proof cannot be moved to another device or key.
/// Nobody else can make a proof without the secret, and the secret is forgotten once used.
public enum Enrollment {
    public static let secretLength = 16

    public static func proof(secret: [UInt8], member: String, device: String, key: String) -> String {
        var hash = SHA512()
        hash.update(Array("lifesignal enrollment proof 1\n".utf8))
        hash.update(secret)
        hash.update(Array("\n\(member)\n\(device)\n\(key)\n".utf8))
        return KeyText.hex(hash.finalize().prefix(32))
    }
}
