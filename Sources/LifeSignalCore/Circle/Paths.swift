/// Path strings, joined and split without Foundation.
public enum Paths {
    public static func join(_ parts: String...) -> String {
        var result = ""
        for part in parts where !part.isEmpty {
            if result.isEmpty || result.hasSuffix("/") {
                result += part
            } else {
                result += "/" + part
            }
        }
        return result
    }

    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    public static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// Removes `.` components and repeated or trailing slashes; `..` is left alone (it may
    /// cross a symlink, so it is the file system's to resolve).
    public static func normalize(_ path: String) -> String {
        // Most paths are already clean; splitting and joining them showed up in start-up.
        if !path.includes("//") && !path.includes("/./") && !path.hasSuffix("/") && !path.hasSuffix("/.")
            && !path.hasPrefix("./") && path != "."
        {
            return path.isEmpty ? "." : path
        }
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        let body = parts.joined(separator: "/")
        return absolute ? "/" + body : (body.isEmpty ? "." : body)
    }
}
