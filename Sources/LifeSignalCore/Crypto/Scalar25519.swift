// Arithmetic modulo L = 2^252 + 27742317777372353535851937790883648493, the order of
// Ed25519's base point: reducing a 64-byte hash to a scalar, and S = (r + k·a) mod L.
//
// Signing reduces secrets (the nonce r, and k·a), so the reduction is constant-time: Barrett's
// method (Handbook of Applied Cryptography, algorithm 14.42) with fixed loop counts, and the
// final corrective subtractions of L always computed and kept or dropped by masking.
//
// Numbers are little-endian arrays of 32-bit digits, each held in a UInt64. A digit product
// plus two digits fits in 64 bits ((2^32 − 1)² + 2(2^32 − 1) = 2^64 − 1), so carries are
// shifts and borrows are the sign bit of a wrapped difference: no carry flag, no comparison,
// nothing an optimiser could turn into a branch on the data (64-bit digits need the carry
// out of an addition, and one compiled version of that branched on it).

/// Scalars modulo L: owns nothing, groups the functions on 32- and 64-byte little-endian
/// numbers that signing and verification need.
enum Scalar25519 {
    /// L in 8 digits.
    static let order: [UInt64] = [
        0x5cf5_d3ed, 0x5812_631a, 0xa2f7_9cd6, 0x14de_f9de, 0, 0, 0, 0x1000_0000,
    ]

    /// ⌊2^512 / L⌋ in 9 digits: Barrett's precomputed quotient for base 2^32 and an 8-digit
    /// modulus.
    static let barrettFactor: [UInt64] = [
        0x0a2c_131b, 0xed9c_e5a3, 0x0863_29a7, 0x2106_215d, 0xffff_ffeb, 0xffff_ffff, 0xffff_ffff,
        0xffff_ffff, 0xf,
    ]

    static let digitMask: UInt64 = 0xffff_ffff

    /// Whether 32 little-endian bytes are below L: RFC 8032 §5.1.7 requires it of S, so that a
    /// signature has one spelling. Variable-time (S is public).
    static func isCanonical(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 32 else { return false }
        let value = digits(bytes)
        for index in (0..<8).reversed() where value[index] != order[index] {
            return value[index] < order[index]
        }
        return false  // equal to L
    }

    /// A 64-byte little-endian number (a SHA-512 digest) reduced mod L, as 32 bytes.
    /// The caller passes exactly 64 bytes.
    static func reduce(_ wide: [UInt8]) -> [UInt8] {
        bytes(reduceDigits(digits(wide)))
    }

    /// (a·b + c) mod L for 32-byte little-endian a, b, c: the S of a signature. Every input
    /// signing gives has a < 2^255 and b, c < L, so a·b + c < 2^512.
    static func multiplyAdd(_ a: [UInt8], _ b: [UInt8], _ c: [UInt8]) -> [UInt8] {
        var sum = multiply(digits(a), digits(b))
        let addend = digits(c + [UInt8](repeating: 0, count: 32))
        var carry: UInt64 = 0
        for index in 0..<16 {
            let total = sum[index] &+ addend[index] &+ carry
            sum[index] = total & digitMask
            carry = total >> 32
        }
        return bytes(reduceDigits(sum))
    }

    /// x mod L for x < 2^512 (16 digits), constant-time.
    private static func reduceDigits(_ x: [UInt64]) -> [UInt64] {
        // q = ⌊⌊x / 2^224⌋ · ⌊2^512 / L⌋ / 2^288⌋ is at most 2 below ⌊x / L⌋, so
        // r = x − q·L is in [0, 3L); r fits in nine digits, so it is computed mod 2^288.
        let quotient = Array(multiply(Array(x[7..<16]), barrettFactor)[9..<18])
        let product = multiply(quotient, order)
        var remainder = [UInt64](repeating: 0, count: 9)
        var borrow: UInt64 = 0
        for index in 0..<9 {
            (remainder[index], borrow) = subtract(x[index], product[index], borrow)
        }
        // Two subtractions of L, each kept only if it did not go below zero.
        let order9 = order + [0]
        for _ in 0..<2 {
            var difference = [UInt64](repeating: 0, count: 9)
            borrow = 0
            for index in 0..<9 {
                (difference[index], borrow) = subtract(remainder[index], order9[index], borrow)
            }
            let keep = borrow &- 1  // all ones when nothing was borrowed: remainder ≥ L
            for index in 0..<9 {
                remainder[index] ^= (remainder[index] ^ difference[index]) & keep
            }
        }
        return Array(remainder[0..<8])
    }

    /// a − b − borrow for digits, and the borrow out (0 or 1): the difference is at least
    /// −2^32, so it went below zero exactly when the wrapped 64-bit result has its top bit set.
    @inline(__always)
    private static func subtract(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
        let difference = a &- b &- borrow
        return (difference & digitMask, difference >> 63)
    }

    /// The full product of two digit arrays, schoolbook; the loop counts are the (public)
    /// lengths only.
    private static func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var product = [UInt64](repeating: 0, count: a.count + b.count)
        for i in a.indices {
            var carry: UInt64 = 0
            for j in b.indices {
                let total = a[i] &* b[j] &+ product[i + j] &+ carry
                product[i + j] = total & digitMask
                carry = total >> 32
            }
            product[i + b.count] = carry
        }
        return product
    }

    /// Little-endian bytes as digits (the byte count a multiple of 4).
    private static func digits(_ bytes: [UInt8]) -> [UInt64] {
        var digits = [UInt64](repeating: 0, count: bytes.count / 4)
        for index in 0..<digits.count * 4 {
            digits[index / 4] |= UInt64(bytes[index]) << UInt64(8 * (index % 4))
        }
        return digits
    }

    /// Digits as little-endian bytes.
    private static func bytes(_ digits: [UInt64]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count * 4)
        for digit in digits {
            for shift in stride(from: 0, to: 32, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: digit >> UInt64(shift)))
            }
        }
        return bytes
    }
}
