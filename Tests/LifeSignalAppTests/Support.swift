import Foundation
import LifeSignalApp
import LifeSignalChannels
import LifeSignalCore
import TestSupport

/// A temporary folder holding data directories (one per person or device) and, when asked, a
/// circle folder they share; removed when the test ends. `app` gives the use cases as one run
/// at a fixed time would see them.
final class Sandbox {
    let root: URL

    init() {
        root = Scratch.root.appendingPathComponent("lifesignal-app-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The shared circle folder.
    var circle: String { root.appendingPathComponent("circle").path }

    func directory(_ person: String) -> String { root.appendingPathComponent(person).path }

    /// What every run of this sandbox sends through, pings and polls.
    let wire = Wire()

    /// The programs every run of this sandbox runs (git, curl, qrencode): the system's unless
    /// a test plays them.
    var programs = ProgramRunner.system

    /// One run for `person` at `now` (RFC 3339), with `environment` for the channels.
    func app(_ person: String, at now: String, environment: [String: String] = [:]) -> App {
        let time = Timestamp(rfc3339: now) ?? Timestamp(seconds: 0)
        var env = ["PATH": "/usr/bin:/bin", "HOME": root.path]
        for (key, value) in environment { env[key] = value }
        return App(
            dataDirectory: directory(person), now: time, lockTimeout: 5, environment: env,
            defaultName: { person.prefix(1).uppercased() + person.dropFirst() }, channels: wire.channels,
            programs: programs)
    }

    /// Sets `person` up in the shared circle, named after them.
    @discardableResult
    func join(_ person: String, at now: String) throws -> App.SetUpResult {
        try app(person, at: now).setUp(App.SetUp(circle: circle))
    }
}

/// The error a use case threw, or nil when it did not throw.
func refusal<T>(_ body: () throws(AppError) -> T) -> AppError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

let t0 = "2026-03-01T09:00:00Z"

/// The channels of a sandbox's runs, in this process: what was sent, through which address and
/// with which timeout; which addresses fail (and how); what each ntfy topic holds when polled.
final class Wire: @unchecked Sendable {
    struct Sent {
        var notification: LifeSignalCore.Notification
        var message: Message
        var uri: String
        var timeout: Double
    }

    private let lock = NSLock()
    private var _sent: [Sent] = []
    private var _pinged: [String] = []
    /// Addresses (channel URIs, heartbeat URLs, topic URLs) that fail, with what they say.
    private var _failing: [String: String] = [:]
    private var _topics: [String: [Inbox.Message]] = [:]
    /// The timeout runs give a channel.
    let timeout = 2.5

    var sent: [Sent] { lock.withLock { _sent } }
    var pinged: [String] { lock.withLock { _pinged } }
    func sent(to uri: String) -> [Sent] { sent.filter { $0.uri == uri } }
    func fail(_ address: String, saying error: String?) { lock.withLock { _failing[address] = error } }
    func post(_ text: String, to topic: String, at time: Timestamp) {
        lock.withLock {
            let id = "m\(_topics[topic, default: []].count + 1)"
            _topics[topic, default: []].append(Inbox.Message(id: id, time: time, text: text))
        }
    }

    var channels: App.Channels {
        App.Channels(
            send: { notification, message, uri, _, _, timeout in
                self.lock.withLock {
                    self._sent.append(Sent(notification: notification, message: message, uri: uri, timeout: timeout))
                    return DeliveryAttempt(
                        notification: notification.id, channel: uri, succeeded: self._failing[uri] == nil,
                        error: self._failing[uri])
                }
            },
            heartbeat: { url, _ in
                self.lock.withLock {
                    self._pinged.append(url)
                    return self._failing[url]
                }
            },
            poll: { url, since, _ in
                self.lock.withLock {
                    if let error = self._failing[url] { return .failure(HTTP.Failure(message: error)) }
                    let all = self._topics[url] ?? []
                    guard let since, let seen = all.firstIndex(where: { $0.id == since }) else { return .success(all) }
                    return .success(Array(all[(seen + 1)...]))
                }
            },
            timeout: timeout)
    }
}
