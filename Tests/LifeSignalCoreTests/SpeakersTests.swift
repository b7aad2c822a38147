import Testing

@testable import LifeSignalCore

// Who speaks for a member (Speakers.swift): the roots a reader pinned, enrollments from a device
// that counts, revocations, the recovery key, first sight, and devices of an older lifesignal.

@Suite struct SpeakersTests {
    static let member = "0a0a0a0a-0000-4000-8000-00000000000a"

    /// A device with a key made from `n`, whose log enrolled `enrolls` and revoked `revokes`.
    struct Device {
        var id: String
        var key: SigningKey

        init(_ n: UInt8) {
            id = "0d0d0d0d-0000-4000-8000-0000000000\(n < 16 ? "0" : "")\(String(n, radix: 16))"
            // A 32-byte seed always makes a key; the fallback is never taken.
            var random = SystemRandomNumberGenerator()
            key = SigningKey(seed: [UInt8](repeating: n, count: 32)) ?? SigningKey.generate(using: &random)
        }

        var fingerprint: String { key.fingerprint }

        func voice(
            enrolls: [Device] = [], revokes: [(Device, through: Int64?)] = [], legacy: [Device] = [],
            signature: DeviceVoice.Signature = .valid, recovery: SigningKey? = nil, certificate: SigningKey? = nil,
            proof: String? = nil, lastSeq: Int64 = 5, at seq: Int64 = 1, clock: Int64 = 1, recoverySet: Int64? = nil
        ) -> DeviceVoice {
            var roster: [String: DeviceEntry] = [:]
            // Every statement of this log at record `seq` (clock `clock`); its recovery key at
            // record `recoverySet` (clock the same as the seq).
            let stamp = Stamp(clock: clock, at: Timestamp(seconds: 1_000), device: id, seq: seq)
            for other in enrolls { roster[other.id] = DeviceEntry(key: other.key.publicKeyText, enrolled: stamp) }
            for other in legacy { roster[other.id] = DeviceEntry(key: nil, enrolled: stamp) }
            for (other, through) in revokes {
                var entry = roster[other.id] ?? DeviceEntry(key: other.key.publicKeyText, enrolled: stamp)
                entry.revoked = stamp
                entry.revokedThrough = through
                roster[other.id] = entry
            }
            if let certificate {
                var own = DeviceEntry(key: key.publicKeyText, enrolled: stamp)
                own.certificate = KeyText.hex(
                    certificate.sign(
                        SignedStatement.recovery(member: SpeakersTests.member, device: id, key: key.publicKeyText)))
                roster[id] = own
            }
            if let proof {
                var own = DeviceEntry(key: key.publicKeyText, enrolled: stamp)
                own.proof = proof
                roster[id] = own
            }
            return DeviceVoice(
                device: id, key: signature == .unsigned ? nil : key.publicKeyText, signature: signature,
                roster: roster, recovery: recovery?.publicKeyText,
                recoverySet: recoverySet.map { Stamp(clock: $0, at: Timestamp(seconds: 1_000), device: id, seq: $0) },
                lastSeq: lastSeq)
        }
    }

    let a = Device(1)
    let b = Device(2)
    let c = Device(3)
    let mallory = Device(9)

    func resolve(_ voices: [DeviceVoice], pins: Set<String> = [], me: String? = nil, seen: TrustSeen = TrustSeen())
        -> Speakers
    {
        Speakers.resolve(member: Self.member, voices: voices, pins: pins, me: me, seen: seen)
    }

    @Test func aMemberThatNeverSignedIsBelievedAsBefore() {
        let found = resolve([a.voice(signature: .unsigned), b.voice(signature: .unsigned)])
        #expect(found.devices == [a.id: .olderVersion, b.id: .olderVersion])
        #expect(found.keys.isEmpty)
        #expect(found.olderVersions == [a.id, b.id])
    }

