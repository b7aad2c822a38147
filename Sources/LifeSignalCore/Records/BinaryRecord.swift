/// The binary coders of the record schema: a compact form of the same records, for what is
/// read on every run and never by people (the store's private cache).
///
/// Layout: a table of every distinct string (so each id, name and path is stored, and
/// allocated when read, once), then the fields in the order the description names them — no
/// keys. Integers are LEB128 varints, zig-zagged when signed; an optional is a presence byte
/// and the value; a list is its count and its records. Anything that does not check out — a
/// read past the end, a string index outside the table, an invalid id, a number outside the
/// limits the logs are held to — is `BinaryReader.Damaged`.

/// Writes records in the binary form.
public struct BinaryWriter: FieldCoder {
    public typealias Failure = CannotFail
    public static var reads: Bool { false }
    public static var sortsEntries: Bool { false }

    /// A string compared and hashed by its UTF-8 bytes: `String` equality treats canonically
    /// equivalent text (é and e + ◌́) as one, but a reader must get back exactly the bytes
    /// that were written (names, notes, channel paths).
    private struct Bytes: Hashable {
        let text: String
        static func == (a: Bytes, b: Bytes) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
        func hash(into hasher: inout Hasher) {
            let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
                hasher.combine(bytes: UnsafeRawBufferPointer($0))
            }
            if hashed == nil { Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
        }
    }

    private var body: [UInt8] = []
    private var index: [Bytes: Int] = [:]
    private var table: [String] = []

    public init() { body.reserveCapacity(8 << 10) }

    public static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    public mutating func uint(_ value: UInt64) { Self.appendVarint(value, to: &body) }
    public mutating func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    public mutating func count(_ value: Int) { uint(UInt64(value)) }
    public mutating func bool(_ value: Bool) { body.append(value ? 1 : 0) }

