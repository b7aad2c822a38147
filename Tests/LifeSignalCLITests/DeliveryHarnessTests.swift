import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Smoke tests of the delivery harness: each real program (msmtp as sendmail, curl, apprise)
/// against the harness's own servers on 127.0.0.1, so later delivery tests can trust both.
@Suite("DeliveryHarness", .integration)
struct DeliveryHarnessTests {
    static let hasMail = DeliveryTools.msmtp != nil && DeliveryTools.pythonWithAiosmtpd != nil
    static let hasCurl = DeliveryTools.curl != nil && DeliveryTools.python3 != nil
    static let hasApprise = DeliveryTools.apprise != nil && DeliveryTools.python3 != nil

    // MARK: e-mail

    /// An RFC 5322 message with a UTF-8 (RFC 2047) subject, piped into `sendmail -t` found via PATH.
    static func message(to: String, subject: String, body: String, extraHeaders: String = "") -> String {
        """
        To: \(to)
        \(extraHeaders)Subject: \(MIMEWords.encodeB(subject))
        MIME-Version: 1.0
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: 8bit

        \(body)
        """
    }

    @Test(.enabled(if: hasMail, DeliveryTools.missing("msmtp or python3-aiosmtpd")))
    func sendmailShimDeliversToTheLocalSMTPServer() throws {
        let server = try SMTPServer()
        let shim = try SendmailShim(server: server)
        let subject = "Überfällig: Ana hasn't checked in ✓ \"now\""
        let body = "Héllo,\nthis is lifesignal.\n.a line starting with a dot\n\nLast line ✓\n"
        let text = Self.message(
            to: "Alice Example <alice@example.org>", subject: subject, body: body,
            extraHeaders: "Cc: bob@example.net\nBcc: carol@example.com\n")
        // `sendmail` is looked up through PATH, exactly as lifesignal will run it.
        let run = ToolRun.run(
            "/bin/sh", ["-c", "exec sendmail -t"], environment: shim.environment(), stdin: Data(text.utf8))
        #expect(run.code == 0, "sendmail -t failed: \(run.stderr)")

        let mails = server.waitForMessages(1)
        try #require(mails.count == 1)
        let mail = mails[0]
        #expect(mail.from == "lifesignal@localhost")
        #expect(mail.to == ["alice@example.org", "bob@example.net", "carol@example.com"])
        #expect(mail.subject == subject)
        #expect(mail.rawHeader("Subject") == MIMEWords.encodeB(subject))
        #expect(mail.toHeader == "Alice Example <alice@example.org>")
        #expect(mail.header("Cc") == "bob@example.net")
        // msmtp removes Bcc and adds From (the envelope sender), Date and Message-ID.
        #expect(mail.header("Bcc") == nil)
        #expect(mail.fromHeader == "lifesignal@localhost")
        #expect(mail.header("Date") != nil)
        #expect(mail.header("Message-ID") != nil)
        #expect(mail.body == body)
        #expect(String(decoding: mail.raw, as: UTF8.self).contains("\r\n.a line starting with a dot\r\n"))
        #expect(try String(contentsOfFile: shim.logFile, encoding: .utf8).contains("exitcode=EX_OK"))
    }

    @Test(.enabled(if: hasMail, DeliveryTools.missing("msmtp or python3-aiosmtpd")))
    func sendmailExitCodesOnFailure() throws {
        let server = try SMTPServer()
        let shim = try SendmailShim(server: server)
        func send(_ to: String) -> ToolRun {
            ToolRun.run(
                shim.sendmail, ["-t"], environment: shim.environment(),
                stdin: Data(Self.message(to: to, subject: "x", body: "y").utf8), timeout: 60)
        }
        // msmtp's exit codes (sysexits.h), as observed: a recipient refused with 550 gives
        // EX_DATAERR (65); one refused with 451 gives EX_UNAVAILABLE (69), not EX_TEMPFAIL;
        // a server nobody listens on gives EX_TEMPFAIL (75).
        let rejected = send("reject@example.org")
        #expect(rejected.code == 65, "EX_DATAERR for a 550 on RCPT: \(rejected.stderr)")
        #expect(rejected.stderr.contains("550 5.1.1"))
        let deferred = send("tempfail@example.org")
        #expect(deferred.code == 69, "EX_UNAVAILABLE for a 451 on RCPT: \(deferred.stderr)")
        #expect(server.messages().isEmpty)

        server.stop()
        let down = send("alice@example.org")
        #expect(down.code == 75, "EX_TEMPFAIL when nobody listens: \(down.stderr)")
        #expect(down.stderr.contains("Connection refused"))
    }

