/// Where and why a JSON text is not acceptable. `line` and `column` are 1-based; the column
/// counts bytes, which is what editors show for the ASCII that JSON syntax is made of.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var message: String
    /// The text is valid JSON, but beyond what lifesignal reads (too deep, a number out of
    /// range): not damage, and said differently.
    public var unsupported = false
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
                var tooDeep = error("nesting deeper than \(JSONParser.maximumDepth) levels")
                tooDeep.unsupported = true
                throw tooDeep
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
                guard let value = Int64(text) else {
                    var large = error("the integer \(text) is beyond 2^63", at: start)
                    large.unsupported = true
                    throw large
                }
                return .int(value)
            }
            guard let value = Double(text), value.isFinite else {
                var range = error("the number \(text) is out of range", at: start)
                range.unsupported = true
                throw range
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
