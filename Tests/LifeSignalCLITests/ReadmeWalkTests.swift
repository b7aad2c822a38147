import Foundation
import Testing

@testable import LifeSignalCLI

// The README walked as a new user walks it, in a temporary HOME: the quick start's commands
// as written (with the built binary for `swift run lifesignal`), then the commands a person
// types next, then the circle shared between two accounts, and the move of the quick start's
// profile into a shared folder. Building, installing and `swift test` itself are left out.

@Suite struct ReadmeWalkTests {
    /// The commands of the ```sh blocks of the section `heading` (of the README, or `text`) that
    /// start with `prefix`.
    static func commands(after heading: String, prefix: String, in text: String = ReadmeTests.readme) -> [String] {
        guard let rest = text.components(separatedBy: heading).dropFirst().first else { return [] }
        let section = rest.components(separatedBy: "\n## ").first ?? rest
        let blocks = section.components(separatedBy: "```sh\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
        let lines = blocks.flatMap { $0.split(separator: "\n").map(String.init) }.filter { $0.hasPrefix(prefix) }
        return lines.map { line in
            // A comment at the end is not part of the command.
            guard let hash = line.range(of: "  #") else { return line }
            return String(line[..<hash.lowerBound]).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Runs a README line through /bin/sh with `lifesignal` meaning the built binary, as a new
    /// user's shell would (HOME set, the default data directory).
    static func sh(_ line: String, home: String, now: String = "2026-03-01T09:00:00Z") -> Run {
        let command = line.replacingOccurrences(of: "swift run lifesignal", with: "'\(Binary.path)'")
            .replacingOccurrences(of: "lifesignal ", with: "'\(Binary.path)' ")
        return lifesignal(
            ["-c", command],
            environment: ["HOME": home, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LIFESIGNAL_NOW": now],
            executable: "/bin/sh")
    }

    @Test func theQuickStartAndTheCommandsTypedNextWorkAsWritten() throws {
        let home = TempHome()
        let quick = Self.commands(after: "## Quick start", prefix: "swift run lifesignal")
        #expect(quick.count >= 7, "\(quick)")
        for line in quick {
            let run = Self.sh(line, home: home.path)
            // status answers with its exit code; everything else succeeds.
            let ok: [Int32] = line.contains(" status") ? [0, 3, 4] : [0]
            #expect(ok.contains(run.code), "\(line): \(run.code) \(run.stderr)")
            #expect(!run.stderr.contains("error:"), "\(line): \(run.stderr)")
        }
        // Then the quick start's profile moves into a shared folder, as the circle section says.
        let shared = home.path + "/Sync/family-circle"
        let moved = Self.sh("lifesignal init --circle '\(shared)'", home: home.path)
        #expect(moved.code == 0, "\(moved.stderr)")
        let history = Self.sh("lifesignal checkin history --limit 5", home: home.path)
        #expect(history.stdout.contains("off to the hills"), "\(history.stdout)")
    }

    @Test func theCircleOfPeopleWorksAsWrittenForAnaAndBea() throws {
        let root = TempHome()
        let circle = root.path + "/family-circle"
        let block = Self.commands(after: "## A circle of people", prefix: "lifesignal").map {
            $0.replacingOccurrences(of: "/srv/family-circle", with: circle)
        }
        #expect(block.count == 8, "\(block)")
        let ana = root.path + "/ana"
        let bea = root.path + "/bea"
        func run(_ home: String, _ line: String) -> Run { Self.sh(line, home: home) }
        #expect(run(ana, block[0]).code == 0)
        #expect(run(bea, block[1]).code == 0)
        let code = run(bea, block[2]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code.hasPrefix("lifesignal://"))
        #expect(run(ana, block[3].replacingOccurrences(of: "lifesignal://…", with: code)).code == 0)
        let confirmed = run(bea, block[4])
        #expect(confirmed.stdout.hasPrefix("Confirmed Ana"), "\(confirmed.stdout)\(confirmed.stderr)")
        let list = run(ana, block[5]).stdout
        #expect(list.contains("Bea") && !list.contains("confirm"), "\(list)")
        #expect(run(bea, "lifesignal checkin --quiet").code == 0)
        #expect(run(ana, block[6]).code == 0, "ping send")
        let answered = run(bea, block[7])
        #expect(answered.code == 0, "\(answered.stderr)")
    }
}
