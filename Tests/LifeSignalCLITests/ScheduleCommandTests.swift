import Foundation
import LifeSignalCore
import TestSupport
import Testing

// Pauses and trips end to end: cron's `notify deliver` over simulated days with
// LIFESIGNAL_NOW, and an exec: channel recording what the responder receives.

@Suite struct ScheduleCommandTests {
    /// Bea, checked in at 2026-03-01 09:00 UTC, with Sam reached by a command that records
    /// "<type> <message>" lines.
    static func bea() -> (home: TempHome, received: () -> [String]) {
        let home = TempHome()
        let log = home.path + "/sam.log"
        home.run(["checkin", "--quiet"])
        let channel = "exec:echo \"$LIFESIGNAL_TYPE $LIFESIGNAL_MESSAGE\" >> '\(log)'"
        home.run(["contacts", "add", "Sam", "--responder", "--notify", channel, "--quiet"])
        let received = {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        return (home, received)
    }

    /// Runs deliver every `every` hours from `from` for `hours` hours, as cron would (less
    /// often).
    static func cron(_ home: TempHome, from start: String, hours: Int, every: Int = 1) {
        guard let t0 = Timestamp(rfc3339: start) else { return }
        for hour in stride(from: 0, to: hours, by: every) {
            let now = Timestamp(seconds: t0.seconds + Int64(hour) * 3600).rfc3339
            let run = home.run(["notify", "deliver", "--quiet"], now: now)
            #expect(run.code == 0, "deliver at \(now): \(run.stderr)")
        }
    }

    @Test func aTwoWeekHolidayPauseToldOnceAndNothingElseThenTheCountdownRestarts() {
        let (home, received) = Self.bea()
        let paused = home.run(
            ["checkin", "pause", "--until", "14d", "--note", "Sailing with Kim"], now: "2026-03-01T20:00:00Z")
        #expect(paused.code == 0, "\(paused.stderr)")
        #expect(paused.stdout.hasPrefix("Check-ins paused until 2026-03-15 20:00 UTC (in 14d)"))
        // Told at once, with when it ends and the note.
        #expect(received().count == 1)
        let told = received().first ?? ""
        #expect(told.hasPrefix("receive_dependent_check_ins_paused "))
        #expect(
            told.hasSuffix(
                " paused their check-ins until 2026-03-15 20:00 UTC. Their note: “Sailing with Kim”. No deadline applies until then; their countdown restarts when the pause ends."
            ))
        let status = home.run(["status", "--json"], now: "2026-03-08T09:00:00Z")
        #expect(status.code == 0)
        let checkIn = jsonObject(status.stdout)["checkIn"] as? [String: Any]
        #expect(checkIn?["state"] as? String == "paused")
        #expect(checkIn?["schedule"] as? String == "paused")
        #expect((checkIn?["pause"] as? [String: Any])?["until"] as? String == "2026-03-15T20:00:00Z")
        #expect(checkIn?["deadline"] is NSNull)
        let upcoming = checkIn?["next"] as? [String: Any]
        #expect(upcoming?["event"] as? String == "resume")
        #expect(upcoming?["at"] as? String == "2026-03-15T20:00:00Z")
        // Two weeks of cron, every 4 hours (what is due stays due until a run): no reminder, no
        // missed check-in; the end is told.
        Self.cron(home, from: "2026-03-02T00:00:00Z", hours: 14 * 24 + 12, every: 4)
        #expect(
            received().map { $0.split(separator: " ").first.map(String.init) ?? "" } == [
                "receive_dependent_check_ins_paused", "receive_dependent_check_ins_resumed",
            ])
        // The countdown restarted from the end of the pause.
        let after = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-16T09:00:00Z").stdout)
        #expect(after["state"] as? String == "ok")
        #expect(after["deadline"] as? String == "2026-03-16T20:00:00Z")
        let next = home.run(["status"], now: "2026-03-16T09:00:00Z")
        #expect(next.stdout.contains("Deadline        2026-03-16 20:00 UTC"))
    }

    @Test func aLongPauseNeedsYesAndResumeEndsItEarly() {
        let (home, received) = Self.bea()
        let long = home.run(["checkin", "pause", "--until", "40d"], now: "2026-03-01T10:00:00Z")
        #expect(long.code == 65)
        #expect(long.stderr.contains("a pause of 40d is longer than 30d"))
        #expect(long.stderr.contains("add --yes"))
        // The limit is the member's to set: 60 days, and 40 are fine without --yes.
        #expect(home.run(["checkin", "pause-limit", "60d", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(
            home.run(["checkin", "pause-limit"], now: "2026-03-01T10:00:00Z").stdout
                == "Longest pause without --yes: 60d.\n")
        #expect(home.run(["checkin", "pause-limit", "30d", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(received().isEmpty, "nothing recorded, nothing told")
        #expect(
            home.run(["checkin", "pause", "--until", "40d", "--yes", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        let resumed = home.run(["checkin", "resume"], now: "2026-03-03T10:00:00Z")
        #expect(resumed.code == 0, "\(resumed.stderr)")
        #expect(resumed.stdout == "Check-ins resumed; next deadline 2026-03-04 10:00 UTC (in 1d).\n")
        #expect(received().last?.hasPrefix("receive_dependent_check_ins_resumed ") == true)
        #expect(home.run(["checkin", "resume"], now: "2026-03-03T11:00:00Z").code == 65)
        #expect(home.run(["checkin", "pause"], now: "2026-03-03T11:00:00Z").code == 64)
    }

    @Test func aMissedTripReleasesItsNoteAndACheckInEndsTheTrip() {
        let (home, received) = Self.bea()
        let trip = home.run(
            ["checkin", "trip", "3h", "--note", "West ridge, car at the north lot"], now: "2026-03-01T11:00:00Z")
        #expect(trip.code == 0, "\(trip.stderr)")
        #expect(
            trip.stdout
                == "Trip set: if you have not checked in by 2026-03-01 14:00 UTC (in 3h), your responders are told, with your note. Reminder at 2026-03-01 13:30 UTC. Checking in ends the trip.\n"
        )
        #expect(received().isEmpty, "the note stays private until the miss")
        Self.cron(home, from: "2026-03-01T12:00:00Z", hours: 2)
        #expect(received().isEmpty)
        Self.cron(home, from: "2026-03-01T14:00:01Z", hours: 1)
        #expect(received().count == 1)
        #expect(received().first?.contains("due 2026-03-01 14:00 UTC") == true)
        #expect(received().first?.contains("“West ridge, car at the north lot”") == true)
        // Back: the check-in ends the trip and the interval applies again.
        #expect(home.run(["checkin", "--quiet"], now: "2026-03-01T15:00:00Z").code == 0)
        let status = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-01T15:00:00Z").stdout)
        #expect(status["schedule"] as? String == "interval")
        #expect(status["deadline"] as? String == "2026-03-02T15:00:00Z")
    }

    /// "Back tomorrow 18:00" typed with next year's date: refused like a long pause, and set
    /// only with --yes.
    @Test func aTripLongerThanThePauseLimitNeedsYes() {
        let (home, received) = Self.bea()
        let typo = home.run(["checkin", "trip", "2027-03-02T18:00:00Z"], now: "2026-03-01T11:00:00Z")
        #expect(typo.code == 65)
        #expect(typo.stderr.contains("a trip of 366d 7h is longer than 30d"), "\(typo.stderr)")
        #expect(typo.stderr.contains("add --yes"))
        let status = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-01T11:00:00Z").stdout)
        #expect(status["schedule"] as? String == "interval", "nothing was set")
        #expect(home.run(["checkin", "trip", "29d", "--quiet"], now: "2026-03-01T11:00:00Z").code == 0)
        let long = home.run(["checkin", "trip", "40d", "--yes"], now: "2026-03-01T11:00:00Z")
        #expect(long.code == 0, "\(long.stderr)")
        #expect(long.stdout.hasPrefix("Trip set: if you have not checked in by 2026-04-10 11:00 UTC (in 40d)"))
        #expect(received().isEmpty)
    }

    /// A trip due back at 12:00, then a pause until 15:00: when the pause ends the countdown
    /// restarts from 15:00, as the pause said; the trip's passed deadline is not missed then.
    @Test func aTripWhoseDeadlinePassedDuringAPauseIsNotMissedWhenThePauseEnds() {
        let (home, received) = Self.bea()
        #expect(
            home.run(["checkin", "trip", "3h", "--note", "ridge walk", "-q"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(
            home.run(["checkin", "pause", "--until", "2026-03-01T15:00:00Z", "-q"], now: "2026-03-01T10:00:00Z").code
                == 0)
        Self.cron(home, from: "2026-03-01T11:00:00Z", hours: 6)
        let kinds = received().map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(
            kinds == ["receive_dependent_check_ins_paused", "receive_dependent_check_ins_resumed"], "\(received())")
        let status = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-01T16:00:00Z").stdout)
        #expect(status["state"] as? String == "ok")
        #expect(status["deadline"] as? String == "2026-03-02T15:00:00Z")
    }
}

extension ScheduleCommandTests {
    /// `lifesignal checkin -q && lifesignal checkin trip 3h`: both in one second. The trip
    /// holds (events of one device are ordered by sequence, not by equal seconds), and the
    /// reminder printed is the trip's.
    @Test func aTripSetInTheSecondOfACheckInHolds() {
        let home = TempHome()
        home.addResponder()
        #expect(home.run(["checkin", "-q"], now: "2026-03-01T09:00:00Z").code == 0)
        let trip = home.run(["checkin", "trip", "3h"], now: "2026-03-01T09:00:00Z")
        #expect(
            trip.stdout
                == "Trip set: if you have not checked in by 2026-03-01 12:00 UTC (in 3h), your responders are told. Reminder at 2026-03-01 11:30 UTC. Checking in ends the trip.\n",
            "\(trip.stdout)")
        let status = jsonObject(home.run(["status", "--json"], now: "2026-03-01T09:00:00Z").stdout)
        let checkIn = status["checkIn"] as? [String: Any] ?? [:]
        #expect(checkIn["schedule"] as? String == "trip", "\(checkIn)")
        #expect(checkIn["deadline"] as? String == "2026-03-01T12:00:00Z")
        #expect((checkIn["trip"] as? [String: Any])?["deadline"] as? String == "2026-03-01T12:00:00Z")
    }
}

