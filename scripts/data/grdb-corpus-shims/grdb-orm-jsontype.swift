// Stand-in for the JSON column type that GRDB-ORM's generated records use: the source declares it in its
// UIKit app delegate, a file Linux cannot build. A Codable value of one field, as the records expect.
public struct JsonType: Codable, Equatable {
    public let age: Int

    public init(age: Int) {
        self.age = age
    }
}
