import Foundation
import LifeSignalApp
import LifeSignalCore

/// A temporary folder holding data directories (one per person or device) and, when asked, a
/// circle folder they share; removed when the test ends. `app` gives the use cases as one run
/// at a fixed time would see them.
final class Sandbox {
    let root: URL

    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-app-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The shared circle folder.
    var circle: String { root.appendingPathComponent("circle").path }

    func directory(_ person: String) -> String { root.appendingPathComponent(person).path }

    /// One run for `person` at `now` (RFC 3339), with `environment` for the channels.
    func app(_ person: String, at now: String, environment: [String: String] = [:]) -> App {
        let time = Timestamp(rfc3339: now) ?? Timestamp(seconds: 0)
        var env = ["PATH": "/usr/bin:/bin", "HOME": root.path]
        for (key, value) in environment { env[key] = value }
        return App(
            dataDirectory: directory(person), now: time, lockTimeout: 5, environment: env,
            defaultName: { person.prefix(1).uppercased() + person.dropFirst() })
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
