import Foundation
import LifeSignalCore

/// Writes a log as a member's own device would — laid out as lifesignal writes one and signed
/// with the key in that device's data directory — whatever it holds. What the tests of a
/// malicious member need: Mal can sign anything his own device writes; he cannot sign as Ana.
public enum SignedLogWriter {
    /// The device key in the data directory `home`.
    public static func key(in home: String) throws -> SigningKey {
        let data = try Data(contentsOf: URL(fileURLWithPath: home + "/device.key"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let seed = KeyText.bytes(object?["seed"] as? String ?? "", count: 32) ?? []
        guard let key = SigningKey(seed: seed) else { throw CocoaError(.fileReadCorruptFile) }
        return key
    }

    /// `log` (as JSON objects), written to `path`, signed by `key`.
    public static func write(_ log: [String: Any], to path: String, key: SigningKey) throws {
        func text(_ value: Any) throws -> String {
            String(
                decoding: try JSONSerialization.data(
                    withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes, .sortedKeys]),
                as: UTF8.self)
        }
        let events = log["events"] as? [Any] ?? []
        var tail = ",\n\"events\": ["
        for (i, event) in events.enumerated() { tail += (i == 0 ? "\n  " : ",\n  ") + (try text(event)) }
        tail += events.isEmpty ? "]\n}\n" : "\n]\n}\n"
        var head = "\n"
        let skipped: Set<String> = ["signature", "state", "events", "key", "tail"]
        var fields = log.filter { !skipped.contains($0.key) }.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
        fields.append(("key", key.publicKeyText))
        fields.append(("tail", KeyText.hex(SHA512.hash(Array(tail.utf8)))))
        for (name, value) in fields { head += "\(try text(name)): \(try text(value)),\n" }
        head += "\"state\": " + (try text(log["state"] ?? [:]))
        let signature = key.sign(Array("lifesignal log 1\n".utf8) + Array(head.utf8))
        let file = "{\n\"signature\": \"\(KeyText.hex(signature))\"," + head + tail
        try Data(file.utf8).write(to: URL(fileURLWithPath: path))
    }
}
