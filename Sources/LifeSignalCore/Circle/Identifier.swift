/// Random identifiers for members and devices: RFC 4122 version-4 UUIDs in lower case.
public enum Identifier {
    public static func make<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { b -> String in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-"
            + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// True for the lower-case 8-4-4-4-12 hex form; ids from files are checked with this
    /// before they are used in a path.
    public static func isValid(_ text: String) -> Bool {
        var i = 0
        for byte in text.utf8 {
            switch i {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            case 36:
                return false
            default:
                guard (48...57).contains(byte) || (97...102).contains(byte) else { return false }
            }
            i += 1
        }
        return i == 36
    }
}
