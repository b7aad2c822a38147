import Testing

@testable import LifeSignalCore

/// Wall times in real zones: the hour skipped and the hour repeated at both changes of two
/// zones, Lord Howe's half-hour change, Samoa's skipped day, and a daily 09:00 that follows the
/// zone's clock across a change.
@Suite(.enabled(if: ZoneSupport.available, "\(ZoneSupport.missing)"))
struct WallClockTests {
    static func time(_ text: String) throws -> Timestamp { try #require(Timestamp(rfc3339: text)) }

    static func resolve(_ zone: String, _ y: Int64, _ mo: Int64, _ d: Int64, _ h: Int64, _ mi: Int64) throws
        -> WallTimeResolution
    {
        let date = try #require(LocalDate(year: y, month: mo, day: d))
        return try ZoneSupport.rules(zone).resolve(date, try #require(TimeOfDay(hour: h, minute: mi)))
    }

    @Test func skippedWallTimesShiftForwardByTheGap() throws {
        // London, 2026-03-29: 01:00 GMT becomes 02:00 BST; 01:30 is taken as 02:30 BST.
        #expect(
            try Self.resolve("Europe/London", 2026, 3, 29, 1, 30)
                == .skipped(instant: try Self.time("2026-03-29T01:30:00Z"), gap: .hours(1)))
        // New York, 2026-03-08: 02:30 is taken as 03:30 EDT.
        #expect(
            try Self.resolve("America/New_York", 2026, 3, 8, 2, 30)
                == .skipped(instant: try Self.time("2026-03-08T07:30:00Z"), gap: .hours(1)))
        // Lord Howe springs forward half an hour: 02:15 is taken as 02:45 +11.
        #expect(
            try Self.resolve("Australia/Lord_Howe", 2026, 10, 4, 2, 15)
                == .skipped(instant: try Self.time("2026-10-03T15:45:00Z"), gap: .minutes(30)))
        // Samoa skipped 2011-12-30 entirely, moving west of the date line.
        #expect(
            try Self.resolve("Pacific/Apia", 2011, 12, 30, 9, 0)
                == .skipped(instant: try Self.time("2011-12-30T19:00:00Z"), gap: .hours(24)))
        // In a footer year (past the table) too.
        #expect(
            try Self.resolve("Europe/London", 2040, 3, 25, 1, 0)
                == .skipped(instant: try Self.time("2040-03-25T01:00:00Z"), gap: .hours(1)))
    }

    @Test func repeatedWallTimesTakeTheEarlierInstant() throws {
        let london = try Self.resolve("Europe/London", 2026, 10, 25, 1, 30)
        #expect(
            london
                == .repeated(
                    earlier: try Self.time("2026-10-25T00:30:00Z"), later: try Self.time("2026-10-25T01:30:00Z")))
        #expect(london.instant == (try Self.time("2026-10-25T00:30:00Z")))
        #expect(
            try Self.resolve("America/New_York", 2026, 11, 1, 1, 30)
                == .repeated(
                    earlier: try Self.time("2026-11-01T05:30:00Z"), later: try Self.time("2026-11-01T06:30:00Z")))
        #expect(
            try Self.resolve("Australia/Lord_Howe", 2026, 4, 5, 1, 45)
                == .repeated(
                    earlier: try Self.time("2026-04-04T14:45:00Z"), later: try Self.time("2026-04-04T15:15:00Z")))
        #expect(
            try Self.resolve("America/New_York", 2040, 11, 4, 1, 0)
                == .repeated(
                    earlier: try Self.time("2040-11-04T05:00:00Z"), later: try Self.time("2040-11-04T06:00:00Z")))
    }

    @Test func ordinaryWallTimesAreUnique() throws {
        #expect(try Self.resolve("Europe/London", 2026, 3, 29, 2, 0) == .unique(try Self.time("2026-03-29T01:00:00Z")))
        #expect(try Self.resolve("Europe/London", 2026, 3, 29, 0, 59) == .unique(try Self.time("2026-03-29T00:59:00Z")))
        #expect(try Self.resolve("Europe/London", 2026, 10, 25, 2, 0) == .unique(try Self.time("2026-10-25T02:00:00Z")))
        #expect(try Self.resolve("Asia/Kolkata", 2026, 1, 1, 0, 0) == .unique(try Self.time("2025-12-31T18:30:00Z")))
        let london = try ZoneSupport.rules("Europe/London")
        #expect(
            london.instant(year: 2026, month: 7, day: 1, hour: 9, minute: 0) == (try Self.time("2026-07-01T08:00:00Z")))
        #expect(london.instant(year: 2026, month: 2, day: 29, hour: 9, minute: 0) == nil)
        #expect(london.instant(year: 2026, month: 7, day: 1, hour: 24, minute: 0) == nil)
    }

    /// Every wall time of a year round-trips: resolve, then read the clock back at that instant.
    @Test(arguments: ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Jerusalem", "America/Nuuk"])
    func wallTimesRoundTripOutsideGaps(zone: String) throws {
        let rules = try ZoneSupport.rules(zone)
        var date = try #require(LocalDate(year: 2039, month: 1, day: 1))
        while date.year == 2039 {
            for (hour, minute): (Int64, Int64) in [(0, 0), (0, 30), (1, 0), (1, 30), (2, 30), (3, 0), (9, 0), (23, 59)]
            {
                let wall = try #require(TimeOfDay(hour: hour, minute: minute))
                let resolution = rules.resolve(date, wall)
                let back = resolution.instant + TimeSpan(seconds: rules.offset(at: resolution.instant).seconds)
                let expected = date.daysSinceEpoch * 86_400 + wall.seconds
                if case .skipped(_, let gap) = resolution {
                    #expect(back.seconds == expected + gap.seconds, "\(zone) \(date) \(wall)")
                } else {
                    #expect(back.seconds == expected, "\(zone) \(date) \(wall)")
                }
            }
            date = date.adding(days: 1)
        }
    }

    @Test func dailyNineFollowsTheZoneAcrossBothChanges() throws {
        let nine = try #require(TimeOfDay(parsing: "09:00"))
        for (zone, start, expected) in [
            (
                "Europe/London", "2026-03-27T09:00:00Z",
                ["2026-03-27T09:00:00Z", "2026-03-28T09:00:00Z", "2026-03-29T08:00:00Z", "2026-03-30T08:00:00Z"]
            ),
            (
                "Europe/London", "2026-10-23T08:00:01Z",
                ["2026-10-24T08:00:00Z", "2026-10-25T09:00:00Z", "2026-10-26T09:00:00Z"]
            ),
            (
                "America/New_York", "2026-03-07T14:00:00Z",
                ["2026-03-07T14:00:00Z", "2026-03-08T13:00:00Z", "2026-03-09T13:00:00Z"]
            ),
            (
                "America/New_York", "2040-11-03T12:59:59Z",
                ["2040-11-03T13:00:00Z", "2040-11-04T14:00:00Z", "2040-11-05T14:00:00Z"]
            ),
        ] {
            let rules = try ZoneSupport.rules(zone)
            var from = try Self.time(start)
            for text in expected {
                let next = rules.nextOccurrence(of: nine, atOrAfter: from)
                #expect(next == (try Self.time(text)), "\(zone) after \(from)")
                from = next + TimeSpan(seconds: 1)
            }
        }
    }

    @Test func aRepeatedTimeComesOnceAndASkippedOneStillComes() throws {
        let london = try ZoneSupport.rules("Europe/London")
        let half = try #require(TimeOfDay(parsing: "1:30"))
        // After the first 01:30 of 2026-10-25, the next is the following day's, not the repeat.
        let next = london.nextOccurrence(of: half, atOrAfter: try Self.time("2026-10-25T00:30:01Z"))
        #expect(next == (try Self.time("2026-10-26T01:30:00Z")))
        // 01:30 does not exist on 2026-03-29; it comes as 02:30 BST.
        let skipped = london.nextOccurrence(of: half, atOrAfter: try Self.time("2026-03-28T12:00:00Z"))
        #expect(skipped == (try Self.time("2026-03-29T01:30:00Z")))
    }

    @Test func localDates() throws {
        let london = try ZoneSupport.rules("Europe/London")
        #expect(london.localDate(of: try Self.time("2026-03-28T23:30:00Z")).description == "2026-03-28")
        #expect(london.localDate(of: try Self.time("2026-06-01T23:30:00Z")).description == "2026-06-02")
        let kolkata = try ZoneSupport.rules("Asia/Kolkata")
        #expect(kolkata.localDate(of: try Self.time("2026-01-01T18:29:59Z")) == LocalDate(year: 2026, month: 1, day: 1))
        #expect(kolkata.localDate(of: try Self.time("2026-01-01T18:30:00Z")) == LocalDate(year: 2026, month: 1, day: 2))
        let newYork = try ZoneSupport.rules("America/New_York")
        #expect(
            newYork.localDate(of: try Self.time("2039-01-01T04:59:59Z")) == LocalDate(year: 2038, month: 12, day: 31))
    }

    @Test func timesOfDayAndDates() {
        #expect(TimeOfDay(parsing: "09:00")?.description == "09:00")
        #expect(TimeOfDay(parsing: "9:05")?.description == "09:05")
        #expect(TimeOfDay(parsing: "23:59") != nil)
        for bad in ["24:00", "9:5", "09:60", "0900", "09:00:00", "", ":", "-1:00", "+9:00", "٠٩:00"] {
            #expect(TimeOfDay(parsing: bad) == nil, "\(bad)")
        }
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2026, month: 12, day: 31)?.adding(days: 1) == LocalDate(year: 2027, month: 1, day: 1))
    }
}
