#ifndef PETREL_LIBXML2_DECLARATIONS_H
#define PETREL_LIBXML2_DECLARATIONS_H

/* The part of libxml2's C interface that petrel_xml.c calls (through
 * pointers it looks up when the first XML document is read), declared here
 * instead of including <libxml/xmlreader.h>: those headers need
 * pkg-config's include path, and a C target may not take include paths
 * outside the package without unsafe flags, which would make PetrelIndex
 * unusable as a dependency; a system library target for them would link
 * libxml2 into every program, petrel-search included, which reads no XML.
 *
 * Every type is opaque except xmlError, whose fields libxml2 documents as
 * public (its layout is part of libxml2.so.2's ABI). A test
 * (declarationsMatchTheHeaders) compiles petrel_xml.c with the real
 * headers included first (PETREL_XML_CHECK_DECLARATIONS): a declaration
 * here that disagrees with libxml2's is then a compile error. */

#include <stddef.h>

#ifdef PETREL_XML_CHECK_DECLARATIONS
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
/* The values and layout declared below in a normal build. */
_Static_assert(XML_PARSE_NOERROR == 1 << 5 && XML_PARSE_NOWARNING == 1 << 6 && XML_PARSE_NONET == 1 << 11
               && XML_PARSE_NOCDATA == 1 << 14 && XML_PARSE_COMPACT == 1 << 16, "libxml2's parser options moved");
_Static_assert(XML_READER_TYPE_ELEMENT == 1 && XML_READER_TYPE_TEXT == 3 && XML_READER_TYPE_CDATA == 4
               && XML_READER_TYPE_WHITESPACE == 13 && XML_READER_TYPE_SIGNIFICANT_WHITESPACE == 14
               && XML_READER_TYPE_END_ELEMENT == 15, "libxml2's node types moved");
_Static_assert(XML_ERR_ERROR == 2, "libxml2's error levels moved");
_Static_assert(offsetof(xmlError, message) == 8 && offsetof(xmlError, level) == 16 && offsetof(xmlError, line) == 32,
               "xmlError's layout moved");
#else

typedef unsigned char xmlChar;
typedef struct _xmlTextReader xmlTextReader;
typedef xmlTextReader *xmlTextReaderPtr;

typedef enum {
    XML_ERR_NONE = 0,
    XML_ERR_WARNING = 1,
    XML_ERR_ERROR = 2,
    XML_ERR_FATAL = 3
} xmlErrorLevel;

typedef struct _xmlError {
    int domain;
    int code;
    char *message;
    xmlErrorLevel level;
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2;
    void *ctxt;
    void *node;
} xmlError;
typedef xmlError *xmlErrorPtr;

typedef void (*xmlStructuredErrorFunc)(void *userData, xmlErrorPtr error);

enum {
    XML_PARSE_NOERROR = 1 << 5,
    XML_PARSE_NOWARNING = 1 << 6,
    XML_PARSE_NONET = 1 << 11,
    XML_PARSE_NOCDATA = 1 << 14,
    XML_PARSE_COMPACT = 1 << 16
};

enum {
    XML_READER_TYPE_ELEMENT = 1,
    XML_READER_TYPE_TEXT = 3,
    XML_READER_TYPE_CDATA = 4,
    XML_READER_TYPE_WHITESPACE = 13,
    XML_READER_TYPE_SIGNIFICANT_WHITESPACE = 14,
    XML_READER_TYPE_END_ELEMENT = 15
};

#endif

/* Declared in both builds: with the real headers, a prototype here that
 * disagrees with libxml2's is a conflicting declaration. */
void xmlInitParser(void);
xmlTextReaderPtr xmlReaderForMemory(const char *buffer, int size, const char *URL, const char *encoding, int options);
void xmlTextReaderSetStructuredErrorHandler(xmlTextReaderPtr reader, xmlStructuredErrorFunc f, void *arg);
void xmlFreeTextReader(xmlTextReaderPtr reader);
int xmlTextReaderRead(xmlTextReaderPtr reader);
int xmlTextReaderNodeType(xmlTextReaderPtr reader);
const xmlChar *xmlTextReaderConstLocalName(xmlTextReaderPtr reader);
const xmlChar *xmlTextReaderConstNamespaceUri(xmlTextReaderPtr reader);
const xmlChar *xmlTextReaderConstValue(xmlTextReaderPtr reader);
int xmlTextReaderIsEmptyElement(xmlTextReaderPtr reader);
int xmlTextReaderDepth(xmlTextReaderPtr reader);
int xmlTextReaderMoveToFirstAttribute(xmlTextReaderPtr reader);
int xmlTextReaderMoveToNextAttribute(xmlTextReaderPtr reader);
int xmlTextReaderMoveToElement(xmlTextReaderPtr reader);

#endif
