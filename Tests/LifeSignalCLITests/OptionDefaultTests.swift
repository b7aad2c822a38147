import Foundation
import LifeSignalCore
import Testing

@testable import LifeSignalCLI

/// An option's default is written once, in its spec: the help line says it and the command
/// uses it when the option is not given.
@Suite struct OptionDefaultTests {
    @Test func historyWithoutLimitShowsTheDefaultNumber() {
        let limit = HistoryCommand.limit.defaultValue
        let home = TempHome()
        for minute in 0...limit {
            home.run(["checkin", "--quiet"], now: "2026-03-01T09:\(minute < 10 ? "0" : "")\(minute):00Z")
        }
        let later = "2026-03-01T10:00:00Z"
        let history = jsonObject(home.run(["checkin", "history", "--json"], now: later).stdout)
        #expect((history["checkIns"] as? [Any])?.count == limit)
        #expect(history["total"] as? Int == limit + 1)
        let three = jsonObject(home.run(["checkin", "history", "--json", "--limit", "3"], now: later).stdout)
        #expect((three["checkIns"] as? [Any])?.count == 3)
        let help = TempHome().run(["checkin", "history", "--help"]).stdout
        #expect(help.contains("Show at most this many (default \(limit))."), "\(help)")
    }

    @Test func heartbeatWithoutOnUsesTheDefaultTrigger() {
        let home = TempHome()
        home.run(["init", "--quiet"])
        home.run(["notify", "heartbeat", "add", "https://hc.example/ping/1", "--quiet"])
        let list = jsonObject(home.run(["notify", "heartbeat", "list", "--json"]).stdout)
        let first = (list["heartbeats"] as? [[String: Any]])?.first
        #expect(first?["on"] as? String == HeartbeatCommand.on.defaultValue.rawValue)
    }

    /// `init`'s defaults are the profile's (an existing one keeps its settings when they are
    /// not given): its help says the domain's constants.
    @Test func initHelpSaysTheProfileDefaults() {
        let help = TempHome().run(["init", "--help"], environment: ["COLUMNS": "300"]).stdout
        #expect(help.contains("check-ins (default \(Rules.defaultInterval); presets"), "\(help)")
        #expect(help.contains("or off (default \(Rules.defaultReminder?.description ?? "off"))."), "\(help)")
    }
}
