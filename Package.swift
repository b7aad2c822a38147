// swift-tools-version:6.0
// lifesignal depends on no packages: only the Swift toolchain (stdlib, Glibc/Darwin,
// and — in tests only — Foundation, XCTest and Swift Testing).
import PackageDescription

let package = Package(
    name: "lifesignal",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lifesignal", targets: ["lifesignal"])
    ],
    targets: [
        // Pure rules: events, folding, deadlines, formats, JSON. No I/O, clock or environment.
        .target(name: "LifeSignalCore"),
        // The data directory and the circle on disk: paths, locking, crash-safe writes.
        .target(name: "LifeSignalStore", dependencies: ["LifeSignalCore", "CGlibc"]),
        // Other programs: child processes with timeouts, and the delivery channels built on them.
        .target(name: "LifeSignalChannels", dependencies: ["LifeSignalCore"]),
        // One operation per use case, with the domain checks and the transaction inside; owns
        // the outbox and delivery orchestration.
        .target(name: "LifeSignalApp", dependencies: ["LifeSignalCore", "LifeSignalStore", "LifeSignalChannels"]),
        // Tokenizer, the one command table, commands, rendering, the exit-code map.
        .target(name: "LifeSignalCLI", dependencies: ["LifeSignalCore", "LifeSignalApp"]),
        // glibc's mallopt and malloc_trim (a header of the C library, nothing built).
        .systemLibrary(name: "CGlibc"),
        // main.swift only: wires the real world into a Context. hot-functions.order: see below.
        .executableTarget(
            name: "lifesignal", dependencies: ["LifeSignalCLI", "CGlibc"], exclude: ["hot-functions.order"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker",
                        "--symbol-ordering-file=\(Context.packageDirectory)/Sources/lifesignal/hot-functions.order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ], .when(platforms: [.linux]))
            ]),
        // Benchmark helper: writes large stores through the real store code.
        .executableTarget(
            name: "lifesignal-bench-seed",
            dependencies: ["LifeSignalCore", "LifeSignalStore"],
            path: "Benchmarks/Seed"),
        // Vectors/ holds published test vectors (Wycheproof), read through #filePath.
        // What the test targets share (see Tests/TestSupport): the integration trait, scratch
        // folders, a writer of signed logs.
        .target(name: "TestSupport", dependencies: ["LifeSignalCore"], path: "Tests/TestSupport"),
        .testTarget(
            name: "LifeSignalCoreTests", dependencies: ["LifeSignalCore", "TestSupport"], exclude: ["Vectors"]),
        .testTarget(name: "LifeSignalStoreTests", dependencies: ["LifeSignalStore", "LifeSignalCore", "TestSupport"]),
        .testTarget(
            name: "LifeSignalChannelsTests", dependencies: ["LifeSignalChannels", "LifeSignalCore", "TestSupport"]),
        // The rules of each use case, in-process against a temporary directory and a fixed clock.
        .testTarget(
            name: "LifeSignalAppTests",
            dependencies: ["LifeSignalApp", "LifeSignalCore", "LifeSignalChannels", "LifeSignalStore", "TestSupport"]),
        // Each test target names every module it imports: a change to a module imported only
        // transitively did not rebuild the tests, which then ran against a stale layout.
        // Golden/ holds expected help pages, read through #filePath, not bundled resources.
        .testTarget(
            name: "LifeSignalCLITests", dependencies: ["LifeSignalCLI", "LifeSignalCore", "TestSupport"],
            exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// Concrete generic types (Dictionary<String, MemberState>, …) reach their metadata through
// accessor functions, not by a run-time lookup of their mangled names, whose demangling was a
// tenth of a check-in's samples (perf). A one-person check-in went from 2.19 to 2.09 ms wall, a
// warm status of 1,000 members from 4.47 to 4.31 (scripts/bench's stores, 300 and 200
// alternating runs of both binaries, read into a freshly dropped page cache first: how a
// binary's pages sit in the cache moved these figures by more than the flag does). The flag
// changes only how the code reaches metadata, and a package nothing depends on may use it.
//
// Each function in a section of its own (Linux), so that ld.lld can place the functions a
// check-in, a status and a delivery run execute side by side (Sources/lifesignal/
// hot-functions.order, written by scripts/order-functions): a run's code then takes a third of
// the page faults it took scattered through the binary (116 to 43 for a check-in), which was
// about 0.1 ms of a 2.1 ms check-in (scripts/bench's typical store, measured as above).
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]),
            .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux])),
        ]
}

// The rules and the store are optimized in debug builds too. The tests run the debug build, in
// process and as the `lifesignal` binary they spawn; unoptimized, signing, hashing and decoding
// logs took over half of the unit suite's CPU time (56 s of user time; 22 s with this, 2 cores).
// Test code and the outer layers stay unoptimized, for the debugger.
for target in package.targets where ["LifeSignalCore", "LifeSignalStore"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
}
