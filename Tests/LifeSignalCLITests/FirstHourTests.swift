import Foundation
import Testing

@testable import LifeSignalCLI
@testable import LifeSignalCore

// The first hour of a new user: values, dates and hints that make sense.

@Suite struct FirstHourTests {
    @Test func aNegativeDurationIsAValueWithAReasonNotAnUnknownOption() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let run = home.run(["checkin", "interval", "-5h"])
        #expect(run.code == 64)
        #expect(
            run.stderr.hasPrefix(
                "lifesignal: error: The value '-5h' is invalid for '<duration>': a duration cannot be negative; give a duration such as 45m, 8h or 1d12h.\n"
            ), "\(run.stderr)")
        // Where no value is expected, it is an unexpected argument, still not an option.
        let stray = home.run(["checkin", "-5h"])
        #expect(stray.code == 64)
        #expect(!stray.stderr.contains("Unknown option"), "\(stray.stderr)")
    }

    @Test func historyTakesAPlainDateAndARange() {
        let home = TempHome()
        for (day, hour) in [("01", "09"), ("02", "09"), ("02", "18"), ("03", "09")] {
            home.run(["checkin", "--quiet"], now: "2026-03-\(day)T\(hour):00:00Z")
        }
        let run = home.run(
            ["checkin", "history", "--since", "2026-03-02", "--until", "2026-03-03"], now: "2026-03-03T10:00:00Z")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 2, "\(run.stdout)")
        let evening = home.run(["checkin", "history", "--since", "2026-03-02 12:00"], now: "2026-03-03T10:00:00Z")
        #expect(evening.stdout.split(separator: "\n").count == 2, "\(evening.stdout)")
        let backwards = home.run(["checkin", "history", "--since", "2026-03-03", "--until", "2026-03-02"])
        #expect(backwards.code == 64)
        #expect(
            backwards.stderr.contains("--until (2026-03-02 00:00 UTC) must be after --since (2026-03-03 00:00 UTC)"))
    }

    /// The reminder the conflict message suggests is itself accepted, for every interval the
    /// app accepts, minute by minute.
    @Test func theSuggestedReminderAlwaysFits() {
        var interval = Rules.intervalRange.lowerBound
        while interval <= Rules.intervalRange.upperBound {
            let suggested = Rules.SettingError.fittingReminder(for: interval)
            #expect(throws: Never.self, "\(interval)") { try Rules.check(interval: interval, reminder: suggested) }
            interval = TimeSpan(seconds: interval.seconds + 60)
        }
    }

    @Test func aProfileCreatedByInitTakesItsReminderInTheSameBreath() {
        let home = TempHome()
        let refused = home.run(["init", "--interval", "20m"])
        #expect(refused.code == 65)
        #expect(refused.stderr.contains("(with init: --reminder 10m)"), "\(refused.stderr)")
        #expect(home.run(["init", "--interval", "20m", "--reminder", "10m"]).code == 0)
    }
}
