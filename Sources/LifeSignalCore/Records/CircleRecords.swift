/// The circle's state in the binary form, in the two layouts the cache uses: this device's
/// part (members, then the facts as a record of their own) and everyone else's (the facts,
/// then each member as a record of their own).

extension BinaryWriter {
    /// The whole circle's state: its members, then its facts as a record with a string table of
    /// its own, so that a writer whose facts did not change copies the record it read
    /// (`reusingFacts`, see `BinaryReader.circleKeepingFacts`) instead of coding them again.
    public mutating func circle(_ circle: CircleState, reusingFacts record: ArraySlice<UInt8>? = nil) {
        var members = circle.members
        writing { () throws(CannotFail) in try entries("members", &members, as: MemberEntry.self, omitEmpty: false) }
        if let record { return nested(copying: record) }
        var facts = BinaryWriter()
        var state = circle
        writing { () throws(CannotFail) in try state.codeFacts(&facts) }
        nested(facts)
    }

    /// The circle's facts, then each member's state as a record with a string table of its
    /// own, so that a reader can decode only the members it needs (`circleByMember(wanted:)`).
    public mutating func circleByMember(_ circle: CircleState) {
        var facts = circle
        writing { () throws(CannotFail) in try facts.codeFacts(&self) }
        count(circle.members.count)
        for (id, state) in circle.members {
            string(id)
            var member = BinaryWriter()
            var fields = state
            writing { () throws(CannotFail) in try fields.code(&member) }
            nested(member)
        }
    }
}

extension BinaryReader {
    /// A circle written by `circleByMember`. With `wanted`, only the members it names are
    /// decoded (it is given the circle's facts, to choose by them); the others are skipped.
    public mutating func circleByMember(wanted: ((CircleState) -> Set<String>)? = nil) throws(Damaged)
        -> CircleState
    {
        var circle = CircleState()
        try circle.codeFacts(&self)
        let chosen = wanted?(circle)
        let n = try count()
        circle.members.reserveCapacity(chosen?.count ?? n)
        for _ in 0..<n {
            let member = try id()
            let record = try nested()
            guard chosen?.contains(member) ?? true else { continue }
            guard circle.members[member] == nil else { throw Damaged() }
            var fields = try BinaryReader(Array(record), from: 0)
            var state = MemberState()
            try state.code(&fields)
            guard fields.atEnd else { throw Damaged() }
            circle.members[member] = state
        }
        return circle
    }

    /// The whole circle's state (see `BinaryWriter.circle`), and the record its facts were read
    /// from; without `decodingFacts`,
    /// the members' states alone (the record is stepped over).
    public mutating func circleKeepingFacts(decodingFacts: Bool = true) throws(Damaged) -> (
        state: CircleState, facts: ArraySlice<UInt8>
    ) {
        var circle = CircleState()
        try entries("members", &circle.members, as: MemberEntry.self, omitEmpty: false)
        let record = try nested()
        guard decodingFacts else { return (circle, record) }
        var facts = try BinaryReader(Array(record), from: 0)
        try circle.codeFacts(&facts)
        guard facts.atEnd else { throw Damaged() }
        return (circle, record)
    }
}
