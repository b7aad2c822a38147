import Foundation
import LifeSignalCLI
import LifeSignalCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    /// lifesignal reads /etc/passwd itself rather than ask glibc's NSS (which crashed the
    /// static binary for a user id the file does not list).
    @Test func theAccountComesFromThePasswdFileItself() {
        let passwd = """
            root:x:0:0:root:/root:/bin/bash
            # a comment, and a short line
            broken:x:1000
            ana:x:1000:1000:Ana Lima,,,:/home/ana:/bin/bash
            svc:x:1001:1001::/var/lib/svc:/usr/sbin/nologin

            """
        let ana = Account.entry(uid: 1000, in: passwd)
        #expect(ana?.name == "ana" && ana?.fullName == "Ana Lima,,," && ana?.home == "/home/ana")
        let svc = Account.entry(uid: 1001, in: passwd)
        #expect(svc?.name == "svc" && svc?.fullName == nil && svc?.home == "/var/lib/svc")
        #expect(Account.entry(uid: 4242, in: passwd) == nil)
    }

    static let canSetUID = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// Run as a user id that /etc/passwd does not list (a container, a cron job under a
    /// service uid): a check-in works, named from $USER or "Me", and said so; without HOME it
    /// stops with the clear error, never a crash.
    @Test(.enabled(if: canSetUID, "needs root and setpriv (util-linux) to run as a user id with no passwd entry"))
    func aUserIdWithoutAPasswdEntryChecksIn() throws {
        let root = TempHome()
        let home = root.path + "/svc"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        #expect(chown(home, 4242, 4242) == 0)
        #expect(chmod(root.path, 0o755) == 0)
        func run(_ environment: [String]) -> Run {
            lifesignal(
                ["--reuid=4242", "--regid=4242", "--clear-groups", "--", "/usr/bin/env", "-i"] + environment
                    + ["PATH=/usr/bin:/bin", "TZ=UTC", Binary.path, "checkin"],
                environment: ["PATH": "/usr/bin:/bin"], executable: "/usr/bin/setpriv")
        }
        let unnamed = run(["HOME=\(home)", "LIFESIGNAL_HOME=\(home)/a"])
        #expect(unnamed.code == 0, "\(unnamed.stderr)")
        #expect(unnamed.stderr.contains("created a profile for Me in \(home)/a"), "\(unnamed.stderr)")
        #expect(
            unnamed.stderr.contains("Your responders will see you as Me (this account's name)"), "\(unnamed.stderr)")
        let named = run(["HOME=\(home)", "LIFESIGNAL_HOME=\(home)/b", "USER=svc"])
        #expect(named.code == 0, "\(named.stderr)")
        #expect(named.stderr.contains("created a profile for svc"), "\(named.stderr)")
        let homeless = run([])
        #expect(homeless.code == 78, "\(homeless.stderr)")
        #expect(homeless.stderr.contains("HOME is not set and the account has no home directory"), "\(homeless.stderr)")
    }
}
