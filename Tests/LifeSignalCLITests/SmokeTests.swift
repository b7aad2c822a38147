import Foundation
import Testing

@Suite struct SmokeTests {
    @Test func firstCheckInCreatesProfileAndStatusShowsDeadline() {
        let home = TempHome()
        let checkin = home.run(["checkin", "--note", "first"])
        #expect(checkin.code == 0)
        #expect(
            checkin.stdout
                == "Checked in at 2026-03-01 09:00 UTC.\nNext deadline 2026-03-02 09:00 UTC (in 1d); reminder at 2026-03-02 08:30 UTC.\n"
        )
        #expect(checkin.stderr.contains("created a profile"))
        let status = home.run(["checkin", "status", "--json"], now: "2026-03-02T09:00:01Z")
        #expect(status.code == 4)
        let json = jsonObject(status.stdout)
        #expect(json["state"] as? String == "overdue")
        #expect(json["secondsLeft"] as? Int == -1)
    }
}
