import Foundation
import TestSupport
import Testing

@testable import LifeSignalCore
@testable import LifeSignalStore

/// The cache's binary format: every field of a circle comes back as written, and damaged bytes
/// (even with a checksum that matches them) give "no cache", never a crash or a wrong state.
@Suite struct CacheCodecTests {
    static let ana = "0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f"
    static let bea = "1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70"
    static let carl = "2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081"
    static let phone = "3e8f5d84-af61-40b1-8243-4d5e6f708192"
    static let laptop = "4f906e95-b072-41c2-9354-5e6f708192a3"

    static func stamp(_ n: Int64, _ device: String = phone) -> Stamp {
        Stamp(clock: n, at: Timestamp(seconds: 1_772_355_600 + n * 61), device: device, seq: n + 100)
    }

    /// A circle with every field set, every optional both present and absent somewhere, and
    /// every enum case.
    static var fullCircle: CircleState {
        var circle = CircleState()
        var ana = MemberState()
        ana.name = Stamped("Ana Lima", stamp(1))
        ana.interval = Stamped(.hours(16), stamp(2))
        ana.reminder = Stamped(.minutes(45), stamp(3, laptop))
        ana.code = Stamped("K7P-2QX", stamp(4))
        var raised = AlertRecord(id: "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9")
        raised.message = "fell on the trail, \"help\" — ankle"
        raised.start = stamp(5)
        raised.end = stamp(6, laptop)
        var open = AlertRecord(id: "6b2c3d4e-5f60-4172-9384-a5b6c7d8e9fa")
        open.start = stamp(7)
        var endOnly = AlertRecord(id: "7c3d4e5f-6071-4283-a495-b6c7d8e9fa0b")
        endOnly.end = stamp(8)
        ana.alerts = [raised.id: raised, open.id: open, endOnly.id: endOnly]
        ana.preferences = Stamped(
            FeedPreferences(category: .checkIns, unreadOnly: true, channels: ["ntfy:https://ntfy.sh/ana", "desktop:"]),
            stamp(9))
        ana.lastCheckIn = MemberState.CheckIn(stamp: stamp(10, laptop), note: "back from the hike ✓")
        ana.checkInCount = 87_600
        var bea = MemberState()
        bea.reminder = Stamped(nil, stamp(11))
        bea.preferences = Stamped(FeedPreferences(), stamp(12))
        bea.lastCheckIn = MemberState.CheckIn(stamp: stamp(13), note: nil)
        circle.members = [Self.ana: ana, Self.bea: bea, Self.carl: MemberState()]
        circle.relations = [
            Pair(Self.ana, Self.bea): Stamped(Roles(responder: true, dependent: true), stamp(14)),
            Pair(Self.ana, Self.carl): Stamped(Roles(responder: false, dependent: true), stamp(15)),
            Pair(Self.bea, Self.carl): Stamped(Roles(responder: true, dependent: false), stamp(16)),
            Pair(Self.ana, Self.phone): Stamped(Roles(responder: false, dependent: false), stamp(17)),
            Pair(Self.bea, Self.laptop): Stamped(nil, stamp(18)),
        ]
        circle.sides = [
            Side(writer: Self.bea, other: Self.ana): Stamped(Roles(responder: true, dependent: true), stamp(14)),
            Side(writer: Self.carl, other: Self.bea): Stamped(nil, stamp(16, laptop)),
            Side(writer: Self.ana, other: Self.carl): Stamped(Roles(responder: false, dependent: true), stamp(15)),
        ]
        circle.externals = [
            Self.ana: [
                "8d4e5f60-7182-4394-b5a6-c7d8e9fa0b1c": Stamped(
                    ExternalContact(
                        name: "Dr. Ng", notify: ["mailto:ng@example.org", "exec:/usr/local/bin/page"],
                        email: ["ng@example.org"], phone: ["+44 20 7946 0000"]),
                    stamp(19)),
                "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d": Stamped(nil, stamp(20)),
            ],
            Self.bea: [
                "af607182-93a4-45b6-97c8-e9fa0b1c2d3e": Stamped(
                    ExternalContact(name: "Sam", notify: [], email: [], phone: []), stamp(21))
            ],
        ]
        var pings: [Ping] = []
        for (i, end) in [nil, Ping.End.answered, .cleared, .roleRemoved].enumerated() {
            var ping = Ping(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e4\(i)", from: Self.ana, to: Self.bea)
            ping.sent = i == 3 ? nil : stamp(22 + Int64(i))
            ping.endKind = end
            ping.endStamp = end == nil ? nil : stamp(30 + Int64(i), laptop)
            pings.append(ping)
        }
        circle.pings = Dictionary(uniqueKeysWithValues: pings.map { ($0.key, $0) })
        circle.deliveries = [
            DeliveryKey(notification: "0123456789abcdef", channel: "mailto:ng@example.org"): DeliveryRecord(
                stamp: stamp(40), by: Self.ana),
            DeliveryKey(notification: "fedcba9876543210", channel: "ntfy:https://ntfy.sh/sam"): DeliveryRecord(
                stamp: stamp(41, laptop), by: Self.bea),
        ]
        circle.acknowledgements = [
            "deadline|\(Self.bea)|1772400000": [Self.ana: stamp(42), Self.carl: stamp(43, laptop)],
            "alert|5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9": [Self.bea: stamp(44)],
        ]
        return circle
    }

    static func roundTrip(_ circle: CircleState) throws -> CircleState {
        var writer = BinaryWriter()
        writer.circle(circle)
        var reader = try CacheCodec.reader(CacheCodec.file(writer))
        let back = try reader.circleKeepingFacts().state
        #expect(reader.atEnd)
        return back
    }

    @Test func everyFieldComesBack() throws {
        let circle = Self.fullCircle
        #expect(try Self.roundTrip(circle) == circle)
        #expect(try Self.roundTrip(CircleState()) == CircleState())
    }

    /// The cache is held to the limits the logs are held to: a crafted cache with a count at
    /// the top of Int64 would otherwise overflow when merged (a trap on every run).
    @Test(arguments: 0..<7)
    func numbersOutsideTheLogsLimitsAreRefused(case index: Int) throws {
        let stamp = Stamp(clock: 3, at: Timestamp(seconds: 1_772_355_600), device: Self.phone, seq: 4)
        var state = MemberState()
        state.name = Stamped("Ana", stamp)
        state.interval = Stamped(.hours(24), stamp)
        switch index {
        case 0: state.checkInCount = .max
        case 1: state.checkInCount = -1
        case 2: state.interval = Stamped(TimeSpan(seconds: 0), stamp)
        case 3: state.interval = Stamped(TimeSpan(seconds: .max), stamp)
        case 4: state.name = Stamped("Ana", Stamp(clock: .max, at: stamp.at, device: Self.phone, seq: 4))
        case 5: state.name = Stamped("Ana", Stamp(clock: 3, at: Timestamp(seconds: .min), device: Self.phone, seq: 4))
        default: state.name = Stamped("Ana", Stamp(clock: 3, at: stamp.at, device: Self.phone, seq: 0))
        }
        var circle = CircleState()
        circle.members[Self.ana] = state
        #expect(throws: CacheCodec.Damaged.self) { try Self.roundTrip(circle) }
        // Within the limits, the same state comes back.
        var fine = CircleState()
        var within = MemberState()
        within.checkInCount = Limits.counter
        within.interval = Stamped(
            TimeSpan(seconds: Limits.span),
            Stamp(
                clock: Limits.counter, at: Timestamp(seconds: Timestamp.latest), device: Self.phone,
                seq: Limits.counter))
        fine.members[Self.ana] = within
        #expect(try Self.roundTrip(fine) == fine)
    }

    /// Text comes back byte for byte: canonically equivalent spellings (é and e + ◌́), which
    /// Swift's String equality treats as one, stay different strings.
    @Test func equivalentSpellingsKeepTheirBytes() throws {
        let composed = "Jos\u{E9}"
        let decomposed = "Jose\u{301}"
        #expect(composed == decomposed)
        var circle = CircleState()
        var a = MemberState()
        var b = MemberState()
        a.name = Stamped(composed, Self.stamp(1))
        b.name = Stamped(decomposed, Self.stamp(2))
        circle.members = [Self.ana: a, Self.bea: b]
        let back = try Self.roundTrip(circle)
        #expect(back.members[Self.ana]?.name.map { Array($0.value.utf8) } == Array(composed.utf8))
        #expect(back.members[Self.bea]?.name.map { Array($0.value.utf8) } == Array(decomposed.utf8))
    }

    /// Each distinct string is written once in each string table, however often it is used:
    /// the members' and the facts' (a record of their own, which a writer may copy as read).
    @Test func stringsAreStoredOnce() throws {
        var writer = BinaryWriter()
        writer.circle(Self.fullCircle)
        let bytes = CacheCodec.file(writer)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: Self.phone).count == 3)
        #expect(text.components(separatedBy: Self.ana).count == 3)
        var facts = Self.fullCircle
        facts.members = [:]
        var factsOnly = BinaryWriter()
        factsOnly.circle(facts)
        #expect(
            String(decoding: CacheCodec.file(factsOnly), as: UTF8.self).components(separatedBy: Self.ana).count == 2)
    }

    /// The facts' record, read back, is written again as it was read: a check-in that left
    /// them as they were copies it rather than coding them again.
    @Test func theFactsRecordIsCopiedAsRead() throws {
        var writer = BinaryWriter()
        writer.circle(Self.fullCircle)
        var reader = try CacheCodec.reader(CacheCodec.file(writer))
        let (state, facts) = try reader.circleKeepingFacts()
        #expect(state == Self.fullCircle)
        var again = BinaryWriter()
        again.circle(state, reusingFacts: facts)
        var back = try CacheCodec.reader(CacheCodec.file(again))
        let (stateAgain, factsAgain) = try back.circleKeepingFacts()
        #expect(stateAgain == Self.fullCircle)
        #expect(factsAgain.elementsEqual(facts))
    }

    /// A whole cache file, saved and loaded through the store.
    @Test func aSavedCacheLoads() throws {
        let root = Scratch.root.appendingPathComponent(
            "lifesignal-cachecodec-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try Store.update(
            dataDirectory: root, lockTimeout: 5,
            creation: .ifMissing(NewProfile(name: "Ana", interval: .hours(24), reminder: nil, circle: nil)),
            now: Timestamp(seconds: 1_772_355_600)
        ) { transaction in transaction.record(CheckedIn(note: nil), at: Timestamp(seconds: 1_772_355_600)) }
        let store = try Store.open(dataDirectory: root)
        var cache = CircleCache(
            circle: store.circleDirectory, member: store.identity.member, device: store.identity.device,
            entries: [
                CircleCache.Entry(
                    path: "members", key: Posix.FileKey(device: .max, inode: 7, size: -1, modified: .min, changed: .max)
                )
            ],
            own: CircleState(), others: Self.fullCircle, othersClock: 41)
        cache.unread = 3
        cache.feedEntries = [CircleCache.Entry(path: "members/x/y/feed.json", key: .missing)]
        cache.save(root)
        let loaded = try #require(CircleCache.load(store))
        #expect(loaded.others == Self.fullCircle)
        #expect(loaded.own == CircleState())
        #expect(loaded.othersClock == 41)
        #expect(loaded.unread == 3)
        #expect(loaded.entries.map(\.path) == ["members"])
        #expect(
            loaded.entries.map(\.key) == [
                Posix.FileKey(device: .max, inode: 7, size: -1, modified: .min, changed: .max)
            ])
        #expect(loaded.feedEntries.map(\.key) == [.missing])
        cache.unread = nil
        cache.save(root)
        #expect(try #require(CircleCache.load(store)).unread == nil)
    }

    /// Rewrites the checksum, so that damage reaches the field reader itself.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        guard b.count >= CacheCodec.headerSize else { return b }
        var sum = CacheCodec.checksum(b[CacheCodec.headerSize...])
        for i in CacheCodec.idSize..<CacheCodec.headerSize {
            b[i] = UInt8(truncatingIfNeeded: sum)
            sum >>= 8
        }
        return b
    }

    /// Every truncation, and thousands of byte changes behind a valid checksum: the reader
    /// either rejects the bytes or reads some circle; it never traps or reads out of bounds.
    @Test func damageBehindAValidChecksumIsRejectedOrRead() throws {
        var writer = BinaryWriter()
        writer.circle(Self.fullCircle)
        let bytes = CacheCodec.file(writer)
        var rejected = 0
        func read(_ candidate: [UInt8]) {
            do throws(CacheCodec.Damaged) {
                var reader = try CacheCodec.reader(Self.resealed(candidate))
                _ = try reader.circleKeepingFacts().state
            } catch {
                rejected += 1
            }
        }
        for length in 0..<bytes.count { read(Array(bytes.prefix(length))) }
        #expect(rejected == bytes.count, "every truncation is rejected")
        var generator = SplitMix(seed: 0x5EED)
        for _ in 0..<5_000 {
            var candidate = bytes
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: CacheCodec.headerSize..<candidate.count, using: &generator)
                candidate[at] =
                    [0x00, 0x7F, 0x80, 0xFF, UInt8.random(in: 0...255, using: &generator)].randomElement(
                        using: &generator) ?? 0
            }
            read(candidate)
        }
        #expect(rejected > bytes.count, "some changes are caught")
    }

    @Test func aChangedByteFailsTheChecksum() throws {
        var writer = BinaryWriter()
        writer.circle(Self.fullCircle)
        let bytes = CacheCodec.file(writer)
        for at in stride(from: CacheCodec.headerSize, to: bytes.count, by: 7) {
            var candidate = bytes
            candidate[at] ^= 0x01
            #expect(throws: CacheCodec.Damaged.self) { try CacheCodec.reader(candidate) }
        }
    }
}

