// Ed25519 signatures as RFC 8032 §5.1 defines them (pure Ed25519: no context, no prehash), in
// the standard library only. The caller brings the randomness: a key is a 32-byte seed the
// caller drew from a secure source; signing itself needs none (the nonce is derived from the
// seed and the message, RFC 8032 §5.1.6).
//
// Signing runs in constant time with respect to the seed and the nonce: field arithmetic
// without data-dependent branches (Field25519.swift), the fixed-base multiplication reads every
// entry of a table row for every digit (Edwards25519.swift), and the reduction mod L is
// Barrett's with masked corrections (Scalar25519.swift). The message's length, and the message
// itself, are not secret.
//
// Verification works on public data and takes shortcuts: variable-time decoding and a
// sliding-window double multiplication [S]B − [k]A against a table of B's odd multiples built
// once per process.
//
// Verification policy — what `verify` accepts. Chosen so that no accepted signature can be
// respelled into another accepted one, so that keys no one can hold are refused, and so that
// every Project Wycheproof "valid" vector passes and every "invalid" one fails:
// - the signature is exactly 64 bytes and the public key exactly 32;
// - S < L (RFC 8032 §5.1.7), so S + L, S + 2L, … are refused: signatures are not malleable;
// - A must be a canonical encoding (y < p; x = 0 only with the sign bit clear) of a point on
//   the curve, as RFC 8032 §5.1.3 decodes;
// - A must not have small order (one of the 8 points of order 1, 2, 4 or 8): no one holds the
//   secret of such a key, and with S = 0 and a small-order R the equation holds for many
//   messages (for every message when A and R are the identity). Keys of mixed order — a proper
//   key plus a torsion component — are not looked for: that would take a full multiplication
//   by L per key, and such a key still needs its discrete logarithm to sign with;
// - R is compared as bytes with the canonical encoding of the recomputed point, so a
//   non-canonical R never verifies; and R must not be one of the 8 small-order encodings
//   (libsodium refuses them too), which no honest signer produces;
// - the equation is the cofactorless one, [S]B − [k]A = R with k = SHA-512(R ‖ A ‖ M) mod L,
//   checked by encoding the left side — the check RFC 8032 §5.1.7 allows in place of the
//   cofactored [8][S]B = [8]R + [8][k]A, and the one OpenSSL, libsodium and Go check. For
//   keys and R in the prime-order subgroup (every honest signer's) the two checks agree.
// Against Wycheproof's ed25519_test.json this accepts every "valid" vector and refuses every
// "invalid" one; that file has no "acceptable" vectors (see Ed25519Tests).

/// Ed25519 key derivation, signing and verification: owns nothing, every function takes and
/// returns byte arrays in RFC 8032's encodings.
public enum Ed25519 {
    /// Bytes in a seed: the secret a key pair is derived from (RFC 8032's "private key").
    public static let seedLength = 32
    /// Bytes in an encoded public key.
    public static let publicKeyLength = 32
    /// Bytes in a signature: R, then S.
    public static let signatureLength = 64

    /// The public key of `seed` (RFC 8032 §5.1.5), or nil unless `seed` is 32 bytes.
    public static func publicKey(seed: [UInt8]) -> [UInt8]? {
        guard let secret = ExpandedSeed(seed) else { return nil }
        return EdwardsPoint.baseMultiple(secret.scalar).encoded
    }

    /// The signature of `message` by the key of `seed` (RFC 8032 §5.1.6), or nil unless `seed`
    /// is 32 bytes. Deterministic: the same seed and message always give the same signature.
    ///
    /// The public key is derived from the seed here rather than taken from the caller: a
    /// signer handed a public key that does not match its seed would produce signatures from
    /// which the secret scalar can be computed, and deriving it costs one more fixed-base
    /// multiplication.
    public static func sign(message: some Collection<UInt8>, seed: [UInt8]) -> [UInt8]? {
        guard let secret = ExpandedSeed(seed) else { return nil }
        return sign(message: message, secret: secret, publicKey: EdwardsPoint.baseMultiple(secret.scalar).encoded)
    }

