/// A JSON value, parsed strictly and written deterministically.
///
/// lifesignal owns its JSON rather than using `JSONDecoder` because a damaged store must be
/// reported with a line and column (Foundation drops the position on Linux), duplicate keys
/// must be refused (Foundation silently keeps one), and the shipped binary does not link
/// Foundation at all. Objects keep their key order so output is stable for golden tests.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// An ordered JSON object. Lookups are linear: lifesignal's objects have a handful of keys.
public struct JSONObject: Equatable, Sendable {
    public var pairs: [(key: String, value: JSON)]

    public init(_ pairs: [(key: String, value: JSON)] = []) { self.pairs = pairs }

    public subscript(key: String) -> JSON? {
        get { pairs.first(where: { $0.key == key })?.value }
        set {
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((key, newValue))
            }
        }
    }

    public var keys: [String] { pairs.map(\.key) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.pairs.count == rhs.pairs.count
            && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSON {
    /// `.string(s)` or `.null` when `s` is nil.
    public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
    /// `.int(n)` or `.null` when `n` is nil.
    public static func optional(_ value: Int64?) -> JSON { value.map(JSON.int) ?? .null }
}