    @Test func aPinnedDeviceAndWhatItEnrolledCountNothingElse() {
        let unsigned = Device(4)
        let found = resolve(
            [
                a.voice(enrolls: [b]), b.voice(), mallory.voice(enrolls: [c]), c.voice(),
                unsigned.voice(signature: .unsigned),
            ],
            pins: [a.fingerprint])
        #expect(found.devices[a.id] == .trusted)
        #expect(found.devices[b.id] == .trusted)
        #expect(found.devices[mallory.id] == .notEnrolled)
        // Enrolled only by a device that does not count.
        #expect(found.devices[c.id] == .notEnrolled)
        #expect(found.devices[unsigned.id] == .notSigned)
        #expect(found.believed == [a.id, b.id])
        #expect(found.fingerprints == [a.fingerprint, b.fingerprint])
        #expect(!found.firstSight)
    }

    @Test func anEnrollmentNamesTheKeyNotJustTheDevice() {
        // Mallory writes a log in b's folder signed with his own key: a's enrollment names b's key.
        var forged = mallory.voice()
        forged.device = b.id
        let found = resolve([a.voice(enrolls: [b]), forged], pins: [a.fingerprint])
        #expect(found.devices[b.id] == .notEnrolled)
    }

    @Test func aBadSignatureCountsForNothingEvenPinned() {
        let found = resolve([a.voice(signature: .invalid("changed"))], pins: [a.fingerprint])
        #expect(found.devices[a.id] == .badSignature("changed"))
        #expect(found.believed.isEmpty)
    }

    @Test func pinnedDevicesThatAreGoneLeaveNobody() {
        let found = resolve([mallory.voice()], pins: [a.fingerprint])
        #expect(found.devices[mallory.id] == .notEnrolled)
        #expect(found.believed.isEmpty)
    }

    @Test func aRevokedDeviceThatWritesAgainCountsForNothingNorWhatOnlyItEnrolled() {
        let found = resolve(
            [a.voice(enrolls: [b], revokes: [(b, through: 5)]), b.voice(enrolls: [c], lastSeq: 6), c.voice()],
            pins: [a.fingerprint])
        guard case .revoked? = found.devices[b.id] else {
            Issue.record("b: \(String(describing: found.devices[b.id]))")
            return
        }
        #expect(found.devices[c.id] == .notEnrolled)
        #expect(found.believed == [a.id])
    }

    @Test func aRevokedDeviceThatStaysSilentKeepsWhatItWrote() {
        let found = resolve(
            [a.voice(enrolls: [b], revokes: [(b, through: 5)]), b.voice(lastSeq: 5)], pins: [a.fingerprint])
        guard case .retired? = found.devices[b.id] else {
            Issue.record("b: \(String(describing: found.devices[b.id]))")
            return
        }
        #expect(found.believed == [a.id, b.id])
        // Its key is kept to check its files, but nobody pins it.
        #expect(found.keys[b.id] != nil)
        #expect(found.fingerprints == [a.fingerprint])
    }

    @Test func revokingTheFirstDeviceLeavesTheOthersTheReaderPinned() {
        let found = resolve(
            [a.voice(enrolls: [b]), b.voice(enrolls: [a], revokes: [(a, through: nil)])],
            pins: [a.fingerprint, b.fingerprint])
        guard case .revoked? = found.devices[a.id] else {
            Issue.record("a: \(String(describing: found.devices[a.id]))")
            return
        }
        #expect(found.devices[b.id] == .trusted)
    }

