import Foundation
import Testing

/// The error texts of init --member, contacts and ping that no other suite pins: each names
/// what was wrong and what to do, with the documented exit code.
@Suite struct ErrorMessageTests {
    let root = TempHome()
    var circle: String { root.path + "/circle" }

    @discardableResult
    func run(_ person: String, _ arguments: [String]) -> Run {
        lifesignal(
            arguments,
            environment: [
                "LIFESIGNAL_HOME": "\(root.path)/\(person)", "LIFESIGNAL_NOW": "2026-03-01T09:00:00Z", "TZ": "UTC",
                "PATH": "/usr/bin:/bin",
            ])
    }

    func code(_ person: String) -> String {
        run(person, ["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func enrollment(_ person: String) -> String {
        run(person, ["circle", "enroll"]).stdout.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func joiningAsASecondDevice() {
        #expect(run("ana", ["init", "--name", "Ana", "--circle", circle]).code == 0)
        let enroll = enrollment("ana")
        #expect(enroll.hasPrefix("lifesignal://enroll/"))
        let noCircle = run("server", ["init", "--member", enroll])
        #expect(noCircle.code == 64)
        #expect(
            noCircle.stderr.hasPrefix(
                "lifesignal: error: --member needs --circle: give the circle folder the member's first device uses.\n"))
        let withName = run("server", ["init", "--circle", circle, "--member", enroll, "--name", "Other"])
        #expect(withName.code == 64)
        #expect(
            withName.stderr.hasPrefix(
                "lifesignal: error: --member joins an existing profile: change its name, interval or reminder after joining, from any of its devices.\n"
            ))
        // An invite code links contacts; it makes no device, known or not.
        let unknown = run(
            "server", ["init", "--circle", circle, "--member", "lifesignal://00000000-0000-4000-8000-000000000000"])
        #expect(unknown.code == 65)
        #expect(unknown.stderr.hasPrefix("lifesignal: error: that is a member's invite code, which links contacts;"))
        let invite = run("server", ["init", "--circle", circle, "--member", code("ana")])
        #expect(invite.code == 65)
        #expect(
            invite.stderr
                == "lifesignal: error: that is Ana's invite code, which links contacts; it does not make a device. To make this machine another device of theirs, run 'lifesignal circle enroll' on one of their devices and use the code it prints here: lifesignal init --circle DIR --member CODE\n"
        )
        let garbage = run("server", ["init", "--circle", circle, "--member", "lifesignal://enroll/x"])
        #expect(garbage.code == 64)
        #expect(garbage.stderr.contains("give the enrollment code 'lifesignal circle enroll' printed"))
        #expect(run("server", ["init", "--circle", circle, "--member", enroll]).code == 0)
        let again = run("server", ["init", "--circle", circle, "--member", enroll])
        #expect(again.code == 65)
        #expect(again.stderr.hasPrefix("lifesignal: error: this data directory is already set up (member "))
        #expect(again.stderr.contains("use a new data directory (--home) for another device"))
    }

    @Test func memberAndExternalOptionsDoNotMix() {
        for name in ["Ana", "Bea"] {
            #expect(run(name.lowercased(), ["init", "--name", name, "--circle", circle]).code == 0)
        }
        let withAddress = run("ana", ["contacts", "add", code("bea"), "--dependent", "--email", "bea@example.org"])
        #expect(withAddress.code == 64)
        #expect(
            withAddress.stderr.hasPrefix(
                "lifesignal: error: --notify, --email and --phone are for external contacts; a member is reached through their own lifesignal.\n"
            ))
        #expect(run("ana", ["contacts", "add", code("bea"), "--dependent"]).code == 0)
        let rename = run("ana", ["contacts", "edit", "Bea", "--name", "Beatrice"])
        #expect(rename.code == 64)
        #expect(
            rename.stderr.hasPrefix(
                "lifesignal: error: --name is for external contacts; Bea names themselves in their own lifesignal.\n"))
        let address = run("ana", ["contacts", "edit", "Bea", "--notify", "desktop:"])
        #expect(address.code == 64)
        #expect(
            address.stderr.hasPrefix(
                "lifesignal: error: --notify, --email, --phone and --button-topic are for external contacts; Bea is a member of your circle.\n"
            ))
        let both = run("ana", ["contacts", "edit", "Bea", "--dependent", "--no-dependent"])
        #expect(both.code == 64)
        #expect(
            both.stderr.hasPrefix(
                "lifesignal: error: --dependent and --no-dependent contradict each other; give one.\n"))
    }

    @Test func externalNamesAreCheckedAndUnique() {
        #expect(run("ana", ["init", "--name", "Ana"]).code == 0)
        #expect(run("ana", ["contacts", "add", "Sam", "--responder", "--email", "sam@example.org"]).code == 0)
        let duplicate = run("ana", ["contacts", "add", "sam", "--responder", "--email", "other@example.org"])
        #expect(duplicate.code == 65)
        #expect(
            duplicate.stderr
                == "lifesignal: error: You already have a contact named sam; choose another name or edit that one with 'lifesignal contacts edit'.\n"
        )
        let control = run("ana", ["contacts", "add", "Sam\tLee\u{7}", "--responder", "--email", "x@example.org"])
        #expect(control.code == 64)
        #expect(
            control.stderr.hasPrefix(
                "lifesignal: error: The value for '<code-or-name>' is invalid: the name contains a control character such as a newline.\n"
            ))
    }

    @Test func pingRespondNeedsOneTarget() {
        #expect(run("ana", ["init", "--name", "Ana"]).code == 0)
        let none = run("ana", ["ping", "respond"])
        #expect(none.code == 64)
        #expect(
            none.stderr.hasPrefix(
                "lifesignal: error: Say which ping to answer (its id or the responder's name), or answer all with --all.\n"
            ))
        let both = run("ana", ["ping", "respond", "Bea", "--all"])
        #expect(both.code == 64)
        #expect(both.stderr.hasPrefix("lifesignal: error: Give either a ping or --all, not both.\n"))
    }

    /// `--circle` given a file: said as that, for a new profile and for a move, and nothing
    /// is made (not "check the disk", not "--home").
    @Test func aCircleThatIsAFileIsSaidToBeOne() throws {
        let file = root.path + "/notes.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for person in ["new", "moving"] {
            if person == "moving" { #expect(run(person, ["init", "--name", "Bea"]).code == 0) }
            let refused = run(person, ["init", "--circle", file])
            #expect(refused.code == 65, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("\(file) is a file, not a folder: --circle takes the folder"),
                "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: root.path + "/new"))
        // A link to a folder that is not there (an unmounted drive) is said to be that.
        let link = root.path + "/usb-circle"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent/drive/circle")
        let dangling = run("new", ["init", "--circle", link])
        #expect(dangling.code == 65)
        #expect(dangling.stderr.contains("\(link) is a link to a folder that is not there"), "\(dangling.stderr)")
    }

    /// A vouch for an external contact: refused, saying why, not advising an invite code that
    /// someone without lifesignal cannot have (campaign-c C4).
    @Test func aVouchForAnExternalContactSaysWhyItCannotBe() {
        #expect(run("bea", ["init", "--name", "Bea"]).code == 0)
        #expect(run("bea", ["contacts", "add", "Sis", "--responder", "--notify", "exec:true"]).code == 0)
        let refused = run("bea", ["contacts", "vouch", "Sis"])
        #expect(refused.code == 65)
        #expect(
            refused.stderr.contains("Sis is an external contact, who has no lifesignal and no check-ins to vouch for"),
            "\(refused.stderr)")
        #expect(!refused.stderr.contains("CODE"))
    }
}
