import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Inflections")
struct InflectionsTests {
    @Test("The default inflections are English, keep trailing digits and the case of the word")
    func defaultEnglish() {
        let english = Inflections.default
        #expect(english.pluralize("player") == "players")
        #expect(english.pluralize("category") == "categories")
        #expect(english.pluralize("box") == "boxes")
        #expect(english.pluralize("bookCase") == "bookCases")
        #expect(english.pluralize("Person") == "People")
        #expect(english.pluralize("book2") == "books2")
        #expect(english.singularize("players") == "player")
        #expect(english.singularize("children") == "child")
        #expect(english.singularize("status") == "status")
        #expect(english.singularize("information") == "information")
    }

    @Test("Rules of one's own come before the English ones, the newest first")
    func rulesOfOnesOwn() {
        var inflections = Inflections.default
        inflections.irregularSuffix("criterion", "criteria")
        inflections.uncountableWords(["metadata"])
        inflections.plural("(quiz)$", "$1zes")
        inflections.singular("(quiz)zes$", "$1")
        #expect(inflections.pluralize("criterion") == "criteria")
        #expect(inflections.pluralize("Criterion") == "Criteria")
        #expect(inflections.pluralize("criteria") == "criteria")
        #expect(inflections.singularize("criteria") == "criterion")
        #expect(inflections.pluralize("userMetadata") == "userMetadata")
        #expect(inflections.pluralize("quiz") == "quizzes")
        #expect(inflections.singularize("quizzes") == "quiz")
        // Later rules win.
        inflections.plural("(quiz)$", "$1zzes")
        #expect(inflections.pluralize("quiz") == "quizzzes")
        // The default is a value: the copy's rules are its own.
        #expect(Inflections.default.pluralize("criterion") == "criterions")
    }

    @Test("Inflections without rules leave words as they are")
    func empty() {
        let none = Inflections()
        #expect(none.pluralize("player") == "player")
        #expect(none.singularize("players") == "players")
    }

    struct Family: TableRecord {
        static let databaseTableName = "family"
    }

    struct Genus: TableRecord {
        static let databaseTableName = "genus"
    }

    @Test("Association keys follow the default inflections, changes included", arguments: StorageKind.allCases)
    func associationKeys(_ kind: StorageKind) throws {
        // "genus" is taught here only, so no other test sees the change.
        Inflections.default.irregularSuffix("genus", "genera")
        #expect(Inflections.default.pluralize("genus") == "genera")
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "family") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "genus") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("family")
            }
            try db.execute(sql: "INSERT INTO family (id) VALUES (1); INSERT INTO genus (familyId) VALUES (1), (1)")
            let genera = Family.hasMany(Genus.self)
            let row = try #require(try Family.including(all: genera).asRequest(of: Row.self).fetchOne(db))
            #expect(row.prefetchedRows["genera"]?.count == 2)
            let counted = try #require(try Family.annotated(with: genera.count).asRequest(of: Row.self).fetchOne(db))
            #expect(counted["genusCount"] as Int == 2)
        }
    }
}
