import PetrelPostgresTools
import PetrelSearchTool

// petrel-search with PostgreSQL indexes: what petrel-search runs for
// --database and $PETREL_DATABASE.
PetrelSearchCommand<PostgresToolStore>.main()
