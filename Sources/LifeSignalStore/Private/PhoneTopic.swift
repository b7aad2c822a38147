import LifeSignalCore

/// The ntfy topics this device sends buttons to, kept in `phone.json` in the data directory,
/// private to this machine like `identity.json`: the member's phone topic (reminders and missed
/// check-in notices with an "I'm OK" button) and, per external responder, the topic her phone
/// subscribes to for alarms with an "I'm on it" button (see `PhoneCheckIns`). Never in the
/// circle: a button's token is good only where nobody else can read it, and everything in the
/// circle is read by every member.
public struct PhoneTopics: Equatable, Sendable {
    /// The member's phone topic (an https URL).
    public var phone: String?
    /// The button topics of the member's external responders, by contact id.
    public var responders: [String: String] = [:]

    public init(phone: String? = nil, responders: [String: String] = [:]) {
        self.phone = phone
        self.responders = responders
    }

    /// Their delivery channels (see `DeliveryRules.phoneChannel` and `buttonChannel`).
    public var channels: [String] {
        (phone == nil ? [] : [DeliveryRules.phoneChannel]) + responders.keys.sorted().map(DeliveryRules.buttonChannel)
    }

    /// The address a channel of this device alone stands for.
    public func address(of channel: String) -> String? {
        if channel == DeliveryRules.phoneChannel { return phone.map(ChannelKind.ntfy.channel) }
        return DeliveryRules.buttonContact(of: channel).flatMap { responders[$0] }.map(ChannelKind.ntfy.channel)
    }
}

extension Store {
    static let phoneSchemaVersion: Int64 = 1
    var phoneTopicPath: String { DataFile.phoneTopics.path(in: dataDirectory) }

    /// This device's button topics (none when it has no `phone.json`).
    public func phoneTopics() throws(StoreError) -> PhoneTopics {
        var key = Posix.FileKey.missing
        guard case .contents(let bytes) = try readFile(phoneTopicPath, key: &key) else { return PhoneTopics() }
        let backup = phoneTopicPath + ".bak"
        return try Files.object(
            bytes, path: phoneTopicPath, backup: Posix.exists(backup) ? backup : nil, supported: Self.phoneSchemaVersion
        ) { o throws(JSONShapeError) in
            func topic(_ cursor: JSONCursor) throws(JSONShapeError) -> String {
                let url = try cursor.string()
                guard Address.problem(withChannel: ChannelKind.ntfy.channel(url)) == nil else {
                    throw cursor.fail("is not an ntfy topic URL")
                }
                return url
            }
            var topics = PhoneTopics()
            if let phone = o.optional("ntfy") { topics.phone = try topic(phone) }
            if let responders = try o.optional("responders")?.object() {
                for id in responders.object.keys {
                    topics.responders[id] = try topic(responders.required(id))
                }
            }
            return topics
        }
    }

    /// This device's phone topic (an https URL), if it has one.
    public func phoneTopic() throws(StoreError) -> String? { try phoneTopics().phone }

    /// This device's phone topic and button topics, less any a reader of the circle could
    /// subscribe to (one that is also someone's channel or inbox there): a button sent there
    /// would hand its token to the whole circle, so that topic gets no message at all. A
    /// damaged `phone.json` means none (doctor says it is damaged).
    public func privateTopics(circle: CircleState) -> PhoneTopics {
        ((try? phoneTopics()) ?? PhoneTopics()).keeping(privateIn: circle)
    }

    /// The channels of this device alone: its phone topic's and its responders' button
    /// topics', as `privateTopics` keeps them.
    public func localChannels(circle: CircleState) -> [String] { privateTopics(circle: circle).channels }
}

extension PhoneTopics {
    /// These topics less any a reader of `circle` could subscribe to (see `Store.privateTopics`).
    public func keeping(privateIn circle: CircleState) -> PhoneTopics {
        var topics = self
        guard topics != PhoneTopics() else { return topics }
        let known = Address.ntfyTopics(in: circle)
        if let phone = topics.phone, known.contains(Address.comparableTopic(phone)) { topics.phone = nil }
        topics.responders = topics.responders.filter { !known.contains(Address.comparableTopic($0.value)) }
        return topics
    }
}

extension Store {
    /// Sets (nil: removes) this device's phone topic, under the data directory's lock.
    public func setPhoneTopic(_ url: String?, lockTimeout: Int) throws(StoreError) {
        try updatePhoneTopics(lockTimeout: lockTimeout) { $0.phone = url }
    }

    /// Changes this device's button topics under the data directory's lock; with none left,
    /// `phone.json` is removed.
    public func updatePhoneTopics(lockTimeout: Int, _ change: (inout PhoneTopics) -> Void) throws(StoreError) {
        let result = try Store.holdingLock(dataDirectory: dataDirectory, timeout: lockTimeout) {
            Result { () throws(StoreError) in
                var topics: PhoneTopics
                do throws(StoreError) {
                    topics = try phoneTopics()
                } catch {
                    // A damaged file is only ever removed (when the change leaves nothing), never
                    // written over: what it held, and its backup, stay for the person to restore.
                    var rest = PhoneTopics()
                    change(&rest)
                    guard rest == PhoneTopics() else { throw error }
                    topics = rest
                }
                change(&topics)
                guard topics != PhoneTopics() else {
                    Posix.remove(phoneTopicPath)
                    Posix.remove(phoneTopicPath + ".bak")
                    return
                }
                var pairs: [(key: String, value: JSON)] = [("schemaVersion", .int(Self.phoneSchemaVersion))]
                if let phone = topics.phone { pairs.append(("ntfy", .string(phone))) }
                if !topics.responders.isEmpty {
                    let responders = topics.responders.sorted { $0.key < $1.key }.map {
                        ($0.key, JSON.string($0.value))
                    }
                    pairs.append(("responders", .object(JSONObject(responders))))
                }
                try Store.write(
                    JSON.object(JSONObject(pairs)).serializedBytes() + [0x0A], to: phoneTopicPath,
                    backup: Posix.exists(phoneTopicPath))
            }
        }
        try result.get()
    }
}
