// The group Ed25519 works in: the twisted Edwards curve −x² + y² = 1 + d·x²·y² over
// GF(2^255 − 19) (RFC 8032 §5.1), with the addition and doubling formulas of Hisil, Wong,
// Carter and Dawson ("Twisted Edwards curves revisited", 2008) for a = −1. Those formulas are
// complete on this curve — no special case for doubling, the identity or inverses — so no
// branch depends on which points are added.
//
// Points take several forms, each suited to one step:
// - `EdwardsPoint` (X:Y:Z:T), x = X/Z, y = Y/Z, xy = T/Z: the general point, an addend's
//   left side;
// - `ProjectivePoint` (X:Y:Z): enough to double, one multiplication cheaper to produce;
// - `CompletedPoint` ((X:Z), (Y:T)): what the formulas produce before the last multiplications,
//   so the caller pays only for the form it needs next;
// - `CachedPoint` (Y+X, Y−X, Z, 2d·T) and `AffineCachedPoint` (y+x, y−x, 2d·x·y, Z = 1): a right
//   side prepared once and added many times.
//
// Two multiplications by a scalar are needed:
// - `EdwardsPoint.baseMultiple` for signing, with secrets: constant-time, a signed radix-16
//   comb over a table of multiples of B, every table entry of a row read for every digit;
// - `EdwardsPoint.verificationCombination` for verifying, with public data only:
//   variable-time, sliding windows (width-w NAF) for both scalars in one doubling chain.

/// A point of edwards25519 in extended coordinates: owns X, Y, Z and T = XY/Z.
struct EdwardsPoint: Sendable {
    var x: FieldElement
    var y: FieldElement
    var z: FieldElement
    var t: FieldElement

    static var identity: EdwardsPoint { EdwardsPoint(x: .zero, y: .one, z: .one, t: .zero) }

    /// The base point B of RFC 8032 §5.1: y = 4/5, x positive (even).
    static var base: EdwardsPoint {
        let x = FieldElement(
            0x62_d608_f25d_51a, 0x41_2a4b_4f65_92a, 0x75_b717_1a4b_31d, 0x1f_f605_2711_8fe, 0x21_6936_d3cd_6e5)
        let y = FieldElement(
            0x66_6666_6666_658, 0x4c_cccc_cccc_ccc, 0x19_9999_9999_999, 0x33_3333_3333_333, 0x66_6666_6666_666)
        return EdwardsPoint(x: x, y: y, z: .one, t: x * y)
    }