@Suite struct DailyScheduleCommandTests {
    static let hasZones = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/London")

    /// A second `schedule daily` without `--tz` keeps the zone the schedule has: 08:00 set in
    /// London stays London's on a machine whose own zone is UTC.
    @Test(.enabled(if: hasZones, "tzdata is not installed (bash .ci/run installs it)"))
    func aNewTimeKeepsTheSchedulesZone() {
        let home = TempHome()
        #expect(home.run(["checkin", "--quiet"], now: "2026-06-01T12:00:00Z").code == 0)
        let london = home.run(
            ["checkin", "schedule", "daily", "--at", "09:00", "--tz", "Europe/London"], now: "2026-06-01T12:00:00Z")
        #expect(london.code == 0, "\(london.stderr)")
        let again = home.run(["checkin", "schedule", "daily", "--at", "08:00"], now: "2026-06-01T12:00:00Z")
        #expect(again.stdout.hasPrefix("Schedule: check in by 08:00 every day (Europe/London)."), "\(again.stdout)")
        let status = jsonObject(home.run(["status", "--json"], now: "2026-06-01T12:00:00Z").stdout)
        // 08:00 BST is 07:00 UTC.
        #expect((status["checkIn"] as? [String: Any])?["deadline"] as? String == "2026-06-02T07:00:00Z")
    }

