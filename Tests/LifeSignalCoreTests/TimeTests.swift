import Testing

@testable import LifeSignalCore

@Suite struct TimeTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2026-03-01T09:00:00Z", Int64(1_772_355_600)),
        ("2026-03-01T11:00:00+02:00", Int64(1_772_355_600)),
        ("2026-03-01T04:30:00-04:30", Int64(1_772_355_600)),
        ("2026-03-01T09:00:00.999Z", Int64(1_772_355_600)),
        ("2024-02-29T00:00:00Z", Int64(1_709_164_800)),
        ("9999-12-31T23:59:59Z", Int64(253_402_300_799)),
    ])
    func parsesRFC3339(text: String, seconds: Int64) {
        #expect(Timestamp(rfc3339: text)?.seconds == seconds)
    }

    @Test(arguments: [
        "", "2026-03-01", "2026-03-01T09:00:00", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T09:60:00Z", "2026-03-01T09:00:60Z",
        "1969-12-31T23:59:59Z", "2026-03-01T09:00:00+2:00", "2026-03-01T09:00:00Zjunk", "２026-03-01T09:00:00Z",
        "2026-03-01T09:00:00.Z",
    ])
    func refusesInvalidTimes(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test func formatsInUTCAndRoundTrips() {
        for seconds in [Int64(0), 951_782_400, 1_772_355_600, 4_102_444_799] {
            let time = Timestamp(seconds: seconds)
            #expect(Timestamp(rfc3339: time.rfc3339) == time)
        }
        #expect(Timestamp(seconds: 1_772_355_600).rfc3339 == "2026-03-01T09:00:00Z")
        #expect(Timestamp(seconds: 1_772_355_600).local(utcOffset: 3600) == "2026-03-01 10:00")
        #expect(Timestamp(seconds: 1_772_355_600).local(utcOffset: -10 * 3600) == "2026-02-28 23:00")
    }

    @Test(arguments: [
        ("45m", Int64(2700)), ("8h", Int64(28_800)), ("1d12h", Int64(129_600)), ("1d 12h", Int64(129_600)),
        ("90s", Int64(90)), ("2h30m", Int64(9000)), ("36h", Int64(129_600)),
    ])
    func parsesDurations(text: String, seconds: Int64) {
        #expect(TimeSpan(parsing: text)?.seconds == seconds)
    }

    @Test(arguments: ["", "0h", "h", "8", "8x", "-1h", "1h1d", "1h1h", "99999999999999999999h", "1.5h", "36500000d"])
    func refusesBadDurations(text: String) {
        #expect(TimeSpan(parsing: text) == nil)
    }

    @Test func describesSettingsAsPeopleSetThem() {
        #expect(TimeSpan.hours(24).description == "24h")
        #expect(TimeSpan.hours(48).description == "48h")
        #expect(TimeSpan.hours(8).description == "8h")
        #expect(TimeSpan(seconds: 36 * 3600 + 1800).description == "36h 30m")
        #expect(TimeSpan.days(3).description == "3d")
        #expect(TimeSpan(seconds: 7 * 86_400 + 12 * 3600).description == "7d 12h")
        #expect(TimeSpan.minutes(45).description == "45m")
        #expect(TimeSpan(seconds: 0).description == "0s")
    }

    @Test func countdownTextFollowsTheApp() {
        #expect(TimeSpan(seconds: 86_400 + 4 * 3600 + 59).short == "1d 4h")
        #expect(TimeSpan.days(2).short == "2d")
        #expect(TimeSpan(seconds: 3 * 3600 + 12 * 60).short == "3h 12m")
        #expect(TimeSpan.hours(3).short == "3h")
        #expect(TimeSpan.minutes(12).short == "12m")
        #expect(TimeSpan(seconds: 40).short == "40s")
        #expect(TimeSpan(seconds: -7500).short == "2h 5m")
    }

    @Test func relativePhrases() {
        let now = Timestamp(seconds: 1_000_000)
        #expect(Relative.phrase(Timestamp(seconds: 1_000_000 + 11_520), now: now) == "in 3h 12m")
        #expect(Relative.phrase(Timestamp(seconds: 1_000_000 - 7200), now: now) == "2h ago")
        #expect(Relative.phrase(now, now: now) == "now")
    }
}

@Suite struct IdentifierTests {
    @Test func makesValidVersion4Ids() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<50).map { _ in Identifier.make(using: &generator) }
        #expect(Set(ids).count == 50)
        for id in ids {
            #expect(Identifier.isValid(id))
            #expect(Array(id)[14] == "4")
        }
        #expect(!Identifier.isValid("../../etc"))
        #expect(!Identifier.isValid("54C7FA0E-EEEE-4706-B208-912345D61760"))
    }
}

/// Why a duration is refused, said for the mistake made.
@Suite struct DurationProblemTests {
    @Test(arguments: [
        ("12h30", "'30' at the end has no unit: write 12h30m"),
        ("1d12h30", "'30' at the end has no unit: write 1d12h30m"),
        ("1d12", "'12' at the end has no unit: write 1d12h"),
        ("1h30m15", "'15' at the end has no unit: write 1h30m15s"),
        ("99999999999999999999h", "it is longer than 100 years"),
        ("12h1d", "each unit comes once, largest first (1d12h, not 12h1d)"),
        ("1d1d", "each unit comes once, largest first (1d12h, not 12h1d)"),
        ("1.5h", "fractions are not accepted: write 1h30m, not 1.5h"),
        ("90", "it has no unit: add d, h, m or s, e.g. 90m or 90h"),
        ("8 hours", "'o' is not a unit: use d, h, m or s"),
    ])
    func saysWhatIsWrong(_ text: String, _ problem: String) {
        #expect(TimeSpan.problem(parsing: text) == problem)
    }
}
