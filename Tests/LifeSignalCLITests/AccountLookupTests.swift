import Foundation
import LifeSignalCLI
import LifeSignalCore
import Testing

/// The password database (NSS, possibly LDAP) is consulted only when its answer is needed: to
/// name a new profile. Every later write, which is what cron runs, goes without it.
@Suite struct AccountLookupTests {
    final class Calls: @unchecked Sendable {
        var count = 0
    }

    @Test func onlyTheWriteThatCreatesTheProfileLooksUpTheAccount() throws {
        let home = TempHome()
        let calls = Calls()
        var stderr = ""
        func run(_ arguments: [String]) -> Int32 {
            let context = Context(
                arguments: arguments,
                environment: [
                    "LIFESIGNAL_HOME": home.path, "LIFESIGNAL_NOW": "2026-03-01T09:00:00Z", "HOME": home.path,
                ],
                clock: { Timestamp(seconds: 0) }, utcOffset: { _ in 0 }, stdinIsTerminal: false,
                stdoutIsTerminal: false,
                terminalColumns: nil,
                account: {
                    calls.count += 1
                    return Account(name: "ana", fullName: "Ana Lima,,,", home: home.path)
                },
                workingDirectory: nil,
                write: { stream, text in
                    if stream == .standardError { stderr += text }
                    return nil
                }, readLine: { nil })
            return LifeSignal.run(context)
        }
        #expect(run(["checkin"]) == 0)
        #expect(calls.count == 1)
        #expect(stderr.contains("created a profile for Ana Lima"), "\(stderr)")
        for arguments in [["checkin"], ["checkin", "interval", "8h"], ["checkin", "--note", "x"], ["status"]] {
            #expect(run(arguments) == 0, "\(arguments): \(stderr)")
        }
        #expect(calls.count == 1, "later runs looked up the account again")
    }
}