    /// A stolen laptop, already revoked, revokes the device that revoked it: what it writes after
    /// the last of its records the revoking device saw counts for nothing, revocations included,
    /// whatever time or clock it puts on them.
    @Test func aRevokedDeviceCannotRevokeTheDeviceThatRevokedIt() {
        for clock: Int64 in [0, 1, 99] {
            let found = resolve(
                [
                    a.voice(enrolls: [b], revokes: [(b, through: 5)], lastSeq: 9, at: 6, clock: 10),
                    b.voice(enrolls: [a], revokes: [(a, through: 9)], lastSeq: 6, at: 6, clock: clock),
                ],
                pins: [a.fingerprint, b.fingerprint])
            #expect(found.devices[a.id] == .trusted, "clock \(clock): \(found.devices)")
            guard case .revoked? = found.devices[b.id] else {
                Issue.record("b: \(String(describing: found.devices[b.id]))")
                return
            }
            #expect(found.disputed.isEmpty)
            #expect(found.revocations[a.id] == nil)
        }
        // It revoked the other while it still counted (before the record the other last saw):
        // that revocation stands, and the other's later one of it is void.
        let first = resolve(
            [
                a.voice(enrolls: [b], revokes: [(b, through: 6)], lastSeq: 9, at: 7),
                b.voice(enrolls: [a], revokes: [(a, through: 6)], lastSeq: 6, at: 4),
            ],
            pins: [a.fingerprint, b.fingerprint])
        #expect(first.devices[b.id] == .trusted)
        guard case .revoked? = first.devices[a.id] else {
            Issue.record("a: \(String(describing: first.devices[a.id]))")
            return
        }
    }

    /// Two devices that revoked each other, each before it saw the other's revocation: neither
    /// can take the member's voice from the other alone. Both stand revoked, the dispute is
    /// said, and the recovery code settles it.
    @Test func devicesThatRevokedEachOtherAreSettledByTheRecoveryCode() {
        var generator = SystemRandomNumberGenerator()
        let recovery = SigningKey.generate(using: &generator)
        let a1 = a.voice(
            enrolls: [b], revokes: [(b, through: 4)], recovery: recovery, lastSeq: 9, at: 6, recoverySet: 1)
        let b1 = b.voice(enrolls: [a], revokes: [(a, through: 5)], lastSeq: 6, at: 5)
        let found = resolve([a1, b1], pins: [a.fingerprint, b.fingerprint])
        #expect(found.disputed == [a.id, b.id])
        #expect(found.believed.isEmpty, "\(found.devices)")
        // A device the recovery code enrolled counts, and its revocation of the thief stands.
        let settled = resolve(
            [a1, b1, c.voice(revokes: [(b, through: 6)], certificate: recovery, at: 2, clock: 20)],
            pins: [a.fingerprint, b.fingerprint])
        #expect(settled.devices[c.id] == .trusted, "\(settled.devices)")
        #expect(settled.believed == [c.id])
    }

    /// A recovery code replaced by `circle recovery` (on any device) enrolls nothing new; a
    /// device it enrolled before the new one was set stays.
    @Test func aReplacedRecoveryCodeEnrollsNothingNew() {
        var generator = SystemRandomNumberGenerator()
        let old = SigningKey.generate(using: &generator)
        let new = SigningKey.generate(using: &generator)
        let d = Device(4)
        let voices = [
            a.voice(enrolls: [b], recovery: new, recoverySet: 8), b.voice(enrolls: [a], recovery: old, recoverySet: 1),
        ]
        let pins: Set<String> = [a.fingerprint, b.fingerprint]
        let late = resolve(voices + [c.voice(certificate: old, at: 1, clock: 9)], pins: pins)
        #expect(late.devices[c.id] == .notEnrolled, "\(late.devices)")
        let current = resolve(voices + [d.voice(certificate: new, at: 1, clock: 9)], pins: pins)
        #expect(current.devices[d.id] == .trusted, "\(current.devices)")
        let before = resolve(voices + [c.voice(certificate: old, at: 1, clock: 3)], pins: pins)
        #expect(before.devices[c.id] == .trusted, "\(before.devices)")
        // A device recovered with the old code that set the new one itself stays.
        let recovered = resolve(
            [
                c.voice(recovery: new, certificate: old, at: 1, clock: 3, recoverySet: 9),
                b.voice(recovery: old, recoverySet: 1),
            ],
            pins: [b.fingerprint])
        #expect(recovered.devices[c.id] == .trusted, "\(recovered.devices)")
    }

