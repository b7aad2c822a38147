import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Syncthing's REST API on this machine, asked whether the circle folder is up to date: the
/// evidence a watcher in a Syncthing circle needs before it tells someone's responders of a
/// miss. Found from Syncthing's own configuration (`config.xml`: the GUI address and API key)
/// or given with `lifesignal circle syncthing --api URL --key-file FILE`; the key travels in a
/// header through curl's stdin, never on a command line.
public struct SyncthingAPI: Sendable {
    public var base: String
    var key: String
    /// Runs curl for each request (`ProgramRunner.system`, or a test's).
    public var runner = ProgramRunner.system

    /// Seconds one request may take: a cron run never waits long on it.
    static let timeout: Double = 4

    public init(base: String, key: String) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.key = key
    }

    /// The API as Syncthing's own configuration describes it, for the account whose home is
    /// `environment["HOME"]`; nil when no configuration has a GUI address and key.
    public static func fromConfiguration(environment: [String: String]) -> SyncthingAPI? {
        var places: [String] = []
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { places.append(state + "/syncthing") }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { places.append(config + "/syncthing") }
        if let home = environment["HOME"], home.hasPrefix("/") {
            places += [home + "/.local/state/syncthing", home + "/.config/syncthing"]
        }
        for place in places {
            guard let text = readText(place + "/config.xml"), let api = parse(configuration: text) else { continue }
            return api
        }
        return nil
    }

    /// The API from the `<gui>` element of a Syncthing `config.xml`.
    static func parse(configuration text: String) -> SyncthingAPI? {
        guard let open = text.firstRange(ofText: "<gui") else { return nil }
        let rest = String(text[open.lowerBound...])
        guard let close = rest.firstRange(ofText: "</gui>") else { return nil }
        let gui = String(rest[..<close.lowerBound])
        func element(_ name: String) -> String? {
            guard let start = gui.firstRange(ofText: "<\(name)>") else { return nil }
            let after = String(gui[start.upperBound...])
            guard let end = after.firstRange(ofText: "</\(name)>") else { return nil }
            let value = String(after[..<end.lowerBound]).trimmingWhitespace
            return value.isEmpty ? nil : value
        }
        guard let address = element("address"), let key = element("apikey") else { return nil }
        let tls = String(gui.prefix { $0 != ">" }).includes("tls=\"true\"")
        let base = address.hasPrefix("http") ? address : (tls ? "https://" : "http://") + address
        return SyncthingAPI(base: base, key: key)
    }

    /// The API given by hand: its URL and the file that holds its key.
    public static func given(base: String, keyFile: String) -> Result<SyncthingAPI, HTTP.Failure> {
        guard let key = readText(keyFile)?.trimmingWhitespace, !key.isEmpty else {
            return .failure(HTTP.Failure(message: "cannot read the API key from \(keyFile)"))
        }
        return .success(SyncthingAPI(base: base, key: key))
    }

    /// What Syncthing says of the folder at `path`.
    public struct FolderView: Equatable, Sendable {
        public var folder: String
        /// `idle`, `syncing`, `scanning`, …
        public var state: String
        /// Items this machine still needs from the others.
        public var need: Int64
        /// When each other device sharing the folder was last connected (RFC 3339 as
        /// Syncthing gives it), by device id.
        public var lastSeen: [String: String]
        /// The other devices the folder is shared with, and whether each is untrusted (given
        /// the folder encrypted with a password it does not have).
        public var sharedWith: [SharedDevice] = []

        /// Up to date with every device it is connected to: nothing to fetch, nothing in flight.
        public var isUpToDate: Bool { state == "idle" && need == 0 }
    }

    /// A device a folder is shared with.
    public struct SharedDevice: Equatable, Sendable {
        public var id: String
        public var name: String
        public var untrusted: Bool
    }

    /// Asks about the Syncthing folder whose path is `path`.
    public func folder(at path: String, environment: [String: String]) -> Result<FolderView, HTTP.Failure> {
        let folders: JSON
        switch request("config/folders", environment: environment) {
        case .success(let json): folders = json
        case .failure(let failure): return .failure(failure)
        }
        let wanted = Self.resolved(path)
        guard case .array(let list) = folders,
            let match = list.first(where: { folder in
                guard case .object(let o) = folder, case .string(let p)? = o["path"] else { return false }
                return Self.resolved(p) == wanted
            }), case .object(let entry) = match, case .string(let id)? = entry["id"]
        else {
            return .failure(HTTP.Failure(message: "Syncthing at \(base) shares no folder at \(path)"))
        }
        let status: JSON
        switch request("db/status?folder=\(Self.queryEscaped(id))", environment: environment) {
        case .success(let json): status = json
        case .failure(let failure): return .failure(failure)
        }
        guard case .object(let s) = status, case .string(let state)? = s["state"] else {
            return .failure(HTTP.Failure(message: "Syncthing at \(base) gave no state for the folder \(id)"))
        }
        var need: Int64 = 0
        if case .int(let n)? = s["needTotalItems"] { need = n }
        var lastSeen: [String: String] = [:]
        var shared = sharedDevices(entry["devices"], environment: environment)
        let sharing = shared.map(\.id)
        if case .success(.object(let stats)) = request("stats/device", environment: environment) {
            for id in sharing {
                if case .object(let d)? = stats[id], case .string(let seen)? = d["lastSeen"] { lastSeen[id] = seen }
            }
        }
        if case .success(.object(let me)) = request("system/status", environment: environment),
            case .string(let myID)? = me["myID"]
        {
            lastSeen[myID] = nil
            shared.removeAll { $0.id == myID }
        }
        return .success(
            FolderView(folder: id, state: state, need: need, lastSeen: lastSeen, sharedWith: shared))
    }

    /// The devices a folder's configuration shares it with, named as Syncthing knows them; one
    /// given an encryption password is untrusted.
    func sharedDevices(_ devices: JSON?, environment: [String: String]) -> [SharedDevice] {
        var shared: [SharedDevice] = []
        if case .array(let devices)? = devices {
            for device in devices {
                if case .object(let d) = device, case .string(let deviceID)? = d["deviceID"] {
                    var password = ""
                    if case .string(let given)? = d["encryptionPassword"] { password = given }
                    shared.append(SharedDevice(id: deviceID, name: deviceID, untrusted: !password.isEmpty))
                }
            }
        }
        if case .success(.array(let known)) = request("config/devices", environment: environment) {
            for case .object(let device) in known {
                guard case .string(let id)? = device["deviceID"], case .string(let name)? = device["name"],
                    !name.isEmpty,
                    let index = shared.firstIndex(where: { $0.id == id })
                else { continue }
                shared[index].name = name
            }
        }
        return shared
    }

    /// One GET of the API, as JSON.
    func request(_ path: String, environment: [String: String]) -> Result<JSON, HTTP.Failure> {
        switch HTTP.get(
            base + "/rest/" + path, headers: [("X-API-Key", key)], timeout: Self.timeout, environment: environment,
            runner: runner)
        {
        case .failure(let failure):
            return .failure(HTTP.Failure(message: "Syncthing's API at \(base) does not answer (\(failure.message))"))
        case .success(let body):
            guard let json = try? JSONParser.parse(body) else {
                return .failure(HTTP.Failure(message: "Syncthing's API at \(base) answered something that is not JSON"))
            }
            return .success(json)
        }
    }

    static func resolved(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return Paths.normalize(path) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func queryEscaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "re") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < 1 << 20 {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
