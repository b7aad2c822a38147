import LifeSignalCore

/// How a program outside the process is run: the seam between lifesignal and git, curl (for
/// Syncthing's API) and qrencode. `system` runs them through `ChildProcess`; a test gives its
/// own to play a program's part (a push the remote refuses, an API that answers, a missing
/// qrencode) and run a use case in-process.
public struct ProgramRunner: Sendable {
    public typealias Run =
        @Sendable (
            _ arguments: [String], _ environment: [String: String], _ stdin: [UInt8], _ timeout: Double,
            _ outputLimit: Int
        ) throws(ChildProcess.Failure) -> ChildProcess.Result

    public var run: Run

    public init(_ run: @escaping Run) { self.run = run }

    /// The programs themselves.
    public static let system = ProgramRunner {
        arguments, environment, stdin, timeout, outputLimit throws(ChildProcess.Failure) in
        try ChildProcess.run(
            arguments, environment: environment, stdin: stdin, timeout: timeout, outputLimit: outputLimit)
    }
}
