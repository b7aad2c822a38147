import Foundation
import Testing

/// Campaign F3: Mal can write the circle folder, and Bea's invite code lies in it. Adding it
/// links him to Bea on his word alone, which must give him no say over her alarms: not an
/// "I'm on it" that stops her escalation, nor a vouch, until Bea confirms him herself. The
/// alarm side stays: he is told of her miss, and both of them are told what the link lacks.
extension EscalationCommandTests {
    static func warningCodes(_ run: Run) -> [String] {
        (jsonObject(run.stdout)["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// The codes of the warnings `who`'s `status --json` gives at `now`.
    static func statusCodes(_ h: Household, _ who: String, at now: String) -> [String] {
        warningCodes(h.run(who, ["status", "--json"], now: now))
    }

    @Test func aWatcherTheMemberNeverConfirmedCannotSilenceHerAlarms() throws {
        let h = Self.circle()
        let now = "2026-03-01T11:30:00Z"
        h.join(["Mal"], now: now)
        #expect(h.run("mal", ["contacts", "add", h.code("bea"), "--dependent", "--quiet"], now: now).code == 0)

        // Bea is told, with the way out; Mal is told what his link lacks.
        let status = h.run("bea", ["status"], now: now)
        #expect(
            status.stderr.contains(
                "warning: Mal says they watch over you, but you never added or confirmed them: they are told of your missed check-ins and alerts, but their 'I'm on it' and vouches stop none of your alarms."
            ), "\(status.stderr)")
        #expect(
            status.stderr.contains("run 'lifesignal contacts confirm Mal'; if not, 'lifesignal contacts remove Mal'"))
        #expect(EscalationCommandTests.statusCodes(h, "bea", at: now).contains("watcher-not-confirmed"))
        #expect(h.run("bea", ["contacts", "list"], now: now).stdout.contains("not confirmed by you"))
        let doctor = h.run("bea", ["doctor"], now: now).stdout
        #expect(
            doctor.contains(
                "FAIL  Mal says they watch over you, but you never added or confirmed them: they are told of your alarms, and have no say over them\n      fix: lifesignal contacts confirm Mal if you know them, else lifesignal contacts remove Mal\n"
            ), "\(doctor)")
        #expect(
            !h.run("bea", ["contacts", "list"], now: now).stdout.contains("Ana   Responder              On time; "))
        #expect(EscalationCommandTests.statusCodes(h, "mal", at: now).contains("not-confirmed-by"))
        #expect(!EscalationCommandTests.statusCodes(h, "ana", at: now).contains("not-confirmed-by"))

        // Bea misses her trip's 14:00 deadline. Mal is told, as a watcher is.
        let missed = "2026-03-01T14:40:00Z"
        Self.cron(h, "2026-03-01T14:31:00Z")
        h.run("mal", ["notify", "deliver", "--quiet"], now: "2026-03-01T14:31:00Z")
        let list = notifications(h.run("mal", ["notify", "list", "--json"], now: missed))
        let id = try #require(
            list.first { $0["type"] as? String == "receive_non_responsive_dependent_alert" }?["id"] as? String)
        // His "I'm on it" and his vouch would stop nothing, and are refused saying why.
        let ack = h.run("mal", ["notify", "ack", String(id.prefix(8))], now: missed)
        #expect(ack.code == 65)
        #expect(
            ack.stderr.contains(
                "Bea has not confirmed that you watch over them, so your 'I'm on it' would stop nothing: their other responders go on being told."
            ), "\(ack.stderr)")
        let vouch = h.run("mal", ["contacts", "vouch", "Bea"], now: missed)
        #expect(vouch.code == 65)
        #expect(
            vouch.stderr.contains("Bea has not confirmed that you watch over them, so your vouch would end nothing"))
        Self.cron(h, "2026-03-01T15:41:00Z")
        #expect(Self.missed(h, "sam.log") == 1, "nobody Bea confirmed acknowledged: tier 2 is told")

        // Bea confirms him after all: the warnings end on both sides.
        let later = "2026-03-01T17:05:00Z"
        let confirmed = h.run("bea", ["contacts", "confirm", "Mal"], now: later)
        #expect(
            confirmed.stdout == "Confirmed Mal: their 'I'm on it', vouches and deliveries now count for your alarms.\n")
        #expect(!EscalationCommandTests.statusCodes(h, "bea", at: later).contains("watcher-not-confirmed"))
        #expect(!EscalationCommandTests.statusCodes(h, "mal", at: later).contains("not-confirmed-by"))
        // A link Bea removes stays unconfirmed when Mal writes it again.
        #expect(h.run("bea", ["contacts", "remove", "Mal", "--yes", "--quiet"], now: later).code == 0)
        #expect(h.run("mal", ["contacts", "add", h.code("bea"), "--dependent", "--quiet"], now: later).code == 0)
        #expect(EscalationCommandTests.statusCodes(h, "bea", at: later).contains("watcher-not-confirmed"))
    }
}

