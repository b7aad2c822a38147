import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Identity: which member and device a data directory is (`identity.json`, private to this
/// machine), reading it, and what a new profile starts with.

/// Which member and device this data directory is, and where its circle is. Private to this
/// machine: `identity.json` in the data directory, outside the circle.
public struct Identity: Equatable, Sendable {
    public static let schemaVersion: Int64 = 1
    public var member: String
    public var device: String
    /// The circle folder chosen with `init --circle`; nil means `<data directory>/circle`.
    public var circle: String?

    func encoded() -> [UInt8] {
        let json: JSON = .object(
            JSONObject([
                ("schemaVersion", .int(Self.schemaVersion)), ("member", .string(member)),
                ("device", .string(device)), ("circle", .optional(circle)),
            ]))
        return json.serializedBytes() + [0x0A]
    }

    static func decode(_ bytes: [UInt8], path: String, backup: String?) throws(StoreError) -> Identity {
        try Files.object(bytes, path: path, backup: backup, supported: schemaVersion) { o throws(JSONShapeError) in
            let member = try o.required("member")
            let device = try o.required("device")
            let identity = Identity(
                member: try member.string(), device: try device.string(), circle: try o.optional("circle")?.string())
            guard Identifier.isValid(identity.member) else { throw member.fail("is not a lifesignal id") }
            guard Identifier.isValid(identity.device) else { throw device.fail("is not a lifesignal id") }
            if let circle = identity.circle, !circle.hasPrefix("/") || circle.unicodeScalars.contains("\u{0}") {
                throw JSONShapeError(path: "circle", message: "must be an absolute path, without NUL characters")
            }
            return identity
        }
    }
}

/// What a profile created by the first writing command starts with.
public struct NewProfile: Sendable {
    public var name: String
    public var interval: TimeSpan
    public var reminder: TimeSpan?
    public var circle: String?
    /// Set when this directory becomes another device of an existing member of the circle:
    /// it then takes that member's id and records no profile of its own, only how it asks to
    /// be enrolled (`join`).
    public var joining: String?
    public var join: JoinProof?
    /// For a new member: the key of the recovery code shown once at set-up.
    public var recovery: SigningKey?

    public init(
        name: String, interval: TimeSpan, reminder: TimeSpan?, circle: String?, joining: String? = nil,
        join: JoinProof? = nil
    ) {
        self.name = name
        self.interval = interval
        self.reminder = reminder
        self.circle = circle
        self.joining = joining
        self.join = join
    }
}

/// How a new device of an existing member shows that it is one.
public enum JoinProof: Sendable {
    /// An enrollment code: its secret, and the key fingerprint of the device that made it (which
    /// accepts this device on its next write).
    case enrollment(secret: [UInt8], enroller: String)
    /// A recovery code's key, and the fingerprints of the member's devices that name it.
    case recovery(SigningKey, devices: [String])
}

extension Store {
    static func identityPath(_ dataDirectory: String) -> String { DataFile.identity.path(in: dataDirectory) }

    /// Whether `dataDirectory` has a profile (its identity file exists, readable or not).
    public static func hasProfile(_ dataDirectory: String) -> Bool { Posix.exists(identityPath(dataDirectory)) }

    /// Opens an existing data directory; `notInitialized` when nothing was ever recorded.
    public static func open(dataDirectory: String) throws(StoreError) -> Store {
        guard let identity = try readIdentity(dataDirectory) else {
            throw .notInitialized(dataDirectory: dataDirectory)
        }
        return Store(dataDirectory: dataDirectory, identity: identity)
    }

    /// nil when there is no identity and no backup of one (a first run); an error for a
    /// missing identity whose backup exists, since that is a damaged directory, not a new one.
    static func readIdentity(_ dataDirectory: String) throws(StoreError) -> Identity? {
        let path = identityPath(dataDirectory)
        let backup = path + ".bak"
        let bytes: [UInt8]
        do {
            switch try Posix.read(path) {
            case .contents(let b): bytes = b
            case .missing:
                if Posix.exists(backup) {
                    throw StoreError.damaged(
                        path: path, problem: "it is missing although its backup exists", backup: backup)
                }
                return nil
            }
        } catch let error as SystemError {
            if error.code == ENOTDIR {
                // A part of the data directory's path is a file: it cannot exist there at all.
                throw StoreError.cannotCreate(
                    path: dataDirectory, reason: "a part of that path is a file, not a directory")
            }
            throw error.asReadError(backup: Posix.exists(backup) ? backup : nil)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .io(path: path, operation: "read", reason: "\(error)")
        }
        return try Identity.decode(bytes, path: path, backup: Posix.exists(backup) ? backup : nil)
    }
}

extension Transaction {
    /// What a new profile records first: a new member's settings and the public key of its
    /// recovery code; a new device of an existing member, its request to be enrolled and the
    /// key it takes for its member's (the device that enrolls it, or those its recovery code's
    /// key is named by).
    mutating func start(_ profile: NewProfile, at now: Timestamp) {
        let me = member
        let device = store.identity.device
        let key = signer.publicKeyText
        switch profile.join {
        case .enrollment(let secret, let enroller)?:
            let proof = Enrollment.proof(secret: secret, member: me, device: device, key: key)
            record(DeviceEnrolled(device: device, key: key, proof: proof), at: now)
            record(KeyPinned(member: me, fingerprint: enroller), at: now)
        case .recovery(let recovery, let devices)?:
            let certificate = recovery.sign(SignedStatement.recovery(member: me, device: device, key: key))
            record(DeviceEnrolled(device: device, key: key, certificate: KeyText.hex(certificate)), at: now)
            for fingerprint in devices { record(KeyPinned(member: me, fingerprint: fingerprint), at: now) }
        case nil:
            guard profile.joining == nil else { return }
            var generator = SystemRandomNumberGenerator()
            record(NameSet(name: profile.name), at: now)
            record(IntervalSet(interval: profile.interval), at: now)
            record(ReminderSet(reminder: profile.reminder), at: now)
            record(CodeSet(code: Identifier.make(using: &generator)), at: now)
            if let recovery = profile.recovery { record(RecoveryKeySet(key: recovery.publicKeyText), at: now) }
        }
    }
}
