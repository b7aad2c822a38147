/// The codes people pass between machines, as text: what each holds and how it is read back.
///
/// - An invite code (`lifesignal://CODE/FINGERPRINT`) links two members: CODE is the member's
///   current invite code, FINGERPRINT the key of the device that showed it, which the one who
///   adds it pins. Codes from before records were signed have no fingerprint.
/// - An enrollment code (`lifesignal://enroll/MEMBER/FINGERPRINT/SECRET`) makes a new device of
///   MEMBER: the device that showed it (FINGERPRINT) accepts a device that proves it holds SECRET,
///   once, within a short time.
/// - A recovery code (`lifesignal://recover/MEMBER/SEED`) makes a new device of MEMBER when all
///   of their devices are lost: SEED is the recovery key, shown once at set-up.
public enum PassedCode: Equatable, Sendable {
    case invite(code: String, fingerprint: String?)
    case enrollment(member: String, enroller: String, secret: [UInt8])
    case recovery(member: String, seed: [UInt8])

    /// What a person typed or pasted: any case, surrounding spaces, and (in the long secrets)
    /// spaces or dashes between groups of digits are forgiven. Nil when it is none of the codes.
    public init?(_ text: String) {
        var rest = text.trimmingWhitespace.lowercased()
        if rest.hasPrefix("lifesignal://") { rest.removeFirst("lifesignal://".count) }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "enroll":
            guard parts.count == 4, Identifier.isValid(parts[1]), KeyText.isFingerprint(parts[2]),
                let secret = KeyText.bytes(Self.digits(parts[3]), count: Enrollment.secretLength)
            else { return nil }
            self = .enrollment(member: parts[1], enroller: parts[2], secret: secret)
        case "recover":
            guard parts.count == 3, Identifier.isValid(parts[1]),
                let seed = KeyText.bytes(Self.digits(parts[2]), count: Ed25519.seedLength)
            else { return nil }
            self = .recovery(member: parts[1], seed: seed)
        default:
            guard let code = parts.first, Identifier.isValid(code), parts.count <= 2 else { return nil }
            let fingerprint = parts.count == 2 ? parts[1] : nil
            guard fingerprint.map(KeyText.isFingerprint) ?? true else { return nil }
            self = .invite(code: code, fingerprint: fingerprint)
        }
    }

    /// The code as it is shown. A recovery code's key is in groups of four, to write down.
    public var text: String {
        switch self {
        case .invite(let code, let fingerprint):
            return "lifesignal://\(code)" + (fingerprint.map { "/" + $0 } ?? "")
        case .enrollment(let member, let enroller, let secret):
            return "lifesignal://enroll/\(member)/\(enroller)/\(KeyText.hex(secret))"
        case .recovery(let member, let seed):
            var groups: [String] = []
            var hex = Substring(KeyText.hex(seed))
            while !hex.isEmpty {
                groups.append(String(hex.prefix(4)))
                hex = hex.dropFirst(4)
            }
            return "lifesignal://recover/\(member)/\(groups.joined(separator: "-"))"
        }
    }

    /// Whether `text` is an invite code (rather than, say, a contact's name).
    public static func isInvite(_ text: String) -> Bool {
        if case .invite? = PassedCode(text) { return true }
        return false
    }

    private static func digits(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "-" && $0 != " " })
    }
}
