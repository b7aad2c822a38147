import Foundation
import Testing

/// The app's user experience acted out in a terminal: three members of a family, each with
/// their own data directory, sharing one circle folder. Ana watches over her father Carl and
/// her daughter Bea; Carl watches over Ana too.
@Suite struct CircleScenarioTests {
    let root = TempHome()
    var circle: String { root.path + "/circle" }

    /// Runs lifesignal as `person` (their own data directory) at `now`.
    @discardableResult
    func run(_ person: String, _ arguments: [String], now: String = "2026-03-01T09:00:00Z") -> Run {
        lifesignal(
            arguments,
            environment: [
                "LIFESIGNAL_HOME": "\(root.path)/\(person)", "LIFESIGNAL_NOW": now, "TZ": "UTC", "COLUMNS": "80",
                "PATH": "/usr/bin:/bin",
            ])
    }

    func code(_ person: String) -> String {
        run(person, ["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func setUpFamily() {
        for name in ["Ana", "Bea", "Carl"] {
            #expect(run(name.lowercased(), ["init", "--name", name, "--circle", circle]).code == 0)
        }
    }

    @Test func codesAreSharedAndCanBeReset() throws {
        setUpFamily()
        let bea = code("bea")
        #expect(bea.hasPrefix("lifesignal://"))
        #expect(code("bea") == bea, "the code stays the same until it is reset")
        let json = jsonObject(run("bea", ["contacts", "code", "--json"]).stdout)
        #expect(json["code"] as? String == bea)
        #expect(json["reset"] as? Bool == false)
        let reset = run("bea", ["contacts", "code", "--reset"])
        #expect(reset.code == 0)
        #expect(
            reset.stdout.hasPrefix(
                "Your invite code has been reset. Previous codes are no longer valid.\nlifesignal://"))
        let old = run("ana", ["contacts", "add", bea, "--dependent"])
        #expect(old.code == 65)
        #expect(old.stderr.hasPrefix("lifesignal: error: No LifeSignal user found for this QR code: \(bea)."))
        let fresh = code("bea")
        #expect(fresh != bea)
        // The bare code works as well as the lifesignal:// form.
        #expect(
            run("ana", ["contacts", "add", String(fresh.dropFirst("lifesignal://".count)), "--dependent"]).code == 0)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/qrencode"),
            "qrencode is not installed (apt install qrencode)"))
    func codeAsQRCodeInTheTerminal() {
        setUpFamily()
        let code = code("bea")
        let qr = run("bea", ["contacts", "code", "--qr"])
        #expect(qr.code == 0)
        #expect(qr.stdout.hasPrefix(code + "\n"))
        #expect(qr.stdout.contains("█"), "qrencode draws the code with block characters")
        #expect(qr.stdout.split(separator: "\n").count > 15)
        let missing = lifesignal(
            ["contacts", "code", "--qr"], environment: ["LIFESIGNAL_HOME": "\(root.path)/bea", "PATH": root.path])
        #expect(missing.code == 69)
        #expect(
            missing.stderr
                == "lifesignal: error: qrencode is not installed, so no QR code can be drawn; install it (e.g. apt install qrencode) or share the code above\n"
        )
    }

    @Test func addingMembersCreatesReciprocalRolesOnBothSides() {
        setUpFamily()
        let added = run("ana", ["contacts", "add", code("bea"), "--dependent"])
        #expect(added.code == 0)
        #expect(
            added.stdout
                == "Bea has been added to your contacts as dependent.\nYou can see Bea's status and ping them; you are their responder.\nAsk Bea to confirm you ('lifesignal contacts confirm' with your name, on their device): until then your 'I'm on it' and vouches do not count for them. You are told of their missed check-ins and alerts from now on.\n"
        )
        #expect(
            run("ana", ["contacts", "add", code("carl"), "--responder", "--dependent"]).stdout.hasPrefix(
                "Carl has been added to your contacts as responder & dependent.\n"))
        #expect(
            run("bea", ["contacts", "add", code("carl"), "--responder"]).stdout.hasPrefix(
                "Carl has been added to your contacts as responder.\nCarl can see your status"))

        // Each side sees the reciprocal roles.
        let bea = jsonObject(run("bea", ["contacts", "list", "--json"]).stdout)["contacts"] as? [[String: Any]] ?? []
        #expect(bea.map { $0["name"] as? String } == ["Ana", "Carl"])
        #expect((bea.first?["roles"] as? [String: Bool]) == ["responder": true, "dependent": false])
        // A link made on one side only is that side's word: the other sees it unconfirmed
        // until they confirm it.
        #expect(
            run("carl", ["contacts", "list"]).stdout == """
                Name  Roles                  Status
                Ana   Responder & Dependent  No check-in; not confirmed by you
                Bea   Dependent              No check-in

                """)
        #expect(
            run("carl", ["contacts", "confirm", "An"]).stdout
                == "Confirmed Ana: their 'I'm on it', vouches and deliveries now count for your alarms.\n")
        #expect(run("carl", ["contacts", "confirm", "Ana"]).stdout.hasPrefix("You had already confirmed Ana"))
        let carl = run("carl", ["contacts", "list"])
        #expect(
            carl.stdout == """
                Name  Roles                  Status
                Ana   Responder & Dependent  No check-in
                Bea   Dependent              No check-in

                """)
        #expect(run("carl", ["contacts", "list", "--responders"]).stdout.contains("Ana "))
        #expect(!run("carl", ["contacts", "list", "--responders"]).stdout.contains("Bea "))
        #expect(
            run("bea", ["contacts", "list", "--dependents"]).stdout
                == "No dependents yet. Add one with 'lifesignal contacts add'; share your code with 'lifesignal contacts code'.\n"
        )
    }

    @Test func theAppsErrorTexts() {
        setUpFamily()
        let bea = code("bea")
        let noRole = run("ana", ["contacts", "add", bea])
        #expect(noRole.code == 64)
        #expect(
            noRole.stderr.hasPrefix(
                "lifesignal: error: You must select at least one role (Responder or Dependent) to add this contact"))
        let yourself = run("ana", ["contacts", "add", code("ana"), "--responder"])
        #expect(yourself.code == 65)
        #expect(yourself.stderr == "lifesignal: error: Cannot add yourself as a contact.\n")
        #expect(run("ana", ["contacts", "add", bea, "--dependent"]).code == 0)
        let duplicate = run("ana", ["contacts", "add", bea, "--responder"])
        #expect(duplicate.code == 65)
        #expect(duplicate.stderr == "lifesignal: error: Bea is already in your contacts.\n")
        // …also from the other side: the relation exists for both, on Ana's word. Bea's first
        // scan of Ana's code takes Ana's key from it; the next is refused.
        let scanned = run("bea", ["contacts", "add", code("ana"), "--responder"])
        #expect(scanned.code == 0, "\(scanned.stderr)")
        #expect(
            scanned.stdout.contains("Ana is already in your contacts. Their device key is now the one from this code"))
        #expect(scanned.stdout.contains("run 'lifesignal contacts confirm Ana'"), "\(scanned.stdout)")
        #expect(!scanned.stderr.contains("first sight"), "\(scanned.stderr)")
        #expect(!run("bea", ["circle", "devices"]).stdout.contains("keys taken on first sight"))
        #expect(
            run("bea", ["contacts", "add", code("ana"), "--responder"]).stderr
                == "lifesignal: error: Ana is already in your contacts: they linked with you, saying they watch over you. To confirm it, run 'lifesignal contacts confirm Ana'.\n"
        )
        let unknown = run(
            "ana", ["contacts", "add", "lifesignal://00000000-0000-4000-8000-000000000000", "--dependent"])
        #expect(unknown.code == 65)
        #expect(unknown.stderr.contains("No LifeSignal user found for this QR code"))
        let lastRole = run("ana", ["contacts", "edit", "Bea", "--no-dependent"])
        #expect(lastRole.code == 65)
        #expect(
            lastRole.stderr
                == "lifesignal: error: This contact must have at least one role. To remove Bea completely, use 'lifesignal contacts remove Bea'.\n"
        )
        let externalDependent = run(
            "ana", ["contacts", "add", "Sam Lee", "--dependent", "--notify", "mailto:sam@example.org"])
        #expect(externalDependent.code == 64)
        #expect(
            externalDependent.stderr.hasPrefix(
                "lifesignal: error: An external contact can be a responder but not a dependent"))
        let nobody = run("ana", ["contacts", "show", "Zed"])
        #expect(nobody.code == 65)
        #expect(nobody.stderr == "lifesignal: error: No contact matches 'Zed'. See 'lifesignal contacts list'.\n")
        let typo = run("ana", ["contacts", "show", "Bae"])
        #expect(typo.stderr == "lifesignal: error: No contact matches 'Bae'. Did you mean 'Bea'?\n")
    }

    @Test func externalContacts() throws {
        setUpFamily()
        let added = run(
            "ana",
            [
                "contacts", "add", "Sam Lee", "--responder", "--notify", "ntfy:https://ntfy.sh/ana-alerts", "--email",
                "sam@example.org", "--phone", "+44 20 7946 0958",
            ])
        #expect(added.code == 0)
        #expect(
            added.stdout
                == "Sam Lee has been added to your contacts as an external responder.\nYour alerts and missed check-ins will go to: ntfy:https://ntfy.sh/ana-alerts, mailto:sam@example.org.\n"
        )
        let json =
            (jsonObject(run("ana", ["contacts", "show", "sam", "--json"]).stdout)["contact"] as? [String: Any]) ?? [:]
        #expect(json["kind"] as? String == "external")
        #expect(json["notify"] as? [String] == ["ntfy:https://ntfy.sh/ana-alerts"])
        #expect(json["email"] as? [String] == ["sam@example.org"])
        #expect(json["phone"] as? [String] == ["+442079460958"])
        #expect(
            run("ana", ["contacts", "add", "Zoe", "--responder"]).stderr.hasPrefix(
                "lifesignal: error: An external contact needs a way to be reached"))
        let badURI = run("ana", ["contacts", "add", "Zoe", "--responder", "--notify", "http://example.org/hook"])
        #expect(badURI.code == 64)
        #expect(
            badURI.stderr.hasPrefix(
                "lifesignal: error: The value 'http://example.org/hook' is invalid for '--notify <uri>': the webhook URL is invalid: plain http is only allowed to this machine (localhost); use https://."
            ))
        let renamed = run(
            "ana", ["contacts", "edit", "Sam Lee", "--name", "Samuel Lee", "--notify", "apprise:tgram://bot/chat"])
        #expect(renamed.stdout == "Updated Samuel Lee: details updated.\n")
        #expect(
            run("ana", ["contacts", "show", "samuel"]).stdout.contains(
                "Notify          apprise:tgram://bot/chat, mailto:sam@example.org\n"))
        let id = try #require(
            (jsonObject(run("ana", ["contacts", "show", "Samuel Lee", "--json"]).stdout)["contact"] as? [String: Any])?[
                "id"] as? String)
        #expect(run("ana", ["contacts", "remove", id]).stdout == "Removed Samuel Lee from your contacts.\n")
        #expect(run("ana", ["contacts", "list"]).stdout.hasPrefix("No contacts yet."))
    }

    @Test func dependentsLiveStatusInPriorityOrder() throws {
        setUpFamily()
        #expect(run("ana", ["contacts", "add", code("bea"), "--dependent"]).code == 0)
        #expect(run("ana", ["contacts", "add", code("carl"), "--dependent"]).code == 0)
        for who in ["bea", "carl"] { #expect(run(who, ["contacts", "confirm", "Ana"]).code == 0) }
        // Before anyone checked in.
        #expect(run("ana", ["contacts", "list"]).stdout.contains("Bea   Dependent              No check-in\n"))
        run("bea", ["checkin"], now: "2026-03-01T09:00:00Z")
        run("carl", ["checkin"], now: "2026-03-01T09:00:00Z")
        run("carl", ["checkin", "interval", "52h"], now: "2026-03-01T09:00:00Z")
        // Countdowns: Bea 22h left, Carl 2d 2h left; least time left first.
        #expect(
            run("ana", ["contacts", "list"], now: "2026-03-01T11:00:00Z").stdout == """
                Name  Roles                  Status
                Bea   Dependent              22h
                Carl  Dependent              2d 2h

                """)
        // Pinged comes before a countdown.
        #expect(run("ana", ["ping", "send", "Carl"], now: "2026-03-01T12:00:00Z").code == 0)
        #expect(
            run("ana", ["contacts", "list"], now: "2026-03-01T12:30:00Z").stdout == """
                Name  Roles                  Status
                Carl  Dependent              Pinged 30m ago
                Bea   Dependent              20h 30m

                """)
        // Non-responsive comes before pinged.
        let late = run("ana", ["contacts", "list", "--json"], now: "2026-03-02T11:05:00Z")
        let contacts = jsonObject(late.stdout)["contacts"] as? [[String: Any]] ?? []
        #expect(contacts.map { $0["name"] as? String } == ["Bea", "Carl"])
        let bea = try #require(contacts.first?["status"] as? [String: Any])
        #expect(bea["kind"] as? String == "nonResponsive")
        #expect(bea["text"] as? String == "Non-responsive 2h 5m ago")
        #expect(bea["since"] as? String == "2026-03-02T09:00:00Z")
        #expect((contacts.last?["status"] as? [String: Any])?["kind"] as? String == "pinged")
        // The dashboard lists them under "Needs attention" and the show page agrees.
        let status = run("ana", ["status"], now: "2026-03-02T11:05:00Z")
        #expect(
            status.stdout.contains(
                "Needs attention\n  Bea           Non-responsive 2h 5m ago\n  Carl          Pinged 23h 5m ago\n"))
        #expect(
            run("ana", ["contacts", "show", "Bea"], now: "2026-03-02T11:05:00Z").stdout.contains(
                "Status          Non-responsive 2h 5m ago\n"))
        // A responder sees no status for someone who is not their dependent.
        #expect(
            run("bea", ["contacts", "list"], now: "2026-03-02T11:05:00Z").stdout.contains(
                "Ana   Responder              \n"))
    }

    @Test func pingsSentAnsweredClearedAndCancelled() throws {
        setUpFamily()
        #expect(run("ana", ["contacts", "add", code("bea"), "--dependent"]).code == 0)
        #expect(run("ana", ["contacts", "add", code("carl"), "--dependent", "--responder"]).code == 0)

        // Only dependents who are members can be pinged.
        #expect(
            run("bea", ["ping", "send", "Ana"]).stderr.hasPrefix(
                "lifesignal: error: This contact must have the Dependent role to be pinged."))
        #expect(run("ana", ["contacts", "add", "Sam", "--responder", "--email", "sam@example.org"]).code == 0)
        #expect(
            run("ana", ["ping", "send", "Sam"]).stderr.hasPrefix(
                "lifesignal: error: Only members of your circle can be pinged; Sam is an external contact"))

        let sent = run("ana", ["ping", "send", "Bea", "--json"], now: "2026-03-01T10:00:00Z")
        #expect(sent.code == 0)
        let ping = try #require(jsonObject(sent.stdout)["ping"] as? [String: Any])
        let id = try #require(ping["id"] as? String)
        #expect(ping["toName"] as? String == "Bea")
        // One pending ping per pair, with its age.
        let again = run("ana", ["ping", "send", "Bea"], now: "2026-03-01T10:12:00Z")
        #expect(again.code == 65)
        #expect(
            again.stderr
                == "lifesignal: error: You already pinged Bea 12m ago and that ping is still pending. Clear it with 'lifesignal ping clear Bea' to send a new one.\n"
        )

        // Bea sees it, answers it.
        let list = run("bea", ["ping", "list"], now: "2026-03-01T10:12:00Z")
        #expect(list.stdout.contains("  \(id.prefix(8))  from Ana"))
        #expect(list.stdout.contains("12m ago       pending\n"))
        #expect(
            run("bea", ["status"], now: "2026-03-01T10:12:00Z").stdout.contains(
                "Pings to answer\n  Ana pinged you 12m ago\n"))
        let answered = run("bea", ["ping", "respond", "Ana"], now: "2026-03-01T10:15:00Z")
        #expect(answered.stdout == "Answered Ana's ping. (Answering with --all also checks you in.)\n")
        #expect(run("bea", ["ping", "respond", "Ana"]).stderr == "lifesignal: error: No active ping found from Ana.\n")
        let history =
            jsonObject(run("ana", ["ping", "list", "--history", "--json"]).stdout)["history"] as? [[String: Any]] ?? []
        #expect(history.first?["state"] as? String == "answered")
        #expect(history.first?["endedAt"] as? String == "2026-03-01T10:15:00Z")

        // Answering all is a check-in and acknowledges every pinger.
        #expect(run("ana", ["ping", "send", "Carl"], now: "2026-03-01T11:00:00Z").code == 0)
        let all = run("carl", ["ping", "respond", "--all"], now: "2026-03-01T11:30:00Z")
        #expect(all.stdout == "Checked in and answered 1 ping (Ana).\nNext deadline 2026-03-02 11:30 UTC (in 1d).\n")
        #expect(
            run("carl", ["checkin", "status", "--json"], now: "2026-03-01T11:30:00Z").stdout.contains(
                "\"deadline\": \"2026-03-02T11:30:00Z\""))

        // The pinger clears; the dependent sees it was cancelled.
        #expect(run("ana", ["ping", "send", "Bea"], now: "2026-03-01T12:00:00Z").code == 0)
        #expect(
            run("ana", ["ping", "clear", "Bea"], now: "2026-03-01T12:05:00Z").stdout
                == "Cleared your ping to Bea; they will see it was cancelled.\n")
        #expect(
            run("bea", ["ping", "list", "--history"], now: "2026-03-01T12:06:00Z").stdout.contains(
                "from Ana            6m ago        cleared\n"))
        #expect(run("ana", ["ping", "clear", "Bea"]).stderr == "lifesignal: error: You have no pending ping to Bea.\n")

        // Removing the dependent role cancels a pending ping, from either side.
        #expect(run("ana", ["ping", "send", "Carl"], now: "2026-03-01T13:00:00Z").code == 0)
        let removed = run("carl", ["contacts", "edit", "Ana", "--no-responder"], now: "2026-03-01T13:10:00Z")
        #expect(removed.stdout == "Updated Ana: roles are now Dependent; Ana's pending ping to you was cancelled.\n")
        #expect(run("ana", ["ping", "list", "--history"]).stdout.contains("to Carl"))
        let anaView =
            jsonObject(run("ana", ["ping", "list", "--history", "--json"]).stdout)["history"] as? [[String: Any]] ?? []
        #expect(anaView.first?["state"] as? String == "cancelled")
        #expect(run("ana", ["contacts", "list"]).stdout.contains("Carl  Responder "))
        #expect(run("ana", ["ping", "send", "Carl"]).code == 65)
    }

    @Test func removingAContactIsSeenByBothSides() {
        setUpFamily()
        #expect(run("ana", ["contacts", "add", code("bea"), "--dependent"]).code == 0)
        #expect(run("ana", ["ping", "send", "Bea"]).code == 0)
        // Without a terminal to ask on, a name is not enough: nothing is removed.
        let refused = run("bea", ["contacts", "remove", "An"])
        #expect(refused.code == 64)
        #expect(refused.stderr.contains("Refusing to remove Ana ("), "\(refused.stderr)")
        #expect(refused.stderr.contains("or give the full id: lifesignal contacts remove "))
        #expect(run("bea", ["contacts", "list"]).stdout.contains("Ana "))
        let removed = run("bea", ["contacts", "remove", "Ana", "--yes", "--json"])
        #expect(removed.code == 0)
        #expect(jsonObject(removed.stdout)["pingsCancelled"] as? Int == 1)
        #expect(run("ana", ["contacts", "list"]).stdout.hasPrefix("No contacts yet."))
        #expect(
            run("ana", ["ping", "list"]).stdout == "No pings waiting for your answer.\nNo pings of yours are pending.\n"
        )
        // And they can be linked again.
        #expect(run("ana", ["contacts", "add", code("bea"), "--responder"]).code == 0)
        #expect(run("bea", ["contacts", "list"]).stdout.contains("Ana   Dependent"))
    }

    @Test func aSecondDeviceChecksInForTheSameMember() {
        setUpFamily()
        let enroll = run("ana", ["circle", "enroll", "--json"])
        let server = run(
            "ana-server", ["init", "--circle", circle, "--member", jsonObject(enroll.stdout)["code"] as? String ?? ""])
        #expect(server.code == 0)
        #expect(server.stdout.hasPrefix("Set up this directory as another device of Ana;"))
        // Ana's device accepts the new one on its next write (its check-in here).
        run("ana", ["checkin"], now: "2026-03-01T09:00:00Z")
        run("ana-server", ["checkin", "--note", "from cron"], now: "2026-03-01T21:00:00Z")
        let status = jsonObject(run("ana", ["checkin", "status", "--json"], now: "2026-03-02T10:00:00Z").stdout)
        #expect(status["deadline"] as? String == "2026-03-02T21:00:00Z")
        #expect(status["state"] as? String == "ok")
        let history = jsonObject(run("ana", ["checkin", "history", "--json"]).stdout)
        #expect(history["total"] as? Int == 2)
        // Settings made on either device apply to the member.
        run("ana-server", ["checkin", "interval", "8h"], now: "2026-03-02T10:00:00Z")
        #expect(jsonObject(run("ana", ["checkin", "status", "--json"]).stdout)["intervalSeconds"] as? Int == 28800)
        #expect(run("bea", ["contacts", "add", code("ana"), "--responder"]).stdout.hasPrefix("Ana has been added"))
    }
}