    /// The point `bytes` encodes (RFC 8032 §5.1.3), or nil when they encode none. Strict: a y
    /// of p or more (a second spelling of a smaller y) is refused, and so is x = 0 with the
    /// sign bit set (a second spelling of the x = 0 points). Variable-time: for public points.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        let sign = bytes[31] >> 7
        let y = FieldElement(bytes: bytes)
        var withoutSign = bytes
        withoutSign[31] &= 0x7f
        guard y.canonicalBytes == withoutSign else { return nil }
        // x² = u/v with u = y² − 1, v = d·y² + 1; the candidate root is u·v³·(u·v⁷)^((p−5)/8).
        let yy = y.squared()
        let u = yy - .one
        let v = FieldElement.d * yy + .one
        let v3 = v.squared() * v
        let v7 = v3.squared() * v
        var x = u * v3 * (u * v7).powerPm5d8()
        let vxx = v * x.squared()
        if vxx == u {
            // x is a root.
        } else if vxx == -u {
            x = x * .sqrtMinusOne
        } else {
            return nil  // u/v is not a square: no point has this y.
        }
        if x.isZero && sign == 1 { return nil }
        if x.isNegative != sign { x = -x }
        self.init(x: x, y: y, z: .one, t: x * y)
    }

    init(x: FieldElement, y: FieldElement, z: FieldElement, t: FieldElement) {
        self.x = x
        self.y = y
        self.z = z
        self.t = t
    }

    /// The 32-byte encoding (RFC 8032 §5.1.2): y, with the parity of x in bit 255.
    /// Constant-time (one inversion by a fixed exponent chain).
    var encoded: [UInt8] { projective.encoded }

    var projective: ProjectivePoint { ProjectivePoint(x: x, y: y, z: z) }

    /// The form in which this point is added to others.
    var cached: CachedPoint {
        CachedPoint(yPlusX: y + x, yMinusX: y - x, z: z, t2d: t * FieldElement.d2)
    }

    var doubled: CompletedPoint { projective.doubled }

    static func + (p: EdwardsPoint, q: CachedPoint) -> CompletedPoint {
        let a = (p.y - p.x) * q.yMinusX
        let b = (p.y + p.x) * q.yPlusX
        let c = p.t * q.t2d
        let zz = p.z * q.z
        let d = zz + zz
        return CompletedPoint(x: b - a, y: b + a, z: d + c, t: d - c)
    }

    /// p − q: the sum with −q = (−x, y), whose cached form swaps Y+X with Y−X and negates 2dT.
    static func - (p: EdwardsPoint, q: CachedPoint) -> CompletedPoint {
        let a = (p.y - p.x) * q.yPlusX
        let b = (p.y + p.x) * q.yMinusX
        let c = p.t * q.t2d
        let zz = p.z * q.z
        let d = zz + zz
        return CompletedPoint(x: b - a, y: b + a, z: d - c, t: d + c)
    }

    /// The sum with a point whose Z is 1, which saves one multiplication.
    static func + (p: EdwardsPoint, q: AffineCachedPoint) -> CompletedPoint {
        let a = (p.y - p.x) * q.yMinusX
        let b = (p.y + p.x) * q.yPlusX
        let c = p.t * q.xy2d
        let d = p.z + p.z
        return CompletedPoint(x: b - a, y: b + a, z: d + c, t: d - c)
    }

    static func - (p: EdwardsPoint, q: AffineCachedPoint) -> CompletedPoint {
        let a = (p.y - p.x) * q.yPlusX
        let b = (p.y + p.x) * q.yMinusX
        let c = p.t * q.xy2d
        let d = p.z + p.z
        return CompletedPoint(x: b - a, y: b + a, z: d - c, t: d + c)
    }
}

/// A point as (X:Y:Z) without T: owns the three coordinates a doubling needs.
struct ProjectivePoint: Sendable {
    var x: FieldElement
    var y: FieldElement
    var z: FieldElement

    static var identity: ProjectivePoint { ProjectivePoint(x: .zero, y: .one, z: .one) }

    /// 2P. From the a = −1 doubling, x₃ = E/G and y₃ = H/F with E = (X+Y)² − X² − Y²,
    /// G = Y² − X², H = −(X² + Y²), F = G − 2Z²; H and F are both negated here, which leaves
    /// y₃ unchanged and saves the negations.
    var doubled: CompletedPoint {
        let xx = x.squared()
        let yy = y.squared()
        let zz = z.squared()
        let sum = yy + xx
        let difference = yy - xx
        return CompletedPoint(x: (x + y).squared() - sum, y: sum, z: difference, t: (zz + zz) - difference)
    }

    var encoded: [UInt8] {
        let inverse = z.inverted()
        var bytes = (y * inverse).canonicalBytes
        bytes[31] |= (x * inverse).isNegative << 7
        return bytes
    }
}

/// The result of an addition or doubling before its final multiplications: owns the two
/// fractions x = X/Z and y = Y/T, turned into whichever form comes next.
struct CompletedPoint: Sendable {
    var x: FieldElement
    var y: FieldElement
    var z: FieldElement
    var t: FieldElement

    /// x = XT/ZT, y = YZ/ZT: three multiplications.
    var projective: ProjectivePoint { ProjectivePoint(x: x * t, y: y * z, z: z * t) }

    /// The projective form plus T = XY/ZT: four multiplications.
    var extended: EdwardsPoint { EdwardsPoint(x: x * t, y: y * z, z: z * t, t: x * y) }
}

/// A point prepared as the right side of additions: owns Y+X, Y−X, Z and 2d·T.
struct CachedPoint: Sendable {
    var yPlusX: FieldElement
    var yMinusX: FieldElement
    var z: FieldElement
    var t2d: FieldElement
}

