import LifeSignalChannels
import LifeSignalCore

extension App {
    /// What the use cases reach beyond the store — channel programs, heartbeat URLs, ntfy
    /// inboxes — given to App at the edge the way the CLI is given its `Context`. `.real` runs
    /// the programs of `LifeSignalChannels` (curl, msmtp, apprise, notify-send, a command); a
    /// test gives closures that record what was sent and answer as a server would.
    public struct Channels: Sendable {
        /// Sends one message through a channel URI (or the address it stands for), in at most
        /// `timeout` seconds.
        public var send:
            @Sendable (
                _ notification: Notification, _ message: Message, _ uri: String, _ mail: MailSettings?,
                _ environment: [String: String], _ timeout: Double
            ) -> DeliveryAttempt
        /// Pings a heartbeat URL: nil when it answered, else what went wrong.
        public var heartbeat: @Sendable (_ url: String, _ environment: [String: String]) -> String?
        /// Reads an ntfy topic's messages after the one with id `since` (all with nil).
        public var poll:
            @Sendable (_ url: String, _ since: String?, _ environment: [String: String]) -> Result<
                [Inbox.Message], HTTP.Failure
            >
        /// How long one channel may take, in seconds.
        public var timeout: Double

        public init(
            send:
                @escaping @Sendable (Notification, Message, String, MailSettings?, [String: String], Double) ->
                DeliveryAttempt,
            heartbeat: @escaping @Sendable (String, [String: String]) -> String?,
            poll: @escaping @Sendable (String, String?, [String: String]) -> Result<[Inbox.Message], HTTP.Failure>,
            timeout: Double
        ) {
            self.send = send
            self.heartbeat = heartbeat
            self.poll = poll
            self.timeout = timeout
        }

        /// The real programs, with a channel given `App.channelTimeout` seconds.
        public static let real = Channels(
            send: { Delivery.send($0, as: $1, through: $2, mail: $3, environment: $4, timeout: $5) },
            heartbeat: { Heartbeat.send($0, environment: $1) },
            poll: { Inbox.poll($0, since: $1, environment: $2) },
            timeout: App.channelTimeout)
    }
}

extension App {
    /// Everything outside the process a use case reaches besides the clock: the channels it
    /// sends and polls through, and the programs it runs for the circle and the terminal. The
    /// CLI's context carries one (`real`); a test gives fakes and runs the same use case
    /// in-process.
    public struct Outside: Sendable {
        public var channels: Channels
        public var programs: ProgramRunner

        public init(channels: Channels, programs: ProgramRunner) {
            self.channels = channels
            self.programs = programs
        }

        public static let real = Outside(channels: .real, programs: .system)
    }
}
