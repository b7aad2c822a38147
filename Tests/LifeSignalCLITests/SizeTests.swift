import Foundation
import Testing

/// Small pieces: no source file over 400 lines and no function (or initializer) over 60, so a
/// reader can hold any one piece in their head. Measured from the declaration's first line to
/// its closing brace, skipping braces inside strings and comments.
@Suite struct SizeTests {
    static let fileLimit = 400
    static let functionLimit = 60

    static func sources() -> [URL] {
        let root = Binary.packageRoot.appendingPathComponent("Sources")
        return
            (FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? []).filter { $0.pathExtension == "swift" }
    }

    @Test func noFileIsOverTheLimit() throws {
        for file in Self.sources() {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count <= Self.fileLimit + 1, "\(file.lastPathComponent) has \(lines.count) lines")
        }
    }

    @Test func noFunctionIsOverTheLimit() throws {
        for file in Self.sources() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for function in Self.functions(in: text) where function.lines > Self.functionLimit {
                Issue.record("\(file.lastPathComponent):\(function.line) \(function.name) has \(function.lines) lines")
            }
        }
    }

    /// Folders a reader can take in: none holds more than 25 sources, Core is grouped by domain
    /// in at least five folders, and no file name is used twice (a name says what is in it).
    @Test func foldersAreSmallAndNamesAreTheirOwn() {
        let root = Binary.packageRoot.appendingPathComponent("Sources").path
        let files = Self.sources().map { String($0.path.dropFirst(root.count + 1)) }
        let folders = Dictionary(grouping: files) { $0.split(separator: "/").dropLast().joined(separator: "/") }
        for (folder, inside) in folders {
            #expect(inside.count <= 25, "Sources/\(folder) holds \(inside.count) files")
        }
        let core = Set(files.filter { $0.hasPrefix("LifeSignalCore/") }.map { $0.split(separator: "/")[1] })
            .filter { !$0.hasSuffix(".swift") }
        #expect(core.count >= 5, "Core's folders: \(core.sorted())")
        let names = Dictionary(grouping: files) { $0.split(separator: "/").last.map(String.init) ?? $0 }
        for (name, paths) in names where paths.count > 1 {
            Issue.record("\(name) is the name of \(paths.count) files: \(paths.sorted())")
        }
    }

    /// The measuring works: a long function is found, a brace in a string is not counted.
    @Test func theMeasureSeesThroughStringsAndComments() {
        let body = (0..<70).map { "    let x\($0) = \"}\" // }" }.joined(separator: "\n")
        let text =
            "func long() {\n\(body)\n}\nfunc short() {\n    let s = \"\"\"\n    }}} \\\n    {\n    \"\"\"\n}\n"
        let found = Self.functions(in: text)
        #expect(found.map(\.name) == ["func long(", "func short("])
        #expect(found.map(\.lines) == [72, 6])
    }

    struct Function {
        var name: String
        var line: Int
        var lines: Int
    }

    /// Every `func` and `init` with a body, with its length in lines.
    static func functions(in text: String) -> [Function] {
        let depths = braceDepths(Array(text.utf8))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [Function] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("//"), let range = declaration(in: trimmed) else { continue }
            // The body opens on this line or within the next few (long signatures wrap).
            guard let open = (index..<min(index + 8, lines.count)).first(where: { depths.opens[$0] > 0 }) else {
                continue
            }
            let start = depths.before[open] + 1
            guard let close = (open..<lines.count).first(where: { depths.after[$0] < start }) else { continue }
            found.append(Function(name: String(trimmed[range]), line: index + 1, lines: close - index + 1))
        }
        return found
    }

    static func declaration(in line: String) -> Range<String.Index>? {
        for keyword in ["func ", "init(", "init?("] {
            guard let range = line.range(of: keyword) else { continue }
            let before = line[..<range.lowerBound]
            let modifiers = before.split(separator: " ").allSatisfy {
                [
                    "public", "private", "fileprivate", "internal", "static", "mutating", "override",
                    "@inline(__always)",
                    "nonisolated", "convenience", "required", "@discardableResult", "consuming", "borrowing",
                ].contains($0)
            }
            guard modifiers else { continue }
            let end = line[range.upperBound...].firstIndex(where: { $0 == "(" || $0 == "<" || $0 == " " }).map {
                line.index(after: $0)
            }
            return range.lowerBound..<(end ?? line.endIndex)
        }
        return nil
    }

    /// For each line: brace depth before it, after it, and how many braces it opens, outside
    /// strings (plain, multi-line and raw) and comments.
    static func braceDepths(_ bytes: [UInt8]) -> (before: [Int], after: [Int], opens: [Int]) {
        var before = [0]
        var after: [Int] = []
        var opens = [0]
        var depth = 0
        var i = 0
        var inString: (multiline: Bool, hashes: Int)? = nil
        var inBlockComment = false
        func at(_ offset: Int, _ text: String) -> Bool {
            var position = i + offset
            for byte in text.utf8 {
                guard position < bytes.count, bytes[position] == byte else { return false }
                position += 1
            }
            return true
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\n") {
                after.append(depth)
                before.append(depth)
                opens.append(0)
                i += 1
                continue
            }
            if inBlockComment {
                if at(0, "*/") {
                    inBlockComment = false
                    i += 2
                } else {
                    i += 1
                }
                continue
            }
            if let string = inString {
                let hashes = String(repeating: "#", count: string.hashes)
                if string.hashes == 0, byte == UInt8(ascii: "\\") {
                    // (A backslash that ends a line of a multi-line string joins the lines; the
                    // line is still counted.)
                    i += at(1, "\n") ? 1 : 2
                    continue
                }
                if string.multiline, at(0, "\"\"\"" + hashes) {
                    inString = nil
                    i += 3 + string.hashes
                    continue
                }
                if !string.multiline, at(0, "\"" + hashes) {
                    inString = nil
                    i += 1 + string.hashes
                    continue
                }
                i += 1
                continue
            }
            if at(0, "//") {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            }
            if at(0, "/*") {
                inBlockComment = true
                i += 2
                continue
            }
            var hashes = 0
            while at(hashes, "#") { hashes += 1 }
            if at(hashes, "\"\"\"") {
                inString = (true, hashes)
                i += hashes + 3
                continue
            }
            if at(hashes, "\"") {
                inString = (false, hashes)
                i += hashes + 1
                continue
            }
            if byte == UInt8(ascii: "{") {
                depth += 1
                opens[opens.count - 1] += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
            }
            i += 1
        }
        after.append(depth)
        return (before, after, opens)
    }
}