    @Test func theRecoveryKeyEnrollsADeviceWhenAllAreLost() {
        var generator = SystemRandomNumberGenerator()
        let recovery = SigningKey.generate(using: &generator)
        let found = resolve([a.voice(recovery: recovery), c.voice(certificate: recovery)], pins: [a.fingerprint])
        #expect(found.devices[c.id] == .trusted)
        // A certificate from another recovery key is nothing.
        let other = SigningKey.generate(using: &generator)
        let forged = resolve([a.voice(recovery: recovery), c.voice(certificate: other)], pins: [a.fingerprint])
        #expect(forged.devices[c.id] == .notEnrolled)
    }

    @Test func firstSightTakesTheOneGroupThatVouchesForEveryone() {
        let found = resolve([a.voice(enrolls: [b]), b.voice(enrolls: [a])])
        #expect(found.firstSight)
        #expect(found.believed == [a.id, b.id])
        // A signed device outside the group: which is the member's cannot be told.
        let split = resolve([a.voice(enrolls: [b]), b.voice(enrolls: [a]), mallory.voice()])
        #expect(split.devices.values.allSatisfy { $0 == .undecided })
        #expect(split.believed.isEmpty)
        // A device planted beside the member's one, vouching for it: it does not vouch back,
        // and the member's own is the one set there is.
        let planted = resolve([a.voice(), mallory.voice(enrolls: [a])])
        #expect(planted.devices == [a.id: .trusted, mallory.id: .notEnrolled])
        #expect(planted.contest == nil)
    }