/// A seeded generator, so a failing case can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A large cache file is written from the parts it is made in; its checksum over the parts
/// must be the checksum of the whole, however the parts fall against the 8-byte words.
@Suite struct ChecksumPartsTests {
    @Test func theChecksumOfPartsIsTheChecksumOfTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = CacheCodec.checksum(bytes[...])
            for _ in 0..<20 {
                var cuts = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    Int.random(in: 0...length, using: &generator)
                }
                cuts = ([0] + cuts + [length]).sorted()
                var sum = CacheCodec.Checksum(count: length)
                for (from, to) in zip(cuts, cuts.dropFirst()) { sum.add(bytes[from..<to]) }
                #expect(sum.value == whole, "\(length) bytes cut at \(cuts)")
            }
        }
    }

    /// The format's checksum as it was written before it came in parts, word by word.
    static func reference(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        let words = bytes.count / 8
        for i in 0..<words {
            let word = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[i * 8 + $1]) << (8 * UInt64($1)) }
            hash = (hash ^ word) &* 0x0000_0100_0000_01b3
            hash ^= hash >> 29
        }
        for i in (words * 8)..<bytes.count { hash = (hash ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    @Test func itIsTheChecksumTheFormatHasAlwaysHad() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 31, 100] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(CacheCodec.checksum(bytes[...]) == Self.reference(bytes), "\(length) bytes")
        }
    }

    @Test func aFileInPartsIsTheWholeFile() throws {
        var writer = BinaryWriter()
        writer.string("head")
        var tail = BinaryWriter()
        for i in 0..<300 { tail.string("member \(i)") }
        let parts = CacheCodec.parts(writer, then: tail)
        #expect(parts.count == 3)
        let whole = CacheCodec.file(writer, then: tail)
        #expect(Array(parts.joined()) == whole)
        var reader = try CacheCodec.reader(whole)
        #expect(try reader.string() == "head")
    }
}
