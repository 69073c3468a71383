#ifndef PETREL_XML_H
#define PETREL_XML_H

/* A small C bridge over libxml2's streaming reader (xmlTextReader). This
 * header exposes no libxml2 type: libxml2's headers include the system
 * ICU's, which a Swift module that sees Foundation cannot import.
 *
 * The reader never loads a DTD or an external entity, never touches the
 * network, and does not substitute entities: an entity reference in text
 * stays a reference, so XXE and "billion laughs" documents read as their
 * plain text. Errors are recorded, never printed. All text is UTF-8. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct petrel_xml_reader petrel_xml_reader;

/* NULL when libxml2 (libxml2.so.2) is loaded and ready, else why it cannot
 * be. It is loaded (dlopen) when the first document is read, not at the
 * program's start: petrel-search, which reads none, would otherwise load
 * it (and liblzma) at each start. petrel_xml_open returns NULL until then. */
const char *petrel_xml_unavailable(void);

/* What petrel_xml_next found. */
enum {
    PETREL_XML_FAILED = -1,      /* malformed XML: see petrel_xml_error */
    PETREL_XML_DONE = 0,         /* the end of the document */
    PETREL_XML_START = 1,        /* an element's start tag */
    PETREL_XML_END = 2,          /* an element's end tag (not sent for <empty/>) */
    PETREL_XML_TEXT = 3,         /* text, CDATA or whitespace */
    PETREL_XML_OTHER = 4         /* comments, processing instructions, entity references... */
};

/* A reader over a copy of `length` bytes, or NULL when out of memory or
 * when libxml2 is unavailable. */
petrel_xml_reader *petrel_xml_open(const char *bytes, size_t length);
void petrel_xml_close(petrel_xml_reader *reader);

/* Moves to the next node; returns one of the PETREL_XML_ values. */
int32_t petrel_xml_next(petrel_xml_reader *reader);

/* The current node's local name ("p" for <w:p>) and namespace URI; NULL
 * when it has none. Valid until the next call of petrel_xml_next. */
const char *petrel_xml_local_name(petrel_xml_reader *reader);
const char *petrel_xml_namespace(petrel_xml_reader *reader);
/* The text of a text node; NULL for other nodes. */
const char *petrel_xml_value(petrel_xml_reader *reader);
/* Whether the current start tag is empty (<br/>): no END follows it. */
int32_t petrel_xml_is_empty(petrel_xml_reader *reader);
/* The depth of the current node (the root element is 0). */
int32_t petrel_xml_depth(petrel_xml_reader *reader);

/* The value of the current element's first attribute whose local name is
 * `local_name` (`val` finds `w:val`), copied into `out` (`capacity` bytes,
 * NUL-terminated when it fits). `namespaced` 1 takes only an attribute in a
 * namespace (`r:id`), 0 only one without (`id`), -1 either. Returns the
 * value's length in bytes (without NUL), or -1 when the element has no
 * such attribute. */
int32_t petrel_xml_attribute(petrel_xml_reader *reader, const char *local_name, int32_t namespaced, char *out, int32_t capacity);

/* The first error's message and line, or NULL / 0. */
const char *petrel_xml_error(petrel_xml_reader *reader);
int32_t petrel_xml_error_line(petrel_xml_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
