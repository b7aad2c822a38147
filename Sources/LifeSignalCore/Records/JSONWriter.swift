extension JSON {
    /// The value as text: `pretty` indents by two spaces, one key per line (for people and
    /// `jq`); otherwise compact. Key order is the object's own order.
    public func serialized(pretty: Bool = true) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The same text as UTF-8 bytes, written straight into a buffer (building a String piece
    /// by piece cost most of a check-in).
    public func serializedBytes(pretty: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// The same text, appended to `out` (for writers that put many values in one buffer).
    public func serialize(into out: inout [UInt8], pretty: Bool = true) {
        write(to: &out, pretty: pretty, indent: 0)
    }

    fileprivate static func newline(_ out: inout [UInt8], indent: Int) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent))
    }

    fileprivate func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .double(let value): out.append(contentsOf: String(value).utf8)
        case .string(let value): JSON.writeString(value, to: &out)
        case .array(let elements):
            if elements.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { JSON.newline(&out, indent: indent + 2) }
                element.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            if pretty { JSON.newline(&out, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.pairs.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, pair) in object.pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { JSON.newline(&out, indent: indent + 2) }
                JSON.writeString(pair.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                pair.value.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            if pretty { JSON.newline(&out, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: their UTF-8 is copied whole.
        var text = value
        let plain = text.withUTF8 { bytes in
            guard
                !bytes.contains(where: {
                    $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F
                })
            else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20, 0x7F:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Writes a large object field by field, and its arrays element by element, so that a file of
/// thousands of entries never exists as one JSON tree in memory (a tree is several times the
/// size of its text). The bytes are exactly those `serializedBytes(pretty: true)` gives for the
/// whole object.
public struct JSONObjectWriter {
    private var out: [UInt8] = []
    private var fields = 0

    public init(capacity: Int) {
        out.reserveCapacity(capacity)
        out.append(UInt8(ascii: "{"))
    }

    public mutating func field(_ key: String, _ value: JSON) {
        open(key)
        value.write(to: &out, pretty: true, indent: 2)
    }

    /// A field whose value is an array, each element made only when it is written.
    public mutating func array<Elements: Sequence>(
        _ key: String, _ elements: Elements, _ element: (Elements.Element) -> JSON
    ) {
        open(key)
        var count = 0
        for item in elements {
            out.append(UInt8(ascii: count == 0 ? "[" : ","))
            JSON.newline(&out, indent: 4)
            element(item).write(to: &out, pretty: true, indent: 4)
            count += 1
        }
        if count == 0 {
            out.append(contentsOf: "[]".utf8)
        } else {
            JSON.newline(&out, indent: 2)
            out.append(UInt8(ascii: "]"))
        }
    }

    /// The finished text.
    public consuming func bytes() -> [UInt8] {
        if fields == 0 {
            out.append(UInt8(ascii: "}"))
        } else {
            JSON.newline(&out, indent: 0)
            out.append(UInt8(ascii: "}"))
        }
        return out
    }

    private mutating func open(_ key: String) {
        if fields > 0 { out.append(UInt8(ascii: ",")) }
        fields += 1
        JSON.newline(&out, indent: 2)
        JSON.writeString(key, to: &out)
        out.append(contentsOf: ": ".utf8)
    }
}
