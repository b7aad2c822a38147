import Testing

@testable import LifeSignalCore

// SHA-512 against the examples published with FIPS 180-4 (NIST's "SHA512.pdf" and the
// one-million-'a' message), plus lengths that put the padding on each side of a block edge,
// whose digests were computed with Python's hashlib as an independent implementation.

@Suite struct SHA512Tests {
    static let nistExamples: [(message: [UInt8], digest: String)] = [
        (
            [],
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        ),
        (
            Array("abc".utf8),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        (
            // The 896-bit example: fourteen runs of eight consecutive letters.
            Array(
                ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        ),
        (
            [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
        ),
    ]

    @Test func nistExamples() {
        for (message, digest) in Self.nistExamples {
            #expect(Hex.string(SHA512.hash(message)) == digest, "length \(message.count)")
        }
    }

    @Test func theNISTLongMessageInPiecesOfEveryOddSize() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var hasher = SHA512()
        var start = 0
        var size = 1
        while start < message.count {
            let end = min(start + size, message.count)
            hasher.update(message[start..<end])
            start = end
            size = size % 300 + 7
        }
        #expect(Hex.string(hasher.finalize()) == Self.nistExamples[3].digest)
    }

    /// 111 bytes is the most that leaves room for the 0x80 byte and the 16-byte length in one
    /// block; from 112 on the padding takes a second block; 128 fills a block exactly.
    static let paddingEdge: [Int: String] = [
        111: "68cffa6d0d76f309c9ce0d35280939f8e25990c43b7b086ccdf709be35b07d4d"
            + "dba599541ff2b1c19d34ea49aeafb9659adb7ac3c0b078bb30a22d57fc6687ef",
        112: "d0865c524d1dddf7c23b799c413f5adcd7caefd3f66a9b49750ec81066012c25"
            + "a8bcf94ddea6dc525691673097ca40e0101e897fc97218cfdb0704084e2bef4b",
        113: "606314353bd419f9f7720e8297f2af8a9ed5f0bb0bed29b716bf18e34577623a"
            + "e7effa46f496bd4282134e7e895284a4760a910d2ad8ec11e9dd75863058cd9c",
        127: "e0b6a20f1c0c88970a9340152cd5a1c1ecf3d3b8de5510274187943807947354"
            + "0133b812706e5dbec322c8c9523b6fc8c6d16ee626e87ad5fe3d2916afedc369",
        128: "99b16f17aa0b969a5b8f08f367719d516e330ccd2660b6f0688ec031dbc783de"
            + "50a1cd185a2568dba75070a2403d17d4741d163578515dfd2ff756ddfe4d47b1",
        129: "a1556e29185778aa5991e34b8884c840d589f0fbb4b8ed590e51e9ac4eb03a00"
            + "8125000db2671f8fe7f485b59a77b518670078ecb41a54b4cd02a7f1d2ca4c6d",
        239: "18ee83f30261c3c645d52aee6a209105b25bba39d33845ef48984cc238e4f216"
            + "61fb7bd7dd4336f71c40fe87d95e5115d6c7be52e0d3e7e7877d24500b5b58df",
        240: "9d60ee60d29ec4fa0b9690c04c1c29413bbe3ed345639182d9d53dcc05926b77"
            + "b04f4fec1562fb85182954c96b7cbb5d5e4410251ff4f352d09a2da90419fb13",
        255: "c2e3bb67012f9eb526202efa59997933f7d3e75e7ded738818bc27d94977f457"
            + "3afddb1b2793745701e62affa3b7a1c8262c992a321f488a6b1942a4795bab98",
        256: "e49c208e41556e859d1a52d14784a061c2d5ae2c8690a5360e9f9344f60861c1"
            + "362a9ec05a9f08a4167b3da41bdd122a387413dd06976470e4beff5053f2ac71",
    ]

    @Test func lengthsAroundThePaddingEdge() {
        for (length, digest) in Self.paddingEdge.sorted(by: { $0.key < $1.key }) {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
            #expect(Hex.string(SHA512.hash(message)) == digest, "length \(length)")
            // The same bytes from a sequence with no contiguous storage take the other path in.
            let lazy = (0..<length).lazy.map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
            #expect(Hex.string(SHA512.hash(lazy)) == digest, "length \(length), not contiguous")
        }
    }

    /// Split once at every offset, and into three at many pairs of offsets, the incremental
    /// digest is the one-shot digest.
    @Test func incrementalUpdatesAtEveryOffsetGiveTheOneShotDigest() {
        var source = SeededBytes(seed: 512)
        let message = source.bytes(300)
        let whole = SHA512.hash(message)
        for cut in 0...message.count {
            var hasher = SHA512()
            hasher.update(message[..<cut])
            hasher.update(message[cut...])
            #expect(hasher.finalize() == whole, "cut at \(cut)")
        }
        for first in stride(from: 0, through: message.count, by: 13) {
            for second in stride(from: first, through: message.count, by: 17) {
                var hasher = SHA512()
                hasher.update(message[..<first])
                hasher.update([UInt8]())
                hasher.update(Array(message[first..<second]))
                hasher.update(message[second...])
                #expect(hasher.finalize() == whole, "cuts at \(first) and \(second)")
            }
        }
    }

    /// `finalize` leaves the computation as it was: a prefix's digest, then more input.
    @Test func finalizeDoesNotEndTheComputation() {
        var hasher = SHA512()
        hasher.update(Array("ab".utf8))
        let prefix = hasher.finalize()
        hasher.update(Array("c".utf8))
        #expect(prefix == SHA512.hash(Array("ab".utf8)))
        #expect(Hex.string(hasher.finalize()) == Self.nistExamples[1].digest)
        #expect(hasher.finalize() == hasher.finalize())
    }
}
