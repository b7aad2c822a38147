import Testing

@testable import LifeSignalCore

@Suite struct JSONTests {
    @Test func parsesAndWritesBackStably() throws {
        let text = #"{"b":1,"a":[true,false,null,-2,1.5,"x\"y\\\n\u00e9\ud83d\ude00"],"c":{}}"#
        let value = try JSONParser.parse(text)
        #expect(value.serialized(pretty: false) == #"{"b":1,"a":[true,false,null,-2,1.5,"x\"y\\\né😀"],"c":{}}"#)
        #expect(try JSONParser.parse(value.serialized(pretty: true)) == value)
    }

    /// The streaming object writer gives exactly the bytes of the whole tree, serialized.
    @Test func objectWriterWritesWhatTheTreeWould() throws {
        let items: [JSON] = [
            [
                "id": "a\"b\\c\n\u{1}", "n": -3, "ok": true, "none": nil,
                "nested": ["x": [1, 2, ["deep": []]], "empty": [:]],
            ],
            [], [:], "plain", .double(1.5),
        ]
        var writer = JSONObjectWriter(capacity: 16)
        writer.field("schemaVersion", 1)
        writer.array("items", items) { $0 }
        writer.array("none", [Int]()) { .int(Int64($0)) }
        writer.array("names", ["é", "😀"], JSON.string)
        writer.field("tail", ["k": "v"])
        let whole: JSON = [
            "schemaVersion": 1, "items": .array(items), "none": [], "names": ["é", "😀"], "tail": ["k": "v"],
        ]
        #expect(writer.bytes() == whole.serializedBytes(pretty: true))
        #expect(JSONObjectWriter(capacity: 0).bytes() == JSON.object(JSONObject()).serializedBytes(pretty: true))
    }

    /// Streaming hands over the elements of one top-level array and keeps everything else;
    /// the syntax rules are the same.
    @Test func streamingHandsOverOneArraysElements() throws {
        let text = #"{"a": {"items": [9]}, "items": [1, {"x": [2]}, "s"], "b": [3]}"#
        var seen: [JSON] = []
        let root = try JSONParser.parse(Array(text.utf8), streaming: "items") { seen.append($0) }
        #expect(seen == [1, ["x": [2]], "s"])
        #expect(root == ["a": ["items": [9]], "items": [], "b": [3]])
        for bad in [
            #"{"items": [1, 2,]}"#, #"{"items": [1], "items": [2]}"#, #"{"items": [1 2]}"#, "{\"items\": [\"\u{1}\"]}",
        ] {
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(bad.utf8), streaming: "items") { _ in } }
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bad) }
        }
        // Not an array: kept in the tree as it is.
        #expect(
            try JSONParser.parse(Array(#"{"items": {"k": 1}}"#.utf8), streaming: "items") { _ in
                Issue.record("no elements")
            } == ["items": ["k": 1]])
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        Bad(text: "", line: 1, column: 1, message: "the file is empty"),
        Bad(text: "  \n ", line: 2, column: 2, message: "the file holds only whitespace"),
        Bad(text: "{\n  \"a\": 1,\n  \"a\": 2\n}", line: 3, column: 3, message: "duplicate key \"a\""),
        Bad(
            text: "{\n  \"a\": 1,\n  x\n}", line: 3, column: 3,
            message: "unexpected 'x' where a key in quotes was expected"),
        Bad(text: "{\"a\": 1,}", line: 1, column: 9, message: "unexpected '}' where a key in quotes was expected"),
        Bad(text: "[1, 2", line: 1, column: 6, message: "unexpected end of file inside an array"),
        Bad(text: "{\"a\": \"unterminated", line: 1, column: 7, message: "unterminated string"),
        Bad(text: "{\"a\": 1} x", line: 1, column: 10, message: "unexpected 'x' after the end of the JSON value"),
        Bad(text: "\u{FEFF}{}", line: 1, column: 1, message: "a byte-order mark is not allowed"),
        Bad(text: "[01]", line: 1, column: 2, message: "a number cannot start with 0"),
        Bad(
            text: "[99999999999999999999]", line: 1, column: 2,
            message: "the integer 99999999999999999999 is beyond 2^63"),
        Bad(text: "[\"\\x\"]", line: 1, column: 3, message: "unknown escape \\'x'"),
        Bad(text: "[\"\\ud800\"]", line: 1, column: 9, message: "a lone surrogate \\u escape"),
        Bad(text: "[tru]", line: 1, column: 5, message: "unexpected ']' where a value was expected"),
        Bad(
            text: "[\"a\tb\"]", line: 1, column: 4,
            message: "byte 0x09 (a control character) inside a string; write it as an escape"),
    ])
    func reportsWhereAndWhy(_ bad: Bad) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bad.text) }
        do {
            _ = try JSONParser.parse(bad.text)
        } catch {
            #expect(error.message == bad.message)
            #expect(error.line == bad.line)
            #expect(error.column == bad.column)
        }
    }

    @Test func refusesInvalidUTF8AndNULs() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0, 0, 0]) }
    }

    @Test func limitsNesting() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSONParser.parse(ok)) != nil)
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(hostile) }
    }

    @Test func cursorNamesThePath() throws {
        let value = try JSONParser.parse(#"{"events":[{"at":5}]}"#)
        let events = try JSONCursor(value).object().required("events").array()
        #expect(throws: JSONShapeError(path: "events[0].at", message: "expected a string, found a number")) {
            _ = try events[0].object().required("at").string()
        }
        #expect(throws: JSONShapeError(path: "events[0].seq", message: "missing")) {
            _ = try events[0].object().required("seq")
        }
    }
}
