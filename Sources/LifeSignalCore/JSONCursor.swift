/// A value that does not have the shape a file or input promised, and where: `path` is a
/// JSON path such as `events[3].at`.
public struct JSONShapeError: Error, Equatable, Sendable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}

/// Reads typed values out of a parsed `JSON`, remembering the path so that a wrong type is
/// reported as "`events[3].at`: expected a string, found a number".
public struct JSONCursor: Sendable {
    public let value: JSON
    /// The parent's path and this value's key or index; joined only when an error needs the
    /// path (joining them for every field read cost more than reading the fields).
    let parentPath: String
    let step: Step

    enum Step: Sendable {
        case root(String)
        case key(String)
        case index(Int)
    }

    public init(_ value: JSON, path: String = "") {
        self.value = value
        parentPath = ""
        step = .root(path)
    }

    init(_ value: JSON, parent: String, step: Step) {
        self.value = value
        parentPath = parent
        self.step = step
    }

    public var path: String {
        switch step {
        case .root(let path): return path
        case .key(let key): return parentPath.isEmpty ? key : "\(parentPath).\(key)"
        case .index(let i): return "\(parentPath)[\(i)]"
        }
    }

    public func fail(_ message: String) -> JSONShapeError {
        JSONShapeError(path: path.isEmpty ? "(top level)" : path, message: message)
    }

    private var kind: String {
        switch value {
        case .null: return "null"
        case .bool: return "true/false"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public func object() throws(JSONShapeError) -> JSONObjectCursor {
        guard case .object(let object) = value else { throw fail("expected an object, found \(kind)") }
        return JSONObjectCursor(object: object, cursor: self)
    }

    public func array() throws(JSONShapeError) -> [JSONCursor] {
        guard case .array(let elements) = value else { throw fail("expected an array, found \(kind)") }
        let path = self.path
        return elements.enumerated().map { JSONCursor($0.element, parent: path, step: .index($0.offset)) }
    }

    public func string() throws(JSONShapeError) -> String {
        guard case .string(let text) = value else { throw fail("expected a string, found \(kind)") }
        return text
    }

    public func int() throws(JSONShapeError) -> Int64 {
        guard case .int(let number) = value else { throw fail("expected a whole number, found \(kind)") }
        return number
    }

    public func bool() throws(JSONShapeError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("expected true or false, found \(kind)") }
        return flag
    }

    public func timestamp() throws(JSONShapeError) -> Timestamp {
        let text = try string()
        guard let time = Timestamp(rfc3339: text) else {
            throw fail("expected an RFC 3339 time such as 2026-01-31T09:00:00Z, found \"\(text)\"")
        }
        return time
    }
}

/// The object form of `JSONCursor`.
public struct JSONObjectCursor: Sendable {
    public let object: JSONObject
    let cursor: JSONCursor

    public var path: String { cursor.path }

    public func required(_ key: String) throws(JSONShapeError) -> JSONCursor {
        guard let value = object[key] else {
            throw JSONCursor(.null, parent: path, step: .key(key)).fail("missing")
        }
        return JSONCursor(value, parent: path, step: .key(key))
    }

    /// nil when the key is absent or null.
    public func optional(_ key: String) -> JSONCursor? {
        guard let value = object[key], value != .null else { return nil }
        return JSONCursor(value, parent: path, step: .key(key))
    }
}
