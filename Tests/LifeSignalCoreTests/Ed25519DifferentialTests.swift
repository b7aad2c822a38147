import Foundation
import TestSupport
import Testing

@testable import LifeSignalCore

// Ed25519 against an independent implementation: OpenSSL's, through Python's `cryptography`
// package (Debian's python3-cryptography, run by /usr/bin/python3). Thousands of random
// keys and messages go both ways in one Python process — keys and signatures made here are
// compared byte for byte and verified there, signatures made there by keys it drew itself are
// verified here — and tampered signatures must be refused by both. Skipped, with the reason
// shown, where that Python or package is missing.

/// Where the independent implementation is: owns the interpreter's path and whether it can
/// import the package.
enum PythonEd25519 {
    static let interpreter = "/usr/bin/python3"

    /// Whether `interpreter` runs and imports cryptography's Ed25519.
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: interpreter) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = ["-c", "from cryptography.hazmat.primitives.asymmetric import ed25519"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Reads one request a line and answers each in order, after reading them all:
    ///   S seed message publicKey signature → "key sign verify", three 0/1: whether the key
    ///     derived from seed and the signature it makes are those given, and whether it verifies;
    ///   V publicKey message signature → 0/1, whether it verifies;
    ///   G count → count lines "publicKey message signature" by fresh random keys.
    /// Bytes are hex, "-" for none.
    static let script = """
        import os, secrets, sys
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

        def unhex(text):
            return b"" if text == "-" else bytes.fromhex(text)

        def raw(public_key):
            return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

        def verifies(public_key, message, signature):
            try:
                Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
                return 1
            except (InvalidSignature, ValueError):
                return 0

        answers = []
        for line in sys.stdin.read().splitlines():
            kind, *fields = line.split()
            if kind == "S":
                seed, message, public_key, signature = map(unhex, fields)
                key = Ed25519PrivateKey.from_private_bytes(seed)
                answers.append("%d %d %d" % (
                    raw(key.public_key()) == public_key,
                    key.sign(message) == signature,
                    verifies(public_key, message, signature)))
            elif kind == "V":
                answers.append("%d" % verifies(*map(unhex, fields)))
            elif kind == "G":
                for _ in range(int(fields[0])):
                    key = Ed25519PrivateKey.generate()
                    message = os.urandom(secrets.randbelow(301))
                    answers.append("%s %s %s" % (
                        raw(key.public_key()).hex(), message.hex() or "-", key.sign(message).hex()))
        sys.stdout.write("\\n".join(answers) + "\\n")
        """

    /// The answers to `requests`, one line each, from one run of `script`.
    static func run(_ requests: [String]) throws -> [Substring] {
        let folder = Scratch.root.appendingPathComponent(
            "lifesignal-ed25519-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Requests and errors go through files, so neither side can block on a full pipe.
        let input = folder.appendingPathComponent("requests")
        let errors = folder.appendingPathComponent("errors")
        try Data((requests.joined(separator: "\n") + "\n").utf8).write(to: input)
        try Data().write(to: errors)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = ["-c", script]
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardError = try FileHandle(forWritingTo: errors)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let answers = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "python3 failed: \(errorText)")
        return String(decoding: answers, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map { $0 }
    }
}

@Suite(.integration) struct Ed25519DifferentialTests {
    static let signedHere = 2_000
    static let signedThere = 500
    static let tampered = 400

    /// One key and message: owns the seed, the message, and the key and signature made here.
    struct Case {
        var seed: [UInt8]
        var message: [UInt8]
        var publicKey: [UInt8]
        var signature: [UInt8]
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.isEmpty ? "-" : Hex.string(bytes) }

    @Test(
        .enabled(
            if: PythonEd25519.isAvailable,
            "/usr/bin/python3 with the cryptography package is not installed (Debian: python3-cryptography)"))
    func agreesWithOpenSSLBothWays() throws {
        var source = SeededBytes(seed: 0x5eed_2551_9)
        var cases: [Case] = []
        for _ in 0..<Self.signedHere {
            let seed = source.bytes(32)
            let message = source.bytes(source.below(300))
            let publicKey = try #require(Ed25519.publicKey(seed: seed))
            let signature = try #require(Ed25519.sign(message: message, seed: seed))
            #expect(Ed25519.verify(signature: signature, message: message, publicKey: publicKey))
            cases.append(Case(seed: seed, message: message, publicKey: publicKey, signature: signature))
        }

        // Tampered copies of those: each changed in one way that must make both refuse it.
        var tampered: [Case] = []
        let order = Hex.bytes("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010") ?? []
        for index in 0..<Self.tampered {
            var changed = cases[index]
            let other = cases[(index + 1) % cases.count]
            switch index % 6 {
            case 0:
                changed.signature[source.below(63)] ^= 1 << UInt8(source.below(7))
            case 1:
                if changed.message.isEmpty {
                    changed.message = [0]
                } else {
                    changed.message[source.below(changed.message.count - 1)] ^= 1 << UInt8(source.below(7))
                }
            case 2:
                changed.publicKey[source.below(31)] ^= 1 << UInt8(source.below(7))
            case 3:  // S + L: the same scalar mod L, refused because S ≥ L
                changed.signature =
                    Array(changed.signature[0..<32])
                    + Ed25519Tests.add(
                        Array(changed.signature[32..<64]), order)
            case 4:
                changed.message = other.message + [1]
            default:  // another signature's R
                changed.signature = Array(other.signature[0..<32]) + changed.signature[32..<64]
            }
            #expect(
                !Ed25519.verify(signature: changed.signature, message: changed.message, publicKey: changed.publicKey),
                "tampered case \(index) verified here")
            tampered.append(changed)
        }

        var requests = cases.map {
            "S \(Self.hex($0.seed)) \(Self.hex($0.message)) \(Self.hex($0.publicKey)) \(Self.hex($0.signature))"
        }
        requests += tampered.map {
            "V \(Self.hex($0.publicKey)) \(Self.hex($0.message)) \(Self.hex($0.signature))"
        }
        requests.append("G \(Self.signedThere)")
        let answers = try PythonEd25519.run(requests)
        try #require(answers.count == Self.signedHere + Self.tampered + Self.signedThere)

        var agreed = 0
        for (index, answer) in answers[0..<Self.signedHere].enumerated() {
            let item = cases[index]
            #expect(
                answer == "1 1 1",
                """
                seed \(Self.hex(item.seed)) message \(Self.hex(item.message)): \
                OpenSSL says key/signature/verifies = \(answer)
                """)
            agreed += answer == "1 1 1" ? 1 : 0
        }
        for (index, answer) in answers[Self.signedHere..<(Self.signedHere + Self.tampered)].enumerated() {
            #expect(answer == "0", "tampered case \(index) verified under OpenSSL")
        }
        var verifiedHere = 0
        for line in answers[(Self.signedHere + Self.tampered)...] {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 3, let publicKey = Hex.bytes(fields[0]), let signature = Hex.bytes(fields[2]),
                let message = fields[1] == "-" ? [] : Hex.bytes(fields[1])
            else {
                Issue.record("unreadable line from python3: \(line)")
                continue
            }
            let verified = Ed25519.verify(signature: signature, message: message, publicKey: publicKey)
            #expect(verified, "OpenSSL's signature does not verify here: \(line)")
            verifiedHere += verified ? 1 : 0
        }
        #expect(agreed == Self.signedHere)
        #expect(verifiedHere == Self.signedThere)
    }
}
