import LifeSignalCore

/// This device's signing key: `device.key` in the data directory, 0600, never in the circle
/// and never shown. It is made with the profile (or, for a data directory of an older
/// lifesignal, on its first write after the upgrade) and signs every file this device
/// publishes. A key that is gone or changed once the device has signed is an error, never a
/// new key made in silence: records signed by a new key would count for nobody.
extension Store {
    var deviceKeyPath: String { DataFile.deviceKey.path(in: dataDirectory) }

    /// The fingerprint of this device's key (nil when it has none yet, or it cannot be read).
    public func deviceFingerprint() -> String? { (try? readDeviceKey())??.fingerprint }

    /// The key, or nil when this data directory has none yet.
    func readDeviceKey() throws(StoreError) -> SigningKey? {
        let path = deviceKeyPath
        var key = Posix.FileKey.missing
        guard case .contents(let bytes) = try readFile(path, key: &key) else { return nil }
        let root = try Files.parse(bytes, path: path, backup: nil, supported: 1)
        do throws(JSONShapeError) {
            let o = try JSONCursor(root).object()
            try Files.checkVersion(o)
            let seedCursor = try o.required("seed")
            guard let seed = KeyText.bytes(try seedCursor.string(), count: Ed25519.seedLength),
                let signing = SigningKey(seed: seed)
            else { throw seedCursor.fail("must be 64 lowercase hex digits") }
            return signing
        } catch {
            throw .deviceKey(path: path, problem: "is damaged (at \(error.path): \(error.message))")
        }
    }

    /// Why this device could not sign its next write, or nil: its key is missing although its
    /// records are signed, damaged, or not the key they name. Every write stops on it (see
    /// `signingKey`), a `notify deliver` too, so `status` and `doctor` say it before. Unless
    /// `thorough`, only a missing key is looked for: one `stat` when all is well.
    public func signingProblem(thorough: Bool) -> StoreError? {
        if !thorough, Posix.exists(deviceKeyPath) { return nil }
        var key = Posix.FileKey.missing
        // A log that cannot be read is said by whatever reads it.
        guard let own = try? readOwnLog(key: &key) else { return nil }
        do {
            _ = try signingKey(signedWith: own.log?.key, dryRun: true)
        } catch {
            return error
        }
        return nil
    }

    /// The key this write signs with: the one on disk, checked against what this device signed
    /// before (`signedWith`, the key its own log names); a new one when there is none and the
    /// device never signed.
    func signingKey(signedWith: String?, dryRun: Bool) throws(StoreError) -> SigningKey {
        let existing: SigningKey?
        do {
            existing = try readDeviceKey()
        } catch .damaged(_, let problem, _) {
            throw .deviceKey(path: deviceKeyPath, problem: "is damaged (\(problem))")
        }
        if let existing {
            if let signedWith, signedWith != existing.publicKeyText {
                throw .deviceKey(
                    path: deviceKeyPath,
                    problem:
                        "is not the key this device's records are signed with (they name \(KeyText.fingerprint(ofKey: signedWith) ?? signedWith), this file holds \(existing.fingerprint))"
                )
            }
            return existing
        }
        if signedWith != nil {
            throw .deviceKey(path: deviceKeyPath, problem: "is missing, although this device's records are signed")
        }
        var generator = SystemRandomNumberGenerator()
        let made = SigningKey.generate(using: &generator)
        if !dryRun {
            let json: JSON = .object(
                JSONObject([("schemaVersion", .int(1)), ("seed", .string(KeyText.hex(made.seed)))]))
            try Store.write(json.serializedBytes() + [0x0A], to: deviceKeyPath, backup: false, mode: 0o600)
        }
        return made
    }
}

/// An enrollment code this device made (`circle enroll`) and has not seen used: its secret and
/// until when it is valid, in `enrollment.json` (0600). It is forgotten once a device used it.
public struct PendingEnrollment: Equatable, Sendable {
    public var secret: [UInt8]
    public var expires: Timestamp

    public init(secret: [UInt8], expires: Timestamp) {
        self.secret = secret
        self.expires = expires
    }
}

extension Store {
    var pendingEnrollmentPath: String { DataFile.enrollment.path(in: dataDirectory) }

    /// Keeps `pending` as this device's one enrollment code (a new code replaces the last).
    public func savePendingEnrollment(_ pending: PendingEnrollment) throws(StoreError) {
        let json: JSON = .object(
            JSONObject([
                ("schemaVersion", .int(1)), ("secret", .string(KeyText.hex(pending.secret))),
                ("expires", .string(pending.expires.rfc3339)),
            ]))
        try Store.write(json.serializedBytes() + [0x0A], to: pendingEnrollmentPath, backup: false, mode: 0o600)
    }

    /// The enrollment code waiting to be used, if any (a damaged file is as good as none: a
    /// new code can be made).
    public func pendingEnrollment() -> PendingEnrollment? {
        guard case .contents(let bytes)? = try? Posix.read(pendingEnrollmentPath),
            let root = try? JSONParser.parse(bytes), case .object(let o) = root,
            case .string(let secret)? = o["secret"], case .string(let expires)? = o["expires"],
            let bytes = KeyText.bytes(secret, count: Enrollment.secretLength), let until = Timestamp(rfc3339: expires)
        else { return nil }
        return PendingEnrollment(secret: bytes, expires: until)
    }

    public func forgetPendingEnrollment() { Posix.remove(pendingEnrollmentPath) }
}