    @Test(.enabled(if: hasZones, "tzdata is not installed (bash .ci/run installs it)"))
    func aDailyTimeFollowsLondonAcrossTheStartOfSummerTime() {
        let (home, received) = ScheduleCommandTests.bea()
        #expect(home.run(["checkin", "--quiet"], now: "2026-03-27T12:00:00Z").code == 0)
        let set = home.run(
            ["checkin", "schedule", "daily", "--at", "09:00", "--tz", "Europe/London"], now: "2026-03-27T12:00:00Z")
        #expect(set.code == 0, "\(set.stderr)")
        #expect(
            set.stdout
                == "Schedule: check in by 09:00 every day (Europe/London). Next deadline 2026-03-28 09:00 UTC (in 21h).\n"
        )
        #expect(home.run(["checkin", "--quiet"], now: "2026-03-28T08:00:00Z").code == 0)
        // Sunday 29 March: summer time began at 01:00 UTC, so 09:00 in London is 08:00 UTC.
        let status = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-28T12:00:00Z").stdout)
        #expect(status["deadline"] as? String == "2026-03-29T08:00:00Z")
        #expect(status["schedule"] as? String == "daily")
        #expect((status["daily"] as? [String: Any])?["zone"] as? String == "Europe/London")
        let human = home.run(["checkin", "status"], now: "2026-03-28T12:00:00Z")
        #expect(human.stdout.contains("Schedule        by 09:00 every day (Europe/London)"))
        ScheduleCommandTests.cron(home, from: "2026-03-29T07:00:00Z", hours: 1)
        #expect(received().isEmpty)
        ScheduleCommandTests.cron(home, from: "2026-03-29T08:00:01Z", hours: 1)
        #expect(received().first?.contains("due 2026-03-29 08:00 UTC") == true, "\(received())")
        // Back to the interval.
        #expect(home.run(["checkin", "schedule", "interval", "--quiet"], now: "2026-03-29T10:00:00Z").code == 0)
        let back = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-03-29T10:00:00Z").stdout)
        #expect(back["schedule"] as? String == "interval")
        let unknown = home.run(["checkin", "schedule", "daily", "--at", "09:00", "--tz", "Europe/Lodnon"])
        #expect(unknown.code == 65)
        #expect(unknown.stderr.contains("the time zone 'Europe/Lodnon' cannot be used"))
    }
}

