import Foundation
import Testing

/// A circle that one machine shares between its accounts: a folder with a common group and
/// mode 2770 (set up by the administrator). Each account writes its records there readable by
/// the group; everything outside the circle stays private to its owner.
@Suite struct SharedCircleTests {
    static let canSwitchUser =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
        && getpwnam("nobody") != nil && getgrnam("nogroup") != nil

    @Test(.enabled(if: canSwitchUser, "needs root, runuser and the nobody account to act as a second user"))
    func twoAccountsShareAGroupCircle() throws {
        let root = TempHome()
        let shared = root.path + "/shared"
        let bea = root.path + "/bea"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: bea, withIntermediateDirectories: true)
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        let nogroup = try #require(getgrnam("nogroup")).pointee.gr_gid
        #expect(chown(shared, 0, nogroup) == 0)
        #expect(chmod(shared, 0o2770) == 0)
        #expect(chown(bea, nobody, nogroup) == 0)
        #expect(chmod(root.path, 0o755) == 0)

        func ana(_ arguments: [String]) -> Run {
            lifesignal(
                arguments,
                environment: [
                    "LIFESIGNAL_HOME": root.path + "/ana", "LIFESIGNAL_NOW": "2026-03-01T09:00:00Z",
                    "PATH": "/usr/bin:/bin", "TZ": "UTC",
                ])
        }
        func beaRun(_ arguments: [String]) -> Run {
            lifesignal(
                [
                    "-u", "nobody", "--", "/usr/bin/env", "-i", "LIFESIGNAL_HOME=\(bea)",
                    "LIFESIGNAL_NOW=2026-03-01T09:00:00Z", "PATH=/usr/bin:/bin", "TZ=UTC", Binary.path,
                ]
                    + arguments, environment: ["PATH": "/usr/bin:/bin"], executable: "/usr/sbin/runuser")
        }
        #expect(ana(["init", "--name", "Ana", "--circle", shared]).code == 0)
        let joined = beaRun(["init", "--name", "Bea", "--circle", shared])
        #expect(joined.code == 0, "\(joined.stderr)")
        let code = ana(["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // Bea, another account, reads Ana's records to find her code, and links them.
        let added = beaRun(["contacts", "add", code, "--responder"])
        #expect(added.code == 0, "\(added.stderr)")
        #expect(ana(["contacts", "list"]).stdout.contains("Bea   Dependent"))
        #expect(beaRun(["checkin"]).code == 0)
        #expect(ana(["contacts", "show", "Bea"]).stdout.contains("Last check-in   2026-03-01 09:00 UTC"))

        // In the circle: folders carry the circle's group bits, files are group-readable.
        let members = try FileManager.default.contentsOfDirectory(atPath: shared + "/members")
        #expect(members.count == 2)
        for member in members {
            let directory = shared + "/members/" + member
            let mode = try #require(FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int)
            #expect(mode & 0o070 == 0o070, "member folder \(String(mode, radix: 8))")
            for device in try FileManager.default.contentsOfDirectory(atPath: directory) {
                let log = try #require(
                    FileManager.default.attributesOfItem(atPath: directory + "/" + device + "/log.json")[
                        .posixPermissions] as? Int)
                #expect(log == 0o640)
            }
        }
        // Outside it, nothing changed: each data directory stays private.
        let identity = try #require(
            FileManager.default.attributesOfItem(atPath: bea + "/identity.json")[.posixPermissions] as? Int)
        #expect(identity == 0o600)
    }

    /// Ana's `init --circle DIR` makes DIR private to her (and says so, with the way to share
    /// it); Bea, another account, is refused — and the refused init leaves nothing that points
    /// at DIR, so her next `init --circle` elsewhere just works.
    @Test(.enabled(if: canSwitchUser, "needs root, runuser and the nobody account to act as a second user"))
    func aRefusedSharedCircleChangesNothing() throws {
        let root = TempHome()
        let shared = root.path + "/family-circle"
        let bea = root.path + "/bea"
        try FileManager.default.createDirectory(atPath: bea, withIntermediateDirectories: true)
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        #expect(chown(bea, nobody, 0) == 0)
        #expect(chmod(root.path, 0o755) == 0)
        let ana = lifesignal(
            ["init", "--name", "Ana", "--circle", shared],
            environment: ["LIFESIGNAL_HOME": root.path + "/ana", "PATH": "/usr/bin:/bin", "TZ": "UTC"])
        #expect(ana.code == 0, "\(ana.stderr)")
        #expect(
            ana.stdout.contains(
                "Created the circle folder \(shared), readable by this account only. To share it with the other accounts of this machine"
            ), "\(ana.stdout)")
        func beaRun(_ arguments: [String]) -> Run {
            lifesignal(
                ["-u", "nobody", "--", "/usr/bin/env", "-i", "LIFESIGNAL_HOME=\(bea)", "PATH=/usr/bin:/bin", "TZ=UTC"]
                    + [Binary.path] + arguments, environment: ["PATH": "/usr/bin:/bin"], executable: "/usr/sbin/runuser"
            )
        }
        let refused = beaRun(["init", "--name", "Bea", "--circle", shared])
        #expect(refused.code == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("the circle folder \(shared) cannot take this device's records"))
        #expect(refused.stderr.contains("Nothing was set up here"), "\(refused.stderr)")
        #expect(refused.stderr.contains("install -d -m 2770 -g family \(shared)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bea + "/identity.json"), "a refused init left a profile")
        #expect(beaRun(["status"]).code == 66)
        let elsewhere = beaRun(["init", "--name", "Bea", "--circle", bea + "/circle"])
        #expect(elsewhere.code == 0, "\(elsewhere.stderr)")
        #expect(beaRun(["checkin", "--quiet"]).code == 0)
    }

    @Test func aPrivateCircleStaysPrivate() throws {
        let home = TempHome()
        #expect(home.run(["checkin"]).code == 0)
        let logs =
            FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix("log.json")
            } ?? []
        #expect(!logs.isEmpty)
        for log in logs {
            #expect(
                (try FileManager.default.attributesOfItem(atPath: home.path + "/" + log)[.posixPermissions] as? Int)
                    == 0o600)
        }
    }
}
