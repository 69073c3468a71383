import PetrelIndexTool
import PetrelPostgresTools

// petrel-index with PostgreSQL indexes: what petrel-index runs for
// --database and $PETREL_DATABASE.
PetrelIndexCommand<PostgresToolStore>.main()
