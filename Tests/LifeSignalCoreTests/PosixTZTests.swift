import Testing

@testable import LifeSignalCore

/// POSIX TZ strings on their own, no files needed: every rule form, the version 3 extensions,
/// and the errors, each at the character where parsing stopped.
@Suite struct PosixTZTests {
    static func tz(_ text: String) throws -> PosixTZ { try PosixTZ(parsing: Array(text.utf8)) }
    static func time(_ text: String) throws -> Timestamp { try #require(Timestamp(rfc3339: text)) }

    @Test func standardTimeOnly() throws {
        #expect(try Self.tz("UTC0").standard == LocalTimeType(utOffset: 0, isDST: false, abbreviation: "UTC"))
        #expect(try Self.tz("IST-5:30").standard.utOffset == 19_800)
        #expect(
            try Self.tz("<+0545>-5:45").standard == LocalTimeType(utOffset: 20_700, isDST: false, abbreviation: "+0545")
        )
        #expect(try Self.tz("<-03>3").standard.utOffset == -10_800)
        #expect(try Self.tz("XXX+1:02:03").standard.utOffset == -3723)
        #expect(try Self.tz("EST5").daylight == nil)
    }

    @Test func daylightRules() throws {
        let london = try Self.tz("GMT0BST,M3.5.0/1,M10.5.0")
        let daylight = try #require(london.daylight)
        #expect(daylight.type == LocalTimeType(utOffset: 3600, isDST: true, abbreviation: "BST"))
        #expect(daylight.start == .init(day: .monthWeek(month: 3, week: 5, weekday: 0), time: 3600))
        #expect(daylight.end == .init(day: .monthWeek(month: 10, week: 5, weekday: 0), time: 7200))
        #expect(london.type(at: try Self.time("2026-03-29T00:59:59Z")).abbreviation == "GMT")
        #expect(london.type(at: try Self.time("2026-03-29T01:00:00Z")).abbreviation == "BST")
        #expect(london.type(at: try Self.time("2026-10-25T00:59:59Z")).abbreviation == "BST")
        #expect(london.type(at: try Self.time("2026-10-25T01:00:00Z")).abbreviation == "GMT")
        // Explicit DST offset, and rules in the southern hemisphere (DST spans the new year).
        let howe = try Self.tz("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(howe.type(at: try Self.time("2026-01-15T00:00:00Z")).utOffset == 39_600)
        #expect(howe.type(at: try Self.time("2026-07-15T00:00:00Z")).utOffset == 37_800)
    }

    @Test func julianAndZeroBasedDays() throws {
        // J60 is March 1 in every year; day 59 is February 29 in a leap year, March 1 otherwise.
        #expect(PosixTZ.day(of: .julian(60), in: 2024) == Civil.daysFromCivil(year: 2024, month: 3, day: 1))
        #expect(PosixTZ.day(of: .julian(60), in: 2026) == Civil.daysFromCivil(year: 2026, month: 3, day: 1))
        #expect(PosixTZ.day(of: .julian(1), in: 2026) == Civil.daysFromCivil(year: 2026, month: 1, day: 1))
        #expect(PosixTZ.day(of: .julian(365), in: 2024) == Civil.daysFromCivil(year: 2024, month: 12, day: 31))
        #expect(PosixTZ.day(of: .zeroBased(59), in: 2024) == Civil.daysFromCivil(year: 2024, month: 2, day: 29))
        #expect(PosixTZ.day(of: .zeroBased(59), in: 2026) == Civil.daysFromCivil(year: 2026, month: 3, day: 1))
        #expect(PosixTZ.day(of: .zeroBased(0), in: 2026) == Civil.daysFromCivil(year: 2026, month: 1, day: 1))
        // M2.5.0 in a February with four Sundays is the fourth.
        #expect(
            PosixTZ.day(of: .monthWeek(month: 2, week: 5, weekday: 0), in: 2026)
                == Civil.daysFromCivil(year: 2026, month: 2, day: 22))
        let zone = try Self.tz("AAA3BBB,J60/0,300/0")
        #expect(zone.type(at: try Self.time("2026-03-01T02:59:59Z")).abbreviation == "AAA")
        #expect(zone.type(at: try Self.time("2026-03-01T03:00:00Z")).abbreviation == "BBB")
        // Day 300 of 2026 (zero-based) is October 28; the end time is DST local, UT−2.
        #expect(zone.type(at: try Self.time("2026-10-28T01:59:59Z")).abbreviation == "BBB")
        #expect(zone.type(at: try Self.time("2026-10-28T02:00:00Z")).abbreviation == "AAA")
    }