    /// A clone of the member's log signed by someone else, beside the real one before this reader
    /// had any key of theirs: never settled silently. The set that checked in least recently
    /// counts while it lasts, whichever it is; a set with no check-in is never taken over one
    /// with; a key from the member's code settles it.
    @Test func twoSetsClaimingOneMemberAreAContestTheLeastReassuringCounts() {
        func voice(_ device: Device, checkedIn: Int64?) -> DeviceVoice {
            var voice = device.voice()
            voice.lastCheckIn = checkedIn.map { Timestamp(seconds: $0) }
            return voice
        }
        let staleClone = resolve([voice(a, checkedIn: 2_000), voice(mallory, checkedIn: 1_000)])
        #expect(
            staleClone.contest == Contest(groups: [[a.id], [mallory.id]].sorted { $0[0] < $1[0] }, taken: [mallory.id]))
        #expect(staleClone.believed == [mallory.id])
        #expect(staleClone.devices[a.id] == .undecided)
        let busyClone = resolve([voice(a, checkedIn: 2_000), voice(mallory, checkedIn: 3_000)])
        #expect(busyClone.believed == [a.id])
        #expect(busyClone.contest?.taken == [a.id])
        let emptyClone = resolve([voice(a, checkedIn: 2_000), voice(mallory, checkedIn: nil)])
        #expect(emptyClone.believed == [a.id])
        // Both pinned (keys taken on first sight before): the same contest; a key from the
        // member's code settles it, and the other set is not theirs.
        let pins: Set<String> = [a.fingerprint, mallory.fingerprint]
        let pinned = resolve([voice(a, checkedIn: 2_000), voice(mallory, checkedIn: 1_000)], pins: pins)
        #expect(pinned.contest?.taken == [mallory.id])
        let settled = Speakers.resolve(
            member: Self.member, voices: [voice(a, checkedIn: 2_000), voice(mallory, checkedIn: 1_000)], pins: pins,
            me: nil, fromCode: [a.fingerprint])
        #expect(settled.contest == nil)
        #expect(settled.devices == [a.id: .trusted, mallory.id: .notEnrolled])
    }

    /// The reader verified one key for a device (a clone put there first); the member's code names
    /// another: the code wins, and what was verified is replaced.
    @Test func aKeyFromTheMembersCodeReplacesTheOneSeenFirst() {
        var seen = TrustSeen()
        seen.devices[a.id] = TrustSeen.Verified(key: mallory.key.publicKeyText, seq: 9)
        let unsettled = resolve([a.voice(lastSeq: 3)], pins: [mallory.fingerprint], seen: seen)
        #expect(unsettled.devices[a.id] == .notEnrolled)
        let voices = [a.voice(lastSeq: 3)]
        let settled = Speakers.resolve(
            member: Self.member, voices: voices, pins: [mallory.fingerprint, a.fingerprint], me: nil, seen: seen,
            fromCode: [a.fingerprint])
        #expect(settled.devices[a.id] == .trusted)
        seen.learn(from: settled, voices: voices)
        #expect(seen.devices[a.id] == TrustSeen.Verified(key: a.key.publicKeyText, seq: 3))
    }

    /// What a reader verified before cannot be taken back by a file put back in the circle.
    @Test func whatWasVerifiedBeforeStands() {
        var seen = TrustSeen()
        seen.devices[a.id] = TrustSeen.Verified(key: a.key.publicKeyText, seq: 9)
        seen.devices[b.id] = TrustSeen.Verified(key: b.key.publicKeyText, seq: 3)
        // An older copy of a's log, validly signed: nothing.
        let rolled = resolve([a.voice(lastSeq: 7)], pins: [a.fingerprint], seen: seen)
        #expect(rolled.devices[a.id] == .rolledBack(seq: 7, verified: 9))
        // b signed with another key, or not signed at all, after it was seen signed: nothing,
        // even where a keyless enrollment of an older lifesignal would have let it in.
        var other = mallory.voice()
        other.device = b.id
        let claimed = resolve([a.voice(legacy: [b]), other], pins: [a.fingerprint], seen: seen)
        #expect(claimed.devices[b.id] == .notEnrolled)
        let unsigned = resolve(
            [a.voice(legacy: [b]), b.voice(signature: .unsigned)], pins: [a.fingerprint], seen: seen)
        #expect(unsigned.devices[b.id] == .notSigned)
        // A key seen revoked stays revoked when the revoking log is rolled back.
        let stamp = Stamp(clock: 2, at: Timestamp(seconds: 2_000), device: a.id, seq: 8)
        seen.revoked[b.fingerprint] = TrustSeen.Revocation(stamp: stamp, through: 3)
        let undone = resolve(
            [a.voice(enrolls: [b], lastSeq: 9), b.voice(lastSeq: 4)], pins: [a.fingerprint, b.fingerprint], seen: seen)
        #expect(undone.devices[b.id] == .revoked(stamp))
        let silent = resolve(
            [a.voice(enrolls: [b], lastSeq: 9), b.voice(lastSeq: 3)], pins: [a.fingerprint, b.fingerprint], seen: seen)
        #expect(silent.devices[b.id] == .retired(stamp))
        // And the reader learns what it verifies.
        var learned = TrustSeen()
        let voices = [a.voice(enrolls: [b], revokes: [(b, through: 2)], lastSeq: 12), b.voice(lastSeq: 5)]
        learned.learn(from: resolve(voices, pins: [a.fingerprint]), voices: voices)
        #expect(learned.devices[a.id] == TrustSeen.Verified(key: a.key.publicKeyText, seq: 12))
        #expect(learned.revoked[b.fingerprint]?.through == 2)
    }

    @Test func aDeviceKnownBeforeItSignedIsBelievedUntilItsFirstSignedFile() {
        let legacy = resolve([a.voice(legacy: [b]), b.voice(signature: .unsigned)], pins: [a.fingerprint])
        #expect(legacy.devices[b.id] == .olderVersion)
        let upgraded = resolve([a.voice(legacy: [b]), b.voice()], pins: [a.fingerprint])
        #expect(upgraded.devices[b.id] == .trusted)
        // Once a's roster has its key, an unsigned file in its folder is nothing.
        let replaced = resolve([a.voice(enrolls: [b]), b.voice(signature: .unsigned)], pins: [a.fingerprint])
        #expect(replaced.devices[b.id] == .notSigned)
    }

    @Test func theReadersOwnDeviceCountsForItselfUnlessRevoked() {
        let mine = resolve([a.voice(), mallory.voice()], me: a.id)
        #expect(mine.devices[a.id] == .trusted)
        #expect(mine.devices[mallory.id] == .notEnrolled)
        let revoked = resolve(
            [a.voice(), b.voice(enrolls: [a], revokes: [(a, through: 1)])], pins: [b.fingerprint], me: a.id)
        guard case .revoked? = revoked.devices[a.id] else {
            Issue.record("a: \(String(describing: revoked.devices[a.id]))")
            return
        }
    }

    @Test func aRequestWithAProofIsReportedForTheEnrollerToCheck() {
        let secret = [UInt8](repeating: 7, count: Enrollment.secretLength)
        let proof = Enrollment.proof(secret: secret, member: Self.member, device: b.id, key: b.key.publicKeyText)
        let found = resolve([a.voice(), b.voice(proof: proof)], me: a.id)
        #expect(found.devices[b.id] == .notEnrolled)
        #expect(found.requests[b.id] == Speakers.EnrollmentRequest(key: b.key.publicKeyText, proof: proof))
        // The proof binds the device and the key: it cannot be moved to another.
        #expect(Enrollment.proof(secret: secret, member: Self.member, device: c.id, key: b.key.publicKeyText) != proof)
        #expect(Enrollment.proof(secret: secret, member: Self.member, device: b.id, key: c.key.publicKeyText) != proof)
    }
}

