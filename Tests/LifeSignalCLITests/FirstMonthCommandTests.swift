import Foundation
import Testing

/// Issue #43 item 5: until Bea confirms Ana, who watches over her, Ana's relay and Bea's own
/// device may both tell Bea's sister of one miss (Ana's delivery record must stop nothing on
/// Bea's device). Both are told so, before it happens: Ana when she adds Bea's code, Bea in
/// `status` and `doctor`, in text and JSON.
@Suite struct FirstMonthCommandTests {
    static let now = "2026-03-01T09:00:00Z"

    /// Bea with her sister Sam on ntfy; Ana adds Bea's code as someone she watches over.
    static func unconfirmed() -> (Household, Run) {
        let h = Household()
        h.join(["Ana", "Bea"], now: now)
        let sam = ["contacts", "add", "Sam", "--responder", "--notify", "ntfy:https://ntfy.example/sam-7f3k9q2m"]
        #expect(h.run("bea", sam + ["--quiet"], now: now).code == 0)
        return (h, h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: now))
    }

    static func warning(_ run: Run, _ code: String) -> String? {
        (jsonObject(run.stdout)["warnings"] as? [[String: Any]])?.first { $0["code"] as? String == code }?["message"]
            as? String
    }

    @Test func theWatcherIsToldAtContactsAddAndInStatus() throws {
        let (h, added) = Self.unconfirmed()
        #expect(added.code == 0, "\(added.stderr)")
        #expect(
            added.stdout.contains(
                "until then your 'I'm on it' and vouches do not count for them. You are told of their missed check-ins and alerts from now on. Until they do, Sam may hear of each alarm twice: from your device and from theirs."
            ), "\(added.stdout)")
        let status = try #require(Self.warning(h.run("ana", ["status", "--json"], now: Self.now), "not-confirmed-by"))
        #expect(status.hasSuffix("Until they do, Sam may hear of each alarm twice: from your device and from theirs."))
    }

    @Test func thePersonIsToldInStatusAndDoctorUntilSheConfirms() throws {
        let (h, _) = Self.unconfirmed()
        let twice =
            "Until you confirm or remove them, Sam may hear of each alarm twice: from their device and from yours."
        let status = h.run("bea", ["status"], now: Self.now)
        #expect(status.stderr.contains("'lifesignal contacts remove Ana'. " + twice), "\(status.stderr)")
        let json = try #require(
            Self.warning(h.run("bea", ["status", "--json"], now: Self.now), "watcher-not-confirmed"))
        #expect(json.hasSuffix(twice), "\(json)")
        let doctor = h.run("bea", ["doctor"], now: Self.now)
        #expect(
            doctor.stdout.contains(
                "FAIL  Ana says they watch over you, but you never added or confirmed them: they are told of your alarms, and have no say over them; until you confirm or remove them, Sam may hear of each alarm twice (from their device and from yours)\n"
            ), "\(doctor.stdout)")
        let doctorJSON = h.run("bea", ["doctor", "--json"], now: Self.now).stdout
        #expect(doctorJSON.contains("Sam may hear of each alarm twice (from their device and from yours)"))
        #expect(h.run("bea", ["contacts", "confirm", "Ana", "--quiet"], now: Self.now).code == 0)
        for args in [["status"], ["doctor"]] {
            let run = h.run("bea", args, now: Self.now)
            #expect(!(run.stdout + run.stderr).contains("twice"), "\(args): \(run.stdout)\(run.stderr)")
        }
        #expect(!h.run("ana", ["status"], now: Self.now).stderr.contains("twice"))
    }
}