/// A point with Z = 1 prepared as the right side of additions: owns y+x, y−x and 2d·x·y. The
/// base point tables hold these.
struct AffineCachedPoint: Sendable {
    var yPlusX: FieldElement
    var yMinusX: FieldElement
    var xy2d: FieldElement

    /// The identity, (1, 1, 0): what the constant-time selection starts from for a zero digit.
    static var identity: AffineCachedPoint { AffineCachedPoint(yPlusX: .one, yMinusX: .one, xy2d: .zero) }

    /// `candidate` where `mask` is all ones, else `self`, without a branch.
    @inline(__always)
    func replaced(by candidate: AffineCachedPoint, mask: UInt64) -> AffineCachedPoint {
        AffineCachedPoint(
            yPlusX: .select(yPlusX, candidate.yPlusX, mask: mask),
            yMinusX: .select(yMinusX, candidate.yMinusX, mask: mask),
            xy2d: .select(xy2d, candidate.xy2d, mask: mask))
    }

    /// The affine cached forms of `points`, sharing one inversion among all of them
    /// (Montgomery's trick: invert the product of the Zs, then peel off one Z at a time).
    static func normalizing(_ points: [EdwardsPoint]) -> [AffineCachedPoint] {
        guard !points.isEmpty else { return [] }
        var prefixProducts: [FieldElement] = []
        prefixProducts.reserveCapacity(points.count)
        var product = FieldElement.one
        for point in points {
            prefixProducts.append(product)
            product = product * point.z
        }
        var inverse = product.inverted()
        var result = [AffineCachedPoint](repeating: .identity, count: points.count)
        for index in points.indices.reversed() {
            let zInverse = inverse * prefixProducts[index]
            inverse = inverse * points[index].z
            let x = points[index].x * zInverse
            let y = points[index].y * zInverse
            result[index] = AffineCachedPoint(yPlusX: y + x, yMinusX: y - x, xy2d: x * y * FieldElement.d2)
        }
        return result
    }
}

extension EdwardsPoint {
    /// [scalar]B for a secret scalar, constant-time. `scalar` is 32 little-endian bytes with
    /// bit 255 clear (a clamped secret or a value reduced mod L); the caller guarantees both.
    ///
    /// The scalar is rewritten as 64 signed digits e_i in −8...8 with scalar = Σ e_i·16^i.
    /// Row j of `baseComb` holds 1..8 times 256^j·B, so the odd-indexed digits are added from
    /// their rows first, the sum multiplied by 16, and the even-indexed digits added after.
    /// Each digit reads all eight entries of its row and keeps one by masking, then negates it
    /// by masking: the memory touched and the work done are the same for every scalar.
    static func baseMultiple(_ scalar: [UInt8]) -> EdwardsPoint {
        var digits = [Int8](repeating: 0, count: 64)
        for index in 0..<32 {
            digits[2 * index] = Int8(truncatingIfNeeded: scalar[index] & 15)
            digits[2 * index + 1] = Int8(truncatingIfNeeded: scalar[index] >> 4)
        }
        // From 0...15 to −8...7, carrying one into the next digit; the top digit (at most 7
        // plus a carry, since bit 255 is clear) stays within 8.
        var carry: Int8 = 0
        for index in 0..<63 {
            digits[index] &+= carry
            carry = (digits[index] &+ 8) >> 4
            digits[index] &-= carry << 4
        }
        digits[63] &+= carry

        let comb = baseComb
        var sum = EdwardsPoint.identity
        for index in stride(from: 1, to: 64, by: 2) {
            sum = (sum + select(comb[index / 2], digits[index])).extended
        }
        var doubling = sum.doubled.projective
        doubling = doubling.doubled.projective
        doubling = doubling.doubled.projective
        sum = doubling.doubled.extended
        for index in stride(from: 0, to: 64, by: 2) {
            sum = (sum + select(comb[index / 2], digits[index])).extended
        }
        return sum
    }

