/// What a reader verified of one member before (see the store's TrustMemory): the key each
/// device signed with, the highest record of it verified, and the keys it saw revoked. None of
/// it can be taken back by a file put back in the circle.
public struct TrustSeen: Equatable, Sendable {
    /// By device: the key it signed with and the highest record verified.
    public var devices: [String: Verified] = [:]
    /// By key fingerprint: the revocation seen, and the last record it left counting.
    public var revoked: [String: Revocation] = [:]

    public init() {}

    public struct Verified: Equatable, Sendable {
        public var key: String
        public var seq: Int64

        public init(key: String, seq: Int64) {
            self.key = key
            self.seq = seq
        }
    }

    /// What `speakers` (resolved from `voices`) adds: the devices that count, at their highest
    /// record; the keys of revoked devices.
    public mutating func learn(from speakers: Speakers, voices: [DeviceVoice]) {
        for voice in voices {
            guard let key = voice.key else { continue }
            switch speakers.devices[voice.device] {
            case .trusted?, .retired?:
                let seq = max(voice.lastSeq, devices[voice.device]?.seq ?? 0)
                if devices[voice.device]?.key == key || devices[voice.device] == nil {
                    devices[voice.device] = Verified(key: key, seq: seq)
                } else {
                    // Another key than the one verified before counts only as the member's own
                    // code settled it (see `Speakers.screen`): it replaces the one seen.
                    devices[voice.device] = Verified(key: key, seq: voice.lastSeq)
                }
            case .olderVersion?, .notSigned?, .badSignature?, .notEnrolled?, .revoked?, .undecided?, .rolledBack?, nil:
                break
            }
            if let revocation = speakers.revocations[voice.device], let fingerprint = KeyText.fingerprint(ofKey: key),
                revoked[fingerprint] == nil
            {
                revoked[fingerprint] = revocation
            }
        }
    }

    public struct Revocation: Equatable, Sendable {
        public var stamp: Stamp
        public var through: Int64?

        public init(stamp: Stamp, through: Int64?) {
            self.stamp = stamp
            self.through = through
        }
    }
}
