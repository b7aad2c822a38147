import Foundation
import TestSupport
import Testing

@testable import LifeSignalCLI

// A peer's records are not trusted with the terminal: names, notes and messages holding
// escape sequences (colour, OSC 8 hyperlinks, OSC 52 clipboard writes, screen clearing,
// bidirectional overrides) are shown with their control characters visible, and --json
// escapes them as JSON does.

@Suite struct TerminalSafetyTests {
    static let nasty =
        "Bea\u{1B}[31mRED\u{1B}]8;;https://evil.example/\u{07}click\u{1B}]8;;\u{07}\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{202E}gnp.exe\u{9B}"

    /// Ana watches over Bea; then Bea's published log is rewritten by her own device (Bea
    /// herself is hostile, so it is signed) so her name, note and alert message carry escape
    /// sequences.
    static func hostileCircle() throws -> Household {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("bea", ["checkin", "--note", "NOTE", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(
            h.run("bea", ["alert", "activate", "--yes", "--message", "MSG", "--quiet"], now: "2026-03-01T09:30:00Z")
                .code == 0)
        h.run("ana", ["ping", "send", "Bea"], now: "2026-03-01T09:40:00Z")
        let bea = DeliveryTests.member(h, "bea").member
        let logs =
            FileManager.default.enumerator(atPath: h.circle + "/members/" + bea)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix("log.json") } ?? []
        let escaped = String(
            decoding: try JSONSerialization.data(withJSONObject: [Self.nasty], options: [.withoutEscapingSlashes]),
            as: UTF8.self
        ).dropFirst(2).dropLast(2)
        for log in logs {
            let path = h.circle + "/members/" + bea + "/" + log
            var text = try String(contentsOfFile: path, encoding: .utf8)
            for word in ["\"Bea\"", "\"NOTE\"", "\"MSG\""] {
                text = text.replacingOccurrences(of: word, with: "\"\(word.dropFirst().dropLast())\(escaped)\"")
            }
            let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            try SignedLogWriter.write(log, to: path, key: SignedLogWriter.key(in: h.root.path + "/bea"))
        }
        return h
    }

    @Test func noEscapeSequenceFromARecordReachesTheTerminal() throws {
        let h = try Self.hostileCircle()
        let now = "2026-03-01T10:00:00Z"
        for arguments in [
            ["status"], ["contacts", "list"], ["contacts", "show", "Bea"], ["ping", "list", "--history"],
            ["notify", "list", "--all"], ["notify", "deliver", "--verbose"],
        ] {
            let run = h.run("ana", arguments, now: now)
            for (stream, text) in [("stdout", run.stdout), ("stderr", run.stderr)] {
                #expect(
                    !text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B },
                    "\(arguments) \(stream) holds a raw control character: \(text.debugDescription)")
                #expect(!text.unicodeScalars.contains { $0.value == 0x202E }, "\(arguments) \(stream): bidi override")
            }
            #expect(run.code != 64, "\(arguments): \(run.stderr)")
        }
        let list = h.run("ana", ["contacts", "list"], now: now)
        #expect(
            list.stdout.contains(
                "Bea^[[31mRED^[]8;;https://evil.example/^Gclick^[]8;;^G^[]52;c;ZXZpbA==^G^[[2J<U+202E>gnp.exe<U+009B>"),
            "\(list.stdout)")
        // --json keeps the text exactly, escaped as JSON escapes it.
        let json = h.run("ana", ["contacts", "list", "--json"], now: now)
        #expect(json.stdout.contains("\\u001b[31mRED"))
        let contacts = jsonObject(json.stdout)["contacts"] as? [[String: Any]]
        #expect(contacts?.first?["name"] as? String == "Bea" + Self.nasty)
    }

    @Test func lifesignalsOwnColoursStillWork() {
        // Colour needs a terminal; the marks a name could forge are not this process's.
        #expect(TerminalText.safe(TerminalText.style("31", "red")) == "\u{1B}[31mred\u{1B}[0m")
        let forged = TerminalText.safe("\u{E000}guess:31\u{E001}x\u{E000}:2J\u{E001}")
        #expect(!forged.unicodeScalars.contains { $0.value == 0x1B }, "\(forged.debugDescription)")
    }
}