@Suite struct PassedCodeTests {
    @Test func everyCodeReadsBackFromItsText() throws {
        let member = "0a0a0a0a-0000-4000-8000-00000000000a"
        let codes: [PassedCode] = [
            .invite(code: member, fingerprint: nil),
            .invite(code: member, fingerprint: String(repeating: "ab", count: 16)),
            .enrollment(member: member, enroller: String(repeating: "cd", count: 16), secret: Array(0..<16)),
            .recovery(member: member, seed: Array(0..<32)),
        ]
        for code in codes {
            #expect(PassedCode(code.text) == code)
            #expect(PassedCode("  " + code.text.uppercased() + "\n") == code)
        }
        // A recovery code written down in groups reads back with or without the dashes.
        let recovery = PassedCode.recovery(member: member, seed: Array(0..<32)).text
        let seed = recovery.split(separator: "/").last.map(String.init) ?? ""
        let plain = String(recovery.dropLast(seed.count)) + seed.replacingOccurrences(of: "-", with: "")
        #expect(PassedCode(plain) == .recovery(member: member, seed: Array(0..<32)))
        #expect(
            PassedCode(
                plain.replacingOccurrences(
                    of: seed.replacingOccurrences(of: "-", with: ""),
                    with: seed.replacingOccurrences(of: "-", with: " "))) != nil)
        #expect(PassedCode(member) == .invite(code: member, fingerprint: nil))
        for bad in [
            "", "lifesignal://", "lifesignal://enroll/\(member)/xyz/00", "lifesignal://recover/\(member)/00",
            "lifesignal://\(member)/short", "lifesignal://not-an-id",
        ] {
            #expect(PassedCode(bad) == nil, "\(bad)")
        }
    }

    @Test func aFingerprintIsTheStartOfTheKeysHash() throws {
        let key = try #require(SigningKey(seed: [UInt8](repeating: 1, count: 32)))
        #expect(key.fingerprint == KeyText.hex(SHA512.hash(key.publicKey).prefix(16)))
        #expect(KeyText.fingerprint(ofKey: key.publicKeyText) == key.fingerprint)
        #expect(!key.description.contains(KeyText.hex(key.seed)))
    }
}
