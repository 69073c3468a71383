// `import PetrelIndex` brings Petrel and PetrelICU along: an index is an
// SQLite database that apps may also query directly.
@_exported import Petrel
@_exported import PetrelICU
