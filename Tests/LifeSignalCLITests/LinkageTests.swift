import Foundation
import Testing

/// What the binary may not use: each of these would be linked into the release binary and add
/// thousands of relocations that every run pays for at start-up (see docs/ARCHITECTURE.md).
/// The test build links the standard library dynamically, so a use shows as an undefined
/// symbol of the built `lifesignal`.
@Suite struct LinkageTests {
    /// A module's name appears, length-prefixed, in every mangled symbol it defines (also in
    /// its extensions of standard types, such as `$sSy17_StringProcessingE8contains…`).
    static let forbidden: [(what: String, marker: String)] = [
        ("Foundation", "10Foundation"),
        ("FoundationEssentials", "20FoundationEssentials"),
        (
            "the regex engine (_StringProcessing): use Text.swift's includes/firstRange(ofText:)/replacingEvery",
            "17_StringProcessing"
        ),
        ("the regex parser", "12_RegexParser"),
        ("the concurrency runtime (top-level state in main.swift, async code)", "swift_task_"),
        ("libdispatch", "dispatch_"),
        (
            "the password database through glibc's NSS (getpwuid_r, getpwnam…), which crashes the static binary for a user id /etc/passwd does not list: read /etc/passwd (Account.lookUp)",
            "getpw"
        ),
    ]

    @Test(.enabled(if: DocTools.exists("nm"), "nm (binutils) is not installed"))
    func theBinaryUsesNoneOfTheHeavyRuntimeLibraries() throws {
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: try #require(DocTools.path(of: "nm")))
        nm.arguments = ["--dynamic", "--undefined-only", Binary.path]
        let pipe = Pipe()
        nm.standardOutput = pipe
        try nm.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        #expect(nm.terminationStatus == 0)
        #expect(output.contains("swift_retain"), "nm lists the binary's imports")
        for (what, marker) in Self.forbidden {
            let uses = output.split(separator: "\n").filter { $0.contains(marker) }
            #expect(uses.isEmpty, "lifesignal uses \(what): \(uses.prefix(3).joined(separator: "; "))")
        }
    }
}
