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
///
/// The path is a chain of parent nodes, one per object or array entered, turned into text only
/// when an error is reported: building it for every field read cost more than reading them.
public struct JSONCursor: Sendable {
    public let value: JSON
    let parent: PathNode?
    let step: Step

    enum Step: Sendable {
        case root(String)
        case key(String)
        case index(Int)
    }

    final class PathNode: Sendable {
        let parent: PathNode?
        let step: Step

        init(parent: PathNode?, step: Step) {
            self.parent = parent
            self.step = step
        }
    }

    public init(_ value: JSON, path: String = "") {
        self.value = value
        parent = nil
        step = .root(path)
    }

    init(_ value: JSON, parent: PathNode?, step: Step) {
        self.value = value
        self.parent = parent
        self.step = step
    }

    var node: PathNode { PathNode(parent: parent, step: step) }

    public var path: String {
        var steps = [step]
        var current = parent
        while let node = current {
            steps.append(node.step)
            current = node.parent
        }
        var text = ""
        for step in steps.reversed() {
            switch step {
            case .root(let root): text = root
            case .key(let key): text = text.isEmpty ? key : text + "." + key
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
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
        return JSONObjectCursor(object: object, node: node)
    }

    public func array() throws(JSONShapeError) -> [JSONCursor] {
        guard case .array(let elements) = value else { throw fail("expected an array, found \(kind)") }
        let node = self.node
        return elements.enumerated().map { JSONCursor($0.element, parent: node, step: .index($0.offset)) }
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
    let node: JSONCursor.PathNode

    public var path: String { JSONCursor(.null, parent: node.parent, step: node.step).path }

    public func required(_ key: String) throws(JSONShapeError) -> JSONCursor {
        guard let value = object[key] else {
            throw JSONCursor(.null, parent: node, step: .key(key)).fail("missing")
        }
        return JSONCursor(value, parent: node, step: .key(key))
    }

    /// nil when the key is absent or null.
    public func optional(_ key: String) -> JSONCursor? {
        guard let value = object[key], value != .null else { return nil }
        return JSONCursor(value, parent: node, step: .key(key))
    }
}
