import Foundation
import TestSupport
import Testing

@testable import LifeSignalCore

// HMAC-SHA-512 against RFC 4231's test cases 1–7 (test case 5 is published truncated to 128
// bits), PBKDF2-HMAC-SHA-512 against the widely published vectors for "password"/"salt" (the
// RFC 6070 inputs, computed for SHA-512), and both against Python's hashlib (OpenSSL) for
// random inputs of every awkward length: keys and salts around the block size, outputs that
// end mid-block and span several blocks.

@Suite struct PBKDF2Tests {
    static let rfc4231: [(key: [UInt8], data: [UInt8], mac: String)] = [
        (
            [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        ),
        (
            [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
                + "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"
        ),
        (
            Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
                + "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"
        ),
        ([UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8), "415fad6271580a531d4179bc891d87a6"),
        (
            [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
                + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"
        ),
    ]

    @Test func hmacMatchesRFC4231() {
        for (index, vector) in Self.rfc4231.enumerated() {
            let mac = Hex.string(HMACSHA512.mac(key: vector.key, vector.data))
            #expect(mac.hasPrefix(vector.mac), "RFC 4231 test case \(index + 1)")
            #expect(mac.count == 128)
        }
    }

    static let pbkdf2: [(password: String, salt: String, iterations: Int, key: String)] = [
        (
            "password", "salt", 1,
            "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252"
                + "c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce"
        ),
        (
            "password", "salt", 2,
            "e1d9c16aa681708a45f5c7c4e215ceb66e011a2e9f0040713f18aefdb866d53c"
                + "f76cab2868a39b9f7840edce4fef5a82be67335c77a6068e04112754f27ccf4e"
        ),
        (
            "password", "salt", 4096,
            "d197b1b33db0143e018b12f3d1d1479e6cdebdcc97c5c0f87f6902e072f457b5"
                + "143f30602641b3d55cd335988cb36b84376060ecd532e039b742a239434af2d5"
        ),
        (
            "passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096,
            "8c0511f4c6e597c6ac6315d8f0362e225f3c501495ba23b868c005174dc4ee71"
                + "115b59f9e60cd9532fa33e0f75aefe30225c583a186cd82bd4daea9724a3d3b8"
        ),
    ]

    @Test func pbkdf2MatchesThePublishedVectors() throws {
        for vector in Self.pbkdf2 {
            let key = try PBKDF2.sha512(
                password: Array(vector.password.utf8), salt: Array(vector.salt.utf8), iterations: vector.iterations)
            #expect(Hex.string(key) == vector.key, "\(vector.password) / \(vector.salt) / \(vector.iterations)")
        }
    }

    /// A shorter key is a prefix of the longer one; a longer one spans more than one block.
    @Test func outputLengthsArePrefixesAndSpanBlocks() throws {
        let long = try PBKDF2.sha512(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: 2, length: 150)
        #expect(long.count == 150)
        #expect(Hex.string(long.prefix(64)) == Self.pbkdf2[1].key)
        let short = try PBKDF2.sha512(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: 2, length: 20)
        #expect(short == Array(long.prefix(20)))
    }

    @Test func nothingIsDerivedFromZeroIterationsOrLength() {
        #expect(throws: PBKDF2.Problem.noIterations) { try PBKDF2.sha512(password: [1], salt: [2], iterations: 0) }
        #expect(throws: PBKDF2.Problem.noLength) {
            try PBKDF2.sha512(password: [1], salt: [2], iterations: 1, length: 0)
        }
    }

    @Test func equalityLooksAtEveryByteAndTheLength() {
        #expect(PBKDF2.equal([1, 2, 3], [1, 2, 3]))
        #expect(!PBKDF2.equal([1, 2, 3], [1, 2, 4]))
        #expect(!PBKDF2.equal([1, 2, 3], [9, 2, 3]))
        #expect(!PBKDF2.equal([1, 2, 3], [1, 2]))
        #expect(PBKDF2.equal([], []))
    }
}

/// PBKDF2 and HMAC against Python's hashlib and hmac (OpenSSL underneath), for random inputs.
@Suite(.integration) struct PBKDF2DifferentialTests {
    static let interpreter = "/usr/bin/python3"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: interpreter), "/usr/bin/python3 is not installed"))
    func agreesWithHashlib() throws {
        var source = SeededBytes(seed: 0x0bad_5eed_5512)
        var requests: [String] = []
        var expected: [String] = []
        func hex(_ bytes: [UInt8]) -> String { bytes.isEmpty ? "-" : Hex.string(bytes) }
        for index in 0..<300 {
            // Keys around the block size (hashed first above 128 bytes), any salt, short runs.
            let password = source.bytes([0, 1, 63, 64, 127, 128, 129, 200][index % 8] + source.below(3))
            let salt = source.bytes(source.below(140))
            let iterations = 1 + source.below(40)
            let length = 1 + source.below(200)
            let key = try PBKDF2.sha512(password: password, salt: salt, iterations: iterations, length: length)
            requests.append("P \(hex(password)) \(hex(salt)) \(iterations) \(length)")
            expected.append(Hex.string(key))
            let message = source.bytes(source.below(300))
            requests.append("H \(hex(password)) \(hex(message))")
            expected.append(Hex.string(HMACSHA512.mac(key: password, message)))
        }
        let answers = try Self.run(requests)
        #expect(answers.count == expected.count)
        for (index, (answer, mine)) in zip(answers, expected).enumerated() where answer != mine {
            Issue.record("request \(index) (\(requests[index].prefix(60))…): python \(answer), here \(mine)")
        }
    }

    static let script = """
        import hashlib, hmac, sys
        def unhex(text):
            return b"" if text == "-" else bytes.fromhex(text)
        out = []
        for line in sys.stdin.read().splitlines():
            kind, *fields = line.split()
            if kind == "P":
                out.append(hashlib.pbkdf2_hmac("sha512", unhex(fields[0]), unhex(fields[1]), int(fields[2]), int(fields[3])).hex())
            else:
                out.append(hmac.new(unhex(fields[0]), unhex(fields[1]), hashlib.sha512).hexdigest())
        sys.stdout.write("\\n".join(out) + "\\n")
        """

    static func run(_ requests: [String]) throws -> [String] {
        let input = Scratch.root.appendingPathComponent(
            "lifesignal-pbkdf2-\(UUID().uuidString)")
        try Data((requests.joined(separator: "\n") + "\n").utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = ["-c", script]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let answers = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: answers, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
