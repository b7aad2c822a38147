// Arithmetic modulo p = 2^255 − 19, the field Ed25519's curve is defined over.
//
// An element is five 51-bit limbs, value = l0 + l1·2^51 + l2·2^102 + l3·2^153 + l4·2^204, held in
// UInt64s so that a limb has spare bits above its 51 and sums can wait before carrying. Products
// of limbs are 128-bit (`multipliedFullWidth`), and 2^255 ≡ 19 folds the high half of a product
// back into the low limbs.
//
// Every operation here does the same work whatever the values: no branch and no memory index
// depends on an element, so signing, which runs these on secrets, takes the same time and
// touches the same memory for every key. To keep it so whatever the optimiser does, nothing
// here reads a carry flag or turns a comparison into a number: the column sums of a product are
// kept in two words that cannot overflow (see `Wide`), and every carry is a shift. (The
// exponent chains' loop counts are constants.)
//
// Bounds. "Tight" means every limb < 2^51 + 2^15: what `*`, `squared`, `-` and `carried()`
// return. `+` does not carry, so the sum of two tight elements has limbs < 2^52 + 2^16.
// `*` and `squared` accept limbs up to 2^54; the right operand of `-` must be below 4p limb by
// limb (2^53 − 76 in the lowest limb), which any tight element or sum of two tight elements is.
// The point formulas in Edwards25519.swift keep to these; the arithmetic uses wrapping
// operators because the bounds rule out overflow, so nothing here can trap.

/// An element of GF(2^255 − 19): owns its five limbs, not necessarily reduced below p (see
/// `canonicalBytes` for the unique form).
struct FieldElement: Sendable {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64
    var l4: UInt64