/// Grace, tiers and acknowledgement across two data directories of one circle: Ana watches
/// over Bea (tier 1, her own exec channel); Sam is Bea's external responder in tier 2.
@Suite struct EscalationCommandTests {
    static func circle() -> Household {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        let now = "2026-03-01T09:00:00Z"
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: now).code == 0)
        #expect(h.run("bea", ["contacts", "confirm", "Ana", "--quiet"], now: now).code == 0)
        #expect(h.run("ana", ["notify", "prefs", "--channel", h.logChannel("ana.log"), "--quiet"], now: now).code == 0)
        #expect(
            h.run(
                "bea", ["contacts", "add", "Sam", "--responder", "--notify", h.logChannel("sam.log"), "--quiet"],
                now: now
            ).code == 0)
        #expect(h.run("bea", ["contacts", "edit", "Sam", "--tier", "2", "--quiet"], now: now).code == 0)
        #expect(h.run("bea", ["checkin", "grace", "30m", "--quiet"], now: now).code == 0)
        #expect(h.run("bea", ["checkin", "escalation", "1h", "--quiet"], now: now).code == 0)
        #expect(h.run("bea", ["checkin", "--quiet"], now: now).code == 0)
        let trip = h.run(
            "bea", ["checkin", "trip", "3h", "--note", "West ridge", "--quiet"], now: "2026-03-01T11:00:00Z")
        #expect(trip.code == 0, "\(trip.stderr)")
        return h
    }

    /// Both machines' cron at `now`.
    static func cron(_ h: Household, _ now: String) {
        for person in ["bea", "ana"] { h.run(person, ["notify", "deliver", "--quiet"], now: now) }
    }

    static func missed(_ h: Household, _ log: String) -> Int {
        h.types(log).filter { $0 == "receive_non_responsive_dependent_alert" }.count
    }

    @Test func aMissedTripGoesToTierOneAfterTheGraceThenTierTwo() throws {
        let h = Self.circle()
        // The tier set is shown (campaign-e: it could be seen nowhere).
        #expect(
            h.run("bea", ["contacts", "show", "Sam"], now: "2026-03-01T11:00:00Z").stdout.contains(
                "Tier            2\n"))
        let ana = try #require(
            jsonObject(h.run("bea", ["contacts", "show", "Ana", "--json"], now: "2026-03-01T11:00:00Z").stdout)[
                "contact"]
                as? [String: Any])
        #expect(ana["tier"] as? Int == 1)
        Self.cron(h, "2026-03-01T14:05:00Z")
        #expect(Self.missed(h, "ana.log") == 0, "in the grace only Bea is told")
        Self.cron(h, "2026-03-01T14:31:00Z")
        #expect(Self.missed(h, "ana.log") == 1)
        #expect(Self.missed(h, "sam.log") == 0)
        // Told when her grace ended, as due: not "noticed late" (campaign-e 3).
        let list = notifications(h.run("ana", ["notify", "list", "--json"], now: "2026-03-01T14:31:00Z"))
        #expect(
            list.first { $0["type"] as? String == "receive_non_responsive_dependent_alert" }?["message"] as? String
                == "Bea missed their scheduled check-in, due 2026-03-01 14:00 UTC. They were on a trip, due back by then: “West ridge”."
        )
        Self.cron(h, "2026-03-01T15:29:00Z")
        #expect(Self.missed(h, "sam.log") == 0)
        Self.cron(h, "2026-03-01T15:41:00Z")
        #expect(Self.missed(h, "sam.log") == 1, "nobody acknowledged: tier 2 after the delay")
    }

    /// Ana's "I'm on it" holds tier 2 for two hours; after that, with Bea still silent, Sam is
    /// told after all, and told of Ana's word (campaign-c: an acknowledgement used to silence a
    /// miss for good).
    @Test func anAcknowledgementOnAnotherMachineHoldsTierTwoForTwoHours() throws {
        let h = Self.circle()
        let text = h.root.path + "/sam-text.log"
        let samText = "exec:printf '%s\\n' \"$LIFESIGNAL_MESSAGE\" >> '\(text)'"
        let edited = h.run(
            "bea", ["contacts", "edit", "Sam", "--notify", h.logChannel("sam.log"), "--notify", samText, "--quiet"],
            now: "2026-03-01T11:00:00Z")
        #expect(edited.code == 0, "\(edited.stderr)")
        Self.cron(h, "2026-03-01T14:31:00Z")
        let list = notifications(h.run("ana", ["notify", "list", "--json"], now: "2026-03-01T14:40:00Z"))
        let id = try #require(
            list.first { $0["type"] as? String == "receive_non_responsive_dependent_alert" }?["id"] as? String)
        let ack = h.run("ana", ["notify", "ack", String(id.prefix(8))], now: "2026-03-01T14:40:00Z")
        #expect(ack.code == 0, "\(ack.stderr)")
        #expect(ack.stdout.hasPrefix("Acknowledged"))
        for now in ["2026-03-01T15:41:00Z", "2026-03-01T16:30:00Z"] { Self.cron(h, now) }
        #expect(Self.missed(h, "sam.log") == 0, "Ana is on it: no escalation")
        // Bea hears that Ana is on it.
        let bea = notifications(h.run("bea", ["notify", "list", "--json"], now: "2026-03-01T16:30:00Z"))
        #expect(bea.contains { ($0["message"] as? String)?.hasPrefix("Ana is on it") == true })
        Self.cron(h, "2026-03-01T16:41:00Z")
        #expect(Self.missed(h, "sam.log") == 1, "the hold is over: tier 2 is told")
        let said = (try? String(contentsOfFile: text, encoding: .utf8)) ?? ""
        #expect(
            said.hasPrefix(
                "Ana said they were on it at Sun 1 Mar 2026, 14:40 UTC; in the 2h 1m since, no check-in, vouch or other answer has reached the sender of this message. Bea missed"
            ), "\(said)")
        // Ana on it again (review G1): held anew from 16:45; said again at 17:00, her 16:45 holds.
        let again = h.run("ana", ["notify", "ack", String(id.prefix(8))], now: "2026-03-01T16:45:00Z")
        #expect(again.stdout.contains("Until 2026-03-01 18:45 UTC"), "\(again.stdout)")
        let twice = h.run("ana", ["notify", "ack", String(id.prefix(8))], now: "2026-03-01T17:00:00Z")
        #expect(twice.stdout.contains("Until 2026-03-01 18:45 UTC"), "\(twice.stdout)")
        Self.cron(h, "2026-03-01T17:45:00Z")
        #expect(Self.missed(h, "sam.log") == 1, "held again: no second notice to Sam at 17:41")
        Self.cron(h, "2026-03-01T18:46:00Z")
        #expect(Self.missed(h, "sam.log") == 2, "the second hold is over")
        // What is not someone's miss or alert cannot be acknowledged.
        let other = try #require(list.first { $0["type"] as? String == "receive_contact_added" }?["id"] as? String)
        #expect(h.run("ana", ["notify", "ack", String(other.prefix(8))], now: "2026-03-01T16:41:00Z").code == 65)
    }
}

