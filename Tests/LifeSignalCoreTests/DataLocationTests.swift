import Testing

@testable import LifeSignalCore

/// Where data lives, as a pure function of flag, environment and account.
@Suite struct DataLocationTests {
    func resolve(
        flag: String? = nil, _ environment: [String: String], platform: DataLocation.Platform = .linux,
        account: String? = "/home/ana", cwd: String? = "/work"
    ) -> Result<String, DataLocation.Problem> {
        Result { () throws(DataLocation.Problem) in
            try DataLocation.resolve(
                homeFlag: flag, environment: environment, platform: platform, accountHome: { account },
                workingDirectory: cwd)
        }
    }

    @Test func precedence() {
        let env = ["HOME": "/home/ana", "XDG_DATA_HOME": "/xdg", "LIFESIGNAL_HOME": "/ls"]
        #expect(resolve(flag: "/flag", env) == .success("/flag"))
        #expect(resolve(env) == .success("/ls"))
        #expect(resolve(["HOME": "/home/ana", "XDG_DATA_HOME": "/xdg"]) == .success("/xdg/lifesignal"))
        #expect(resolve(["HOME": "/home/ana"]) == .success("/home/ana/.local/share/lifesignal"))
    }

    /// The password database is read only when neither the flag nor the environment decides.
    @Test func theAccountIsAskedOnlyWhenNeeded() throws {
        var asked = 0
        let account = { () -> String? in
            asked += 1
            return "/home/ana"
        }
        for environment in [["LIFESIGNAL_HOME": "/ls"], ["XDG_DATA_HOME": "/xdg"], ["HOME": "/h"]] {
            _ = try DataLocation.resolve(
                homeFlag: nil, environment: environment, platform: .linux, accountHome: account, workingDirectory: nil)
        }
        _ = try DataLocation.resolve(
            homeFlag: "/flag", environment: [:], platform: .linux, accountHome: account, workingDirectory: nil)
        #expect(asked == 0)
        let found = try DataLocation.resolve(
            homeFlag: nil, environment: [:], platform: .linux, accountHome: account, workingDirectory: nil)
        #expect(found == "/home/ana/.local/share/lifesignal" && asked == 1)
    }

    @Test func emptyAndRelativeValues() {
        #expect(resolve(["HOME": "/h", "LIFESIGNAL_HOME": ""]) == .success("/h/.local/share/lifesignal"))
        #expect(resolve(["HOME": "/h", "XDG_DATA_HOME": "rel/data"]) == .success("/h/.local/share/lifesignal"))
        #expect(resolve(["HOME": "/h", "XDG_DATA_HOME": ""]) == .success("/h/.local/share/lifesignal"))
        guard case .failure(let problem) = resolve(["LIFESIGNAL_HOME": "data"]) else {
            Issue.record("a relative LIFESIGNAL_HOME must be refused")
            return
        }
        #expect(problem == .relativeLifesignalHome("data"))
        #expect(resolve(flag: "rel", [:]) == .success("/work/rel"))
        #expect(resolve(flag: "/a//b/./c/", [:]) == .success("/a/b/c"))
    }

    @Test func cronEnvironmentAndMissingHome() {
        // cron: HOME, LOGNAME, PATH, SHELL only.
        #expect(
            resolve(["HOME": "/home/ana", "LOGNAME": "ana", "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh"])
                == .success("/home/ana/.local/share/lifesignal"))
        // HOME unset or empty: the account's home from the password database, never a guess.
        #expect(resolve([:], account: "/home/ana") == .success("/home/ana/.local/share/lifesignal"))
        #expect(resolve(["HOME": ""], account: "/home/ana") == .success("/home/ana/.local/share/lifesignal"))
        guard case .failure(let problem) = resolve(["HOME": ""], account: nil) else {
            Issue.record("no home at all must be an error, not a bogus path")
            return
        }
        #expect(problem == .noHomeDirectory)
    }

    @Test func macOSDefault() {
        #expect(
            resolve(["HOME": "/Users/ana"], platform: .macOS)
                == .success("/Users/ana/Library/Application Support/lifesignal"))
        #expect(resolve(["HOME": "/Users/ana", "XDG_DATA_HOME": "/x"], platform: .macOS) == .success("/x/lifesignal"))
    }
}
