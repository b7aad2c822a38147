// Only the test targets use this module. A build of the products alone (`swift build -c
// release`) builds it too, without Swift Testing on its search path: then it is empty.
#if canImport(Testing)
    import Testing

    #if canImport(Glibc)
        import Glibc
    #else
        import Darwin
    #endif

    /// The integration tests: those that run real programs (Syncthing, git, msmtp against an
    /// SMTP server, curl against HTTP servers, shells, zdump, the cryptography differential
    /// test) or sweep a store byte by byte. `swift test` alone is the fast unit suite and lists
    /// them as skipped with this reason; `LIFESIGNAL_INTEGRATION=1 swift test` runs everything,
    /// as `.ci/run` does.
    public enum Integration {
        public static let variable = "LIFESIGNAL_INTEGRATION"
        public static var enabled: Bool { getenv(variable).map { String(cString: $0) == "1" } ?? false }
    }

    extension Trait where Self == ConditionTrait {
        /// Runs only in the integration suite (see `Integration`).
        public static var integration: Self {
            .enabled(if: Integration.enabled, "integration test: run with \(Integration.variable)=1 swift test")
        }
    }
#endif
