#ifndef PETREL_ARCHIVE_SHIM_H
#define PETREL_ARCHIVE_SHIM_H

/* libarchive (libarchive-dev): zip, tar (plain, gzip, bzip2, xz, zstd), 7z,
 * cpio and ar, read from memory. The office formats (OOXML, ODF, EPUB) are
 * zip files too. */
#include <archive.h>
#include <archive_entry.h>

/* AE_IFREG is a macro with a cast, which Swift does not import. */
static inline int petrel_archive_entry_is_regular_file(struct archive_entry *entry) {
    return archive_entry_filetype(entry) == AE_IFREG;
}

#endif