    /// digit·(the row's unit) from a row of 1..8 times it, for a digit in −8...8, by reading
    /// every entry and keeping the one whose masks are set.
    private static func select(_ row: [AffineCachedPoint], _ digit: Int8) -> AffineCachedPoint {
        // The sign as a mask (all ones when negative), and |digit| computed from it.
        let negative = UInt64(truncatingIfNeeded: Int64(digit) >> 63)
        let magnitude = (UInt64(truncatingIfNeeded: Int64(digit)) ^ negative) &- negative
        var chosen = AffineCachedPoint.identity
        for (index, entry) in row.enumerated() {
            // All ones exactly when magnitude == index + 1: (x − 1) borrows only for x = 0.
            let difference = magnitude ^ UInt64(index + 1)
            let equal = 0 &- ((difference &- 1) >> 63)
            chosen = chosen.replaced(by: entry, mask: equal)
        }
        let negated = AffineCachedPoint(yPlusX: chosen.yMinusX, yMinusX: chosen.yPlusX, xy2d: -chosen.xy2d)
        return chosen.replaced(by: negated, mask: negative)
    }

    /// The width-w non-adjacent form of a public 32-byte scalar: digits d_i, each 0 or odd
    /// with |d_i| < 2^(w−1), any nonzero one followed by at least w−1 zeros, and
    /// scalar = Σ d_i·2^i. Variable-time. 264 digits leave room for the carry out of bit 255.
    static func nonAdjacentForm(_ scalar: [UInt8], width: Int) -> [Int8] {
        var words = [UInt64](repeating: 0, count: 6)
        for index in 0..<32 {
            words[index / 8] |= UInt64(scalar[index]) << UInt64(8 * (index % 8))
        }
        let windowMask = UInt64(1) << UInt64(width) - 1
        let half = UInt64(1) << UInt64(width - 1)
        var digits = [Int8](repeating: 0, count: 264)
        var position = 0
        var carry: UInt64 = 0
        while position < digits.count {
            let word = position / 64
            let bit = position % 64
            var bits = words[word] >> UInt64(bit)
            if bit + width > 64 {
                bits |= words[word + 1] << UInt64(64 - bit)
            }
            let window = (bits & windowMask) &+ carry
            if window & 1 == 0 {
                // The bit here, with the carry, is even: a zero digit, the carry moves on.
                position += 1
                continue
            }
            if window < half {
                digits[position] = Int8(truncatingIfNeeded: window)
                carry = 0
            } else {
                digits[position] = Int8(truncatingIfNeeded: Int64(window) - Int64(1 << width))
                carry = 1
            }
            position += width
        }
        return digits
    }

    /// [s]B − [k]A, for public s and k below 2^253, in one chain of doublings with the
    /// windows of both scalars added along the way. Variable-time.
    static func verificationCombination(s: [UInt8], k: [UInt8], a: EdwardsPoint) -> ProjectivePoint {
        let sDigits = nonAdjacentForm(s, width: 8)
        let kDigits = nonAdjacentForm(k, width: 5)
        // A, 3A, …, 15A for the width-5 digits of k.
        var aMultiples: [CachedPoint] = [a.cached]
        let twiceA = a.doubled.extended.cached
        var multiple = a
        for _ in 1..<8 {
            multiple = (multiple + twiceA).extended
            aMultiples.append(multiple.cached)
        }
        let baseMultiples = baseOddMultiples

        var top = sDigits.count - 1
        while top >= 0 && sDigits[top] == 0 && kDigits[top] == 0 {
            top -= 1
        }
        var result = ProjectivePoint.identity
        var index = top
        while index >= 0 {
            var step = result.doubled
            let sDigit = Int(sDigits[index])
            let kDigit = Int(kDigits[index])
            if sDigit > 0 {
                step = step.extended + baseMultiples[sDigit / 2]
            } else if sDigit < 0 {
                step = step.extended - baseMultiples[-sDigit / 2]
            }
            if kDigit > 0 {
                step = step.extended - aMultiples[kDigit / 2]
            } else if kDigit < 0 {
                step = step.extended + aMultiples[-kDigit / 2]
            }
            result = step.projective
            index -= 1
        }
        return result
    }
}
