/// Where values lie in a JSON text: so that what a newer lifesignal wrote, and this version
/// does not understand, can be kept exactly as it was written.

extension JSONParser {
    /// Where the parts of the array or object under `key` in the top-level object lie in
    /// `bytes`: each element of an array (with no key), or each member's value with its key.
    /// It serves to keep text this version does not understand exactly as it was written, so
    /// it is meant for text that parsed; nil when there is no such array or object.
    public static func spans(under key: String, in bytes: [UInt8]) -> [(key: String?, span: Range<Int>)]? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            do throws(JSONSyntaxError) {
                return try scanner.spans(under: key)
            } catch {
                return nil
            }
        }
    }
}

extension JSONParser.Scanner {
    /// Skips whitespace, then steps over `byte` if it comes next.
    mutating func skip(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func key() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
        let key = try string()
        guard skip(UInt8(ascii: ":")) else { throw error("expected ':'") }
        skipWhitespace()
        return key
    }

    mutating func spans(under wanted: String) throws(JSONSyntaxError) -> [(key: String?, span: Range<Int>)]? {
        guard skip(UInt8(ascii: "{")), !skip(UInt8(ascii: "}")) else { return nil }
        repeat {
            if try key() == wanted { return try parts() }
            _ = try value()
        } while skip(UInt8(ascii: ","))
        return nil
    }

    /// The parts of the array or object that starts here.
    mutating func parts() throws(JSONSyntaxError) -> [(key: String?, span: Range<Int>)]? {
        let isObject = skip(UInt8(ascii: "{"))
        guard isObject || skip(UInt8(ascii: "[")) else { return nil }
        var found: [(key: String?, span: Range<Int>)] = []
        if skip(UInt8(ascii: isObject ? "}" : "]")) { return found }
        repeat {
            let key = isObject ? try self.key() : nil
            skipWhitespace()
            let start = index
            _ = try value()
            found.append((key, start..<index))
        } while skip(UInt8(ascii: ","))
        return found
    }
}