    @Test func mimeWordsDecode() {
        #expect(MIMEWords.decode("=?UTF-8?B?w5xiZXI=?= =?utf-8?q?f=C3=A4llig_=E2=9C=93?= !") == "Überfällig ✓ !")
        #expect(MIMEWords.decode("plain") == "plain")
        #expect(MIMEWords.decode("=?ISO-8859-1?Q?caf=E9?=") == "café")
    }

    // MARK: HTTP with curl

    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func curlNtfyStylePublish() throws {
        let recorder = try HTTPRecorder()
        let body = "Ana missed her 09:00 check-in.\nLast seen: café ✓\n"
        let run = ToolRun.run(
            DeliveryTools.curl!,
            [
                "-sS", "--max-time", "10", "-H", "Title: Ana is overdue", "-H", "Priority: urgent", "-H",
                "Tags: warning",
                "--data-binary", "@-", recorder.url("/lifesignal-test"),
            ], environment: DeliveryTools.environment(), stdin: Data(body.utf8))
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "{\"status\": 200}\n")

        let requests = recorder.requests()
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.method == "POST")
        #expect(request.path == "/lifesignal-test")
        #expect(request.header("Title") == "Ana is overdue")
        #expect(request.header("Priority") == "urgent")
        #expect(request.header("Tags") == "warning")
        #expect(request.header("Host") == "127.0.0.1:\(recorder.port)")
        #expect(request.body == Data(body.utf8))
    }

    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func curlJSONWebhook() throws {
        let recorder = try HTTPRecorder()
        let json = #"{"event":"overdue","person":"Ana","note":"caf\u00e9 \"quoted\" \\ ✓"}"#
        let run = ToolRun.run(
            DeliveryTools.curl!,
            [
                "-sS", "--fail", "--max-time", "10", "-X", "POST", "-H", "Content-Type: application/json",
                "--data-binary", "@-",
                recorder.url("/hooks/lifesignal?token=abc"),
            ], environment: DeliveryTools.environment(), stdin: Data(json.utf8))
        #expect(run.code == 0, "\(run.stderr)")
        let request = try #require(recorder.requests().first)
        #expect(request.path == "/hooks/lifesignal?token=abc")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.body == Data(json.utf8))
        #expect(request.json?["note"] as? String == "café \"quoted\" \\ ✓")
    }

    /// The form lifesignal will use to keep data out of argv: the whole request as a curl
    /// config on stdin. Headers and body arrive byte-exact, quotes, backslashes and UTF-8 included.
    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func curlConfigOnStdinIsByteExact() throws {
        let recorder = try HTTPRecorder()
        let title = #"Ana "the brave" C:\Users\ana — überfällig ✓ 🚨"#
        let body = "@not-a-file: line one\nline \"two\"\twith tab\\backslash\r\nend ✓ 🚨"
        let config =
            CurlConfig.line("url", recorder.url("/topic"))
            + CurlConfig.line("header", "Title: " + title)
            + CurlConfig.line("header", "Priority: urgent")
            + CurlConfig.line("header", "Tags: warning,rotating_light")
            // data-raw, not data-binary: data-binary treats a leading "@" as a file name.
            + CurlConfig.line("data-raw", body)
            + "silent\nshow-error\nfail\nmax-time = 10\n"
        let run = ToolRun.run(
            DeliveryTools.curl!, ["--config", "-"], environment: DeliveryTools.environment(), stdin: Data(config.utf8))
        #expect(run.code == 0, "\(run.stderr)\n\(config)")
        let request = try #require(recorder.requests().first)
        #expect(request.headerData("Title") == Data(title.utf8))
        #expect(request.header("Title") == title)
        #expect(request.header("Priority") == "urgent")
        #expect(request.header("Tags") == "warning,rotating_light")
        #expect(request.body == Data(body.utf8))
        #expect(CurlConfig.quote("a\"b\\c\nd") == #""a\"b\\c\nd""#)
    }

    /// Fact for lifesignal: `data-binary = "@…"` reads a file (and a missing file is only a
    /// warning: an empty POST with exit 0), so literal bodies must go through `data-raw`.
    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func curlDataBinaryAtReadsAFile() throws {
        let recorder = try HTTPRecorder()
        let folder = HarnessFolder("curl-data")
        let file = folder.url.appendingPathComponent("body.txt")
        try Data("from a file ✓\n".utf8).write(to: file)
        let fromFile =
            CurlConfig.line("url", recorder.url("/a")) + CurlConfig.line("data-binary", "@" + file.path) + "silent\n"
        #expect(
            ToolRun.run(
                DeliveryTools.curl!, ["--config", "-"], environment: DeliveryTools.environment(),
                stdin: Data(fromFile.utf8)
            ).code == 0)
        let missing =
            CurlConfig.line("url", recorder.url("/b")) + CurlConfig.line("data-binary", "@/nonexistent/x") + "silent\n"
        let run = ToolRun.run(
            DeliveryTools.curl!, ["--config", "-"], environment: DeliveryTools.environment(), stdin: Data(missing.utf8))
        #expect(run.code == 0)
        #expect(run.stderr.contains("Couldn't read data from file"))
        let requests = recorder.requests()
        try #require(requests.count == 2)
        #expect(requests[0].bodyText == "from a file ✓\n")
        #expect(requests[1].body.isEmpty)
    }

    @Test(.enabled(if: hasCurl, DeliveryTools.missing("curl or python3")))
    func recorderStatusSlowAndFlakyPaths() throws {
        let recorder = try HTTPRecorder()
        func code(_ path: String, _ extra: [String] = []) -> (ToolRun, String) {
            let run = ToolRun.run(
                DeliveryTools.curl!,
                ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--data-raw", "x"] + extra + [recorder.url(path)],
                environment: DeliveryTools.environment())
            return (run, run.stdout)
        }
        #expect(code("/status/500").1 == "500")
        #expect(code("/hook/status/429").1 == "429")
        // Without --fail curl exits 0 on an HTTP error; with --fail it exits 22.
        #expect(code("/status/500").0.code == 0)
        #expect(code("/status/503", ["--fail"]).0.code == 22)
        #expect([code("/flaky/2").1, code("/flaky/2").1, code("/flaky/2").1] == ["503", "503", "200"])

        let started = Date()
        let slow = code("/slow/5", ["--max-time", "1"]).0
        #expect(slow.code == 28, "curl's timeout exit code: \(slow.stderr)")
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(code("/slow/0.2").1 == "200")
        // Requests are recorded before the answer (and before a slow path's sleep).
        #expect(recorder.requests().map(\.path).filter { $0.hasPrefix("/slow") } == ["/slow/5", "/slow/0.2"])
        #expect(recorder.requests().count == 9)
    }

    // MARK: apprise

    @Test(.enabled(if: hasApprise, DeliveryTools.missing("apprise or python3")))
    func appriseJSONPostsToTheRecorder() throws {
        let recorder = try HTTPRecorder()
        let home = HarnessFolder("apprise-home")  // no ~/.apprise config is read from here
        let title = "Ana is overdue — überfällig ✓"
        let body = "Last check-in 08:00.\n\"Quoted\" and \\backslash\\"
        let run = ToolRun.run(
            DeliveryTools.apprise!, ["-t", title, "-b", body, "json://127.0.0.1:\(recorder.port)/apprise/hook"],
            environment: DeliveryTools.environment(home: home.path), timeout: 60)
        #expect(run.code == 0, "\(run.stderr)")
        let request = try #require(recorder.requests().first)
        #expect(request.method == "POST")
        #expect(request.path == "/apprise/hook")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("User-Agent") == "Apprise")
        let json = try #require(request.json)
        #expect(json["title"] as? String == title)
        #expect(json["message"] as? String == body)
        #expect(json["type"] as? String == "info")
        #expect(json["version"] as? String == "1.0")
        #expect((json["attachments"] as? [Any])?.isEmpty == true)
        #expect(Set(json.keys) == ["version", "title", "message", "attachments", "type"])
    }

    /// Keeping data out of argv with apprise: the URL from APPRISE_URLS, the body from stdin
    /// (only the title still needs -t), and -n sets the JSON "type". Apprise strips the title
    /// at both ends and the body at its end.
    @Test(.enabled(if: hasApprise, DeliveryTools.missing("apprise or python3")))
    func appriseURLFromEnvironmentBodyFromStdin() throws {
        let recorder = try HTTPRecorder()
        let home = HarnessFolder("apprise-home")
        let body = "  Body from stdin ✓\n\nsecond line  \n\n"
        let run = ToolRun.run(
            DeliveryTools.apprise!, ["-t", "  T  ", "-n", "failure"],
            environment: DeliveryTools.environment(
                home: home.path, ["APPRISE_URLS": "json://127.0.0.1:\(recorder.port)/env"]),
            stdin: Data(body.utf8), timeout: 60)
        #expect(run.code == 0, "\(run.stderr)")
        let json = try #require(recorder.requests().first?.json)
        #expect(recorder.requests().first?.path == "/env")
        #expect(json["message"] as? String == "  Body from stdin ✓\n\nsecond line")
        #expect(json["title"] as? String == "T")
        #expect(json["type"] as? String == "failure")
    }

    @Test(.enabled(if: hasApprise, DeliveryTools.missing("apprise or python3")))
    func appriseExitCodes() throws {
        let recorder = try HTTPRecorder()
        let home = HarnessFolder("apprise-home")
        func apprise(_ arguments: [String]) -> ToolRun {
            ToolRun.run(
                DeliveryTools.apprise!, arguments, environment: DeliveryTools.environment(home: home.path), timeout: 60)
        }
        // The server answers 500: the notification failed, exit 1.
        let serverError = apprise(["-t", "T", "-b", "B", "json://127.0.0.1:\(recorder.port)/status/500"])
        #expect(serverError.code == 1)
        #expect(recorder.requests().count == 1)
        // Nobody listens on the port: exit 1.
        let closed = try HTTPRecorder()
        let closedPort = closed.port
        closed.stop()
        let refused = apprise(["-t", "T", "-b", "B", "json://127.0.0.1:\(closedPort)/x"])
        #expect(refused.code == 1, "\(refused.stderr)")
        // A URL apprise cannot parse: exit 1.
        #expect(apprise(["-t", "T", "-b", "B", "nosuchscheme://x"]).code == 1)
        // No URL and no configuration: exit 1 (with usage on stdout).
        #expect(apprise(["-t", "T", "-b", "B"]).code == 1)
        // A bad --notification-type: exit 2, as for click's own usage errors.
        #expect(apprise(["-n", "nope", "-b", "B", "json://127.0.0.1:\(recorder.port)/x"]).code == 2)
        #expect(apprise(["--no-such-option"]).code == 2)
        #expect(recorder.requests().count == 1)
    }

    // MARK: lifecycle

    /// Servers bind 127.0.0.1 only, and are gone (killed and reaped) once their object is.
    @Test(.enabled(if: hasMail && hasCurl, DeliveryTools.missing("msmtp, curl or python3-aiosmtpd")))
    func serversStopWhenReleased() throws {
        var pids: [Int32] = []
        var ports: [Int] = []
        // A pipe open in the test process (as other tests' stdin pipes are) must not leak into
        // a server: a leaked write end would keep that other test's child from seeing EOF.
        let pipe = Pipe()
        defer {
            try? pipe.fileHandleForReading.close()
            try? pipe.fileHandleForWriting.close()
        }
        do {
            let smtp = try SMTPServer()
            let http = try HTTPRecorder()
            pids = [smtp.pid, http.pid]
            for pid in pids {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
                let targets = fds.compactMap {
                    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
                }
                #expect(!targets.isEmpty)
                #expect(!targets.contains { $0.hasPrefix("pipe:") }, "server \(pid) inherited a pipe: \(targets)")
            }
            ports = [smtp.port, http.port]
            #expect(smtp.isRunning && http.isRunning)
            #expect(pids.allSatisfy(processExists))
            for port in ports {
                #expect(Self.listeners(port: port) == ["127.0.0.1"], "port \(port) must be bound to 127.0.0.1 only")
            }
        }
        for pid in pids { #expect(!processExists(pid), "server process \(pid) still exists") }
        for port in ports {
            let run = ToolRun.run(
                DeliveryTools.curl!, ["-sS", "--max-time", "5", "http://127.0.0.1:\(port)/"],
                environment: DeliveryTools.environment())
            #expect(run.code == 7, "port \(port) still answers: \(run.stderr)")
        }
    }

    /// The local addresses listening on `port`, from /proc/net/tcp and tcp6 (state 0A = LISTEN).
    static func listeners(port: Int) -> [String] {
        var found: [String] = []
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { continue }
                let local = fields[1].split(separator: ":")
                guard local.count == 2, Int(local[1], radix: 16) == port else { continue }
                if local[0].count == 8, let value = UInt32(local[0], radix: 16) {
                    // Little-endian IPv4.
                    found.append("\(value & 0xff).\((value >> 8) & 0xff).\((value >> 16) & 0xff).\(value >> 24)")
                } else {
                    found.append(String(local[0]))
                }
            }
        }
        return found
    }
}
