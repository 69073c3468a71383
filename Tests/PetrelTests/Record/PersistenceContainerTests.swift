import Petrel
import Testing

@Suite struct PersistenceContainerTests {
    @Test func lookupIgnoresCaseForAsciiAndUnicodeNames() {
        var container = PersistenceContainer()
        container["Name"] = "Arthur"
        container["score"] = 12
        container["Größe"] = 1.8

        #expect(container["name"]?.databaseValue == "Arthur".databaseValue)
        #expect(container["NAME"]?.databaseValue == "Arthur".databaseValue)
        #expect(container["SCORE"]?.databaseValue == 12.databaseValue)
        #expect(container["grÖße"]?.databaseValue == 1.8.databaseValue)
        #expect(container["missing"] == nil)
    }

    @Test func settingAnExistingColumnInAnotherCaseReplacesItInPlace() {
        var container = PersistenceContainer()
        container["id"] = 1
        container["name"] = "a"
        container["NAME"] = "b"
        #expect(container.columns == ["id", "name"])
        #expect(container.values == [1.databaseValue, "b".databaseValue])
        container["Email"] = nil
        #expect(container.columns == ["id", "name", "Email"])
        #expect(container.values.last == .null)
    }
}
