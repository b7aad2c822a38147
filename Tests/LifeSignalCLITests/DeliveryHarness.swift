import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Delivery test harness: real programs (msmtp as sendmail, curl, apprise) talking to real
// servers that the tests start on loopback (127.0.0.1) only. Every server is a small Python
// script written into a temporary folder, bound to 127.0.0.1 on a port the kernel picks
// (the script reports it through a file), recorded to files the tests read back, and killed
// (and reaped) when its Swift object goes away. A watchdog in each script also ends it when
// the test process that started it is gone, or after 15 minutes, so no server outlives a run.
//
// Tools are looked up in the usual places, independent of the test process's PATH, and
// tests that need a missing tool are skipped with a visible reason:
//
//     @Test(.enabled(if: DeliveryTools.msmtp != nil, DeliveryTools.missing("msmtp")))

/// Where the delivery tools are, or nil when one is not installed.
enum DeliveryTools {
    /// The PATH a clean environment gets: what the tests hand to child processes.
    static let cleanPath = "/usr/local/bin:/usr/bin:/bin"

    /// The folders searched: the clean PATH first, then the test process's own PATH.
    static let searchPath: [String] = {
        var folders = cleanPath.split(separator: ":").map(String.init)
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where !folders.contains(folder) && folder.hasPrefix("/") {
            folders.append(folder)
        }
        return folders
    }()

