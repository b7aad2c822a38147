import LifeSignalCore

/// The folders of the circle a read walks: `members/`, each member's folder, each device's.
/// Only real folders named by a lifesignal id are read; a link (or a file) in a folder's place
/// is left out and reported, so nothing in the circle is ever read through a link. A member
/// linked with this one whose folder is gone is reported as well, never taken for someone who
/// has not checked in.
extension Store {
    /// The devices of `member` that have a folder in the circle.
    public func devices(of member: String) throws(StoreError) -> [String] {
        try folders(in: memberDirectory(member)).names
    }

    /// The folders named by a lifesignal id in `directory` of the circle, and the entries named
    /// by one that are not folders (a symbolic link, a file): nothing in the circle is read
    /// through a link, so those are left out and reported.
    func folders(in directory: String) throws(StoreError) -> (
        names: [String], refused: [(name: String, error: StoreError)]
    ) {
        let listed: (folders: [String], others: [String])?
        do {
            listed = try Posix.subdirectories(directory)
        } catch {
            throw error.asReadError(backup: nil)
        }
        guard let listed else { return ([], []) }
        let refused = listed.others.filter(Identifier.isValid).map { name in
            let path = Paths.join(directory, name)
            let reason =
                Posix.isSymbolicLink(path)
                ? "it is a symbolic link, and lifesignal follows none in the circle"
                : "it is a file where a folder belongs"
            return (name, StoreError.unreadable(path: path, reason: reason, backup: nil))
        }
        return (listed.folders.filter(Identifier.isValid), refused)
    }

    /// The members that have a folder in the circle.
    public func members() throws(StoreError) -> [String] { try folders(in: membersDirectory).names }

    var membersDirectory: String { Paths.join(circleDirectory, "members") }

    /// A member linked with this one whose folder is gone from the circle (or holds no log
    /// any more) cannot be watched: like an unreadable one, that is reported, never taken for
    /// someone who simply has not checked in.
    /// (Only the relations are merged for it: a large circle's states are not copied again.)
    func noteVanished(from read: inout CircleRead, present: Set<String>) {
        var links = CircleState()
        links.relations = read.others.relations
        for log in read.logs { links.merge(log.state) }
        let others = read.others.members
        for other in links.linkedMembers(of: identity.member)
        where others[other] == nil && links.members[other] == nil && read.unreadable[other] == nil {
            let folder = memberDirectory(other)
            let reason =
                present.contains(other)
                ? "member \(other), linked with you, has no records there any more"
                : "the folder of member \(other), linked with you, is missing from the circle"
            read.skip(StoreError.unreadable(path: folder, reason: reason, backup: nil), member: other, since: .missing)
        }
    }
}
