// `import PetrelICU` is enough to use Petrel with ICU.
@_exported import Petrel