    /// The same for a `SigningKey`, which derived `publicKey` from `seed` when it was made (both
    /// immutable): the multiplication is not done again for every signature.
    static func sign(message: some Collection<UInt8>, seed: [UInt8], derivedKey publicKey: [UInt8]) -> [UInt8]? {
        guard let secret = ExpandedSeed(seed) else { return nil }
        return sign(message: message, secret: secret, publicKey: publicKey)
    }

    private static func sign(message: some Collection<UInt8>, secret: ExpandedSeed, publicKey: [UInt8]) -> [UInt8] {
        var nonceHash = SHA512()
        nonceHash.update(secret.prefix)
        nonceHash.update(message)
        let nonce = Scalar25519.reduce(nonceHash.finalize())
        let commitment = EdwardsPoint.baseMultiple(nonce).encoded
        let challenge = challenge(commitment: commitment, publicKey: publicKey, message: message)
        return commitment + Scalar25519.multiplyAdd(challenge, secret.scalar, nonce)
    }

    /// Whether `signature` is a valid signature of `message` under `publicKey`, by the policy
    /// in this file's header. False, never a crash, for input of any length or content.
    public static func verify(signature: [UInt8], message: some Sequence<UInt8>, publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureLength, publicKey.count == publicKeyLength else { return false }
        let commitment = Array(signature[0..<32])
        let s = Array(signature[32..<64])
        guard Scalar25519.isCanonical(s), !smallOrderEncodings.contains(commitment) else { return false }
        guard let a = EdwardsPoint(decoding: publicKey), !a.hasSmallOrder else { return false }
        let k = challenge(commitment: commitment, publicKey: publicKey, message: message)
        return EdwardsPoint.verificationCombination(s: s, k: k, a: a).encoded == commitment
    }

    /// k = SHA-512(R ‖ A ‖ M) mod L.
    private static func challenge(commitment: [UInt8], publicKey: [UInt8], message: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA512()
        hasher.update(commitment)
        hasher.update(publicKey)
        hasher.update(message)
        return Scalar25519.reduce(hasher.finalize())
    }

    /// The canonical encodings of the 8 points of order dividing 8: the identity, (0, −1),
    /// the two points with y = 0 and the four with y = ±y₈. Ed25519Tests checks that each
    /// decodes, has small order, and that there are no others among canonical encodings.
    static let smallOrderEncodings: Set<[UInt8]> = [
        [1] + [UInt8](repeating: 0, count: 31),
        [0xec] + [UInt8](repeating: 0xff, count: 30) + [0x7f],
        [UInt8](repeating: 0, count: 32),
        [UInt8](repeating: 0, count: 31) + [0x80],
        [
            0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
            0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a,
        ],
        [
            0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
            0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0xfa,
        ],
        [
            0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
            0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05,
        ],
        [
            0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
            0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x85,
        ],
    ]
}

/// The two halves of SHA-512(seed) (RFC 8032 §5.1.5): owns the clamped secret scalar and the
/// prefix that nonces are derived from.
private struct ExpandedSeed {
    var scalar: [UInt8]
    var prefix: [UInt8]

    init?(_ seed: [UInt8]) {
        guard seed.count == Ed25519.seedLength else { return nil }
        let digest = SHA512.hash(seed)
        scalar = Array(digest[0..<32])
        // Clamping: a multiple of the cofactor 8, below 2^255, with bit 254 set.
        scalar[0] &= 248
        scalar[31] &= 127
        scalar[31] |= 64
        prefix = Array(digest[32..<64])
    }
}

extension EdwardsPoint {
    /// Whether [8]P is the identity, i.e. P is one of the 8 points of order dividing 8. For
    /// public points. [8]P with x = 0 is the identity: (0, −1) would need P of order 16,
    /// and the group (of order 8L) has none.
    var hasSmallOrder: Bool {
        let eightfold = doubled.projective.doubled.projective.doubled.projective
        return eightfold.x.isZero
    }
}
