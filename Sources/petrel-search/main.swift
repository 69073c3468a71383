import PetrelCommandSupport
import PetrelSearchTool

// An index on PostgreSQL goes to petrel-search-postgres (PostgresTwin).
PetrelSearchCommand<PostgresTwin>.main()
