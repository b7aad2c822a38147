import Foundation
import LifeSignalCore
import Testing

@testable import LifeSignalCLI

/// Every `--json` document is the rendering of a result type: `Output.json` takes only a
/// `JSONRendered` (or, for a document that counts from the run's time, a `JSONRenderedAt`), so
/// the compiler refuses a command that hands it a `JSON` value or literal built on the spot.
@Suite struct RenderingTests {
    /// Were `JSON` a rendering, any literal would pass again.
    @Test func aJSONValueIsNoRendering() {
        let value: Any = JSON.object(JSONObject())
        #expect(!(value is any JSONRendered))
        #expect(!(value is any JSONRenderedAt))
    }

    /// `Output` prints a document only through those two: no overload takes a `JSON`.
    @Test func outputTakesOnlyRenderings() throws {
        let file = Binary.packageRoot.appendingPathComponent("Sources/LifeSignalCLI/Session.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let printers = text.split(separator: "\n").filter { $0.contains("func json(") }
        #expect(printers.count == 2)
        for printer in printers { #expect(printer.contains("some JSONRendered"), "\(printer)") }
    }
}
