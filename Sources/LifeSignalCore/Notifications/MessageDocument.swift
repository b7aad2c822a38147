/// The public JSON form of a delivered message: the body a webhook receives and what an
/// `exec:` command reads on stdin. Versioned (`schema`), described field by field once, here:
/// the JSON Schema file (`man/lifesignal-notification.schema.json`) and the man page's WEBHOOKS
/// section are generated from `fields`, and the tests validate real bodies against the file.
///
/// Version 2 (from version 1): `alsoTold` lists only those known to have been told, and
/// `beingTold` those still being told (pending or failing); `confirmed`, `lastHeardFrom`,
/// `relayedBy` and `copyCurrentAt` say what the sender of a miss knows and how; `notice`
/// numbers the repeats of an unanswered alarm (each with its own `id`, `follows` the first).
public enum MessageDocument {
    public static let schema = "lifesignal.notification/2"

    /// One field: its name, its JSON Schema type, whether it may be null, and what it means.
    public struct Field: Sendable {
        public var name: String
        public var type: String
        public var nullable: Bool
        public var about: String
    }

    public static let fields: [Field] = [
        Field(name: "schema", type: "string", nullable: false, about: "Always \"\(schema)\"."),
        Field(
            name: "id", type: "string", nullable: false,
            about: "The notification's id, the same on every machine and every retry: drop duplicates by it."),
        Field(
            name: "dedupeKey", type: "string", nullable: false,
            about: "The same for an alarm, its updates and its all-clear (an incident key for a pager)."),
        Field(
            name: "type", type: "string", nullable: false,
            about: "What happened, e.g. receive_non_responsive_dependent_alert."),
        Field(name: "severity", type: "string", nullable: false, about: "critical, warning or info."),
        Field(name: "status", type: "string", nullable: false, about: "triggered, updated, resolved or info."),
        Field(name: "title", type: "string", nullable: false, about: "One line, leading with the person's name."),
        Field(name: "summary", type: "string", nullable: false, about: "One or two sentences."),
        Field(name: "text", type: "string", nullable: false, about: "The whole message as plain text, as e-mailed."),
        Field(name: "personId", type: "string", nullable: false, about: "The id of the member it is about."),
        Field(name: "personName", type: "string", nullable: false, about: "Their name."),
        Field(name: "phone", type: "string", nullable: true, about: "Their phone number, for their responders."),
        Field(
            name: "emergencyNote", type: "string", nullable: true, about: "Their emergency note, for their responders."),
        Field(name: "recipientName", type: "string", nullable: false, about: "Whom it is for."),
        Field(
            name: "causeAt", type: "string", nullable: false,
            about: "When it happened: ISO 8601 with the zone's offset."),
        Field(
            name: "sentAt", type: "string", nullable: false, about: "When it was sent: ISO 8601 with the zone's offset."
        ),
        Field(name: "zone", type: "string", nullable: false, about: "The time zone the text's times are in."),
        Field(
            name: "follows", type: "string", nullable: true,
            about: "The id of the notification this one follows (the alarm an all-clear clears or a repeat repeats)."),
        Field(
            name: "notice", type: "integer", nullable: false,
            about: "1 for the first notice of an alarm; 2, 3, … for its repeats, sent until someone answers."),
        Field(name: "actions", type: "array", nullable: false, about: "What the recipient can do, one string each."),
        Field(
            name: "alsoTold", type: "array", nullable: false,
            about: "The names of the others known to have been told of the same cause."),
        Field(
            name: "beingTold", type: "array", nullable: false,
            about: "The names of the others still being told: not reached yet (pending, or their channel is failing)."),
        Field(
            name: "confirmed", type: "boolean", nullable: false,
            about:
                "False only when a miss is told that its sender could not confirm: a watcher's, to its own user or as a relay, whose copy of the circle was not known current after the deadline; or the person's own device's, which could not read their phone inbox since the deadline (the title and text say so)."
        ),
        Field(
            name: "lastHeardFrom", type: "string", nullable: true,
            about: "For a missed check-in: when the person's devices were last heard from, as the sender's copy shows."),
        Field(
            name: "relayedBy", type: "string", nullable: true,
            about: "For a watcher's relay: the name of the member whose device sends it (null from the person's own)."),
        Field(
            name: "copyCurrentAt", type: "string", nullable: true,
            about: "For a watcher's relay: until when its copy of the circle is known current (null when unconfirmed)."),
    ]

    public static func json(_ m: Message) -> JSON {
        .object(
            JSONObject([
                ("schema", .string(schema)), ("id", .string(m.id)), ("dedupeKey", .string(m.thread ?? m.id)),
                ("type", .string(m.type)), ("severity", .string(m.severity)), ("status", .string(m.status)),
                ("title", .string(m.title)), ("summary", .string(m.summary)), ("text", .string(m.text())),
                ("personId", .string(m.person.id)), ("personName", .string(m.person.name)),
                ("phone", .optional(m.person.phone)), ("emergencyNote", .optional(m.person.emergencyNote)),
                ("recipientName", .string(m.recipientName)), ("causeAt", .string(m.zone.iso8601(m.causeAt))),
                ("sentAt", .string(m.zone.iso8601(m.sentAt))), ("zone", .string(m.zone.name)),
                ("follows", .optional(m.follows)), ("notice", .int(Int64(m.notice))),
                ("actions", .array(m.actions.map(JSON.string))),
                ("alsoTold", .array(m.alsoTold.map(JSON.string))), ("beingTold", .array(m.beingTold.map(JSON.string))),
                ("confirmed", .bool(m.confirmed)), ("lastHeardFrom", .optional(m.lastHeardFrom.map(m.zone.iso8601))),
                ("relayedBy", .optional(m.relayedBy)),
                ("copyCurrentAt", .optional(m.copyCurrentAt.map(m.zone.iso8601))),
            ]))
    }

    /// The JSON Schema (draft 2020-12) of the document, from `fields`.
    public static var jsonSchema: JSON {
        var properties = JSONObject()
        for field in fields {
            var property = JSONObject()
            property["type"] =
                field.nullable ? .array([.string(field.type), .string("null")]) : .string(field.type)
            if field.type == "array" { property["items"] = .object(JSONObject([("type", .string("string"))])) }
            if field.name == "schema" { property["const"] = .string(schema) }
            property["description"] = .string(field.about)
            properties[field.name] = .object(property)
        }
        return .object(
            JSONObject([
                ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
                ("$id", .string("https://lifesignal.invalid/schema/notification/2")),
                ("title", .string("lifesignal notification")), ("type", .string("object")),
                ("required", .array(fields.map { .string($0.name) })), ("additionalProperties", .bool(false)),
                ("properties", .object(properties)),
            ]))
    }
}