    /// The absolute path of `name` in `searchPath`, or nil.
    static func which(_ name: String) -> String? {
        for folder in searchPath {
            let candidate = folder + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    static let msmtp: String? = which("msmtp")
    static let curl: String? = which("curl")
    static let apprise: String? = which("apprise")

    /// A real Python 3 interpreter (resolved through shims such as pyenv's to `sys.executable`).
    static let python3: String? = python(importing: nil)

    /// A Python 3 interpreter that can `import aiosmtpd` (Debian's python3-aiosmtpd lives in /usr/bin/python3).
    static let pythonWithAiosmtpd: String? = python(importing: "aiosmtpd")

    /// The skip reason for a missing tool, shown by `swift test`.
    static func missing(_ what: String) -> Comment {
        Comment(rawValue: "\(what) is not installed (bash .ci/run installs it)")
    }

    private static func python(importing module: String?) -> String? {
        let candidates = searchPath.map { $0 + "/python3" }.filter { FileManager.default.isExecutableFile(atPath: $0) }
        let code = (module.map { "import \($0); " } ?? "") + "import sys; sys.stdout.write(sys.executable)"
        for candidate in candidates {
            let run = ToolRun.run(candidate, ["-c", code], environment: DeliveryTools.environment(), timeout: 30)
            if run.code == 0, run.stdout.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: run.stdout) {
                return run.stdout
            }
        }
        return nil
    }

    /// A clean environment for a child process: nothing inherited from the test process.
    static func environment(home: String? = nil, path: String = cleanPath, _ extra: [String: String] = [:]) -> [String:
        String]
    {
        var environment = ["PATH": path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"]
        environment["HOME"] = home ?? Scratch.root.path
        for (key, value) in extra { environment[key] = value }
        return environment
    }
}

/// The outcome of one run of an external program.
struct ToolRun {
    var stdout: String
    var stderr: String
    var code: Int32
    /// True when the program was killed because it ran past its timeout.
    var timedOut: Bool

    /// Runs `executable` with exactly `environment` (nothing inherited) and `stdin` as its
    /// standard input (a file, so any size is safe), capturing output in files. A program
    /// still running after `timeout` seconds is killed.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: Data = Data(),
        timeout: TimeInterval = 60, directory: String? = nil
    ) -> ToolRun {
        let scratch = Scratch.root.appendingPathComponent(
            "lifesignal-tool-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: inURL.path, contents: stdin)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        guard let input = FileHandle(forReadingAtPath: inURL.path), let out = try? FileHandle(forWritingTo: outURL),
            let err = try? FileHandle(forWritingTo: errURL)
        else {
            return ToolRun(
                stdout: "", stderr: "could not create capture files in \(scratch.path)", code: -1, timedOut: false)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            return ToolRun(stdout: "", stderr: "could not start \(executable): \(error)", code: -1, timedOut: false)
        }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try? input.close()
        try? out.close()
        try? err.close()
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return ToolRun(stdout: stdout, stderr: stderr, code: process.terminationStatus, timedOut: timedOut)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
}

/// A Python script running as a loopback server: started from a temporary folder, waited for
/// until it has written its port, killed and reaped on `stop()` or deinit.
final class LoopbackServer {
    let folder: URL
    let port: Int
    let pid: Int32
    private let process: Process
    private let logHandle: FileHandle
    private let logURL: URL

    /// Writes `script` to the folder, runs `python script arguments… portFile parentPID`
    /// with a clean environment and waits (up to `startup` seconds) for the port file.
    init(python: String, script: String, name: String, arguments: [String], folder: URL, startup: TimeInterval = 20)
        throws
    {
        self.folder = folder
        let scriptURL = folder.appendingPathComponent("\(name).py")
        let portURL = folder.appendingPathComponent("\(name).port")
        let logURL = folder.appendingPathComponent("\(name).log")
        self.logURL = logURL
        try Data(script.utf8).write(to: scriptURL)
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        logHandle = try FileHandle(forWritingTo: logURL)
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", scriptURL.path] + arguments + [portURL.path, String(getpid())]
        process.environment = DeliveryTools.environment(home: folder.path, ["PYTHONDONTWRITEBYTECODE": "1"])
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(startup)
        var found: Int?
        while true {
            if let text = try? String(contentsOf: portURL, encoding: .utf8), let value = Int(text) {
                found = value
                break
            } else if !process.isRunning || Date() > deadline {
                let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                LoopbackServer.end(process)
                try? logHandle.close()
                throw HarnessError(description: "\(name) server did not start: \(log)")
            } else {
                usleep(10_000)
            }
        }
        port = found ?? 0
    }

    /// Whether the server process is still running.
    var isRunning: Bool { process.isRunning }

    /// What the server printed (Python tracebacks, mostly).
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Stops the server and reaps it. SIGKILL straight away: a test server keeps nothing worth
    /// a graceful end, and SIGTERM may sit blocked, since a child starts with the signal mask of
    /// the test thread that spawned it (a second's wait per server, every test).
    func stop() {
        LoopbackServer.end(process)
        try? logHandle.close()
    }

    private static func end(_ process: Process) {
        guard process.processIdentifier > 0 else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

extension LoopbackServer {
    /// The end of a loopback HTTP server's script, after its `Handler` class: a threaded server
    /// on a port the kernel picks, reported through `port_path`, and a watchdog that ends it with
    /// the test process that started it (or after 15 minutes). The script defines `parent` and
    /// `port_path` and imports `http.server, os, threading, time`.
    static let httpServing =
        "\n" + #"""
            class Server(http.server.ThreadingHTTPServer):
                daemon_threads = True

            server = Server(("127.0.0.1", 0), Handler)

            def watchdog():
                deadline = time.time() + 900
                while os.getppid() == parent and time.time() < deadline:
                    time.sleep(0.5)
                os._exit(0)

            threading.Thread(target=watchdog, daemon=True).start()
            with open(port_path + ".tmp", "w") as f:
                f.write(str(server.server_address[1]))
            os.rename(port_path + ".tmp", port_path)
            server.serve_forever()
            """#
}

/// Whether a process with this id exists (a zombie counts; a reaped process does not).
func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
}

/// A temporary folder removed on deinit.
final class HarnessFolder {
    let url: URL
    var path: String { url.path }
    init(_ prefix: String) {
        url = Scratch.root.appendingPathComponent("lifesignal-\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

// MARK: - SMTP

/// One message the SMTP server received: the envelope and the raw content as sent.
struct ReceivedMail {
    /// Envelope sender (MAIL FROM).
    var from: String
    /// Envelope recipients (RCPT TO).
    var to: [String]
    /// The message exactly as received (CRLF line ends, dot-unstuffed).
    var raw: Data

    /// The header fields in order, unfolded, values as they appear (RFC 2047 words still encoded).
    var headers: [(name: String, value: String)] {
        let text = String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        let head = text.components(separatedBy: "\n\n").first ?? ""
        var fields: [(name: String, value: String)] = []
        for line in head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
                fields[fields.count - 1].value += line
            } else if let colon = line.firstIndex(of: ":") {
                let name = String(line[..<colon])
                let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                fields.append((name, value))
            }
        }
        return fields
    }

    /// The first header field called `name` (any case), undecoded.
    func rawHeader(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first header field called `name`, with RFC 2047 encoded words decoded.
    func header(_ name: String) -> String? { rawHeader(name).map(MIMEWords.decode) }

    var subject: String? { header("Subject") }
    var toHeader: String? { header("To") }
    var fromHeader: String? { header("From") }

    /// The body as sent (after the blank line), CRLF turned into LF.
    var rawBody: String {
        let text = String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        guard let range = text.range(of: "\n\n") else { return "" }
        return String(text[range.upperBound...])
    }

    /// The body decoded per Content-Transfer-Encoding (base64, quoted-printable, or as is).
    var body: String {
        switch rawHeader("Content-Transfer-Encoding")?.lowercased() {
        case "base64":
            let compact = rawBody.filter { !$0.isWhitespace }
            return Data(base64Encoded: compact).map { String(decoding: $0, as: UTF8.self) } ?? rawBody
        case "quoted-printable":
            return String(decoding: MIMEWords.quotedPrintable(rawBody, underscoreIsSpace: false), as: UTF8.self)
        default:
            return rawBody
        }
    }
}

/// RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) and quoted-printable.
enum MIMEWords {
    /// Decodes every encoded word in `value`; whitespace between two adjacent words is dropped.
    static func decode(_ value: String) -> String {
        let pattern = #"=\?([^?]+)\?([BbQq])\?([^?]*)\?="#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return value }
        let ns = value as NSString
        var result = ""
        var cursor = 0
        var lastWasWord = false
        for match in regex.matches(in: value, range: NSRange(location: 0, length: ns.length)) {
            let between = ns.substring(with: NSRange(location: cursor, length: match.range.location - cursor))
            if !(lastWasWord && between.allSatisfy(\.isWhitespace)) { result += between }
            let charset = ns.substring(with: match.range(at: 1)).lowercased()
            let encoding = ns.substring(with: match.range(at: 2)).uppercased()
            let text = ns.substring(with: match.range(at: 3))
            let bytes: Data? =
                encoding == "B" ? Data(base64Encoded: text) : quotedPrintable(text, underscoreIsSpace: true)
            if let bytes, charset == "utf-8" || charset == "us-ascii" {
                result += String(decoding: bytes, as: UTF8.self)
            } else if let bytes, charset == "iso-8859-1", let latin = String(data: bytes, encoding: .isoLatin1) {
                result += latin
            } else {
                result += ns.substring(with: match.range)
            }
            cursor = match.range.location + match.range.length
            lastWasWord = true
        }
        result += ns.substring(from: cursor)
        return result
    }

    /// Quoted-printable bytes (soft line breaks removed; `_` is a space in encoded words).
    static func quotedPrintable(_ text: String, underscoreIsSpace: Bool) -> Data {
        var out = Data()
        let bytes = Array(
            text.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "").utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "="), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                out.append(value)
                index += 3
            } else {
                out.append(underscoreIsSpace && byte == UInt8(ascii: "_") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return out
    }

    /// `=?UTF-8?B?…?=` for a header value (what a mailer would send for a non-ASCII subject).
    static func encodeB(_ text: String) -> String {
        "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }
}

/// A real SMTP server (aiosmtpd) on 127.0.0.1 that saves every message it accepts.
///
/// Recipients starting with `reject` are refused with 550, those starting with `tempfail`
/// with 451 (for failure tests). Stops (killed and reaped) on deinit.
final class SMTPServer {
    static var isAvailable: Bool { DeliveryTools.pythonWithAiosmtpd != nil }

    let host = "127.0.0.1"
    var port: Int { server.port }
    /// The server's process id (to check that it is gone after the test).
    var pid: Int32 { server.pid }
    private let folder = HarnessFolder("smtp")
    private let mailFolder: URL
    private let server: LoopbackServer

    init() throws {
        guard let python = DeliveryTools.pythonWithAiosmtpd else {
            throw HarnessError(description: "no python3 with aiosmtpd (install python3-aiosmtpd)")
        }
        mailFolder = folder.url.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mailFolder, withIntermediateDirectories: true)
        server = try LoopbackServer(
            python: python, script: SMTPServer.script, name: "lifesignal_smtp_server", arguments: [mailFolder.path],
            folder: folder.url)
    }

    /// Every message received so far, in arrival order.
    func messages() -> [ReceivedMail] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mailFolder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        return names.compactMap { name in
            let stem = mailFolder.appendingPathComponent(String(name.dropLast(5)))
            guard let meta = try? Data(contentsOf: stem.appendingPathExtension("json")),
                let object = try? JSONSerialization.jsonObject(with: meta) as? [String: Any],
                let raw = try? Data(contentsOf: stem.appendingPathExtension("eml"))
            else { return nil }
            return ReceivedMail(from: object["from"] as? String ?? "", to: object["to"] as? [String] ?? [], raw: raw)
        }
    }

    /// Waits until at least `count` messages arrived (or `timeout` passed) and returns them all.
    func waitForMessages(_ count: Int = 1, timeout: TimeInterval = 10) -> [ReceivedMail] {
        let deadline = Date().addingTimeInterval(timeout)
        var found = messages()
        while found.count < count && Date() < deadline {
            usleep(20_000)
            found = messages()
        }
        return found
    }

    var isRunning: Bool { server.isRunning }
    func stop() { server.stop() }

    static let script = #"""
        import asyncio, json, os, sys, threading, time
        from aiosmtpd.smtp import SMTP

        out_dir, port_path, parent = sys.argv[1], sys.argv[2], int(sys.argv[3])
        count = 0

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                local = address.split("@")[0].lower()
                if local.startswith("reject"):
                    return "550 5.1.1 Recipient rejected by the test server"
                if local.startswith("tempfail"):
                    return "451 4.3.0 Temporary failure from the test server"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                global count
                count += 1
                stem = os.path.join(out_dir, "%06d" % count)
                content = envelope.original_content or envelope.content
                if isinstance(content, str):
                    content = content.encode("utf-8", "surrogateescape")
                with open(stem + ".eml", "wb") as f:
                    f.write(content)
                meta = {"from": envelope.mail_from, "to": list(envelope.rcpt_tos)}
                with open(stem + ".tmp", "w") as f:
                    json.dump(meta, f)
                os.rename(stem + ".tmp", stem + ".json")
                return "250 Message accepted for delivery"

        def watchdog():
            deadline = time.time() + 900
            while os.getppid() == parent and time.time() < deadline:
                time.sleep(0.5)
            os._exit(0)

        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        server = loop.run_until_complete(loop.create_server(
            lambda: SMTP(Handler(), hostname="harness.localhost", enable_SMTPUTF8=True, decode_data=False),
            host="127.0.0.1", port=0))
        threading.Thread(target=watchdog, daemon=True).start()
        with open(port_path + ".tmp", "w") as f:
            f.write(str(server.sockets[0].getsockname()[1]))
        os.rename(port_path + ".tmp", port_path)
        loop.run_forever()
        """#
}

/// A folder holding an executable `sendmail` that runs msmtp against a local SMTP server
/// (127.0.0.1:port, no auth, no TLS, envelope sender lifesignal@localhost). Put `binDirectory`
/// first in PATH and `sendmail -t` (recipients from the headers, message on stdin) delivers there.
final class SendmailShim {
    static var isAvailable: Bool { DeliveryTools.msmtp != nil }

    private let folder = HarnessFolder("sendmail")
    /// The folder to put first in PATH.
    var binDirectory: String { folder.url.appendingPathComponent("bin").path }
    /// The `sendmail` executable itself.
    var sendmail: String { binDirectory + "/sendmail" }
    /// msmtp's log of each delivery attempt (one line each).
    var logFile: String { folder.url.appendingPathComponent("msmtp.log").path }
    /// PATH with the shim first.
    var path: String { binDirectory + ":" + DeliveryTools.cleanPath }

    init(port: Int, from: String = "lifesignal@localhost") throws {
        guard let msmtp = DeliveryTools.msmtp else { throw HarnessError(description: "msmtp is not installed") }
        try FileManager.default.createDirectory(atPath: binDirectory, withIntermediateDirectories: true)
        let config = folder.url.appendingPathComponent("msmtprc")
        let settings = """
            defaults
            auth off
            tls off
            syslog off
            logfile \(logFile)
            account default
            host 127.0.0.1
            port \(port)
            from \(from)
            timeout 30

            """
        try Data(settings.utf8).write(to: config)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        let script = """
            #!/bin/sh
            exec '\(msmtp)' -C '\(config.path)' "$@"

            """
        try Self.writeExecutable(script, to: sendmail)
    }

    /// Writes a script through a close-on-exec descriptor. Tests run in one process and spawn
    /// children from many threads: a descriptor open for writing that a child inherits (fork
    /// before exec) makes executing the file fail with ETXTBSY ("Text file busy").
    static func writeExecutable(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw HarnessError(description: "cannot create \(path): errno \(errno)") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw HarnessError(description: "cannot write \(path)") }
        guard chmod(path, 0o755) == 0 else { throw HarnessError(description: "cannot chmod \(path)") }
    }

    convenience init(server: SMTPServer) throws { try self.init(port: server.port) }

    /// A clean environment whose PATH finds this `sendmail` first.
    func environment(home: String? = nil, _ extra: [String: String] = [:]) -> [String: String] {
        DeliveryTools.environment(home: home, path: path, extra)
    }
}

// MARK: - HTTP

/// One HTTP request the recorder received.
struct RecordedRequest {
    var method: String
    /// The request target as sent (path and query).
    var path: String
    /// Header fields in order, names as sent, values as the raw bytes decoded as UTF-8.
    var headers: [(name: String, value: String)]
    /// Header values as the raw bytes sent, in the same order as `headers`.
    var headerBytes: [Data]
    var body: Data
    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The first header called `name` (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The raw bytes of the first header called `name` (any case).
    func headerData(_ name: String) -> Data? {
        headers.indices.first { headers[$0].name.lowercased() == name.lowercased() }.map { headerBytes[$0] }
    }

    /// The body parsed as a JSON object, or nil.
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
}

/// A threaded Python HTTP server on 127.0.0.1 that records every request (method, path,
/// headers, body — byte-exact) and answers `200 {"status": 200}`, except:
///  - a path with the segments `status/NNN` answers NNN (e.g. `/status/500`, `/hook/status/429`);
///  - a path with the segment `slow` sleeps 30 s before answering, `slow/N` sleeps N seconds
///    (the request is recorded before the sleep);
///  - a path with the segments `flaky/N` answers 503 to the first N requests to that path, then 200.
/// Stops (killed and reaped) on deinit.
final class HTTPRecorder {
    static var isAvailable: Bool { DeliveryTools.python3 != nil }

    let host = "127.0.0.1"
    var port: Int { server.port }
    var pid: Int32 { server.pid }
    /// `http://127.0.0.1:PORT`
    var baseURL: String { "http://127.0.0.1:\(port)" }
    private let folder = HarnessFolder("http")
    private let logURL: URL
    private let server: LoopbackServer

    init() throws {
        guard let python = DeliveryTools.python3 else { throw HarnessError(description: "python3 is not installed") }
        logURL = folder.url.appendingPathComponent("requests.jsonl")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        server = try LoopbackServer(
            python: python, script: HTTPRecorder.script, name: "lifesignal_http_recorder", arguments: [logURL.path],
            folder: folder.url)
    }

    /// `http://127.0.0.1:PORT/path` (a leading slash is added when missing).
    func url(_ path: String) -> String { baseURL + (path.hasPrefix("/") ? path : "/" + path) }

    /// Every request recorded so far, in arrival order.
    func requests() -> [RecordedRequest] {
        guard let data = try? Data(contentsOf: logURL) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
            let pairs = object["headers"] as? [[String]] ?? []
            let bytes = pairs.map { Data(base64Encoded: $0.count > 1 ? $0[1] : "") ?? Data() }
            return RecordedRequest(
                method: object["method"] as? String ?? "",
                path: object["path"] as? String ?? "",
                headers: zip(pairs, bytes).map { (name: $0.first ?? "", value: String(decoding: $1, as: UTF8.self)) },
                headerBytes: bytes,
                body: Data(base64Encoded: object["body"] as? String ?? "") ?? Data())
        }
    }

    /// Waits until at least `count` requests arrived (or `timeout` passed) and returns them all.
    func waitForRequests(_ count: Int = 1, timeout: TimeInterval = 10) -> [RecordedRequest] {
        let deadline = Date().addingTimeInterval(timeout)
        var found = requests()
        while found.count < count && Date() < deadline {
            usleep(20_000)
            found = requests()
        }
        return found
    }

    var isRunning: Bool { server.isRunning }
    func stop() { server.stop() }

    static let script = #"""
        import base64, http.server, json, os, sys, threading, time

        log_path, port_path, parent = sys.argv[1], sys.argv[2], int(sys.argv[3])
        lock = threading.Lock()
        seen = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _body(self):
                if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                    data = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            return data
                        data += self.rfile.read(size)
                        self.rfile.readline()
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length > 0 else b""

            def _handle(self):
                body = self._body()
                # http.server decodes header bytes as latin-1: encoding back gives the exact bytes.
                headers = [[k, base64.b64encode(v.encode("latin-1", "replace")).decode()]
                           for k, v in self.headers.raw_items()]
                record = {"method": self.command, "path": self.path, "headers": headers,
                          "body": base64.b64encode(body).decode()}
                parts = self.path.split("?")[0].strip("/").split("/")
                status, delay = 200, 0.0
                with lock:
                    with open(log_path, "a") as f:
                        f.write(json.dumps(record) + "\n")
                    seen[self.path] = seen.get(self.path, 0) + 1
                    nth = seen[self.path]
                for i, part in enumerate(parts):
                    following = parts[i + 1] if i + 1 < len(parts) else ""
                    if part == "status" and following.isdigit():
                        status = int(following)
                    elif part == "flaky" and following.isdigit() and nth <= int(following):
                        status = 503
                    elif part == "slow":
                        try:
                            delay = float(following)
                        except ValueError:
                            delay = 30.0
                if delay:
                    time.sleep(delay)
                reply = json.dumps({"status": status}).encode() + b"\n"
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(reply)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _handle

        """# + LoopbackServer.httpServing
}

/// curl's config-file syntax (`curl --config -`), so that tests can keep data out of argv
/// the way lifesignal will.
enum CurlConfig {
    /// `"…"` with `\`, `"`, newline, CR, tab and vertical tab escaped as curl's config parser expects.
    static func quote(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0B}": out += "\\v"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// One `name = "value"` line.
    static func line(_ name: String, _ value: String) -> String { "\(name) = \(quote(value))\n" }
}
