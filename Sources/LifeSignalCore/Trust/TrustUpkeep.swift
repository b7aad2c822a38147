/// What a device records, on any write, to keep who-speaks-for-whom current (see Speakers.swift):
/// - it pins the keys of the devices that speak for the members it is linked with (and for its
///   own member), so that a device revoked later, or an enrolling device gone, does not leave
///   the others without a root;
/// - it records the key of every device of its member that speaks for them with a key none of
///   the member's devices has recorded yet (one of an older lifesignal that now signs, one it
///   accepted the enrollment of);
/// - at its first signed write (an upgrade from a lifesignal that did not sign) it vouches for
///   the devices of its member that do not sign yet, so they stay believed until their own
///   first signed file, and for those that upgraded first and vouched for it.
public enum TrustUpkeep {
    /// The events to record. `me`/`device`: this writer; `mine`: its member's state across the
    /// devices that count; `circle`: the circle as it reads; `firstSigned`: this device's log
    /// was never signed before this write.
    public static func records(
        me: String, device: String, mine: MemberState, circle: CircleState, speakers: [String: Speakers],
        firstSigned: Bool
    ) -> [any EventBody] {
        // By member, then device, so the records come in one order whatever the dictionaries'
        // (sorted once found: nearly every write finds none).
        var found: [(member: String, device: String, record: any EventBody)] = []
        // No key of a contest is pinned: it would settle it for whichever set is counted now.
        for (member, speaking) in speakers
        where (member == me || circle.relations[Pair(me, member)] != nil) && speaking.contest == nil {
            for (other, key) in speaking.keys where !(member == me && other == device) {
                guard let fingerprint = KeyText.fingerprint(ofKey: key) else { continue }
                if mine.pins[member]?[fingerprint] == nil {
                    found.append((member, other, KeyPinned(member: member, fingerprint: fingerprint)))
                }
                if member == me, mine.devices[other]?.key != key {
                    found.append((member, other, DeviceEnrolled(device: other, key: key)))
                }
            }
        }
        var records = found.enumerated().sorted { a, b in
            (a.element.member, a.element.device, a.offset) < (b.element.member, b.element.device, b.offset)
        }.map(\.element.record)
        if firstSigned {
            for other in speakers[me]?.olderVersions ?? [] where other != device && mine.devices[other] == nil {
                records.append(DeviceEnrolled(device: other, key: nil))
            }
            // Devices of this member that upgraded first and vouched for this one.
            for (other, key) in (speakers[me]?.vouchingForMe ?? [:]).sorted(by: { $0.key < $1.key }) {
                records.append(DeviceEnrolled(device: other, key: key))
            }
        }
        return records
    }

    /// The members whose keys this writer takes on first sight (no pin of theirs yet), by id.
    public static func firstSight(me: String, mine: MemberState, circle: CircleState, speakers: [String: Speakers])
        -> [String]
    {
        speakers.values.filter { found in
            found.firstSight && found.contest == nil && found.member != me && mine.pins[found.member] == nil
                && circle.relations[Pair(me, found.member)] != nil && !found.keys.isEmpty
        }.map(\.member).sorted()
    }
}
