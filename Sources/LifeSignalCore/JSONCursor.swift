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
    public let path: String

    public init(_ value: JSON, path: String = "") {
        self.value = value
        self.path = path
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
        return JSONObjectCursor(object: object, path: path)
    }

    public func array() throws(JSONShapeError) -> [JSONCursor] {
        guard case .array(let elements) = value else { throw fail("expected an array, found \(kind)") }
        return elements.enumerated().map { JSONCursor($0.element, path: "\(path)[\($0.offset)]") }
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
    public let path: String

    private func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    public func required(_ key: String) throws(JSONShapeError) -> JSONCursor {
        guard let value = object[key] else {
            throw JSONShapeError(path: child(key), message: "missing")
        }
        return JSONCursor(value, path: child(key))
    }

    /// nil when the key is absent or null.
    public func optional(_ key: String) -> JSONCursor? {
        guard let value = object[key], value != .null else { return nil }
        return JSONCursor(value, path: child(key))
    }
}
