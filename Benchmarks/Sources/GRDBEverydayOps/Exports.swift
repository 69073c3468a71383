// The operations of EverydayOperations.swift (a link to the file of
// PetrelEverydayOps), compiled against GRDB 7.10.0.
@_exported import GRDB
