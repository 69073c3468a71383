/* The only file that calls libarchive: its functions, looked up when the
 * first archive is opened (see petrel_archive.h). */
#include "petrel_archive.h"

#include "petrel_loader.h"
#include <pthread.h>
#include <string.h>

#define PETREL_ARCHIVE_FUNCTIONS(X) \
    X(archive_read_new) \
    X(archive_read_free) \
    X(archive_read_support_format_zip) \
    X(archive_read_support_format_all) \
    X(archive_read_support_filter_all) \
    X(archive_read_support_format_raw) \
    X(archive_filter_count) \
    X(archive_filter_name) \
    X(archive_read_open_memory) \
    X(archive_read_next_header) \
    X(archive_read_data) \
    X(archive_error_string) \
    X(archive_entry_is_encrypted) \
    X(archive_entry_size_is_set) \
    X(archive_entry_size) \
    X(archive_entry_pathname_utf8) \
    X(archive_entry_pathname) \
    X(archive_entry_filetype)

/* One pointer per function, of the type its declaration in libarchive's
 * headers gives it. */
#define PETREL_ARCHIVE_POINTER(name) static __typeof__(name) *pointer_##name;
PETREL_ARCHIVE_FUNCTIONS(PETREL_ARCHIVE_POINTER)
#undef PETREL_ARCHIVE_POINTER

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libarchive was not loaded";

static void load(void) {
#define PETREL_ARCHIVE_NAME(name) #name,
#define PETREL_ARCHIVE_SLOT(name) (void *)&pointer_##name,
    static const char *const names[] = { PETREL_ARCHIVE_FUNCTIONS(PETREL_ARCHIVE_NAME) };
    void *const slots[] = { PETREL_ARCHIVE_FUNCTIONS(PETREL_ARCHIVE_SLOT) };
#undef PETREL_ARCHIVE_NAME
#undef PETREL_ARCHIVE_SLOT
    load_error = petrel_load_library("libarchive.so.13", sizeof names / sizeof *names, names, slots);
}

const char *petrel_archive_unavailable(void) {
    pthread_once(&load_once, load);
    return load_error;
}

struct archive *petrel_archive_read_new(void) { return pointer_archive_read_new(); }
int petrel_archive_read_free(struct archive *reader) { return pointer_archive_read_free(reader); }
int petrel_archive_read_support_format_zip(struct archive *reader) { return pointer_archive_read_support_format_zip(reader); }
int petrel_archive_read_support_format_all(struct archive *reader) { return pointer_archive_read_support_format_all(reader); }
int petrel_archive_read_support_filter_all(struct archive *reader) { return pointer_archive_read_support_filter_all(reader); }
int petrel_archive_read_support_format_raw(struct archive *reader) { return pointer_archive_read_support_format_raw(reader); }
int petrel_archive_filter_count(struct archive *reader) { return pointer_archive_filter_count(reader); }
const char *petrel_archive_filter_name(struct archive *reader, int index) { return pointer_archive_filter_name(reader, index); }
int petrel_archive_read_open_memory(struct archive *reader, const void *buffer, size_t size) {
    return pointer_archive_read_open_memory(reader, buffer, size);
}
int petrel_archive_read_next_header(struct archive *reader, struct archive_entry **entry) {
    return pointer_archive_read_next_header(reader, entry);
}
la_ssize_t petrel_archive_read_data(struct archive *reader, void *buffer, size_t size) {
    return pointer_archive_read_data(reader, buffer, size);
}
const char *petrel_archive_error_string(struct archive *reader) { return pointer_archive_error_string(reader); }
int petrel_archive_entry_is_encrypted(struct archive_entry *entry) { return pointer_archive_entry_is_encrypted(entry); }
int petrel_archive_entry_size_is_set(struct archive_entry *entry) { return pointer_archive_entry_size_is_set(entry); }
la_int64_t petrel_archive_entry_size(struct archive_entry *entry) { return pointer_archive_entry_size(entry); }
const char *petrel_archive_entry_pathname_utf8(struct archive_entry *entry) { return pointer_archive_entry_pathname_utf8(entry); }
const char *petrel_archive_entry_pathname(struct archive_entry *entry) { return pointer_archive_entry_pathname(entry); }
int petrel_archive_entry_is_regular_file(struct archive_entry *entry) { return pointer_archive_entry_filetype(entry) == AE_IFREG; }
