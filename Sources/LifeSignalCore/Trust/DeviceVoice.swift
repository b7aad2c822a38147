/// What one log in a member's folder says for deciding trust.
public struct DeviceVoice: Sendable {
    public enum Signature: Equatable, Sendable {
        case unsigned
        case valid
        case invalid(String)
    }

    public var device: String
    /// The public key the log names, as 64 hex digits (nil: not signed).
    public var key: String?
    public var signature: Signature
    /// The devices the log enrolled or revoked (its member's `devices`), and its recovery key.
    public var roster: [String: DeviceEntry]
    public var recovery: String?
    /// When the log set `recovery` (nil: not known, taken as its first record).
    public var recoverySet: Stamp?
    /// The sequence number of its last record.
    public var lastSeq: Int64
    /// The last check-in it recorded of its member, for weighing a contest (see `Contest`).
    public var lastCheckIn: Timestamp?

    public init(
        device: String, key: String?, signature: Signature, roster: [String: DeviceEntry], recovery: String?,
        recoverySet: Stamp? = nil, lastSeq: Int64 = 0, lastCheckIn: Timestamp? = nil
    ) {
        self.lastCheckIn = lastCheckIn
        self.device = device
        self.key = key
        self.signature = signature
        self.roster = roster
        self.recovery = recovery
        self.recoverySet = recoverySet
        self.lastSeq = lastSeq
    }

    var isSigned: Bool { signature == .valid && key != nil }
}
