import Foundation
import TestSupport
import Testing

/// `circle status` and `doctor` say who besides the members' devices can read the circle.
@Suite(.integration, .enabled(if: GitCircle.git != nil, DeliveryTools.missing("git")))
struct CircleReadersTests {
    @Test func aPlainRemoteElsewhereIsReadableByItsHostAGcryptOneIsNotALocalOneIsNobody() throws {
        let circle = GitCircle()
        let clone = circle.clone("a")
        #expect(circle.run("ana", ["init", "--name", "Ana", "--circle", clone, "--quiet"]).code == 0)
        // A bare repository on this machine: nothing to say.
        var status = circle.run("ana", ["circle", "status"])
        #expect(!status.stdout.contains("Host") && !status.stdout.contains("readable by"), "\(status.stdout)")
        #expect(!circle.run("ana", ["doctor"]).stdout.contains("readable by"))
        // A hosting service, in plain text.
        GitCircle.run(["remote", "set-url", "origin", "git@example.org:family/circle.git"], in: clone)
        status = circle.run("ana", ["circle", "status"])
        #expect(
            status.stdout.contains(
                "Host    readable by the host at example.org (git remote origin, git@example.org:family/circle.git)"),
            "\(status.stdout)")
        #expect(status.stdout.contains("git-remote-gcrypt (gcrypt::git@example.org:family/circle.git"))
        let json = jsonObject(circle.run("ana", ["circle", "status", "--json"]).stdout)
        let readers = json["readers"] as? [[String: Any]] ?? []
        #expect(readers.count == 1 && readers.first?["host"] as? String == "example.org")
        #expect(readers.first?["encrypted"] as? Bool == false)
        let doctor = circle.run("ana", ["doctor"])
        #expect(doctor.stdout.contains("ok    circle: readable by the host at example.org"), "\(doctor.stdout)")
        let checks = jsonObject(circle.run("ana", ["doctor", "--json"]).stdout)["checks"] as? [[String: Any]] ?? []
        let finding = checks.first { $0["check"] as? String == "readers" }
        #expect((finding?["message"] as? String)?.contains("readable by the host at example.org") == true)
        // The same host through gcrypt, with no participants: to this machine's key alone.
        GitCircle.run(["remote", "set-url", "origin", "gcrypt::git@example.org:family/circle.git"], in: clone)
        status = circle.run("ana", ["circle", "status"])
        #expect(status.stdout.contains("but to this machine's own key only"), "\(status.stdout)")
        #expect(status.stdout.contains("git config remote.origin.gcrypt-participants"), "\(status.stdout)")
        // And with them.
        GitCircle.run(["config", "remote.origin.gcrypt-participants", "ana@example.org bea@example.org"], in: clone)
        status = circle.run("ana", ["circle", "status"])
        #expect(!status.stdout.contains("own key only"), "\(status.stdout)")
        #expect(status.stdout.contains("Host    encrypted for the host at example.org"), "\(status.stdout)")
        #expect(!status.stdout.contains("readable by"))
        #expect(circle.run("ana", ["doctor"]).stdout.contains("circle: encrypted for the host at example.org"))
        // A second remote in plain text is said too: whoever it is pushed to holds the records.
        GitCircle.run(["remote", "add", "backup", "https://backup.example.net/circle.git"], in: clone)
        status = circle.run("ana", ["circle", "status"])
        #expect(status.stdout.contains("readable by the host at backup.example.net (git remote backup"))
    }
}
