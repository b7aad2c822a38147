import LifeSignalCore

/// `phone.json` in the data directory, private to this machine like `identity.json`: the ntfy
/// topic this device sends its member's reminders and missed check-in notices to with an "I'm
/// OK" button (see `PhoneCheckIns`). Never in the circle: a button's token is good only where
/// nobody else can read it, and everything in the circle is read by every member.
extension Store {
    static let phoneSchemaVersion: Int64 = 1
    var phoneTopicPath: String { Paths.join(dataDirectory, "phone.json") }

    /// This device's phone topic (an https URL), if it has one.
    public func phoneTopic() throws(StoreError) -> String? {
        var key = Posix.FileKey.missing
        guard case .contents(let bytes) = try readFile(phoneTopicPath, key: &key) else { return nil }
        let backup = phoneTopicPath + ".bak"
        let root = try Files.parse(
            bytes, path: phoneTopicPath, backup: Posix.exists(backup) ? backup : nil, supported: Self.phoneSchemaVersion
        )
        do throws(JSONShapeError) {
            let o = try JSONCursor(root).object()
            try Files.checkVersion(o)
            let cursor = try o.required("ntfy")
            let url = try cursor.string()
            guard Address.problem(withChannel: "ntfy:" + url) == nil else {
                throw cursor.fail("is not an ntfy topic URL")
            }
            return url
        } catch {
            throw .damaged(
                path: phoneTopicPath, problem: "at \(error.path): \(error.message)",
                backup: Posix.exists(backup) ? backup : nil)
        }
    }

    /// The channels of this device alone: its phone topic's, when it has one.
    public var localChannels: [String] {
        ((try? phoneTopic()) ?? nil) == nil ? [] : [DeliveryRules.phoneChannel]
    }

    /// Sets (nil: removes) this device's phone topic, under the data directory's lock.
    public func setPhoneTopic(_ url: String?, lockTimeout: Int) throws(StoreError) {
        let result = try Store.holdingLock(dataDirectory: dataDirectory, timeout: lockTimeout) {
            Result { () throws(StoreError) in
                guard let url else {
                    Posix.remove(phoneTopicPath)
                    Posix.remove(phoneTopicPath + ".bak")
                    return
                }
                let json: JSON = .object(
                    JSONObject([("schemaVersion", .int(Self.phoneSchemaVersion)), ("ntfy", .string(url))]))
                try Store.write(
                    json.serializedBytes() + [0x0A], to: phoneTopicPath, backup: Posix.exists(phoneTopicPath))
            }
        }
        try result.get()
    }
}
