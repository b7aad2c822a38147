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

// MARK: - Parsing

/// Where and why a JSON text is not acceptable. `line` and `column` are 1-based; the column
/// counts bytes, which is what editors show for the ASCII that JSON syntax is made of.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var message: String
}

public enum JSONParser {
    /// Deepest nesting accepted; lifesignal's files nest four levels.
    public static let maximumDepth = 64

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSON {
        // The scanner reads through a buffer pointer: no bounds check per byte (every index
        // is checked against `count` by the scanner itself).
        let result: Result<JSON, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            do throws(JSONSyntaxError) {
                return .success(try scanner.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSON {
        try parse(Array(text.utf8))
    }

    /// Parses like `parse`, but hands each element of the array under `key` in the top-level
    /// object to `each` as soon as it is read, instead of keeping it: a file of thousands of
    /// entries never exists as one tree (which is several times the size of its text). The
    /// returned object has an empty array under `key`. The syntax is checked exactly as by
    /// `parse`, and `each` may have seen elements before an error later in the text.
    public static func parse(_ bytes: [UInt8], streaming key: String, each: (JSON) -> Void) throws(JSONSyntaxError)
        -> JSON
    {
        let result: Result<JSON, JSONSyntaxError> = withoutActuallyEscaping(each) { sink in
            bytes.withUnsafeBufferPointer { buffer in
                var scanner = Scanner(bytes: buffer)
                scanner.stream = (key, sink)
                do throws(JSONSyntaxError) {
                    return .success(try scanner.document())
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0
        /// The top-level key whose array elements go to a sink instead of the tree.
        var stream: (key: String, sink: (JSON) -> Void)?

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            let offset = min(offset ?? index, bytes.count)
            var line = 1
            var lineStart = 0
            var i = 0
            while i < offset {
                if bytes[i] == 0x0A {
                    line += 1
                    lineStart = i + 1
                }
                i += 1
            }
            return JSONSyntaxError(offset: offset, line: line, column: offset - lineStart + 1, message: message)
        }

        func describe(_ byte: UInt8) -> String {
            switch byte {
            case 0: return "a NUL byte"
            case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
            }
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func document() throws(JSONSyntaxError) -> JSON {
            if bytes.isEmpty { throw error("the file is empty") }
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw error("a byte-order mark is not allowed") }
            skipWhitespace()
            if index == bytes.count { throw error("the file holds only whitespace") }
            let value = try self.value()
            skipWhitespace()
            if index < bytes.count {
                throw error("unexpected \(describe(bytes[index])) after the end of the JSON value")
            }
            return value
        }

        mutating func value() throws(JSONSyntaxError) -> JSON {
            guard index < bytes.count else { throw error("unexpected end of file") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected \(describe(bytes[index])) where a value was expected")
            }
        }

        mutating func literal(_ word: String, _ result: JSON) throws(JSONSyntaxError) -> JSON {
            for expected in word.utf8 {
                guard index < bytes.count else { throw error("unexpected end of file in '\(word)'") }
                guard bytes[index] == expected else {
                    throw error("unexpected \(describe(bytes[index])) where a value was expected")
                }
                index += 1
            }
            return result
        }

        mutating func enter() throws(JSONSyntaxError) {
            depth += 1
            if depth > JSONParser.maximumDepth {
                throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
            }
        }

        mutating func object() throws(JSONSyntaxError) -> JSON {
            try enter()
            index += 1
            var object = JSONObject()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file inside an object") }
                guard bytes[index] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describe(bytes[index])) where a key in quotes was expected")
                }
                let keyOffset = index
                let key = try string()
                // A linear check: lifesignal's objects have a handful of keys, and a Set per
                // object cost more than the whole rest of the parse.
                if object.pairs.contains(where: { $0.key == key }) {
                    throw error("duplicate key \"\(key)\"", at: keyOffset)
                }
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file after a key") }
                guard bytes[index] == UInt8(ascii: ":") else {
                    throw error("unexpected \(describe(bytes[index])) where ':' was expected")
                }
                index += 1
                skipWhitespace()
                if depth == 1, let stream, key == stream.key, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                    object.pairs.append((key, try array(sink: stream.sink)))
                } else {
                    object.pairs.append((key, try value()))
                }
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file inside an object") }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    depth -= 1
                    return .object(object)
                default: throw error("unexpected \(describe(bytes[index])) where ',' or '}' was expected")
                }
            }
        }

        /// An array; with a `sink`, its elements go there and the array returned is empty.
        mutating func array(sink: ((JSON) -> Void)? = nil) throws(JSONSyntaxError) -> JSON {
            try enter()
            index += 1
            var elements: [JSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                let element = try value()
                if let sink { sink(element) } else { elements.append(element) }
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file inside an array") }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    depth -= 1
                    return .array(elements)
                default: throw error("unexpected \(describe(bytes[index])) where ',' or ']' was expected")
                }
            }
        }

        mutating func number() throws(JSONSyntaxError) -> JSON {
            let start = index
            var isInteger = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits", at: start) }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, isDigit(bytes[index]) { throw error("a number cannot start with 0", at: start) }
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("a digit must follow '.'") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, isDigit(bytes[index]) else {
                    throw error("a digit must follow the exponent")
                }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger {
                guard let value = Int64(text) else { throw error("the number \(text) is too large", at: start) }
                return .int(value)
            }
            guard let value = Double(text), value.isFinite else {
                throw error("the number \(text) is out of range", at: start)
            }
            return .double(value)
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func string() throws(JSONSyntaxError) -> String {
            let open = index
            index += 1
            // Fast path: plain ASCII with no escapes, the common case, needs no copy or
            // UTF-8 validation.
            var scan = index
            while scan < bytes.count {
                let byte = bytes[scan]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: bytes[index..<scan], as: UTF8.self)
                    index = scan + 1
                    return text
                }
                if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") { break }
                scan += 1
            }
            var buffer: [UInt8] = []
            var runStart = index
            while true {
                guard index < bytes.count else { throw error("unterminated string", at: open) }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    buffer.append(contentsOf: bytes[runStart..<index])
                    index += 1
                    break
                }
                if byte < 0x20 {
                    throw error("\(describe(byte)) (a control character) inside a string; write it as an escape")
                }
                if byte == UInt8(ascii: "\\") {
                    buffer.append(contentsOf: bytes[runStart..<index])
                    try escape(into: &buffer)
                    runStart = index
                    continue
                }
                index += 1
            }
            guard let text = String(validating: buffer, as: UTF8.self) else {
                throw error("the string is not valid UTF-8", at: open)
            }
            return text
        }

        mutating func escape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
            index += 1
            guard index < bytes.count else { throw error("unterminated escape") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("a lone surrogate \\u escape") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("a lone surrogate \\u escape")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw error("unknown escape \\\(describe(byte))", at: index - 2)
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw error("unterminated \\u escape") }
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("\(describe(byte)) in a \\u escape; four hex digits are needed")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }
    }
}

// MARK: - Writing

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
