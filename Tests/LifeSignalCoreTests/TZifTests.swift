import TestSupport
import Testing

@testable import LifeSignalCore

/// The TZif reader on damaged and hand-made files: each defect is an error naming the byte, and
/// no file — truncated anywhere, bytes flipped at random — makes it trap.
@Suite struct TZifTests {
    static func file(
        version: UInt8 = UInt8(ascii: "2"), times: [Int64] = [], indices: [UInt8] = [],
        types: [(offset: Int32, dst: UInt8, index: UInt8)] = [(0, 0, 0)], chars: [UInt8] = Array("UTC\0".utf8),
        footer: String = "UTC0", counts: [UInt32]? = nil, extra: [UInt8] = []
    ) -> [UInt8] {
        TZifFile.make(
            version: version, times: times, indices: indices, types: types, chars: chars, footer: footer,
            counts: counts, extra: extra)
    }

    /// Where the 64-bit header starts in `file(…)`'s output.
    static let second = 44 + 7

    static func place(_ bytes: [UInt8]) -> ZoneDataError.Place? {
        do {
            _ = try ZoneRules(tzif: bytes)
            return nil
        } catch {
            return error.place
        }
    }

    @Test func handMadeFileParses() throws {
        let rules = try ZoneRules(
            tzif: Self.file(
                times: [0, 100], indices: [1, 0], types: [(0, 0, 0), (3600, 1, 4)], chars: Array("AAA\0BBB\0".utf8),
                footer: "AAA0"))
        #expect(
            rules.transitions == [
                .init(at: Timestamp(seconds: 0), type: 1), .init(at: Timestamp(seconds: 100), type: 0),
            ])
        #expect(rules.offset(at: Timestamp(seconds: -1)) == (0, "AAA", false))
        #expect(rules.offset(at: Timestamp(seconds: 50)) == (3600, "BBB", true))
        #expect(rules.offset(at: Timestamp(seconds: 100)) == (0, "AAA", false))
        #expect(rules.footerText == "AAA0")
        // An empty footer: the last type stays.
        let bare = try ZoneRules(tzif: Self.file(types: [(-18_000, 0, 0)], chars: Array("EST\0".utf8), footer: ""))
        #expect(bare.footer == nil && bare.offset(at: Timestamp(seconds: 1 << 40)).seconds == -18_000)
        // A version 1 block that is only skipped need not be valid: here it has no types at all.
        let slim = Array(Self.file().prefix(20)) + [UInt8](repeating: 0, count: 24) + Self.file().dropFirst(Self.second)
        #expect(try ZoneRules(tzif: slim) == ZoneRules(tzif: Self.file()))
        // Versions 3 and 4 read the same way; later digits as version 4.
        for version in Array("349".utf8) { _ = try ZoneRules(tzif: Self.file(version: version)) }
    }

    @Test func eachDefectIsReportedAtItsByte() {
        let s = Self.second
        #expect(Self.place(Array("TZiX".utf8) + Self.file().dropFirst(4)) == .byte(0))
        #expect(Self.place(Self.file(version: 1)) == .byte(4))
        #expect(Self.place(Self.file(counts: [0, 0, 0, 0, 0, 4])) == .byte(s + 36))
        #expect(Self.place(Self.file(counts: [0, 0, 0, 0xFFFF_FFFF, 1, 4])) == .byte(s + 32))
        #expect(Self.place(Self.file(counts: [0, 0, 0, 1000, 1, 4])) == .byte(s + 44))
        #expect(Self.place(Self.file(counts: [0, 0, 1, 0, 1, 4])) == .byte(s + 28))
        #expect(Self.place(Self.file(counts: [0, 3, 0, 0, 1, 4])) == .byte(s + 24))
        #expect(Self.place(Self.file(times: [5, 5], indices: [0, 0])) == .byte(s + 52))
        #expect(Self.place(Self.file(times: [1 << 62], indices: [0])) == .byte(s + 44))
        #expect(Self.place(Self.file(times: [5], indices: [1])) == .byte(s + 52))
        #expect(Self.place(Self.file(types: [(100_000, 0, 0)])) == .byte(s + 44))
        #expect(Self.place(Self.file(types: [(0, 2, 0)])) == .byte(s + 48))
        #expect(Self.place(Self.file(types: [(0, 0, 4)])) == .byte(s + 49))
        #expect(Self.place(Self.file(chars: Array("UTC".utf8), footer: "UTC0")) == .byte(s + 50))
        // The footer: a bad TZ string points at its character, within the file.
        let footerStart = s + 44 + 6 + 4 + 1
        #expect(Self.place(Self.file(footer: "UTC0,")) == .byte(footerStart + 4))
        #expect(Self.place(Self.file(footer: "EST5EDT")) == .byte(footerStart + 7))
        #expect(Self.place(Array(Self.file().dropLast())) == .byte(footerStart + 4))
        #expect(Self.place(Self.file(extra: [0])) == .byte(footerStart + 5))
    }

    /// zic's fat files carry the full history twice, 32 and 64 bits wide: a version 1 reader of
    /// the first block must agree with the second where 32 bits reach.
    @Test(.enabled(if: ZoneSupport.available, "\(ZoneSupport.missing)"))
    func versionOneBlockAgreesWithTheSixtyFourBitBlock() throws {
        let bytes = try ZoneSupport.bytes("Europe/London")
        let counts = (0..<6).map { i in bytes[20 + 4 * i..<24 + 4 * i].reduce(0) { $0 << 8 | Int($1) } }
        let size = 44 + counts[3] * 5 + counts[4] * 6 + counts[5] + counts[2] * 8 + counts[1] + counts[0]
        var v1 = Array(bytes.prefix(size))
        v1[4] = 0
        let old = try ZoneRules(tzif: v1)
        let new = try ZoneRules(tzif: bytes)
        #expect(old.footer == nil && old.transitions.count > 100)
        for seconds in stride(from: Int64(0), to: Int64(Int32.max), by: 86_400 * 7 + 3601) {
            let time = Timestamp(seconds: seconds)
            #expect(old.type(at: time) == new.type(at: time), "\(time)")
        }
    }

    @Test(.enabled(if: ZoneSupport.available && ZoneSupport.hasRight, "no right/ (leap second) zone files"))
    func leapSecondFilesAreRefused() throws {
        #expect(throws: ZoneDataError.self) { try ZoneSupport.rules("right/Europe/London") }
    }

    @Test(
        .enabled(if: ZoneSupport.available, "\(ZoneSupport.missing)"),
        arguments: ["Europe/London", "Australia/Lord_Howe", "America/Nuuk", "UTC"])
    func everyTruncationIsAnError(zone: String) throws {
        let bytes = try ZoneSupport.bytes(zone)
        for length in 0..<bytes.count {
            #expect(throws: ZoneDataError.self, "\(zone) cut at \(length)") {
                try ZoneRules(tzif: Array(bytes.prefix(length)))
            }
        }
        _ = try ZoneRules(tzif: bytes)
    }

    /// Flipped bytes either still parse — and then the rules answer every question — or throw.
    @Test(
        .enabled(if: ZoneSupport.available, "\(ZoneSupport.missing)"),
        arguments: ["Europe/London", "Australia/Lord_Howe", "America/Nuuk"])
    func randomDamageParsesOrThrows(zone: String) throws {
        let bytes = try ZoneSupport.bytes(zone)
        var random = SplitMix(state: 13)
        var parsed = 0
        let nine = try #require(TimeOfDay(hour: 9, minute: 0))
        for _ in 0..<1500 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let rules = try? ZoneRules(tzif: damaged) else { continue }
            parsed += 1
            for seconds: Int64 in [.min, -(1 << 59), 0, 1_774_746_000, 2_500_000_000, .max] {
                let time = Timestamp(seconds: seconds)
                _ = rules.local(time)
                _ = rules.nextOccurrence(of: nine, atOrAfter: Timestamp(seconds: PosixTZ.clamped(seconds)))
            }
            if let date = LocalDate(year: 2040, month: 3, day: 25) { _ = rules.resolve(date, nine) }
        }
        #expect(parsed > 0, "some damage (in abbreviations, times) leaves a parseable file")
    }
}

extension ZoneSupport {
    static let hasRight = available && (try? bytes("right/Europe/London")) != nil
}

extension TZifTests {
    /// Where a zone's table and the rule it carries for later years disagree, the rule alone
    /// (what a daily schedule stores) would put deadlines an hour off: found, from its first
    /// instant; a zone that is its rule throughout agrees.
    @Test func aTableThatTheRuleCannotCarryIsFound() throws {
        let cuba = try ZoneRules(tzif: TZifFile.exceptional)
        let june = try #require(Timestamp(rfc3339: "2026-06-01T00:00:00Z"))
        #expect(cuba.ruleDisagrees(from: june, through: june + .days(366))?.rfc3339 == "2026-11-01T05:00:00Z")
        #expect(cuba.ruleDisagrees(from: june, through: june + .days(100)) == nil, "summer: both say UTC−4")
        let later = try #require(Timestamp(rfc3339: "2027-12-01T00:00:00Z"))
        #expect(cuba.ruleDisagrees(from: later, through: later + .days(366)) == nil, "the table has run out")
        let newYork = try ZoneRules(posixTZ: "EST5EDT,M3.2.0,M11.1.0")
        #expect(newYork.ruleDisagrees(from: june, through: june + .days(366)) == nil)
    }
}
