/* libxml2's streaming reader, for the C target CPetrelXML only: libxml2's
 * headers include the system ICU's, which a Swift module that sees
 * Foundation cannot import, so no Swift code imports this module. */
#include <libxml/xmlreader.h>
