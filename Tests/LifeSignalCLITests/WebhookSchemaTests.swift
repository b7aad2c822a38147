import Foundation
import TestSupport
import Testing

@testable import LifeSignalCore

// The webhook and exec: document is public: a JSON Schema file checked into man/, generated
// from the one description of its fields, and every document lifesignal really sends is
// validated against it by an independent validator (Python's jsonschema).

@Suite(.integration) struct WebhookSchemaTests {
    static let schemaPath = Binary.packageRoot.appendingPathComponent("man/lifesignal-notification.schema.json").path
    static let validator: String? = {
        guard let python = DeliveryTools.python3 else { return nil }
        let run = ToolRun.run(
            python, ["-c", "import jsonschema"], environment: DeliveryTools.environment(), timeout: 30)
        return run.code == 0 ? python : nil
    }()

    @Test func theCommittedSchemaIsWhatTheBinaryPrints() throws {
        let run = lifesignal(["__schema"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.code == 0)
        let committed = try String(contentsOfFile: Self.schemaPath, encoding: .utf8)
        #expect(run.stdout == committed, "run scripts/generate-docs")
    }

    /// Validates each of `documents` (JSON text) against the committed schema; the errors.
    static func invalid(_ documents: [String]) throws -> [String] {
        let python = try #require(validator)
        let folder = TempHome()
        var paths: [String] = []
        for (index, document) in documents.enumerated() {
            let path = folder.path + "/doc\(index).json"
            try Data(document.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for path in sys.argv[2:]:
                for error in validator.iter_errors(json.load(open(path))):
                    print(path, error.message)
            """
        let run = ToolRun.run(
            python, ["-c", script, schemaPath] + paths, environment: DeliveryTools.environment(), timeout: 60)
        #expect(run.code == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test(
        .enabled(
            if: validator != nil && HTTPRecorder.isAvailable && DeliveryTools.curl != nil,
            DeliveryTools.missing("python3-jsonschema or curl")))
    func everyDocumentSentValidatesAgainstTheSchema() throws {
        let recorder = try HTTPRecorder()
        let env = ["PATH": DeliveryTests.path()]
        let h = DeliveryTests.bea(samChannels: [recorder.url("/hook")])
        #expect(h.run("bea", ["init", "--phone", "+1 555 0100"], now: "2026-03-01T09:00:00Z").code == 0)
        // The alert before the 09:00 check-in the next day's miss counts from (ending an alert is
        // a check-in too).
        h.run(
            "bea", ["alert", "activate", "--yes", "--message", "Fell"], now: "2026-03-01T08:30:00Z", environment: env)
        h.run(
            "bea", ["alert", "activate", "--yes", "--message", "Still here"], now: "2026-03-01T08:40:00Z",
            environment: env)
        h.run("bea", ["alert", "deactivate", "--yes"], now: "2026-03-01T08:50:00Z", environment: env)
        h.run("bea", ["notify", "deliver"], now: "2026-03-02T09:30:00Z", environment: env)
        h.run("bea", ["checkin", "--quiet"], now: "2026-03-02T10:00:00Z")
        h.run("bea", ["notify", "deliver"], now: "2026-03-02T10:05:00Z", environment: env)
        let bodies = recorder.waitForRequests(5).map(\.bodyText)
        #expect(bodies.count == 5)
        let types = recorder.requests().compactMap { $0.json?["type"] as? String }
        #expect(Set(types).count == 5, "\(types)")
        #expect(try Self.invalid(bodies) == [])
        // The all-clear says what it follows.
        let clear = recorder.requests().first { $0.json?["type"] as? String == "receive_dependent_checked_in" }
        let missed = recorder.requests().first {
            $0.json?["type"] as? String == "receive_non_responsive_dependent_alert"
        }
        #expect(clear?.json?["follows"] as? String == missed?.json?["id"] as? String)
        #expect(missed?.json?["phone"] as? String == "+15550100")
    }

    @Test(.enabled(if: validator != nil, DeliveryTools.missing("python3-jsonschema")))
    func theValidatorRejectsABrokenDocument() throws {
        let broken = [
            #"{"schema": "lifesignal.notification/2"}"#,
            #"{"schema": "other/2", "id": 1}"#,
        ]
        let errors = try Self.invalid(broken)
        #expect(errors.contains { $0.contains("doc0.json") })
        #expect(errors.contains { $0.contains("doc1.json") })
    }
}

/// The README's example e-mail is a real one: the same profile, sent through msmtp to a real
/// SMTP server in London's zone, gives the guide's headers and body line for line.
@Suite(.integration) struct ReadmeMailTests {
    @Test(.enabled(if: DeliveryTests.hasMail, DeliveryTools.missing("msmtp or python3-aiosmtpd")))
    func theReadmesEmailIsWhatArrives() throws {
        let server = try SMTPServer()
        let shim = try SendmailShim(server: server)
        let home = TempHome()
        let env = ["PATH": shim.path, "TZ": "Europe/London"]
        home.run(
            [
                "init", "--name", "Bea", "--phone", "+44 20 7946 0958", "--emergency-note",
                "Diabetic; a spare key is with the neighbour at no. 12.", "--quiet",
            ], now: "2026-07-01T07:30:00Z", environment: env)
        home.run(
            ["checkin", "--note", "Walking the coast path to Porthcurno", "--quiet"], now: "2026-07-01T07:30:00Z",
            environment: env)
        home.run(["contacts", "add", "Sam", "--responder", "--email", "sam@example.org", "--quiet"], environment: env)
        home.run(
            ["notify", "prefs", "--mail-from", "bea@example.org", "--reply-to", "family@example.org", "--quiet"],
            environment: env)
        #expect(home.run(["notify", "deliver"], now: "2026-07-02T08:15:00Z", environment: env).code == 0)
        let mail = try #require(server.waitForMessages(1).first)

        let block = try #require(
            ReadmeTests.guide.components(separatedBy: "```text\nFrom: \"Bea (lifesignal)\"").dropFirst().first?
                .components(
                    separatedBy: "\n```"
                ).first)
        let lines = ("From: \"Bea (lifesignal)\"" + block).split(separator: "\n", omittingEmptySubsequences: false)
        let blank = try #require(lines.firstIndex(of: ""))
        for header in lines[..<blank] {
            let parts = header.split(separator: ":", maxSplits: 1).map(String.init)
            #expect(mail.rawHeader(parts[0]) == parts[1].trimmingCharacters(in: .whitespaces), "\(header)")
        }
        let body = lines[(blank + 1)...].joined(separator: "\n")
        #expect(mail.body.hasPrefix(body + "\n"), "guide:\n\(body)\n\nsent:\n\(mail.body)")
    }
}

/// One golden document per notification type, built by the real message code from a fixed
/// circle (Bea, with a phone and an emergency note; Ana, a member who watches over her; Sam, an
/// external responder), each validated against the committed schema:
///
///     LIFESIGNAL_UPDATE_GOLDEN=1 swift test --filter WebhookGoldenTests
@Suite struct WebhookGoldenTests {
    static let t0 = Timestamp(rfc3339: "2026-07-02T07:30:00Z") ?? Timestamp(seconds: 0)

    static func circle() -> CircleState {
        var circle = CircleState()
        func stamp(_ seq: Int64) -> Stamp { Stamp(clock: seq, at: Self.t0 - .days(1), device: "d", seq: seq) }
        var bea = MemberState()
        bea.name = Stamped("Bea", stamp(1))
        bea.details = Stamped(
            ProfileDetails(phone: "+442079460958", emergencyNote: "Diabetic; a spare key is at no. 12."), stamp(2))
        bea.apply(Event(seq: 3, at: Self.t0 - .days(1), body: CheckedIn(note: "Coast path")), device: "d")
        circle.members["bea"] = bea
        var ana = MemberState()
        ana.name = Stamped("Ana", stamp(4))
        circle.members["ana"] = ana
        // Bea's own word: Ana watches over her.
        RelationSet(member: "ana", roles: Roles(responder: true, dependent: false)).fold(
            into: &circle, member: "bea", stamp: stamp(5))
        circle.externals["bea"] = [
            "sam": Stamped(
                ExternalContact(name: "Sam", notify: ["mailto:sam@example.org"], email: [], phone: []), stamp(6))
        ]
        return circle
    }

    @Test func everyTypeHasAGoldenDocumentThatValidates() throws {
        let circle = Self.circle()
        let zone = Message.Zone(
            name: "Europe/London", rules: (try? ZoneRules(posixTZ: "GMT0BST,M3.5.0/1,M10.5.0")) ?? .utc)
        var documents: [String] = []
        for kind in LifeSignalCore.Notification.Kind.allCases {
            let toSam = LifeSignalCore.Notification.Recipient.external(owner: "bea", id: "sam")
            let recipient: LifeSignalCore.Notification.Recipient =
                kind.rawValue.hasPrefix("receive_dependent") || kind == .dependentNonResponsive || kind == .acknowledged
                ? toSam : .member("bea")
            let n = LifeSignalCore.Notification(
                kind: kind, cause: "golden", message: "The summary of a \(kind.title.lowercased()).", at: Self.t0,
                subject: "bea", recipient: recipient, thread: .deadline(member: "bea", at: Self.t0))
            let message = Messages.make(n, circle: circle, feed: Feed(), sentAt: Self.t0 + .minutes(45), zone: zone)
            let text = MessageDocument.json(message).serialized(pretty: true) + "\n"
            Golden.check(text, file: "webhook/\(kind.rawValue).json")
            documents.append(text)
        }
        if WebhookSchemaTests.validator != nil { #expect(try WebhookSchemaTests.invalid(documents) == []) }
    }
}
