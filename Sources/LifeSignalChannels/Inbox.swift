import LifeSignalCore

/// Reading an ntfy topic used as an inbox, with ntfy's poll API: `GET <topic>/json?poll=1&since=
/// <last id seen>` answers the messages since then as newline-delimited JSON and closes. One
/// request, a short timeout, a bounded answer.
public enum Inbox {
    /// Seconds a poll may take: it must never hold up the deliveries of the run.
    public static let timeout: Double = 5
    /// The most messages of one answer that are looked at.
    public static let messageLimit = 500

    /// One message of the topic: its id, when the server stamped it, and its text.
    public struct Message: Equatable, Sendable {
        public var id: String
        public var time: Timestamp
        public var text: String

        public init(id: String, time: Timestamp, text: String) {
            self.id = id
            self.time = time
            self.text = text
        }
    }

    /// The messages posted to `url` after the message `since` (all it keeps when nil).
    public static func poll(_ url: String, since: String?, environment: [String: String]) -> Result<
        [Message], HTTP.Failure
    > {
        let after = since.flatMap { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? $0 : nil } ?? "all"
        let request = url + "/json?poll=1&since=" + after
        switch HTTP.get(request, timeout: timeout, environment: environment, outputLimit: 1 << 20) {
        case .failure(let failure): return .failure(failure)
        case .success(let body): return .success(messages(in: body))
        }
    }

    /// The `message` events of an answer, in order; lines that are not one are skipped.
    static func messages(in body: [UInt8]) -> [Message] {
        var found: [Message] = []
        for line in body.split(separator: 0x0A).prefix(messageLimit) {
            guard let root = try? JSONParser.parse(Array(line)), let o = try? JSONCursor(root).object(),
                (try? o.optional("event")?.string()) == "message", let id = try? o.required("id").string(),
                let time = try? o.required("time").int(), let text = try? o.optional("message")?.string()
            else { continue }
            found.append(Message(id: id, time: Timestamp(seconds: time), text: text))
        }
        return found
    }
}