/// What a confirmation covers, and how the commands around it answer (review of F3).
@Suite struct ConsentEdgeTests {
    static let now = "2026-03-01T09:00:00Z"

    static func stderr(_ h: Household, _ who: String, _ arguments: [String]) -> String {
        h.run(who, arguments, now: now).stderr
    }

    /// Bea's `edit` of someone who only said they watch over her confirms them, says so after
    /// `said`, and her warning about them ends.
    static func expectEditConfirms(
        _ h: Household, _ edit: [String], said: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            h.run("bea", edit, now: now).stdout
                == said
                + "this confirms that they watch over you: their 'I'm on it', vouches and deliveries now count for your alarms.\n",
            sourceLocation: sourceLocation)
        #expect(
            !EscalationCommandTests.statusCodes(h, "bea", at: now).contains("watcher-not-confirmed"),
            sourceLocation: sourceLocation)
    }

    /// Bea watches over Mal, by her own word. Mal turning the link around ("and I watch over
    /// Bea") is his claim only; an edit of Bea's that keeps him her responder confirms it, and
    /// says so.
    @Test func aDependentWhoTurnsTheLinkAroundIsOnlyAClaimUntilSheSaysOtherwise() {
        let h = Household()
        h.join(["Bea", "Mal"], now: Self.now)
        #expect(h.run("bea", ["contacts", "add", h.code("mal"), "--dependent", "--quiet"], now: Self.now).code == 0)
        #expect(h.run("mal", ["contacts", "edit", "Bea", "--dependent", "--quiet"], now: Self.now).code == 0)
        let codes = EscalationCommandTests.statusCodes(h, "bea", at: Self.now)
        #expect(codes.contains("watcher-not-confirmed"), "\(codes)")
        #expect(h.run("bea", ["contacts", "list"], now: Self.now).stdout.contains("not confirmed by you"))
        Self.expectEditConfirms(
            h, ["contacts", "edit", "Mal", "--no-dependent"], said: "Updated Mal: roles are now Responder; ")
    }

    /// `contacts confirm` is for someone who says they watch over you; anyone else is refused,
    /// saying what the link is.
    @Test func confirmIsRefusedForAnyoneWhoDoesNotSayTheyWatchOverYou() {
        let h = Household()
        h.join(["Ana", "Bea", "Dee"], now: Self.now)
        // Dee says Ana watches over her; Ana watches over Bea, who has not confirmed it.
        #expect(h.run("dee", ["contacts", "add", h.code("ana"), "--responder", "--quiet"], now: Self.now).code == 0)
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent", "--quiet"], now: Self.now).code == 0)
        #expect(
            Self.stderr(h, "ana", ["contacts", "confirm", "Dee"])
                == "lifesignal: error: Dee does not say they watch over you, so there is nothing of theirs to confirm: you watch over them. See 'lifesignal contacts show Dee'\n"
        )
        // Ana is told that Dee made the link, and what it has her device do (F3b, said).
        let ana = notifications(h.run("ana", ["notify", "list", "--json"], now: Self.now)).compactMap {
            $0["message"] as? String
        }
        #expect(
            ana.contains {
                $0.hasPrefix("You and Dee are now linked: Dee is your dependent. Dee made this link on their own:")
                    && $0.contains("your device passes them on to their contacts")
            }, "\(ana)")
        // Bea's only watcher is Ana, unconfirmed: she is told that, not that nobody is told.
        let bea = EscalationCommandTests.statusCodes(h, "bea", at: Self.now)
        #expect(bea.contains("watcher-not-confirmed") && !bea.contains("no-responders"), "\(bea)")
        #expect(
            Self.stderr(h, "ana", ["contacts", "confirm", "Bea"])
                == "lifesignal: error: Bea does not say they watch over you: you watch over them, and only they can confirm that, on their device ('lifesignal contacts confirm' with your name)\n"
        )
        #expect(
            h.run("ana", ["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"], now: Self.now)
                .code == 0)
        #expect(
            Self.stderr(h, "ana", ["contacts", "confirm", "Sam"]).hasPrefix(
                "lifesignal: error: Sam is an external contact"))
        // Bea accepts Ana with an edit that changes no role (campaign-diff F2): it confirms, and says so.
        Self.expectEditConfirms(h, ["contacts", "edit", "Ana", "--responder"], said: "Updated Ana: ")
    }

    /// Campaign-e 1, 2, 5: a name with a space is quoted in the commands the feed suggests; the
    /// watcher is told the confirmation is the other side's to give; a link made again after
    /// Bea removed it is said as such.
    @Test func theWayOutWorksAsTypedAndARemovedLinkMadeAgainIsSaid() throws {
        let h = Household()
        h.join(["Bea"], now: Self.now)
        #expect(
            h.run("tom", ["init", "--name", "Uncle Tom", "--circle", h.circle, "--quiet"], now: Self.now).code == 0)
        #expect(h.run("tom", ["contacts", "add", h.code("bea"), "--dependent", "--quiet"], now: Self.now).code == 0)
        let feed = notifications(h.run("bea", ["notify", "list", "--json"], now: Self.now))
        let notice = try #require(
            feed.first { $0["type"] as? String == "receive_contact_added" }?["message"] as? String)
        #expect(notice.contains("'lifesignal contacts confirm \"Uncle Tom\"'"), "\(notice)")
        let show = h.run("tom", ["contacts", "show", "Bea"], now: Self.now).stdout
        #expect(show.contains("until they confirm you, on their device"), "\(show)")
        // The JSON says the same, and 'contacts confirm --json' what it did.
        let seen = { (who: String, whom: String) in
            (jsonObject(h.run(who, ["contacts", "show", whom, "--json"], now: Self.now).stdout)["contact"]
                as? [String: Any])?["confirmed"] as? [String: Bool]
        }
        #expect(seen("tom", "Bea") == ["byYou": false, "byThem": false])
        #expect(seen("bea", "Uncle Tom") == ["byYou": false, "byThem": false])
        let confirmed = jsonObject(h.run("bea", ["contacts", "confirm", "Uncle Tom", "--json"], now: Self.now).stdout)
        #expect((confirmed["confirmed"] as? [String: Any])?["name"] as? String == "Uncle Tom")
        #expect(confirmed["alreadyConfirmed"] as? Bool == false)
        let again = jsonObject(h.run("bea", ["contacts", "confirm", "Uncle Tom", "--json"], now: Self.now).stdout)
        #expect(again["alreadyConfirmed"] as? Bool == true)
        #expect(seen("tom", "Bea") == ["byYou": false, "byThem": true])
        #expect(seen("bea", "Uncle Tom") == ["byYou": true, "byThem": false])
        let later = "2026-03-01T10:00:00Z"
        #expect(h.run("bea", ["contacts", "remove", "Uncle Tom", "--yes", "--quiet"], now: later).code == 0)
        #expect(h.run("tom", ["contacts", "add", h.code("bea"), "--dependent", "--quiet"], now: later).code == 0)
        let relinked = notifications(h.run("bea", ["notify", "list", "--json"], now: later)).compactMap {
            $0["message"] as? String
        }
        #expect(
            relinked.contains { $0.hasPrefix("Uncle Tom linked with you again after you removed them") }, "\(relinked)")
    }

    /// Anyone may take any name: a namesake who says they watch over Ana is named with their id,
    /// and the way out picks them by it.
    @Test func aNamesakeIsToldApartByTheirId() throws {
        let h = Household()
        h.join(["Ana", "Bea"], now: Self.now)
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--responder", "--quiet"], now: Self.now).code == 0)
        #expect(h.run("zed", ["init", "--name", "Bea", "--circle", h.circle, "--quiet"], now: Self.now).code == 0)
        #expect(h.run("zed", ["contacts", "add", h.code("ana"), "--dependent", "--quiet"], now: Self.now).code == 0)
        let zed = try #require(
            (jsonObject(h.run("zed", ["status", "--json"], now: Self.now).stdout)["member"] as? [String: Any])?["id"]
                as? String)
        let warning = Self.stderr(h, "ana", ["status"])
        #expect(warning.contains("warning: Bea (\(zed.prefix(8))) says they watch over you"), "\(warning)")
        #expect(
            warning.contains("run 'lifesignal contacts confirm \(zed)'; if not, 'lifesignal contacts remove \(zed)'"))
        #expect(h.run("ana", ["contacts", "list"], now: Self.now).stdout.contains("Bea (\(zed.prefix(8)))"))
        let devices = h.run("ana", ["circle", "devices"], now: Self.now).stdout
        #expect(devices.contains("\nBea (\(zed.prefix(8)))"), "\(devices)")
        let ambiguous = Self.stderr(h, "ana", ["contacts", "confirm", "Bea"])
        #expect(ambiguous.contains("  Bea  \(zed)  (not confirmed by you)\n"), "\(ambiguous)")
        #expect(h.run("ana", ["contacts", "remove", zed, "--quiet"], now: Self.now).code == 0)
        #expect(
            !EscalationCommandTests.statusCodes(h, "ana", at: Self.now).contains(
                "watcher-not-confirmed"))
    }
}
