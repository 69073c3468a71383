/* The only file that calls libxml2: its functions, looked up when the
 * first XML document is read (see petrel_xml.h). */
#include "libxml2_declarations.h"
#include "petrel_xml.h"

#include "petrel_loader.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PETREL_XML_FUNCTIONS(X) \
    X(xmlInitParser) \
    X(xmlReaderForMemory) \
    X(xmlTextReaderSetStructuredErrorHandler) \
    X(xmlFreeTextReader) \
    X(xmlTextReaderRead) \
    X(xmlTextReaderNodeType) \
    X(xmlTextReaderConstLocalName) \
    X(xmlTextReaderConstNamespaceUri) \
    X(xmlTextReaderConstValue) \
    X(xmlTextReaderIsEmptyElement) \
    X(xmlTextReaderDepth) \
    X(xmlTextReaderMoveToFirstAttribute) \
    X(xmlTextReaderMoveToNextAttribute) \
    X(xmlTextReaderMoveToElement)

/* One pointer per function, of the type its declaration gives it; the
 * calls below go through them. */
#define PETREL_XML_POINTER(name) static __typeof__(name) *pointer_##name;
PETREL_XML_FUNCTIONS(PETREL_XML_POINTER)
#undef PETREL_XML_POINTER

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libxml2 was not loaded";

static void load(void) {
#define PETREL_XML_NAME(name) #name,
#define PETREL_XML_SLOT(name) (void *)&pointer_##name,
    static const char *const names[] = { PETREL_XML_FUNCTIONS(PETREL_XML_NAME) };
    void *const slots[] = { PETREL_XML_FUNCTIONS(PETREL_XML_SLOT) };
#undef PETREL_XML_NAME
#undef PETREL_XML_SLOT
    load_error = petrel_load_library("libxml2.so.2", sizeof names / sizeof *names, names, slots);
    /* libxml2 must be initialized once before threads use it. */
    if (load_error == NULL) pointer_xmlInitParser();
}

const char *petrel_xml_unavailable(void) {
    pthread_once(&load_once, load);
    return load_error;
}

/* The code below calls libxml2 by its own names, through the pointers. */
#define xmlReaderForMemory pointer_xmlReaderForMemory
#define xmlTextReaderSetStructuredErrorHandler pointer_xmlTextReaderSetStructuredErrorHandler
#define xmlFreeTextReader pointer_xmlFreeTextReader
#define xmlTextReaderRead pointer_xmlTextReaderRead
#define xmlTextReaderNodeType pointer_xmlTextReaderNodeType
#define xmlTextReaderConstLocalName pointer_xmlTextReaderConstLocalName
#define xmlTextReaderConstNamespaceUri pointer_xmlTextReaderConstNamespaceUri
#define xmlTextReaderConstValue pointer_xmlTextReaderConstValue
#define xmlTextReaderIsEmptyElement pointer_xmlTextReaderIsEmptyElement
#define xmlTextReaderDepth pointer_xmlTextReaderDepth
#define xmlTextReaderMoveToFirstAttribute pointer_xmlTextReaderMoveToFirstAttribute
#define xmlTextReaderMoveToNextAttribute pointer_xmlTextReaderMoveToNextAttribute
#define xmlTextReaderMoveToElement pointer_xmlTextReaderMoveToElement

struct petrel_xml_reader {
    xmlTextReaderPtr reader;
    char *bytes;
    char message[256];
    int32_t line;
    int has_error;
};

/* Keeps the first error (later ones are usually its consequences). */
static void petrel_xml_record_error(void *context, xmlErrorPtr error) {
    petrel_xml_reader *reader = context;
    if (reader == NULL || error == NULL || reader->has_error) return;
    if (error->level < XML_ERR_ERROR) return;
    reader->has_error = 1;
    reader->line = error->line;
    const char *text = error->message != NULL ? error->message : "malformed XML";
    size_t length = strlen(text);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == ' ')) length--;
    if (length >= sizeof reader->message) length = sizeof reader->message - 1;
    memcpy(reader->message, text, length);
    reader->message[length] = 0;
}

