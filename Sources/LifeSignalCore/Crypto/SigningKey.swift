/// A signing key: a device's, or the one a recovery code stands for. The seed never leaves
/// the machine that made it (a device's lies in its data directory, 0600; a recovery code's is
/// shown once and kept by nobody); the public key and its fingerprint travel in the records.
public struct SigningKey: Sendable, CustomStringConvertible {
    public let seed: [UInt8]
    public let publicKey: [UInt8]

    /// The key of a 32-byte seed; nil for any other length.
    public init?(seed: [UInt8]) {
        guard let publicKey = Ed25519.publicKey(seed: seed) else { return nil }
        self.seed = seed
        self.publicKey = publicKey
    }

    /// A new key from `generator`, which must be a secure source (the system's: `getrandom`
    /// on Linux, `arc4random` on macOS, as `SystemRandomNumberGenerator` is).
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> SigningKey {
        while true {
            var seed: [UInt8] = []
            seed.reserveCapacity(Ed25519.seedLength)
            for _ in 0..<(Ed25519.seedLength / 8) {
                withUnsafeBytes(of: generator.next().littleEndian) { seed.append(contentsOf: $0) }
            }
            if let key = SigningKey(seed: seed) { return key }
        }
    }

    public func sign(_ message: some Collection<UInt8>) -> [UInt8] {
        // The seed is 32 bytes by construction, so signing cannot fail.
        Ed25519.sign(message: message, seed: seed, derivedKey: publicKey) ?? []
    }

    public var publicKeyText: String { KeyText.hex(publicKey) }
    public var fingerprint: String { KeyText.fingerprint(publicKey) }

    /// Never the seed: a key printed by mistake shows only what anyone may see.
    public var description: String { "SigningKey(\(fingerprint))" }
}

/// Keys, signatures and hashes as text: lowercase hexadecimal, as the records hold them.
public enum KeyText {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of lowercase hex text of exactly `count` bytes; nil for anything else.
    public static func bytes(_ text: String, count: Int) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == count * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var i = 0
        while i < utf8.count {
            guard let high = value(utf8[i]), let low = value(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Whether `text` is a public key as the records hold it (64 lowercase hex digits).
    public static func isPublicKey(_ text: String) -> Bool { bytes(text, count: Ed25519.publicKeyLength) != nil }

    /// Bytes of a fingerprint: the first 16 of the public key's SHA-512 (128 bits: finding a
    /// second key with the same fingerprint takes about 2^128 tries).
    public static let fingerprintLength = 16

    /// A public key's fingerprint, as 32 hex digits: what an invite code carries and what a
    /// member pins of another.
    public static func fingerprint(_ publicKey: [UInt8]) -> String {
        hex(SHA512.hash(publicKey).prefix(fingerprintLength))
    }

    /// The fingerprint of a public key given as text; nil when it is not one.
    public static func fingerprint(ofKey text: String) -> String? {
        bytes(text, count: Ed25519.publicKeyLength).map(fingerprint)
    }

    public static func isFingerprint(_ text: String) -> Bool { bytes(text, count: fingerprintLength) != nil }
}
