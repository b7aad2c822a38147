import Foundation
import LifeSignalApp
import LifeSignalChannels
import LifeSignalCore
import Testing

/// The programs a use case runs (git, curl for Syncthing's API, qrencode) sit behind App's seam:
/// a test plays them, in-process, and sees what the use case makes of their answers.
@Suite struct ProgramsTests {
    /// A program played by the test: each call is recorded, and `answer` gives what it prints,
    /// whether it succeeded and what it says on stderr (nil: the program is not installed).
    final class Played: @unchecked Sendable {
        private let lock = NSLock()
        private var _calls: [[String]] = []
        let answer: @Sendable ([String], [UInt8]) -> (out: String, ok: Bool, err: String)?

        init(_ answer: @escaping @Sendable ([String], [UInt8]) -> (out: String, ok: Bool, err: String)?) {
            self.answer = answer
        }

        var calls: [[String]] { lock.withLock { _calls } }

        var runner: ProgramRunner {
            ProgramRunner { arguments, environment, stdin, _, _ throws(ChildProcess.Failure) in
                self.lock.withLock { self._calls.append(arguments) }
                guard let said = self.answer(arguments, stdin) else {
                    throw .notFound(program: arguments.first ?? "", path: environment["PATH"] ?? "")
                }
                return ChildProcess.Result(
                    status: said.ok ? 0 : 1, signal: nil, timedOut: false, stdout: Array(said.out.utf8),
                    stderr: Array(said.err.utf8), truncated: false, pid: 0)
            }
        }
    }

    /// The git subcommand of a call (`git -C DIR -c … -c … fetch …` gives `fetch`).
    static func subcommand(_ arguments: [String]) -> [String] {
        var rest = Array(arguments.dropFirst(3))
        while rest.first == "-c" { rest.removeFirst(2) }
        return rest
    }

    @Test func aQRCodeIsWhatQrencodeDrewAndAMissingOneIsSaid() throws {
        let box = Sandbox()
        box.programs =
            Played { arguments, _ in
                arguments.first == "qrencode" ? ("█▀▀█\n", true, "") : nil
            }.runner
        #expect(try box.app("ana", at: t0).qrCode("LS1-ABC") == "█▀▀█\n")
        box.programs = Played { _, _ in nil }.runner
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).qrCode("LS1-ABC") }
                == .unavailable(.qrencodeMissing))
        box.programs = Played { _, _ in ("", false, "qrencode: input too long") }.runner
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).qrCode("LS1-ABC") }
                == .unavailable(.qrencodeFailed("qrencode: input too long")))
    }

    /// A git circle whose remote cannot be reached: the sync fails with git's own words, after
    /// committing this device's records, and without pushing.
    @Test func aFetchThatFailsIsSaidInGitsWordsAndNothingIsPushed() throws {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try FileManager.default.createDirectory(atPath: box.circle + "/.git", withIntermediateDirectories: true)
        let git = Played { arguments, _ in
            switch Self.subcommand(arguments).first {
            case "symbolic-ref": ("main\n", true, "")
            case "remote": ("https://git.example/circle.git\n", true, "")
            case "fetch":
                ("", false, "fatal: unable to access 'https://git.example/circle.git/': Could not resolve host")
            case "diff": ("", true, "")
            default: ("", true, "")
            }
        }
        box.programs = git.runner
        let failure = refusal { () throws(AppError) in try box.app("ana", at: t0).syncCircle() }
        #expect(
            failure
                == .unavailable(
                    .git(
                        "git fetch -q origin failed: fatal: unable to access 'https://git.example/circle.git/': Could not resolve host"
                    )), "\(String(describing: failure))")
        let commands = git.calls.map { Self.subcommand($0).first ?? "" }
        #expect(commands.contains("fetch") && !commands.contains("push"), "\(commands)")
    }

    @Test func aCircleWithoutARemoteIsToldHowToAddOne() throws {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try FileManager.default.createDirectory(atPath: box.circle + "/.git", withIntermediateDirectories: true)
        box.programs =
            Played { arguments, _ in
                switch Self.subcommand(arguments).first {
                case "symbolic-ref": ("main\n", true, "")
                case "remote": ("", false, "error: No such remote 'origin'")
                default: ("", true, "")
                }
            }.runner
        #expect(
            refusal { () throws(AppError) in try box.app("ana", at: t0).syncCircle() }
                == .refused(.sync(.noRemote(box.circle))))
    }

    /// A Syncthing API given by hand is asked at once: one that does not share the circle is
    /// refused with what it does share, one that does is kept.
    @Test func aSyncthingAPIGivenByHandIsAskedAtOnce() throws {
        let box = Sandbox()
        try box.join("ana", at: t0)
        let keyFile = box.root.appendingPathComponent("apikey").path
        try "k3y\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        var change = App.SyncSettingsChange()
        change.syncthing = .some((api: "http://127.0.0.1:8384", keyFile: keyFile))
        let folders = #"[{"id":"circle-1","path":"/elsewhere","devices":[]}]"#
        let curl = Played { arguments, stdin in
            guard arguments.first == "curl" else { return nil }
            let config = String(decoding: stdin, as: UTF8.self)
            if config.contains("config/folders") { return (folders, true, "") }
            return ("{}", true, "")
        }
        box.programs = curl.runner
        let refused = refusal { () throws(AppError) in try box.app("ana", at: t0).changeSyncSettings(change) }
        #expect(
            refused
                == .refused(.sync(.syncthing("Syncthing at http://127.0.0.1:8384 shares no folder at \(box.circle)"))),
            "\(String(describing: refused))")
        // The key went to curl on its standard input, never on its command line.
        #expect(curl.calls.allSatisfy { !$0.joined(separator: " ").contains("k3y") })

        let shared = #"[{"id":"circle-1","path":"\#(box.circle)","devices":[]}]"#
        box.programs =
            Played { arguments, stdin in
                let config = String(decoding: stdin, as: UTF8.self)
                if config.contains("config/folders") { return (shared, true, "") }
                if config.contains("db/status") { return (#"{"state":"idle","needTotalItems":0}"#, true, "") }
                return ("{}", true, "")
            }.runner
        let kept = try box.app("ana", at: t0).changeSyncSettings(change)
        #expect(kept.syncthingAPI == "http://127.0.0.1:8384")
    }
}