petrel_xml_reader *petrel_xml_open(const char *bytes, size_t length) {
    if (petrel_xml_unavailable() != NULL || length > INT32_MAX) return NULL;
    petrel_xml_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    /* The reader reads the buffer lazily: it keeps its own copy. */
    reader->bytes = malloc(length > 0 ? length : 1);
    if (reader->bytes == NULL) { free(reader); return NULL; }
    if (length > 0) memcpy(reader->bytes, bytes, length);
    /* No NOENT (entities stay references), no DTDLOAD, no network; errors
     * go to the handler below, not to stderr. */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_COMPACT | XML_PARSE_NOCDATA;
    reader->reader = xmlReaderForMemory(reader->bytes, (int)length, NULL, NULL, options);
    if (reader->reader == NULL) { free(reader->bytes); free(reader); return NULL; }
    xmlTextReaderSetStructuredErrorHandler(reader->reader, petrel_xml_record_error, reader);
    return reader;
}

void petrel_xml_close(petrel_xml_reader *reader) {
    if (reader == NULL) return;
    xmlFreeTextReader(reader->reader);
    free(reader->bytes);
    free(reader);
}

int32_t petrel_xml_next(petrel_xml_reader *reader) {
    int result = xmlTextReaderRead(reader->reader);
    if (result == 0) return reader->has_error ? PETREL_XML_FAILED : PETREL_XML_DONE;
    if (result < 0) {
        if (!reader->has_error) {
            reader->has_error = 1;
            strcpy(reader->message, "malformed XML");
        }
        return PETREL_XML_FAILED;
    }
    switch (xmlTextReaderNodeType(reader->reader)) {
    case XML_READER_TYPE_ELEMENT: return PETREL_XML_START;
    case XML_READER_TYPE_END_ELEMENT: return PETREL_XML_END;
    case XML_READER_TYPE_TEXT:
    case XML_READER_TYPE_CDATA:
    case XML_READER_TYPE_WHITESPACE:
    case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
        return PETREL_XML_TEXT;
    default: return PETREL_XML_OTHER;
    }
}

const char *petrel_xml_local_name(petrel_xml_reader *reader) {
    return (const char *)xmlTextReaderConstLocalName(reader->reader);
}

const char *petrel_xml_namespace(petrel_xml_reader *reader) {
    return (const char *)xmlTextReaderConstNamespaceUri(reader->reader);
}

const char *petrel_xml_value(petrel_xml_reader *reader) {
    return (const char *)xmlTextReaderConstValue(reader->reader);
}

int32_t petrel_xml_is_empty(petrel_xml_reader *reader) {
    return xmlTextReaderIsEmptyElement(reader->reader) == 1;
}

int32_t petrel_xml_depth(petrel_xml_reader *reader) {
    return xmlTextReaderDepth(reader->reader);
}

int32_t petrel_xml_attribute(petrel_xml_reader *reader, const char *local_name, int32_t namespaced, char *out, int32_t capacity) {
    int32_t found = -1;
    if (xmlTextReaderMoveToFirstAttribute(reader->reader) != 1) return -1;
    do {
        const char *name = (const char *)xmlTextReaderConstLocalName(reader->reader);
        if (name == NULL || strcmp(name, local_name) != 0) continue;
        if (namespaced >= 0) {
            const char *uri = (const char *)xmlTextReaderConstNamespaceUri(reader->reader);
            if ((uri != NULL && uri[0] != 0) != (namespaced != 0)) continue;
        }
        const char *value = (const char *)xmlTextReaderConstValue(reader->reader);
        if (value == NULL) value = "";
        size_t length = strlen(value);
        if (length > INT32_MAX) length = INT32_MAX;
        if (out != NULL && capacity > 0) {
            size_t copied = length < (size_t)capacity - 1 ? length : (size_t)capacity - 1;
            memcpy(out, value, copied);
            out[copied] = 0;
        }
        found = (int32_t)length;
        break;
    } while (xmlTextReaderMoveToNextAttribute(reader->reader) == 1);
    xmlTextReaderMoveToElement(reader->reader);
    return found;
}

const char *petrel_xml_error(petrel_xml_reader *reader) {
    return reader->has_error ? reader->message : NULL;
}

int32_t petrel_xml_error_line(petrel_xml_reader *reader) {
    return reader->line;
}
