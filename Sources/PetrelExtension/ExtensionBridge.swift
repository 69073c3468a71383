// The one C callback of the extension: sqlite3_petrel_init (C, in
// CPetrelSQLiteExtension/entry.c) calls it once it has the host's routine
// table. The message of a failure is allocated with malloc; the entry point
// copies it into SQLite's memory and frees it.

import Foundation
import Petrel

@_cdecl("petrel_extension_register")
func petrelExtensionRegister(_ connection: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let connection else { return strdup("Petrel: no connection to register on") }
    do {
        try LoadableExtension.register(on: connection)
        return nil
    } catch {
        return strdup("Petrel: \(error)")
    }
}
