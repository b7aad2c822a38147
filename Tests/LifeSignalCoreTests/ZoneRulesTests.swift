import Foundation
import TestSupport
import Testing

@testable import LifeSignalCore

/// The zone files of the system, read by `ZoneRules`, against `zdump`: the offset,
/// abbreviation and DST flag at each transition, the second before it and the second after,
/// for years both inside the files' tables and past them, where the footer rule decides.
@Suite(.enabled(if: ZoneSupport.available, "\(ZoneSupport.missing)"))
struct ZoneRulesTests {
    static let zones = [
        "Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC", "Europe/Dublin",
        "Asia/Jerusalem", "America/Nuuk", "Asia/Gaza", "Antarctica/Troll", "Africa/Casablanca", "Pacific/Apia",
    ]

    static func expect(_ rules: ZoneRules, matches line: ZoneSupport.Line, at time: Timestamp) {
        let found = rules.offset(at: time)
        #expect(
            found.seconds == line.offset && found.abbreviation == line.abbreviation && found.isDST == line.isDST,
            "\(line.zone) at \(time): \(found) but zdump says \(line.offset) \(line.abbreviation) dst=\(line.isDST)")
    }

    @Test(.integration, .enabled(if: ZoneSupport.zdump != nil, "\(ZoneSupport.noZdump)"), arguments: zones)
    func agreesWithZdump(zone: String) throws {
        let rules = try ZoneSupport.rules(zone)
        let lines = try ZoneSupport.zdump([zone], years: 1970...2045)
        for line in lines {
            Self.expect(rules, matches: line, at: line.at)
        }
        // zdump prints the second before and the second of each change: the second after
        // must still be the new type.
        for pair in zip(lines, lines.dropFirst()) where pair.1.at.seconds - pair.0.at.seconds == 1 {
            Self.expect(rules, matches: pair.1, at: pair.1.at + TimeSpan(seconds: 1))
        }
        if zone == "Europe/London" { #expect(lines.count > 100, "zdump printed \(lines.count) lines") }
    }

    /// Every zone of the system, 2024–2045: past the 2037 end of the tables in "fat" files, so
    /// each zone's footer is read and applied.
    @Test(.integration, .enabled(if: ZoneSupport.zdump != nil, "\(ZoneSupport.noZdump)"))
    func everyZoneAgreesWithZdumpIntoTheFooterYears() throws {
        let zones = try ZoneSupport.allZones()
        #expect(zones.count > 300)
        var rules: [String: ZoneRules] = [:]
        for zone in zones { rules[zone] = try ZoneSupport.rules(zone) }
        let lines = try ZoneSupport.zdump(zones, years: 2024...2045)
        #expect(lines.count > 1000)
        for line in lines {
            guard let zone = rules[line.zone] else { continue }
            Self.expect(zone, matches: line, at: line.at)
        }
    }

    /// In fat files the table runs to 2037 while the footer already holds: from the last rule
    /// change on, both must give the same answer at every transition and between them.
    @Test(arguments: ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Jerusalem", "America/Nuuk"])
    func footerAgreesWithTheTableWhereBothApply(zone: String) throws {
        let rules = try ZoneSupport.rules(zone)
        let footer = try #require(rules.footer)
        let recent = rules.transitions.filter { $0.at >= Timestamp(rfc3339: "2024-01-01T00:00:00Z") ?? $0.at }
        #expect(recent.count > 20, "\(zone) has a fat table")
        for transition in recent {
            for delta: Int64 in [-1, 0, 1, 86_400 * 30] {
                let time = transition.at + TimeSpan(seconds: delta)
                #expect(footer.type(at: time) == rules.type(at: time), "\(zone) at \(time)")
            }
        }
    }

    @Test func bothChangesAtTheBoundarySecond() throws {
        let cases: [(zone: String, change: String, before: (Int64, String), after: (Int64, String))] = [
            ("Europe/London", "2026-03-29T01:00:00Z", (0, "GMT"), (3600, "BST")),
            ("Europe/London", "2026-10-25T01:00:00Z", (3600, "BST"), (0, "GMT")),
            ("Europe/London", "2039-03-27T01:00:00Z", (0, "GMT"), (3600, "BST")),
            ("Europe/London", "2039-10-30T01:00:00Z", (3600, "BST"), (0, "GMT")),
            ("America/New_York", "2026-03-08T07:00:00Z", (-18_000, "EST"), (-14_400, "EDT")),
            ("America/New_York", "2026-11-01T06:00:00Z", (-14_400, "EDT"), (-18_000, "EST")),
            ("America/New_York", "2040-03-11T07:00:00Z", (-18_000, "EST"), (-14_400, "EDT")),
            ("America/New_York", "2040-11-04T06:00:00Z", (-14_400, "EDT"), (-18_000, "EST")),
            ("Australia/Lord_Howe", "2026-10-03T15:30:00Z", (37_800, "+1030"), (39_600, "+11")),
            ("Australia/Lord_Howe", "2040-03-31T15:00:00Z", (39_600, "+11"), (37_800, "+1030")),
        ]
        for c in cases {
            let rules = try ZoneSupport.rules(c.zone)
            let change = try #require(Timestamp(rfc3339: c.change))
            let before = rules.offset(at: change - TimeSpan(seconds: 1))
            #expect((before.seconds, before.abbreviation) == c.before, "\(c.zone) just before \(c.change)")
            for time in [change, change + TimeSpan(seconds: 1)] {
                let after = rules.offset(at: time)
                #expect((after.seconds, after.abbreviation) == c.after, "\(c.zone) at \(time)")
            }
        }
    }

    @Test func zonesWithoutDaylightSavingTime() throws {
        let kolkata = try ZoneSupport.rules("Asia/Kolkata")
        let utc = try ZoneSupport.rules("UTC")
        for year: Int64 in [1980, 2026, 2038, 2100, 9999] {
            let time = try #require(Timestamp(rfc3339: "\(year)-07-01T00:00:00Z"))
            #expect(kolkata.offset(at: time) == (19_800, "IST", false))
            #expect(utc.offset(at: time) == (0, "UTC", false))
        }
        #expect(utc.transitions.isEmpty && utc.footerText == "UTC0")
        #expect(kolkata.footerText == "IST-5:30")
    }

    /// Instants far outside any table still get an answer, without overflow.
    @Test func extremeInstantsDoNotTrap() throws {
        for zone in Self.zones {
            let rules = try ZoneSupport.rules(zone)
            for seconds: Int64 in [.min, .min + 1, -(1 << 59) - 1, 0, 1 << 59, .max - 1, .max] {
                let time = Timestamp(seconds: seconds)
                _ = rules.offset(at: time)
                _ = rules.localDate(of: time)
                _ = rules.local(time)
                _ = rules.changes(after: time, through: time + TimeSpan(seconds: 86_400 * 400))
            }
        }
    }

    @Test func formatsInstantsForRecipients() throws {
        let london = try ZoneSupport.rules("Europe/London")
        let time = try #require(Timestamp(rfc3339: "2026-07-01T08:00:00Z"))
        #expect(london.local(time) == "2026-07-01 09:00 BST")
        #expect(try ZoneSupport.rules("Australia/Lord_Howe").local(time) == "2026-07-01 18:30 +1030")
    }
}
