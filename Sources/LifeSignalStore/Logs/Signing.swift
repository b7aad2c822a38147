import LifeSignalCore

/// How a device signs the files it writes in the circle — its log, its feed, its archive
/// segments — with the signature inside the file, so that it travels atomically with it.
///
/// A signed file is a JSON object whose first field is `"signature"`, on its own line, in a
/// fixed layout: `{` newline `"signature": "<128 hex digits>",` then the rest of the object as
/// the unsigned file would have it. The signature covers a domain line naming the kind of file,
/// then the bytes after that first field — all of them, or for a log only its head (every field
/// before `"events"`, including the hash of the events after it), so that a reader of the state
/// verifies one signature without decoding the tail. Any other layout is not signed.
enum Signing {
    /// What a signature is for: no signature made for one kind verifies for another.
    enum Domain: String {
        case log = "lifesignal log 1\n"
        case feed = "lifesignal feed 1\n"
        case segment = "lifesignal archive segment 1\n"
    }

    private static let opening = Array("{\n\"signature\": \"".utf8)
    private static let closing = Array("\",".utf8)
    /// Where the signed bytes start.
    static let bodyStart = opening.count + 2 * Ed25519.signatureLength + closing.count

    /// `file` (a JSON object, as written unsigned) with `key`'s signature as its first field.
    /// `signedEnd` is where the signed part of `file` ends (nil: the whole file).
    static func sign(_ file: [UInt8], domain: Domain, key: SigningKey, signedEnd: Int? = nil) -> [UInt8] {
        guard file.first == UInt8(ascii: "{") else { return file }
        let body = file[1..<(signedEnd ?? file.count)]
        let signature = key.sign(Array(domain.rawValue.utf8) + body)
        var out: [UInt8] = []
        out.reserveCapacity(file.count + bodyStart)
        out += opening
        out += Array(KeyText.hex(signature).utf8)
        out += closing
        out += file[1...]
        return out
    }

    /// Whether `bytes` starts as a signed file does (its signature is not checked).
    static func isSigned(_ bytes: [UInt8]) -> Bool {
        bytes.count > bodyStart && bytes.starts(with: opening)
            && bytes[(bodyStart - closing.count)..<bodyStart].elementsEqual(closing)
    }

    /// Whether `bytes` is signed by `publicKey` (hex) for `domain`, its signed part ending at
    /// `signedEnd` (nil: the end of the file). Nil when it is; else what is wrong, in words.
    static func problem(
        _ bytes: [UInt8], domain: Domain, publicKey: String, signedEnd: Int? = nil
    ) -> String? {
        guard isSigned(bytes) else { return "it is not signed" }
        guard let key = KeyText.bytes(publicKey, count: Ed25519.publicKeyLength),
            let signature = KeyText.bytes(
                String(decoding: bytes[opening.count..<(bodyStart - closing.count)], as: UTF8.self),
                count: Ed25519.signatureLength)
        else { return "its signature is not 128 lowercase hex digits" }
        let end = min(signedEnd ?? bytes.count, bytes.count)
        guard end >= bodyStart,
            Ed25519.verify(
                signature: signature, message: Array(domain.rawValue.utf8) + bytes[bodyStart..<end], publicKey: key)
        else { return "its signature does not match its content (changed since the device signed it)" }
        return nil
    }

    /// The file as it was before it was signed (an unsigned file as it is).
    static func unsigned(_ bytes: [UInt8]) -> [UInt8] {
        isSigned(bytes) ? [UInt8(ascii: "{")] + bytes[bodyStart...] : bytes
    }

    /// The SHA-512 of `bytes`, as hex: how a log's head binds its tail of events.
    static func hash(_ bytes: ArraySlice<UInt8>) -> String { KeyText.hex(SHA512.hash(bytes)) }
}