    static let mask51: UInt64 = (1 << 51) - 1

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
        self.l4 = l4
    }

    static var zero: FieldElement { FieldElement(0, 0, 0, 0, 0) }
    static var one: FieldElement { FieldElement(1, 0, 0, 0, 0) }

    /// The element 32 little-endian bytes spell, bit 255 ignored (RFC 8032 §5.1.3 keeps the
    /// sign of x there). The value may be p or more; `canonicalBytes` tells those apart.
    /// `bytes` must hold 32 bytes from `start`; callers check the length first.
    init(bytes: [UInt8], from start: Int = 0) {
        func word(_ index: Int) -> UInt64 {
            var word: UInt64 = 0
            for byte in (0..<8).reversed() {
                word = word << 8 | UInt64(bytes[start + 8 * index + byte])
            }
            return word
        }
        let w0 = word(0)
        let w1 = word(1)
        let w2 = word(2)
        let w3 = word(3)
        self.init(
            w0 & Self.mask51,
            (w0 >> 51 | w1 << 13) & Self.mask51,
            (w1 >> 38 | w2 << 26) & Self.mask51,
            (w2 >> 25 | w3 << 39) & Self.mask51,
            (w3 >> 12) & Self.mask51)
    }

    /// The unique 32-byte little-endian encoding of the value reduced below p; bit 255 is 0.
    var canonicalBytes: [UInt8] {
        // After carrying, the value h is below 2p, so h ≥ p exactly when h + 19 carries out of
        // bit 255; `quotient` is that carry (0 or 1), found without comparing.
        let h = carried()
        var quotient = (h.l0 &+ 19) >> 51
        quotient = (h.l1 &+ quotient) >> 51
        quotient = (h.l2 &+ quotient) >> 51
        quotient = (h.l3 &+ quotient) >> 51
        quotient = (h.l4 &+ quotient) >> 51
        // h − q·p = h + 19q − q·2^255: add 19q, carry, and drop bit 255.
        var l0 = h.l0 &+ 19 &* quotient
        var l1 = h.l1 &+ (l0 >> 51)
        l0 &= Self.mask51
        var l2 = h.l2 &+ (l1 >> 51)
        l1 &= Self.mask51
        var l3 = h.l3 &+ (l2 >> 51)
        l2 &= Self.mask51
        var l4 = h.l4 &+ (l3 >> 51)
        l3 &= Self.mask51
        l4 &= Self.mask51
        let words = [l0 | l1 << 51, l1 >> 13 | l2 << 38, l2 >> 26 | l3 << 25, l3 >> 39 | l4 << 12]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in words {
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return bytes
    }

    /// 1 when the reduced value is odd — RFC 8032's "negative" x — else 0.
    var isNegative: UInt8 { canonicalBytes[0] & 1 }

    /// Whether the reduced value is 0. For public values only: it stops at the first nonzero byte.
    var isZero: Bool { canonicalBytes.allSatisfy { $0 == 0 } }

    /// Equal as field elements (whatever the limbs' representation). Public values only.
    static func == (a: FieldElement, b: FieldElement) -> Bool {
        a.canonicalBytes == b.canonicalBytes
    }

    /// The same value with every limb tight: each limb's bits above 51 move up one limb, and
    /// those above the top limb come back to the bottom times 19 (2^255 ≡ 19).
    @inline(__always)
    func carried() -> FieldElement {
        var l0 = self.l0
        var l1 = self.l1
        var l2 = self.l2
        var l3 = self.l3
        var l4 = self.l4
        l1 &+= l0 >> 51
        l0 &= Self.mask51
        l2 &+= l1 >> 51
        l1 &= Self.mask51
        l3 &+= l2 >> 51
        l2 &= Self.mask51
        l4 &+= l3 >> 51
        l3 &= Self.mask51
        l0 &+= 19 &* (l4 >> 51)
        l4 &= Self.mask51
        return FieldElement(l0, l1, l2, l3, l4)
    }

    /// Limb-wise sum, not carried (see the bounds above).
    @inline(__always)
    static func + (a: FieldElement, b: FieldElement) -> FieldElement {
        FieldElement(a.l0 &+ b.l0, a.l1 &+ b.l1, a.l2 &+ b.l2, a.l3 &+ b.l3, a.l4 &+ b.l4)
    }

    /// a − b, computed as a + 4p − b so no limb goes below zero, then carried.
    @inline(__always)
    static func - (a: FieldElement, b: FieldElement) -> FieldElement {
        FieldElement(
            (a.l0 &+ 0x1f_ffff_ffff_ffb4) &- b.l0,
            (a.l1 &+ 0x1f_ffff_ffff_fffc) &- b.l1,
            (a.l2 &+ 0x1f_ffff_ffff_fffc) &- b.l2,
            (a.l3 &+ 0x1f_ffff_ffff_fffc) &- b.l3,
            (a.l4 &+ 0x1f_ffff_ffff_fffc) &- b.l4
        ).carried()
    }

    @inline(__always)
    static prefix func - (a: FieldElement) -> FieldElement { .zero - a }

    static func * (a: FieldElement, b: FieldElement) -> FieldElement {
        // Limb i of a times limb j of b lands at 2^(51(i+j)); for i + j ≥ 5 that is
        // 2^255 · 2^(51(i+j−5)) ≡ 19 · 2^(51(i+j−5)), hence the factors of 19.
        let b1 = b.l1 &* 19
        let b2 = b.l2 &* 19
        let b3 = b.l3 &* 19
        let b4 = b.l4 &* 19
        var r0 = Wide(a.l0, b.l0)
        r0.add(a.l1, b4)
        r0.add(a.l2, b3)
        r0.add(a.l3, b2)
        r0.add(a.l4, b1)
        var r1 = Wide(a.l0, b.l1)
        r1.add(a.l1, b.l0)
        r1.add(a.l2, b4)
        r1.add(a.l3, b3)
        r1.add(a.l4, b2)
        var r2 = Wide(a.l0, b.l2)
        r2.add(a.l1, b.l1)
        r2.add(a.l2, b.l0)
        r2.add(a.l3, b4)
        r2.add(a.l4, b3)
        var r3 = Wide(a.l0, b.l3)
        r3.add(a.l1, b.l2)
        r3.add(a.l2, b.l1)
        r3.add(a.l3, b.l0)
        r3.add(a.l4, b4)
        var r4 = Wide(a.l0, b.l4)
        r4.add(a.l1, b.l3)
        r4.add(a.l2, b.l2)
        r4.add(a.l3, b.l1)
        r4.add(a.l4, b.l0)
        return Wide.carry(r0, r1, r2, r3, r4)
    }

    func squared() -> FieldElement {
        // The cross terms of a square come in equal pairs, so each is computed once, doubled.
        let d0 = l0 &* 2
        let d1 = l1 &* 2
        let d2 = l2 &* 2
        let d3 = l3 &* 2
        let t3 = l3 &* 19
        let t4 = l4 &* 19
        var r0 = Wide(l0, l0)
        r0.add(d1, t4)
        r0.add(d2, t3)
        var r1 = Wide(d0, l1)
        r1.add(d2, t4)
        r1.add(l3, t3)
        var r2 = Wide(d0, l2)
        r2.add(l1, l1)
        r2.add(d3, t4)
        var r3 = Wide(d0, l3)
        r3.add(d1, l2)
        r3.add(l4, t4)
        var r4 = Wide(d0, l4)
        r4.add(d1, l3)
        r4.add(l2, l2)
        return Wide.carry(r0, r1, r2, r3, r4)
    }

    /// self^(2^count): `count` squarings.
    func squared(times count: Int) -> FieldElement {
        var result = self
        for _ in 0..<count {
            result = result.squared()
        }
        return result
    }

    /// self^(2^250 − 1) and self^11, the common start of inversion and the square-root power.
    private func power2p250m1() -> (FieldElement, FieldElement) {
        let z2 = squared()
        let z9 = z2.squared(times: 2) * self
        let z11 = z9 * z2
        let z2p5m1 = z11.squared() * z9  // 2^5 − 1 = 31 = 22 + 9
        let z2p10m1 = z2p5m1.squared(times: 5) * z2p5m1
        let z2p20m1 = z2p10m1.squared(times: 10) * z2p10m1
        let z2p40m1 = z2p20m1.squared(times: 20) * z2p20m1
        let z2p50m1 = z2p40m1.squared(times: 10) * z2p10m1
        let z2p100m1 = z2p50m1.squared(times: 50) * z2p50m1
        let z2p200m1 = z2p100m1.squared(times: 100) * z2p100m1
        let z2p250m1 = z2p200m1.squared(times: 50) * z2p50m1
        return (z2p250m1, z11)
    }

    /// 1/self, as self^(p − 2) = self^(2^255 − 21) (Fermat); 0 for 0. Constant-time.
    func inverted() -> FieldElement {
        let (z2p250m1, z11) = power2p250m1()
        return z2p250m1.squared(times: 5) * z11  // (2^250 − 1)·32 + 11 = 2^255 − 21
    }

    /// self^((p − 5)/8) = self^(2^252 − 3), the power RFC 8032 §5.1.3 uses for square roots.
    func powerPm5d8() -> FieldElement {
        let (z2p250m1, _) = power2p250m1()
        return z2p250m1.squared(times: 2) * self  // (2^250 − 1)·4 + 1 = 2^252 − 3
    }

    /// `b` where `mask` is all ones, `a` where it is zero, chosen with bit operations so that
    /// neither the time nor the memory read depends on which.
    @inline(__always)
    static func select(_ a: FieldElement, _ b: FieldElement, mask: UInt64) -> FieldElement {
        FieldElement(
            a.l0 ^ ((a.l0 ^ b.l0) & mask),
            a.l1 ^ ((a.l1 ^ b.l1) & mask),
            a.l2 ^ ((a.l2 ^ b.l2) & mask),
            a.l3 ^ ((a.l3 ^ b.l3) & mask),
            a.l4 ^ ((a.l4 ^ b.l4) & mask))
    }

    /// d = −121665/121666, the curve constant of edwards25519 (RFC 8032 §5.1).
    static var d: FieldElement {
        FieldElement(0x34_dca1_3597_8a3, 0x1a_8283_b156_ebd, 0x5e_7a26_001c_029, 0x73_9c66_3a03_cbb, 0x52_036c_ee2b_6ff)
    }

    /// 2d, which the addition formulas use.
    static var d2: FieldElement {
        FieldElement(0x69_b942_6b2f_159, 0x35_0507_62ad_d7a, 0x3c_f44c_0038_052, 0x67_38cc_7407_977, 0x24_06d9_dc56_dff)
    }

    /// A square root of −1: 2^((p − 1)/4).
    static var sqrtMinusOne: FieldElement {
        FieldElement(0x61_b274_a0ea_0b0, 0x0d_5a5f_c8f1_89d, 0x7e_f5e9_cbd0_c60, 0x78_595a_6804_c9e, 0x2b_8324_804f_c1d)
    }
}

