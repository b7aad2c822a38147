import Foundation
import Testing

@testable import LifeSignalCore

// Ed25519 against RFC 8032's own examples (§7.1), Project Wycheproof's vectors, and the edges
// of the verification policy in Ed25519.swift's header: malleability, non-canonical encodings,
// small-order points, tampering, and input of the wrong length. The RFC's values were checked
// against OpenSSL (through Python's cryptography) when they were written in here.

@Suite struct Ed25519Tests {
    /// One of RFC 8032's examples: owns its seed, public key and signature (hex) and message.
    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        var seed: String
        var publicKey: String
        var message: [UInt8]
        var signature: String
        var testDescription: String { name }
    }

    static let rfcExamples: [Example] = [
        Example(
            name: "TEST 1",
            seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            message: [],
            signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
                + "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        Example(
            name: "TEST 2",
            seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            message: [0x72],
            signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        Example(
            name: "TEST 3",
            seed: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            publicKey: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            message: [0xaf, 0x82],
            signature: "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
                + "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
        Example(
            name: "TEST 1024",
            seed: "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
            publicKey: "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
            message: test1024Message,
            signature: "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350"
                + "aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03"),
        Example(
            name: "TEST SHA(abc)",
            seed: "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
            publicKey: "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
            message: SHA512.hash(Array("abc".utf8)),
            signature: "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
                + "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"),
    ]

    /// TEST 1024's message (1023 bytes, as the RFC prints it).
    static let test1024Message: [UInt8] =
        Hex.bytes(
            [
                "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12",
                "ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe57",
                "38829adb26c81b37c93a1b270b20329d658675fc6ea534e0810a4432826bf58c941efb65d57a338b",
                "bd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe",
                "ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e06203b33890cc9b8",
                "32f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc10",
                "3b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53",
                "f1d8ac70bdcb7ed185ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2",
                "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6",
                "079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f27088d78b7e883c8759d2c4f5c65adb7553",
                "878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2",
                "cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba",
                "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae078",
                "4504df543af8969be3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8",
                "fcffead94f3c7ca495e056a9b47acdb751fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301",
                "651339e22904cc8c42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8",
                "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34dff7310fdc82aebfd9",
                "04b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7",
                "984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a",
                "3ca8e1b939ae49e488acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a3",
                "2ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a4",
                "3dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5fb93246f6b1116398a346f1a641f3b041",
                "e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d9",
                "0d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d",
                "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef",
                "68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0",
            ].joined()) ?? []

    /// L, little-endian.
    static let order = Hex.bytes("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010") ?? []

    @Test(arguments: rfcExamples)
    func rfc8032Examples(_ example: Example) throws {
        let seed = try #require(Hex.bytes(example.seed))
        let publicKey = try #require(Ed25519.publicKey(seed: seed))
        #expect(Hex.string(publicKey) == example.publicKey)
        let signature = try #require(Ed25519.sign(message: example.message, seed: seed))
        #expect(Hex.string(signature) == example.signature)
        #expect(Ed25519.verify(signature: signature, message: example.message, publicKey: publicKey))
        // The message as a slice and as a sequence without contiguous storage.
        #expect(Ed25519.verify(signature: signature, message: example.message[...], publicKey: publicKey))
        #expect(Ed25519.verify(signature: signature, message: example.message.lazy.map { $0 }, publicKey: publicKey))
        #expect(Ed25519.sign(message: example.message.lazy.map { $0 }, seed: seed) == signature)
        // A signing key, which derives its public key once, signs alike.
        let key = try #require(SigningKey(seed: seed))
        #expect(key.publicKey == publicKey && key.sign(example.message) == signature)
    }

    /// The comb `baseMultiple` reads ships as a constant (BaseComb.swift); here it is computed
    /// from B as it used to be on every start, and every limb must be the same.
    @Test func theShippedCombIsTheComputedOne() {
        var points: [EdwardsPoint] = []
        var unit = EdwardsPoint.base
        for _ in 0..<32 {
            var multiple = unit
            let cachedUnit = unit.cached
            for _ in 0..<8 {
                points.append(multiple)
                multiple = (multiple + cachedUnit).extended
            }
            for _ in 0..<8 { unit = unit.doubled.extended }
        }
        let computed = AffineCachedPoint.normalizing(points)
        let shipped = EdwardsPoint.baseComb.flatMap { $0 }
        func limbs(_ p: AffineCachedPoint) -> [UInt64] {
            [p.yPlusX, p.yMinusX, p.xy2d].flatMap { [$0.l0, $0.l1, $0.l2, $0.l3, $0.l4] }
        }
        #expect(EdwardsPoint.baseComb.map(\.count) == Array(repeating: 8, count: 32))
        #expect(shipped.map(limbs) == computed.map(limbs))
    }

    /// The odd multiples of B that `verify` reads (B, 3B, …, 127B) ship as a constant
    /// (BaseOddMultiples.swift); here they are computed from B as they used to be on the first
    /// verification of every run, and every limb must be the same.
    @Test func theShippedOddMultiplesAreTheComputedOnes() {
        var points: [EdwardsPoint] = []
        var multiple = EdwardsPoint.base
        let twice = EdwardsPoint.base.doubled.extended.cached
        for _ in 0..<64 {
            points.append(multiple)
            multiple = (multiple + twice).extended
        }
        let computed = AffineCachedPoint.normalizing(points)
        func limbs(_ p: AffineCachedPoint) -> [UInt64] {
            [p.yPlusX, p.yMinusX, p.xy2d].flatMap { [$0.l0, $0.l1, $0.l2, $0.l3, $0.l4] }
        }
        #expect(EdwardsPoint.baseOddMultiples.count == 64)
        #expect(EdwardsPoint.baseOddMultiples.map(limbs) == computed.map(limbs))
    }

    @Test func test1024MessageIsAsPrinted() {
        #expect(Self.test1024Message.count == 1023)
    }

    /// Any one bit changed in the message, the signature or the key, and it does not verify.
    @Test func aFlippedBitAnywhereIsRefused() throws {
        for example in Self.rfcExamples.prefix(3) {
            let publicKey = try #require(Hex.bytes(example.publicKey))
            let signature = try #require(Hex.bytes(example.signature))
            for bit in 0..<(example.message.count * 8) {
                var message = example.message
                message[bit / 8] ^= 1 << UInt8(bit % 8)
                #expect(!Ed25519.verify(signature: signature, message: message, publicKey: publicKey))
            }
            #expect(!Ed25519.verify(signature: signature, message: example.message + [0], publicKey: publicKey))
            for bit in 0..<512 {
                var tampered = signature
                tampered[bit / 8] ^= 1 << UInt8(bit % 8)
                #expect(!Ed25519.verify(signature: tampered, message: example.message, publicKey: publicKey))
            }
            for bit in 0..<256 {
                var tampered = publicKey
                tampered[bit / 8] ^= 1 << UInt8(bit % 8)
                #expect(!Ed25519.verify(signature: signature, message: example.message, publicKey: tampered))
            }
        }
    }

    /// RFC 8032 §5.1.7: S must be below L. S + L, S + 2L, … are the same scalar mod L and
    /// would verify if only the equation were checked.
    @Test func sAtOrAboveTheOrderIsRefused() throws {
        for example in Self.rfcExamples {
            let publicKey = try #require(Hex.bytes(example.publicKey))
            let signature = try #require(Hex.bytes(example.signature))
            let r = Array(signature[0..<32])
            var s = Array(signature[32..<64])
            for _ in 1...15 {  // S + 15L < 2^256 for every S < L
                s = Self.add(s, Self.order)
                #expect(!Ed25519.verify(signature: r + s, message: example.message, publicKey: publicKey))
            }
            for high in [Self.order, Self.add(Self.order, [1] + [UInt8](repeating: 0, count: 31))] {
                #expect(!Ed25519.verify(signature: r + high, message: example.message, publicKey: publicKey))
            }
            #expect(
                !Ed25519.verify(
                    signature: r + [UInt8](repeating: 0xff, count: 32), message: example.message,
                    publicKey: publicKey))
        }
        #expect(!Scalar25519.isCanonical(Self.order))
        #expect(Scalar25519.isCanonical(Self.subtractOne(Self.order)))
        #expect(Scalar25519.isCanonical([UInt8](repeating: 0, count: 32)))
    }

    /// RFC 8032 §5.1.3: y ≥ p is refused, though p + y reduces to the same y; so is x = 0
    /// with the sign bit set.
    @Test func nonCanonicalEncodingsAreRefused() throws {
        // p + k for k = 0...18: the only values ≥ p that fit in 255 bits.
        let p = try #require(Hex.bytes("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
        for k in 0...18 {
            var spelling = p
            spelling[0] &+= UInt8(k)
            for sign in [UInt8(0), 0x80] {
                var bytes = spelling
                bytes[31] |= sign
                #expect(EdwardsPoint(decoding: bytes) == nil, "p + \(k), sign \(sign)")
            }
        }
        // y = 3 is on the curve (a point of large order); p + 3 spells it again.
        let three = [3] + [UInt8](repeating: 0, count: 31)
        let a = try #require(EdwardsPoint(decoding: three))
        #expect(!a.hasSmallOrder)
        #expect(a.encoded == three)
        var threeAgain = p
        threeAgain[0] &+= 3
        #expect(EdwardsPoint(decoding: threeAgain) == nil)
        // The x = 0 points (y = 1 and y = −1) with the sign bit set.
        for y in [[1] + [UInt8](repeating: 0, count: 31), Self.subtractOne(p)] {
            #expect(EdwardsPoint(decoding: y) != nil)
            var negativeZero = y
            negativeZero[31] |= 0x80
            #expect(EdwardsPoint(decoding: negativeZero) == nil)
        }
        // y = 2 is not on the curve at all.
        #expect(EdwardsPoint(decoding: [2] + [UInt8](repeating: 0, count: 31)) == nil)

        // A signature whose R or A is respelled does not verify.
        let example = Self.rfcExamples[1]
        let publicKey = try #require(Hex.bytes(example.publicKey))
        let signature = try #require(Hex.bytes(example.signature))
        var negatedR = signature
        negatedR[31] ^= 0x80
        #expect(!Ed25519.verify(signature: negatedR, message: example.message, publicKey: publicKey))
        for k in 0...18 {
            var spelling = p
            spelling[0] &+= UInt8(k)
            #expect(
                !Ed25519.verify(signature: spelling + signature[32...], message: example.message, publicKey: publicKey))
            #expect(!Ed25519.verify(signature: signature, message: example.message, publicKey: spelling))
        }
    }

    /// The 8 small-order encodings are what the policy says: each decodes to a point of order
    /// dividing 8, they are distinct, and they are closed under addition — a group of 8, so
    /// the whole torsion subgroup (the curve has exactly 8 such points).
    @Test func theSmallOrderEncodingsAreTheTorsionSubgroup() throws {
        let points = try Ed25519.smallOrderEncodings.map { try #require(EdwardsPoint(decoding: $0)) }
        #expect(points.count == 8)
        #expect(Set(points.map(\.encoded)) == Ed25519.smallOrderEncodings)
        for point in points {
            #expect(point.hasSmallOrder)
            for other in points {
                #expect(Ed25519.smallOrderEncodings.contains((point + other.cached).extended.encoded))
            }
        }
        #expect(!EdwardsPoint.base.hasSmallOrder)
        // B plus a point of order 8 has mixed order: not small, and allowed as a key.
        let mixed = (EdwardsPoint.base + points[4].cached).extended
        #expect(!mixed.hasSmallOrder)
    }

    /// A small-order key makes the cofactorless equation hold with S = 0 for many messages
    /// (the identity as A: for every message); the policy refuses such keys outright.
    @Test func smallOrderKeysAreRefusedEvenWhereTheEquationHolds() {
        let zero = [UInt8](repeating: 0, count: 32)
        var equationHeld = 0
        for keyBytes in Ed25519.smallOrderEncodings {
            guard let key = EdwardsPoint(decoding: keyBytes) else {
                Issue.record("small-order encoding does not decode")
                continue
            }
            for rBytes in Ed25519.smallOrderEncodings {
                for message in [[], Array("hello".utf8), [0xff, 0x00]] {
                    let k = Self.challenge(r: rBytes, publicKey: keyBytes, message: message)
                    if EdwardsPoint.verificationCombination(s: zero, k: k, a: key).encoded == rBytes {
                        equationHeld += 1
                    }
                    #expect(!Ed25519.verify(signature: rBytes + zero, message: message, publicKey: keyBytes))
                }
            }
        }
        #expect(equationHeld >= 24)  // at least: the identity as key and R, for each message
    }

    /// A signer who knows the secret can make R the identity (S = k·a); the equation holds, but
    /// no honest signer produces a small-order R, and the policy refuses it.
    @Test func smallOrderRIsRefusedEvenWhereTheEquationHolds() throws {
        let example = Self.rfcExamples[0]
        let seed = try #require(Hex.bytes(example.seed))
        let publicKey = try #require(Hex.bytes(example.publicKey))
        var scalar = Array(SHA512.hash(seed)[0..<32])
        scalar[0] &= 248
        scalar[31] = scalar[31] & 127 | 64
        let identity = [1] + [UInt8](repeating: 0, count: 31)
        let message = Array("forged with a known key".utf8)
        let k = Self.challenge(r: identity, publicKey: publicKey, message: message)
        let s = Scalar25519.multiplyAdd(k, scalar, [UInt8](repeating: 0, count: 32))
        let a = try #require(EdwardsPoint(decoding: publicKey))
        #expect(EdwardsPoint.verificationCombination(s: s, k: k, a: a).encoded == identity)
        #expect(!Ed25519.verify(signature: identity + s, message: message, publicKey: publicKey))
    }

    /// Wrong lengths give nil or false, never a crash.
    @Test func wrongLengthsGiveNilOrFalse() throws {
        let example = Self.rfcExamples[2]
        let seed = try #require(Hex.bytes(example.seed))
        let publicKey = try #require(Hex.bytes(example.publicKey))
        let signature = try #require(Hex.bytes(example.signature))
        for length in [0, 1, 31, 33, 64] {
            let wrong = [UInt8](repeating: 7, count: length)
            #expect(Ed25519.publicKey(seed: wrong) == nil)
            #expect(Ed25519.sign(message: example.message, seed: wrong) == nil)
            #expect(!Ed25519.verify(signature: signature, message: example.message, publicKey: wrong))
            #expect(EdwardsPoint(decoding: wrong) == nil)
        }
        for length in [0, 1, 32, 63, 65, 96, 128] {
            let wrong = Array((signature + signature).prefix(length))
            #expect(!Ed25519.verify(signature: wrong, message: example.message, publicKey: publicKey))
        }
        #expect(!Ed25519.verify(signature: signature + [0], message: example.message, publicKey: publicKey))
        #expect(!Ed25519.verify(signature: signature, message: example.message, publicKey: publicKey + [0]))
        #expect(Ed25519.verify(signature: signature, message: example.message, publicKey: publicKey))
        #expect(Ed25519.publicKey(seed: seed) == publicKey)
    }

    /// The constants written out as limbs are the values they are named after.
    @Test func curveConstants() throws {
        let d = FieldElement.d
        #expect(d * FieldElement(121_666, 0, 0, 0, 0) == -FieldElement(121_665, 0, 0, 0, 0))
        #expect(FieldElement.d2 == d + d)
        #expect(FieldElement.sqrtMinusOne.squared() == -FieldElement.one)
        #expect(FieldElement.sqrtMinusOne.isNegative == 0)
        // B: y = 4/5, the encoding RFC 8032 gives, and on the curve.
        let base = EdwardsPoint.base
        #expect(base.y * FieldElement(5, 0, 0, 0, 0) == FieldElement(4, 0, 0, 0, 0))
        #expect(Hex.string(base.encoded) == "58" + String(repeating: "66", count: 31))
        let xx = base.x.squared()
        let yy = base.y.squared()
        #expect(yy - xx == .one + d * xx * yy)
        // [L]B is the identity, by either multiplication.
        let identity = [1] + [UInt8](repeating: 0, count: 31)
        #expect(EdwardsPoint.baseMultiple(Self.order).encoded == identity)
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(EdwardsPoint.verificationCombination(s: Self.order, k: zero, a: base).encoded == identity)
        #expect(EdwardsPoint.baseMultiple(zero).encoded == identity)
        // Inverting, and the canonical form of values at and above p.
        let seven = FieldElement(7, 0, 0, 0, 0)
        #expect(seven * seven.inverted() == .one)
        #expect(FieldElement.zero.inverted().isZero)
        let p = FieldElement(
            FieldElement.mask51 - 18, FieldElement.mask51, FieldElement.mask51, FieldElement.mask51,
            FieldElement.mask51)
        #expect(p.isZero)
        #expect((p + .one).canonicalBytes == identity)
    }

    /// The constant-time comb and the variable-time windows are different algorithms; they
    /// agree on [s]B for many s, and with [s]B − [k]A for A = B.
    @Test func bothMultiplicationsAgree() {
        var source = SeededBytes(seed: 25519)
        let zero = [UInt8](repeating: 0, count: 32)
        for _ in 0..<40 {
            let s = Scalar25519.reduce(source.bytes(64))
            let k = Scalar25519.reduce(source.bytes(64))
            let sB = EdwardsPoint.baseMultiple(s)
            #expect(EdwardsPoint.verificationCombination(s: s, k: zero, a: .base).encoded == sB.encoded)
            let kB = EdwardsPoint.baseMultiple(k)
            let difference = (sB - kB.cached).extended.encoded
            #expect(EdwardsPoint.verificationCombination(s: s, k: k, a: .base).encoded == difference)
        }
    }

    /// Reduction mod L against values computed with Python's integers.
    @Test func scalarReduction() throws {
        let allOnes = [UInt8](repeating: 0xff, count: 64)
        #expect(
            Hex.string(Scalar25519.reduce(allOnes))
                == "000f9c44e31106a447938568a71b0ed065bef517d273ecce3d9a307c1b419903")
        // L·2^259 + 5 → 5.
        let multiple = try #require(
            Hex.bytes(
                "0500000000000000000000000000000000000000000000000000000000000000"
                    + "689faee7d21893c0b2e6bc17f5cef7a600000000000000000000000000000080"))
        #expect(Scalar25519.reduce(multiple) == [5] + [UInt8](repeating: 0, count: 31))
        #expect(Scalar25519.reduce(Self.order + [UInt8](repeating: 0, count: 32)) == [UInt8](repeating: 0, count: 32))
        let belowOrder = Self.subtractOne(Self.order)
        #expect(Scalar25519.reduce(belowOrder + [UInt8](repeating: 0, count: 32)) == belowOrder)
        // (2^255 − 8)(L − 1) + (L − 2): the largest operands signing can give.
        let a = try #require(Hex.bytes("f8ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
        let c = Self.subtractOne(belowOrder)
        #expect(
            Hex.string(Scalar25519.multiplyAdd(a, belowOrder, c))
                == "6e9faee7d21893c0b2e6bc17f5cef7a600000000000000000000000000000000")
    }

    // MARK: Wycheproof

    static let vectorsPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Vectors/wycheproof-ed25519.json").path

    /// Every vector in Wycheproof's ed25519_test.json: "valid" verifies, "invalid" does not.
    /// The file has no "acceptable" vectors; were one added, this test reports it.
    @Test func wycheproof() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.vectorsPath))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["algorithm"] as? String == "EDDSA")
        let declared = try #require(root["numberOfTests"] as? Int)
        let groups = try #require(root["testGroups"] as? [[String: Any]])
        var counts: [String: Int] = [:]
        var passed = 0
        for group in groups {
            let key = try #require(group["publicKey"] as? [String: Any])
            #expect(key["curve"] as? String == "edwards25519")
            let publicKeyHex = try #require(key["pk"] as? String)
            let publicKey = try #require(Hex.bytes(publicKeyHex))
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let id = test["tcId"] as? Int ?? -1
                let messageHex = try #require(test["msg"] as? String)
                let signatureHex = try #require(test["sig"] as? String)
                let message = try #require(Hex.bytes(messageHex))
                let signature = try #require(Hex.bytes(signatureHex))
                let result = try #require(test["result"] as? String)
                counts[result, default: 0] += 1
                let verified = Ed25519.verify(signature: signature, message: message, publicKey: publicKey)
                switch result {
                case "valid":
                    #expect(verified, "tcId \(id): \(test["comment"] ?? "")")
                    passed += verified ? 1 : 0
                case "invalid":
                    #expect(!verified, "tcId \(id): \(test["comment"] ?? "")")
                    passed += verified ? 0 : 1
                default:
                    Issue.record("tcId \(id) is \"\(result)\"; this file had none such when the policy was chosen")
                }
            }
        }
        let run = counts.values.reduce(0, +)
        #expect(run == declared)
        #expect(counts == ["valid": 88, "invalid": 63])
        #expect(passed == run)
    }

    // MARK: Helpers

    /// k = SHA-512(R ‖ A ‖ M) mod L, as the verifier computes it.
    static func challenge(r: [UInt8], publicKey: [UInt8], message: [UInt8]) -> [UInt8] {
        Scalar25519.reduce(SHA512.hash(r + publicKey + message))
    }

    /// a + b for 32-byte little-endian numbers, modulo 2^256.
    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var sum: [UInt8] = []
        var carry = 0
        for index in 0..<32 {
            let total = Int(a[index]) + Int(b[index]) + carry
            sum.append(UInt8(total & 0xff))
            carry = total >> 8
        }
        return sum
    }

    /// a − 1 for a nonzero 32-byte little-endian number.
    static func subtractOne(_ a: [UInt8]) -> [UInt8] {
        var result = a
        for index in 0..<32 {
            let (value, borrow) = result[index].subtractingReportingOverflow(1)
            result[index] = value
            if !borrow { break }
        }
        return result
    }
}
