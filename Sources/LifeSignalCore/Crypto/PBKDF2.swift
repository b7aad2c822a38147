// HMAC-SHA-512 (RFC 2104, FIPS 198-1) and PBKDF2 with it as the pseudo-random function
// (RFC 8018 §5.2), over this module's SHA-512: what turns a duress word into a salted, slow
// hash kept on the device, so the word itself is never stored.

/// HMAC-SHA-512: a SHA-512 keyed with a secret. Owns the two hash states after the padded key
/// (inner and outer), so that many MACs under one key — PBKDF2's iterations — each cost two
/// compressions and no re-hashing of the key.
public struct HMACSHA512: Sendable {
    /// Bytes in a MAC.
    public static let length = SHA512.digestLength
    private var inner = SHA512()
    private var outer = SHA512()

    /// A MAC keyed with `key`; a key longer than a SHA-512 block is hashed first (RFC 2104 §2).
    public init(key: [UInt8]) {
        let short = key.count > SHA512.blockLength ? SHA512.hash(key) : key
        var innerPad = [UInt8](repeating: 0x36, count: SHA512.blockLength)
        var outerPad = [UInt8](repeating: 0x5c, count: SHA512.blockLength)
        for (index, byte) in short.enumerated() {
            innerPad[index] ^= byte
            outerPad[index] ^= byte
        }
        inner.update(innerPad)
        outer.update(outerPad)
    }

    /// The MAC of `message` under this key.
    public func mac(_ message: [UInt8]) -> [UInt8] {
        var hash = inner
        hash.update(message)
        var final = outer
        final.update(hash.finalize())
        return final.finalize()
    }

    /// The MAC of `key` and `message` in one call.
    public static func mac(key: [UInt8], _ message: [UInt8]) -> [UInt8] { HMACSHA512(key: key).mac(message) }
}

/// PBKDF2-HMAC-SHA-512 (RFC 8018 §5.2): `iterations` rounds of HMAC per 64-byte block of output.
public enum PBKDF2 {
    /// Why a derivation was refused.
    public enum Problem: Error, Equatable, Sendable {
        case noIterations
        case noLength
    }

    /// `length` bytes derived from `password` and `salt` with `iterations` rounds (at least 1).
    public static func sha512(
        password: [UInt8], salt: [UInt8], iterations: Int, length: Int = HMACSHA512.length
    ) throws(Problem) -> [UInt8] {
        guard iterations >= 1 else { throw .noIterations }
        guard length >= 1 else { throw .noLength }
        let prf = HMACSHA512(key: password)
        var output: [UInt8] = []
        output.reserveCapacity(length)
        var block: UInt32 = 1
        while output.count < length {
            // U1 = PRF(P, S || INT(i)); Uj = PRF(P, Uj-1); T = U1 ^ U2 ^ … ^ Uc.
            var u = prf.mac(
                salt + [UInt8(block >> 24), UInt8(block >> 16 & 0xff), UInt8(block >> 8 & 0xff), UInt8(block & 0xff)])
            var t = u
            var round = 1
            while round < iterations {
                u = prf.mac(u)
                for index in 0..<t.count { t[index] ^= u[index] }
                round += 1
            }
            output += t.prefix(length - output.count)
            block &+= 1
        }
        return output
    }

    /// Whether `a` and `b` are equal, in a time that depends only on their lengths.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
