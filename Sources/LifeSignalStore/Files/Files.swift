import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every file the store reads and writes shares: parsing with the version check, keeping
/// text a newer lifesignal wrote exactly as it was, and crash-safe replacement.
enum Files {
    /// Parses a file's JSON and refuses one written by a newer schema before its shape is
    /// judged (a newer file is not damaged, only not ours to read).
    ///
    /// With `streaming`, the elements of that top-level array go to `each` as they are read
    /// (see `JSONParser.parse(_:streaming:each:)`).
    static func parse(
        _ bytes: [UInt8], path: String, backup: String?, supported: Int64,
        streaming: (key: String, each: (JSON) -> Void)? = nil
    ) throws(StoreError) -> JSON {
        if !bytes.isEmpty, bytes.allSatisfy({ $0 == 0 }) {
            throw .damaged(
                path: path, problem: "it holds only NUL bytes (typical after a crash during a write)", backup: backup)
        }
        let root: JSON
        do {
            if let streaming {
                root = try JSONParser.parse(bytes, streaming: streaming.key, each: streaming.each)
            } else {
                root = try JSONParser.parse(bytes)
            }
        } catch {
            let what = error.unsupported ? "valid JSON, but not what lifesignal reads: " : ""
            throw .damaged(
                path: path, problem: "line \(error.line), column \(error.column): \(what)\(error.message)",
                backup: backup)
        }
        if case .object(let o) = root, case .int(let version)? = o["schemaVersion"], version > supported {
            throw .newerSchema(path: path, found: version, supported: supported)
        }
        return root
    }

    static func checkVersion(_ o: JSONObjectCursor) throws(JSONShapeError) {
        let cursor = try o.required("schemaVersion")
        guard try cursor.int() >= 1 else { throw cursor.fail("must be 1 or more") }
    }

    /// Parses a file whose JSON is one object and gives that object, its version checked, to
    /// `read`; a value of the wrong shape makes the file damaged, and the problem says where.
    static func object<T>(
        _ bytes: [UInt8], path: String, backup: String?, supported: Int64,
        streaming: (key: String, each: (JSON) -> Void)? = nil, _ read: (JSONObjectCursor) throws(JSONShapeError) -> T
    ) throws(StoreError) -> T {
        let root = try parse(bytes, path: path, backup: backup, supported: supported, streaming: streaming)
        do throws(JSONShapeError) {
            let o = try JSONCursor(root).object()
            try checkVersion(o)
            return try read(o)
        } catch {
            throw .damaged(path: path, problem: "at \(error.path): \(error.message)", backup: backup)
        }
    }

    /// The events of a log or segment (the array under the top-level `events`). An event of a
    /// type this version does not know keeps its text, cut from `bytes`, the file it was read from.
    static func events(_ cursor: JSONCursor, in bytes: [UInt8]) throws(JSONShapeError) -> [Event] {
        var spans: [(key: String?, span: Range<Int>)]?
        var events: [Event] = []
        let elements = try cursor.array()
        events.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            events.append(
                try JSONRecordReader.event(element) {
                    if spans == nil { spans = JSONParser.spans(under: "events", in: bytes) ?? [] }
                    guard let spans, index < spans.count else { return element.value.serializedBytes(pretty: false) }
                    return Array(bytes[spans[index].span])
                })
        }
        return events
    }

    /// The fields `keys` of the object under the top-level `key`, as their text was in `bytes`.
    static func rawFields(_ keys: [String], under key: String, in bytes: [UInt8], parsed: JSONObjectCursor)
        -> [RawJSONField]
    {
        let spans = JSONParser.spans(under: key, in: bytes) ?? []
        return keys.map { name in
            if let span = spans.first(where: { $0.key == name })?.span {
                return RawJSONField(key: name, text: Array(bytes[span]))
            }
            // Not found again in the text it was parsed from: cannot happen; its parsed value
            // is the next best thing.
            guard case .object(let state)? = parsed.object[key], let value = state[name] else {
                return RawJSONField(key: name, text: Array("null".utf8))
            }
            return RawJSONField(key: name, text: value.serializedBytes(pretty: false))
        }
    }

    /// A file that must exist (an archive segment): its bytes, or the store's error.
    static func read(_ path: String) throws(StoreError) -> [UInt8] {
        do {
            guard case .contents(let bytes) = try Posix.read(path) else {
                throw StoreError.damaged(
                    path: path, problem: "the segment vanished while it was being read", backup: nil)
            }
            return bytes
        } catch let error as SystemError {
            throw error.asReadError(backup: nil)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .io(path: path, operation: "read", reason: "\(error)")
        }
    }
}

extension Store {
    static func write(_ bytes: [UInt8], to path: String, backup: Bool, mode: mode_t = 0o600) throws(StoreError) {
        do {
            try Posix.replace(path, with: bytes, backup: backup ? path + ".bak" : nil, mode: mode)
        } catch {
            if error.operation == "create" {
                throw error.asCreateError
            }
            if error.operation == "fsync after rename" {
                throw StoreError.notDurable(path: path, reason: error.reason)
            }
            throw error.asIOError
        }
    }

    /// Temporary files exist only while a writer holds the lock, so any found after taking
    /// it were left by a writer that died (kill -9, power loss) and can go.
    /// A copy in the circle read and decoded, read again (twice at most) when it does not
    /// decode and its name no longer holds the version that was read: a writer on this machine
    /// replaced it, or wrote over its spare, while it was read (see `Posix.replaceCopy`). Only a
    /// copy that still does not decode once it stands still is damage. Nil when it is missing.
    static func readStill<T>(
        _ path: String, key: inout Posix.FileKey,
        reading read: (inout Posix.FileKey) throws(StoreError) -> Posix.ReadResult,
        decode: ([UInt8]) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        var attempt = 0
        while true {
            attempt += 1
            guard case .contents(let bytes) = try read(&key) else { return nil }
            do {
                return try decode(bytes)
            } catch {
                guard attempt < 3, Posix.key(path) != key else { throw error }
            }
        }
    }

    static func sweepTemporaryFiles(in directory: String) {
        for name in Posix.hiddenNames(directory) where name.includes(".tmp.") {
            Posix.remove(Paths.join(directory, name))
        }
    }
}