/// One output column of `*` or `squared`: owns the sum of its limb products, split as
/// `low + high·2^51` — the low 51 bits of each product in `low`, the rest in `high` — so that
/// adding up never carries out of a word and no carry flag or comparison is involved.
private struct Wide {
    /// Sum of the products' bits 0...50: at most 5 terms below 2^51.
    var low: UInt64
    /// Sum of the products' bits from 51 up: at most the column's whole sum over 2^51. With
    /// limbs below 2^54 the largest column, r0, is below 2^114.3 (77·2^108 in `*`,
    /// 2^108 + 2·2^113.25 in `squared`), so this stays below 2^63.3, and adding the carry
    /// from the column below (under 2^13 once shifted) cannot overflow either.
    var high: UInt64

    @inline(__always)
    init(_ a: UInt64, _ b: UInt64) {
        let product = a.multipliedFullWidth(by: b)
        low = product.low & FieldElement.mask51
        high = product.high << 13 | product.low >> 51
    }

    @inline(__always)
    mutating func add(_ a: UInt64, _ b: UInt64) {
        let product = a.multipliedFullWidth(by: b)
        low &+= product.low & FieldElement.mask51
        high &+= product.high << 13 | product.low >> 51
    }

    /// The five column sums carried into a tight element. The carry out of the top column is
    /// below 2^60 (r4 has no factor 19), so 19 times it fits in 64 bits.
    @inline(__always)
    static func carry(_ r0: Wide, _ r1: Wide, _ r2: Wide, _ r3: Wide, _ r4: Wide) -> FieldElement {
        var c = r0.low
        var l0 = c & FieldElement.mask51
        var carry = c >> 51 &+ r0.high
        c = r1.low &+ carry
        var l1 = c & FieldElement.mask51
        carry = c >> 51 &+ r1.high
        c = r2.low &+ carry
        let l2 = c & FieldElement.mask51
        carry = c >> 51 &+ r2.high
        c = r3.low &+ carry
        let l3 = c & FieldElement.mask51
        carry = c >> 51 &+ r3.high
        c = r4.low &+ carry
        let l4 = c & FieldElement.mask51
        carry = c >> 51 &+ r4.high
        l0 &+= 19 &* carry
        l1 &+= l0 >> 51
        l0 &= FieldElement.mask51
        return FieldElement(l0, l1, l2, l3, l4)
    }
}
