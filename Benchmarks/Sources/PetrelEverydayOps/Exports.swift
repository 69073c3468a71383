// The operations of EverydayOperations.swift, compiled against Petrel (the
// same file, linked from GRDBEverydayOps, is compiled against GRDB).
@_exported import Petrel
