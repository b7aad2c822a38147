import LifeSignalCore

/// This device's settings about how its circle folder is kept in step (`sync.json` in the data
/// directory, private to this machine, like `identity.json`): which engine to assume when the
/// folder does not say, where Syncthing's API is, and how long a miss this device cannot
/// confirm is held before it is relayed marked unconfirmed.
public struct SyncSettings: Equatable, Sendable {
    public static let schemaVersion: Int64 = 1
    /// `other` for a folder kept by a tool lifesignal cannot ask; nil: tell from the folder.
    public var engine: SyncEngine?
    /// Syncthing's REST API (`http://127.0.0.1:8384`) and the file holding its API key; nil:
    /// found in Syncthing's own configuration.
    public var syncthingAPI: String?
    public var syncthingKeyFile: String?
    /// nil: `SyncView.defaultHold`.
    public var hold: TimeSpan?

    public init() {}

    func encoded() -> [UInt8] {
        let json: JSON = .object(
            JSONObject([
                ("schemaVersion", .int(Self.schemaVersion)), ("engine", .optional(engine?.rawValue)),
                ("syncthingAPI", .optional(syncthingAPI)), ("syncthingKeyFile", .optional(syncthingKeyFile)),
                ("holdSeconds", hold.map { .int($0.seconds) } ?? .null),
            ]))
        return json.serializedBytes() + [0x0A]
    }

    static func decode(_ bytes: [UInt8], path: String, backup: String?) throws(StoreError) -> SyncSettings {
        try Files.object(bytes, path: path, backup: backup, supported: schemaVersion) { o throws(JSONShapeError) in
            var settings = SyncSettings()
            if let cursor = o.optional("engine") {
                guard let engine = SyncEngine(rawValue: try cursor.string()) else {
                    throw cursor.fail("must be one of \(SyncEngine.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                settings.engine = engine
            }
            settings.syncthingAPI = try o.optional("syncthingAPI")?.string()
            settings.syncthingKeyFile = try o.optional("syncthingKeyFile")?.string()
            if let cursor = o.optional("holdSeconds") {
                let seconds = try cursor.int()
                guard (60...Limits.span).contains(seconds) else { throw cursor.fail("must be from 60 seconds up") }
                settings.hold = TimeSpan(seconds: seconds)
            }
            return settings
        }
    }
}

extension Store {
    var syncSettingsPath: String { DataFile.syncSettings.path(in: dataDirectory) }

    /// This device's sync settings; the defaults when it has none.
    public func syncSettings() throws(StoreError) -> SyncSettings {
        var key = Posix.FileKey.missing
        guard case .contents(let bytes) = try readFile(syncSettingsPath, key: &key) else { return SyncSettings() }
        let backup = syncSettingsPath + ".bak"
        return try SyncSettings.decode(bytes, path: syncSettingsPath, backup: Posix.exists(backup) ? backup : nil)
    }

    /// Changes the sync settings under this data directory's lock.
    public func updateSyncSettings(lockTimeout: Int, _ change: (inout SyncSettings) -> Void) throws(StoreError)
        -> SyncSettings
    {
        let result = try Store.holdingLock(dataDirectory: dataDirectory, timeout: lockTimeout) {
            Result { () throws(StoreError) -> SyncSettings in
                var settings = try syncSettings()
                change(&settings)
                try Store.write(settings.encoded(), to: syncSettingsPath, backup: Posix.exists(syncSettingsPath))
                return settings
            }
        }
        return try result.get()
    }

    /// The engine the circle folder is kept by, as far as this machine can tell: a git work
    /// tree (`.git`), a Syncthing folder (`.stfolder`), one this device was told is kept by
    /// another tool, or else a folder written directly.
    public func syncEngine(settings: SyncSettings) -> SyncEngine {
        if Posix.exists(Paths.join(circleDirectory, ".git")) { return .git }
        if Posix.isDirectory(Paths.join(circleDirectory, ".stfolder")) { return .syncthing }
        return settings.engine == .other ? .other : .direct
    }
}
