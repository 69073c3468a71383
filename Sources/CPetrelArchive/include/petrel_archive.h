#ifndef PETREL_ARCHIVE_H
#define PETREL_ARCHIVE_H

/* libarchive (libarchive-dev): zip, tar (plain, gzip, bzip2, xz, zstd), 7z,
 * cpio and ar, and single files compressed with bzip2, xz, lzma, zstd, lzip,
 * lz4 or compress, read from memory. The office formats (OOXML, ODF, EPUB) are
 * zip files too.
 *
 * libarchive is loaded (dlopen) when the first archive is opened, not at
 * the program's start: petrel-search, which opens none, would otherwise
 * load it and the seven compression and ACL libraries it needs at each
 * start. Its types and constants come from its headers; its functions are
 * called through the petrel_ wrappers below, never directly. */
#include <archive.h>
#include <archive_entry.h>

/* NULL when libarchive (libarchive.so.13) is loaded and ready, else why it
 * cannot be. The wrappers below may be called only after a NULL. */
const char *petrel_archive_unavailable(void);

struct archive *petrel_archive_read_new(void);
int petrel_archive_read_free(struct archive *reader);
int petrel_archive_read_support_format_zip(struct archive *reader);
int petrel_archive_read_support_format_all(struct archive *reader);
int petrel_archive_read_support_filter_all(struct archive *reader);
/* A file compressed whole (bzip2, xz, zstd...) read as one entry, "data". */
int petrel_archive_read_support_format_raw(struct archive *reader);
/* The decompression filters applied, the last being "none" (the bytes as given). */
int petrel_archive_filter_count(struct archive *reader);
const char *petrel_archive_filter_name(struct archive *reader, int index);
int petrel_archive_read_open_memory(struct archive *reader, const void *buffer, size_t size);
int petrel_archive_read_next_header(struct archive *reader, struct archive_entry **entry);
la_ssize_t petrel_archive_read_data(struct archive *reader, void *buffer, size_t size);
const char *petrel_archive_error_string(struct archive *reader);
int petrel_archive_entry_is_encrypted(struct archive_entry *entry);
int petrel_archive_entry_size_is_set(struct archive_entry *entry);
la_int64_t petrel_archive_entry_size(struct archive_entry *entry);
const char *petrel_archive_entry_pathname_utf8(struct archive_entry *entry);
const char *petrel_archive_entry_pathname(struct archive_entry *entry);
/* AE_IFREG is a macro with a cast, which Swift does not import. */
int petrel_archive_entry_is_regular_file(struct archive_entry *entry);

#endif
