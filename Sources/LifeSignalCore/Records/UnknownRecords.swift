/// What one log holds that this version of lifesignal does not know — events of newer types,
/// fields of its state — written by a newer lifesignal. They are kept and not counted; the CLI
/// words the warning.
public struct UnknownRecords: Equatable, Sendable {
    public var member: String
    public var device: String
    /// The lifesignal that wrote them, as the log names it (`lifesignal 9.9.9`), if it does.
    public var writer: String?
    /// How many events in the log's tail are of types this version does not know.
    public var events: Int
    /// The fields of the log's state this version does not know.
    public var fields: [String]

    public init(member: String, device: String, writer: String?, events: Int, fields: [String]) {
        self.member = member
        self.device = device
        self.writer = writer
        self.events = events
        self.fields = fields
    }
}
