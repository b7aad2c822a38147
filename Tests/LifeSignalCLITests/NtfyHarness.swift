import Foundation
import Testing

/// A stand-in for an ntfy server on 127.0.0.1, speaking ntfy's documented publish and poll
/// formats (ntfy's own server is not packaged here): `POST`/`PUT /TOPIC` publishes the body as
/// a message, with the `Title`, `Priority`, `Tags` and `Actions` headers (also `X-`-prefixed);
/// `GET /TOPIC/json?poll=1&since=ID|all` answers the messages after ID as newline-delimited
/// JSON (`id`, `time`, `event`, `topic`, `message`, `title`) and closes. Actions in the simple
/// header format are parsed as ntfy does: actions separated by `;`, fields by `,`, a value
/// quoted with `"` or `'` when it holds a separator, `key=value` fields after the first three.
///
/// One thing is the test's, not ntfy's: `POST /_clock` with a Unix time sets the time the
/// server stamps messages with, so that the tests' fixed clocks line up with it.
final class NtfyServer {
    private let folder = HarnessFolder("ntfy")
    private let logURL: URL
    private let server: LoopbackServer

    init() throws {
        guard let python = DeliveryTools.python3 else { throw HarnessError(description: "python3 is not installed") }
        logURL = folder.url.appendingPathComponent("requests.jsonl")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        server = try LoopbackServer(
            python: python, script: NtfyServer.script, name: "lifesignal_ntfy", arguments: [logURL.path],
            folder: folder.url)
    }

    func url(_ topic: String) -> String { "http://127.0.0.1:\(server.port)/\(topic)" }

    /// Every request: method, path, and for a publish the message as stored (with parsed actions).
    func requests() -> [[String: Any]] {
        guard let data = try? Data(contentsOf: logURL) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
    }

    /// The messages published to `topic`, in order.
    func published(_ topic: String) -> [[String: Any]] {
        requests().compactMap { $0["published"] as? [String: Any] }.filter { $0["topic"] as? String == topic }
    }

    /// The polls of `topic` (GET …/json).
    func polls(_ topic: String) -> [String] {
        requests().filter { $0["method"] as? String == "GET" }.compactMap { $0["path"] as? String }.filter {
            $0.hasPrefix("/\(topic)/json")
        }
    }

    /// Sets the time the server stamps messages with.
    func setClock(_ rfc3339: String) {
        let seconds = Int(ISO8601DateFormatter().date(from: rfc3339)?.timeIntervalSince1970 ?? 0)
        _ = NtfyServer.curl(["-X", "POST", "--data", String(seconds), "http://127.0.0.1:\(server.port)/_clock"])
    }

    /// Does what the ntfy app does when the `http` action is tapped: sends its request, with
    /// real curl.
    static func tap(_ action: [String: Any]) -> Int32 {
        let method = (action["method"] as? String) ?? "POST"
        return curl(["-X", method, "--data-binary", action["body"] as? String ?? "", action["url"] as? String ?? ""])
    }

    @discardableResult
    static func curl(_ arguments: [String]) -> Int32 {
        guard let curl = DeliveryTools.curl else { return 127 }
        return ToolRun.run(
            curl, ["-sS", "--fail", "-o", "/dev/null"] + arguments, environment: DeliveryTools.environment()
        )
        .code
    }

    static let script = #"""
        import http.server, json, os, random, string, sys, threading, time
        from urllib.parse import urlsplit, parse_qs

        log_path, port_path, parent = sys.argv[1], sys.argv[2], int(sys.argv[3])
        lock = threading.Lock()
        topics = {}
        clock = [None]

        def parse_actions(text):
            actions = []
            for spec in split(text, ";"):
                fields = split(spec, ",")
                if len(fields) < 3:
                    continue
                action = {"action": fields[0], "label": fields[1], "url": fields[2]}
                for field in fields[3:]:
                    key, _, value = field.partition("=")
                    action[key.strip()] = value
                actions.append(action)
            return actions

        def split(text, separator):
            parts, current, quote, started = [], "", None, False
            for ch in text:
                if quote:
                    if ch == quote:
                        quote = None
                    else:
                        current += ch
                elif ch in "\"'" and not current.strip() and not started:
                    quote, started = ch, True
                elif ch == separator:
                    parts.append(current.strip())
                    current, started = "", False
                else:
                    if not ch.isspace():
                        started = True
                    current += ch
            if current.strip() or started:
                parts.append(current.strip())
            return parts

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def header(self, name):
                return self.headers.get(name) or self.headers.get("X-" + name)

            def reply(self, status, body, kind="application/json"):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def publish(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                path = urlsplit(self.path).path.strip("/")
                if path == "_clock":
                    clock[0] = int(body)
                    return self.reply(200, b"{}\n")
                message = {"id": "".join(random.choice(string.ascii_letters + string.digits) for _ in range(12)),
                           "time": clock[0] if clock[0] is not None else int(time.time()),
                           "event": "message", "topic": path, "message": body}
                if self.header("Title"):
                    message["title"] = self.header("Title")
                if self.header("Priority"):
                    message["priority"] = self.header("Priority")
                if self.header("Actions"):
                    message["actions"] = parse_actions(self.header("Actions"))
                with lock:
                    topics.setdefault(path, []).append(message)
                    with open(log_path, "a") as f:
                        f.write(json.dumps({"method": self.command, "path": self.path, "published": message}) + "\n")
                self.reply(200, (json.dumps(message) + "\n").encode())

            def do_GET(self):
                parts = urlsplit(self.path)
                with lock:
                    with open(log_path, "a") as f:
                        f.write(json.dumps({"method": "GET", "path": self.path}) + "\n")
                segments = parts.path.strip("/").split("/")
                query = parse_qs(parts.query)
                if len(segments) != 2 or segments[1] != "json" or query.get("poll") != ["1"]:
                    return self.reply(404, b'{"code":40401}\n')
                since = (query.get("since") or ["all"])[0]
                with lock:
                    messages = list(topics.get(segments[0], []))
                ids = [m["id"] for m in messages]
                if since in ids:
                    messages = messages[ids.index(since) + 1:]
                lines = "".join(json.dumps(m) + "\n" for m in messages)
                self.reply(200, lines.encode(), "application/x-ndjson")

            do_POST = do_PUT = publish

        """# + LoopbackServer.httpServing
}