extension EscalationCommandTests {
    /// With Ana moved to tier 2 as well, nobody is in tier 1: the lowest tier in use is told
    /// after the grace, not an escalation delay later with nobody told before. A grace or a
    /// delay past a day is refused, a slip such as 30d for 30m above all.
    @Test func theLowestTierInUseIsToldFirstAndGraceAndDelayAreBounded() {
        let h = Self.circle()
        let now = "2026-03-01T11:00:00Z"
        #expect(h.run("bea", ["contacts", "edit", "Ana", "--tier", "2", "--quiet"], now: now).code == 0)
        Self.cron(h, "2026-03-01T14:31:00Z")
        #expect(Self.missed(h, "ana.log") == 1, "tier 2 is the first told: after the grace")
        #expect(Self.missed(h, "sam.log") == 1, "Sam is in the same tier")
        for (setting, value, said) in [
            ("grace", "30d", "a grace of 30d is longer than 1d"),
            ("escalation", "400d", "tiers cannot be 400d apart: choose from 1m to 1d"),
        ] {
            let refused = h.run("bea", ["checkin", setting, value], now: now)
            #expect(refused.code == 65)
            #expect(refused.stderr.contains(said), "\(refused.stderr)")
        }
        #expect(h.run("bea", ["checkin", "grace", "24h", "--quiet"], now: now).code == 0)
    }
}

