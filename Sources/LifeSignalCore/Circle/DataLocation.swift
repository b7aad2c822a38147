/// Which directory holds this user's lifesignal data. A pure function of the `--home` flag,
/// the environment, the platform and the account's home directory from the password database,
/// so that it is tested with plain dictionaries.
///
/// Order: `--home` › `LIFESIGNAL_HOME` › `$XDG_DATA_HOME/lifesignal` › the platform default
/// under the home directory (`$HOME`, else the account's). Empty values count as unset;
/// a relative `XDG_DATA_HOME` is ignored, as the XDG spec requires.
public enum DataLocation {
    public enum Platform: Sendable { case linux, macOS }

    /// Why no data directory can be chosen.
    public enum Problem: Error, Equatable, Sendable {
        /// `--home` was given an empty value.
        case emptyHomeFlag
        /// `--home` is relative and the working directory is unknown.
        case relativeHomeFlag(String)
        /// `LIFESIGNAL_HOME` is not an absolute path.
        case relativeLifesignalHome(String)
        /// Neither `HOME` nor the account names a home directory.
        case noHomeDirectory
        /// A path holds a NUL character, which no file name can: the system would silently
        /// use only the part before it. What gave it.
        case nulInPath(String)
    }

    public static var currentPlatform: Platform {
        #if os(macOS)
            return .macOS
        #else
            return .linux
        #endif
    }

    /// `accountHome` is asked only when nothing before it decides (reading the password
    /// database is a cost a run given `--home` or `LIFESIGNAL_HOME` need not pay).
    public static func resolve(
        homeFlag: String?, environment: [String: String], platform: Platform,
        accountHome: () -> String?, workingDirectory: String?
    ) throws(Problem) -> String {
        for (name, value) in [
            ("--home", homeFlag), ("LIFESIGNAL_HOME", environment["LIFESIGNAL_HOME"]),
            ("XDG_DATA_HOME", environment["XDG_DATA_HOME"]), ("HOME", environment["HOME"]),
        ]
        where value?.unicodeScalars.contains("\u{0}") ?? false {
            throw .nulInPath(name)
        }
        if let flag = homeFlag {
            guard !flag.isEmpty else { throw .emptyHomeFlag }
            if flag.hasPrefix("/") { return Paths.normalize(flag) }
            guard let cwd = workingDirectory else {
                throw .relativeHomeFlag(flag)
            }
            return Paths.normalize(Paths.join(cwd, flag))
        }
        if let value = environment["LIFESIGNAL_HOME"], !value.isEmpty {
            guard value.hasPrefix("/") else {
                throw .relativeLifesignalHome(value)
            }
            return Paths.normalize(value)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return Paths.join(Paths.normalize(xdg), "lifesignal")
        }
        let home: String
        if let value = environment["HOME"], value.hasPrefix("/") {
            home = value
        } else if let account = accountHome(), account.hasPrefix("/") {
            home = account
        } else {
            throw .noHomeDirectory
        }
        switch platform {
        case .linux: return Paths.join(Paths.normalize(home), ".local/share/lifesignal")
        case .macOS: return Paths.join(Paths.normalize(home), "Library/Application Support/lifesignal")
        }
    }
}