    /// A count, then each word as 8 little-endian bytes: a list of hashes read back in one
    /// pass, without a varint per entry.
    public mutating func words(_ values: [UInt64]) {
        count(values.count)
        body.reserveCapacity(body.count + values.count * 8)
        for value in values {
            for shift in stride(from: 0, to: 64, by: 8) { body.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
    }

    public mutating func string(_ value: String) {
        // One lookup: a new string takes the next place in the table.
        let next = table.count
        let i = Self.place(&index[Bytes(text: value), default: next])
        if i == next { table.append(value) }
        count(i)
    }

    private static func place(_ value: inout Int) -> Int { value }

    /// `record` — its string table, then its fields — as a field of its own, preceded by its
    /// size: a reader can step over it, or decode it alone (`BinaryReader.nested`).
    public mutating func nested(_ record: BinaryWriter) {
        count(record.writtenSize)
        record.write(to: &body)
    }

    /// A record that `BinaryReader.nested` returned, as it was read.
    public mutating func nested(copying record: ArraySlice<UInt8>) {
        count(record.count)
        body += record
    }

    /// How many bytes `write(to:)` appends.
    public var writtenSize: Int {
        table.reduce(Self.varintSize(UInt64(table.count)) + body.count) {
            $0 + Self.varintSize(UInt64($1.utf8.count)) + $1.utf8.count
        }
    }

    public static func varintSize(_ value: UInt64) -> Int {
        var (size, rest) = (1, value)
        while rest >= 0x80 { (size, rest) = (size + 1, rest >> 7) }
        return size
    }

    /// What `write(to:)` appends, as two parts: the string table, and the fields as held.
    public var parts: [[UInt8]] {
        var strings: [UInt8] = []
        strings.reserveCapacity(writtenSize - body.count)
        appendTable(to: &strings)
        return [strings, body]
    }

    /// The string table, then the fields, appended to `file`.
    public func write(to file: inout [UInt8]) {
        file.reserveCapacity(file.count + writtenSize)
        appendTable(to: &file)
        file.append(contentsOf: body)
    }

    private func appendTable(to bytes: inout [UInt8]) {
        Self.appendVarint(UInt64(table.count), to: &bytes)
        for text in table {
            Self.appendVarint(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }
    }

    // MARK: FieldCoder

    public mutating func int(_ key: String, _ value: inout Int64, in range: ClosedRange<Int64>) { int(value) }

    public mutating func optionalInt(
        _ key: String, _ value: inout Int64?, in range: ClosedRange<Int64>, _ when: Optionality
    ) {
        if when != .required { bool(value != nil) }
        if let value { int(value) }
    }

    public mutating func bool(_ key: String, _ value: inout Bool) { bool(value) }
    public mutating func string(_ key: String, _ value: inout String) { string(value) }

    public mutating func optionalString(_ key: String, _ value: inout String?, _ when: Optionality) {
        if when != .required { bool(value != nil) }
        if let value { string(value) }
    }

    public mutating func strings(_ key: String, _ value: inout [String]) {
        count(value.count)
        for text in value { string(text) }
    }

    public mutating func id(_ key: String, _ value: inout String) { string(value) }

    public mutating func stamp(_ value: inout Stamp) {
        int(value.clock)
        int(value.at.seconds)
        string(value.device)
        int(value.seq)
    }

    public mutating func record<T>(
        _ key: String, _ value: inout T?, _ when: Optionality, seed: @autoclosure () -> T,
        _ fields: (inout BinaryWriter, inout T) throws(CannotFail) -> Void
    ) throws(CannotFail) {
        if when != .required { bool(value != nil) }
        if var record = value { try fields(&self, &record) }
    }

    public mutating func list(
        _ key: String, count: Int, omitEmpty: Bool, _ element: (inout BinaryWriter, Int, Int) throws(CannotFail) -> Void
    ) throws(CannotFail) {
        self.count(count)
        for index in 0..<count { try element(&self, index, count) }
    }
}

/// Reads records in the binary form; every read checks its bounds.
public struct BinaryReader: FieldCoder {
    public typealias Failure = Damaged
    public static var reads: Bool { true }
    public static var sortsEntries: Bool { false }

    public struct Damaged: Error {
        public init() {}
    }

    private let bytes: [UInt8]
    private var position: Int
    private var table: [String] = []
    /// Whether each table entry is a valid id, once asked: 0 not yet, 1 valid, 2 not.
    private var idChecked: [UInt8] = []

    /// Reads the string table that starts at `start`.
    public init(_ bytes: [UInt8], from start: Int) throws(Damaged) {
        guard start <= bytes.count else { throw Damaged() }
        self.bytes = bytes
        position = start
        let n = try count()
        table.reserveCapacity(n)
        for _ in 0..<n {
            let length = try count()
            guard length <= bytes.count - position else { throw Damaged() }
            table.append(String(decoding: bytes[position..<(position + length)], as: UTF8.self))
            position += length
        }
        idChecked = Array(repeating: 0, count: n)
    }

    public var atEnd: Bool { position == bytes.count }

    /// Where the next field starts in the bytes.
    public var offset: Int { position }

    public mutating func uint() throws(Damaged) -> UInt64 { try Self.varint(bytes, at: &position) }

    /// The LEB128 varint at `position` in `bytes`, moving past it.
    public static func varint(_ bytes: [UInt8], at position: inout Int) throws(Damaged) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count, shift < 64 {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        throw Damaged()
    }

    public mutating func int() throws(Damaged) -> Int64 {
        let u = try uint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// A count of things that follow: never more than the bytes left, each taking at least one.
    public mutating func count() throws(Damaged) -> Int {
        let u = try uint()
        guard u <= UInt64(bytes.count - position) else { throw Damaged() }
        return Int(u)
    }

    /// A signed number that must lie in `range`: the cache is held to the limits the logs are
    /// held to, so a crafted one cannot carry a value that traps later (an overflowing sum).
    public mutating func int(in range: ClosedRange<Int64>) throws(Damaged) -> Int64 {
        let value = try int()
        guard range.contains(value) else { throw Damaged() }
        return value
    }

    public mutating func words() throws(Damaged) -> [UInt64] {
        let n = try count()
        guard n <= (bytes.count - position) / 8 else { throw Damaged() }
        let start = position
        position += n * 8
        return bytes.withUnsafeBytes { raw in
            (0..<n).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + $0 * 8, as: UInt64.self)) }
        }
    }

    public mutating func bool() throws(Damaged) -> Bool {
        guard position < bytes.count, bytes[position] <= 1 else { throw Damaged() }
        position += 1
        return bytes[position - 1] == 1
    }

    private mutating func tableIndex() throws(Damaged) -> Int {
        let u = try uint()
        guard u < UInt64(table.count) else { throw Damaged() }
        return Int(u)
    }

    public mutating func string() throws(Damaged) -> String { table[try tableIndex()] }

    /// A member, device or other id: checked like ids from the logs, since ids end up in paths.
    public mutating func id() throws(Damaged) -> String {
        let i = try tableIndex()
        if idChecked[i] == 0 { idChecked[i] = Identifier.isValid(table[i]) ? 1 : 2 }
        guard idChecked[i] == 1 else { throw Damaged() }
        return table[i]
    }

    /// A record written by `BinaryWriter.nested`, as its bytes (`BinaryReader(Array(…), from: 0)`
    /// decodes it).
    public mutating func nested() throws(Damaged) -> ArraySlice<UInt8> {
        let length = try count()
        guard length <= bytes.count - position else { throw Damaged() }
        defer { position += length }
        return bytes[position..<(position + length)]
    }

    // MARK: FieldCoder

    private mutating func present(_ when: Optionality) throws(Damaged) -> Bool {
        when == .required ? true : try bool()
    }

    public mutating func int(_ key: String, _ value: inout Int64, in range: ClosedRange<Int64>) throws(Damaged) {
        value = try int(in: range)
    }

    public mutating func optionalInt(
        _ key: String, _ value: inout Int64?, in range: ClosedRange<Int64>, _ when: Optionality
    ) throws(Damaged) {
        value = try present(when) ? try int(in: range) : nil
    }

    public mutating func bool(_ key: String, _ value: inout Bool) throws(Damaged) { value = try bool() }
    public mutating func string(_ key: String, _ value: inout String) throws(Damaged) { value = try string() }

    public mutating func optionalString(_ key: String, _ value: inout String?, _ when: Optionality) throws(Damaged) {
        value = try present(when) ? try string() : nil
    }

    public mutating func strings(_ key: String, _ value: inout [String]) throws(Damaged) {
        let n = try count()
        var values: [String] = []
        values.reserveCapacity(n)
        for _ in 0..<n { values.append(try string()) }
        value = values
    }

    public mutating func id(_ key: String, _ value: inout String) throws(Damaged) { value = try id() }

    public mutating func stamp(_ value: inout Stamp) throws(Damaged) {
        value.clock = try int(in: 0...Limits.counter)
        value.at = Timestamp(seconds: try int(in: Timestamp.earliest...Timestamp.latest))
        value.device = try id()
        value.seq = try int(in: 1...Limits.counter)
    }

    public mutating func record<T>(
        _ key: String, _ value: inout T?, _ when: Optionality, seed: @autoclosure () -> T,
        _ fields: (inout BinaryReader, inout T) throws(Damaged) -> Void
    ) throws(Damaged) {
        guard try present(when) else {
            value = nil
            return
        }
        var record = seed()
        try fields(&self, &record)
        value = record
    }

    public mutating func list(
        _ key: String, count: Int, omitEmpty: Bool, _ element: (inout BinaryReader, Int, Int) throws(Damaged) -> Void
    ) throws(Damaged) {
        let n = try self.count()
        for index in 0..<n { try element(&self, index, n) }
    }

    public mutating func check(
        _ condition: @autoclosure () -> Bool, _ key: String, _ problem: @autoclosure () -> String
    )
        throws(Damaged)
    {
        guard condition() else { throw Damaged() }
    }
}