extension ScheduleCommandTests {
    /// A zone whose coming clock changes are exceptions its rule for later years cannot carry
    /// (America/Havana in tzdata 2026f): the rule alone would put "by 09:00" at 10:00. Refused,
    /// with a fixed offset as the way out; nothing is set.
    @Test func aZoneWhoseRuleCannotCarryItsNextClockChangesIsRefused() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"], now: "2026-11-26T10:00:00Z")
        let zones = home.path + "/zoneinfo"
        try FileManager.default.createDirectory(atPath: zones + "/Test", withIntermediateDirectories: true)
        try Data(TZifFile.exceptional).write(to: URL(fileURLWithPath: zones + "/Test/Cuba"))
        let refused = home.run(
            ["checkin", "schedule", "daily", "--at", "09:00", "--tz", "Test/Cuba"], now: "2026-11-26T10:00:00Z",
            environment: ["TZDIR": zones])
        #expect(refused.code == 65)
        #expect(
            refused.stderr.contains(
                "the time zone 'Test/Cuba' cannot be used: from 2026-11-26T10:00:00Z its clock follows exceptions that the rule it carries for later years cannot describe"
            ), "\(refused.stderr)")
        #expect(refused.stderr.contains("use --tz Etc/GMT+4 for UTC−4"))
        let status = jsonObject(home.run(["checkin", "status", "--json"], now: "2026-11-26T10:00:00Z").stdout)
        #expect(status["schedule"] as? String == "interval")
    }
}

extension ScheduleCommandTests {
    /// A schedule set while its zone's rule was its clock, then tzdata brings an exception
    /// (America/Havana's, 2026): doctor says the stored rule is off, and how to set it again.
    @Test func doctorSaysWhenAStoredScheduleNoLongerIsItsZonesClock() throws {
        let home = TempHome()
        let now = "2026-11-26T10:00:00Z"
        home.run(["checkin", "--quiet"], now: now)
        let zones = home.path + "/zoneinfo"
        let file = zones + "/Test/Cuba"
        try FileManager.default.createDirectory(atPath: zones + "/Test", withIntermediateDirectories: true)
        let plain = TZifFile.make(
            types: [(-18_000, 0, 0)], chars: Array("CST\0".utf8), footer: "CST5CDT,M3.2.0/0,M11.1.0/1")
        try Data(plain).write(to: URL(fileURLWithPath: file))
        let set = home.run(
            ["checkin", "schedule", "daily", "--at", "09:00", "--tz", "Test/Cuba", "--quiet"], now: now,
            environment: ["TZDIR": zones])
        #expect(set.code == 0, "\(set.stderr)")
        #expect(!home.run(["doctor"], now: now, environment: ["TZDIR": zones]).stdout.contains("schedule"))
        try Data(TZifFile.exceptional).write(to: URL(fileURLWithPath: file))
        let doctor = home.run(["doctor", "--json"], now: now, environment: ["TZDIR": zones])
        #expect(doctor.code == 7)
        let findings = jsonObject(doctor.stdout)["checks"] as? [[String: Any]] ?? []
        let schedule = try #require(findings.first { $0["check"] as? String == "schedule" }, "\(doctor.stdout)")
        #expect(schedule["code"] as? String == "schedule-zone-drift")
        #expect(
            (schedule["message"] as? String)?.hasPrefix(
                "your daily schedule computes deadlines with the rule stored for Test/Cuba, which from 2026-11-26 10:00 UTC"
            ) == true, "\(schedule)")
    }
}
