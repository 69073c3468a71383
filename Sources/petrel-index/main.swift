import PetrelCommandSupport
import PetrelIndexTool

// An index on PostgreSQL goes to petrel-index-postgres (PostgresTwin).
PetrelIndexCommand<PostgresTwin>.main()