    @Test func version3TimesBeyondTheDay() throws {
        // Gaza: 50 hours after the midnight before the fourth Thursday (Saturday 02:00).
        let gaza = try Self.tz("EET-2EEST,M3.4.4/50,M10.4.4/50")
        #expect(gaza.type(at: try Self.time("2026-03-28T00:00:00Z")).abbreviation == "EEST")
        #expect(gaza.type(at: try Self.time("2026-03-27T23:59:59Z")).abbreviation == "EET")
        // Nuuk: an hour before the midnight that starts the last Sunday of March (23:00 −02).
        let nuuk = try Self.tz("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.daylight?.start.time == -3600)
        #expect(nuuk.type(at: try Self.time("2026-03-29T00:59:59Z")).abbreviation == "-02")
        #expect(nuuk.type(at: try Self.time("2026-03-29T01:00:00Z")).abbreviation == "-01")
        // Year-round DST (RFC 8536 §3.3.1's example): never standard time.
        let always = try Self.tz("EST5EDT,0/0,J365/25")
        for text in ["2026-01-01T05:00:00Z", "2026-06-01T00:00:00Z", "2026-12-31T23:59:59Z", "2027-01-01T05:00:00Z"] {
            #expect(always.type(at: try Self.time(text)).abbreviation == "EDT", "\(text)")
        }
        #expect(
            always.changes(after: try Self.time("2026-01-02T00:00:00Z"), through: try Self.time("2030-01-01T00:00:00Z"))
                .isEmpty)
    }

    /// Dublin's "negative DST": Irish Standard Time in summer, GMT marked as DST in winter.
    @Test func negativeDaylightSavingTime() throws {
        let dublin = try Self.tz("IST-1GMT0,M10.5.0,M3.5.0/1")
        let winter = dublin.type(at: try Self.time("2026-01-15T12:00:00Z"))
        #expect(winter == LocalTimeType(utOffset: 0, isDST: true, abbreviation: "GMT"))
        let summer = dublin.type(at: try Self.time("2026-07-15T12:00:00Z"))
        #expect(summer == LocalTimeType(utOffset: 3600, isDST: false, abbreviation: "IST"))
    }

    @Test(arguments: [
        ("", 0), ("U", 1), ("UT", 2), ("UTC", 3), ("UTC+", 4), ("UTC25", 3), ("UTC1:60", 5), ("<+03", 4),
        ("<+3>-3", 3), ("EST5EDT", 7), ("EST5EDT,", 8), ("EST5EDT,M3.2.0", 14), ("EST5EDT,M13.2.0,M11.1.0", 9),
        ("EST5EDT,M3.6.0,M11.1.0", 11), ("EST5EDT,M3.2.7,M11.1.0", 13), ("EST5EDT,M3.2.0/168,M11.1.0", 15),
        ("EST5EDT,J0,J365", 9), ("EST5EDT,366,0", 8), ("EST5EDT,M3.2.0,M11.1.0x", 22), ("EST5EDT;", 7),
        ("UTC0 ", 4), ("EST5EDT,M3.2,M11.1.0", 12), ("UTC0000", 3),
    ])
    func errorsSayWhere(text: String, offset: Int) {
        #expect {
            try Self.tz(text)
        } throws: { error in
            (error as? ZoneDataError)?.place == .tzString(offset)
        }
    }

    @Test func rulesFromTZAlone() throws {
        let rules = try ZoneRules(posixTZ: "EST5EDT,M3.2.0,M11.1.0")
        #expect(rules.offset(at: try Self.time("2026-07-01T00:00:00Z")) == (-14_400, "EDT", true))
        #expect(
            rules.instant(year: 2026, month: 3, day: 8, hour: 2, minute: 30) == (try Self.time("2026-03-08T07:30:00Z")))
        #expect(ZoneRules.utc.offset(at: Timestamp(seconds: 0)) == (0, "UTC", false))
        #expect(throws: ZoneDataError.self) { try ZoneRules(posixTZ: "Europe/London") }
    }
}
