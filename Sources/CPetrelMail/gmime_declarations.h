#ifndef PETREL_GMIME_DECLARATIONS_H
#define PETREL_GMIME_DECLARATIONS_H

/* The part of GMime 3's and GLib's C interface that petrel_mail.c calls
 * (through pointers it looks up when GMime is first needed), declared
 * here instead of including <gmime/gmime.h>: those headers need
 * pkg-config's flags (-I for GLib, -pthread, -D_LARGEFILE64_SOURCE), and
 * SwiftPM warns about every flag it does not allow from pkg-config, while
 * a C target may not take include paths outside the package without
 * unsafe flags, which would make PetrelIndex unusable as a dependency.
 *
 * Every type is opaque except GByteArray, whose two fields GLib documents
 * as public. MailAndArchiveTests compiles petrel_mail.c with the real
 * headers included first (PETREL_MAIL_CHECK_DECLARATIONS): a declaration
 * here that disagrees with GMime's is then a compile error. */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef PETREL_MAIL_CHECK_DECLARATIONS
#include <gmime/gmime.h>
/* The values and layout declared below in a normal build. */
_Static_assert(GMIME_FORMAT_MESSAGE == 0 && GMIME_RFC_COMPLIANCE_LOOSE == 0, "GMime's enums moved");
_Static_assert(GMIME_ADDRESS_TYPE_FROM == 1 && GMIME_ADDRESS_TYPE_TO == 3 && GMIME_ADDRESS_TYPE_CC == 4, "GMime's address types moved");
_Static_assert(offsetof(GByteArray, data) == 0 && offsetof(GByteArray, len) == sizeof(void *), "GByteArray's layout moved");
#else

typedef int gboolean;
typedef unsigned int guint;
typedef unsigned long GType;

typedef struct _GTypeInstance GTypeInstance;
typedef struct _GDateTime GDateTime;
typedef struct _GByteArray {
    uint8_t *data;
    guint len;
} GByteArray;

typedef struct _GMimeStream GMimeStream;
typedef struct _GMimeStreamMem GMimeStreamMem;
typedef struct _GMimeParser GMimeParser;
typedef struct _GMimeParserOptions GMimeParserOptions;
typedef struct _GMimeFormatOptions GMimeFormatOptions;
typedef struct _GMimeObject GMimeObject;
typedef struct _GMimeMessage GMimeMessage;
typedef struct _GMimeMultipart GMimeMultipart;
typedef struct _GMimePart GMimePart;
typedef struct _GMimeMessagePart GMimeMessagePart;
typedef struct _GMimeDataWrapper GMimeDataWrapper;
typedef struct _GMimeContentType GMimeContentType;
typedef struct _GMimeContentDisposition GMimeContentDisposition;
typedef struct _GMimeHeaderList GMimeHeaderList;
typedef struct _InternetAddress InternetAddress;
typedef struct _InternetAddressGroup InternetAddressGroup;
typedef struct _InternetAddressList InternetAddressList;

typedef enum { GMIME_FORMAT_MESSAGE = 0, GMIME_FORMAT_MBOX, GMIME_FORMAT_MMDF } GMimeFormat;
typedef enum { GMIME_RFC_COMPLIANCE_LOOSE = 0, GMIME_RFC_COMPLIANCE_STRICT } GMimeRfcComplianceMode;
typedef enum _GMimeAddressType {
    GMIME_ADDRESS_TYPE_SENDER = 0, GMIME_ADDRESS_TYPE_FROM, GMIME_ADDRESS_TYPE_REPLY_TO,
    GMIME_ADDRESS_TYPE_TO, GMIME_ADDRESS_TYPE_CC, GMIME_ADDRESS_TYPE_BCC,
} GMimeAddressType;
#endif

/* GLib and GObject */
void g_free(void *mem);
void g_object_unref(void *object);
gboolean g_type_check_instance_is_a(GTypeInstance *instance, GType iface_type);
int64_t g_date_time_to_unix(GDateTime *datetime);

/* GMime */
void g_mime_init(void);
GType g_mime_multipart_get_type(void);
GType g_mime_multipart_encrypted_get_type(void);
GType g_mime_part_get_type(void);
GType g_mime_message_part_get_type(void);
GType internet_address_group_get_type(void);

GMimeStream *g_mime_stream_mem_new(void);
GMimeStream *g_mime_stream_mem_new_with_buffer(const char *buffer, size_t len);
GByteArray *g_mime_stream_mem_get_byte_array(GMimeStreamMem *mem);

GMimeParser *g_mime_parser_new_with_stream(GMimeStream *stream);
void g_mime_parser_set_format(GMimeParser *parser, GMimeFormat format);
GMimeMessage *g_mime_parser_construct_message(GMimeParser *parser, GMimeParserOptions *options);
GMimeParserOptions *g_mime_parser_options_new(void);
void g_mime_parser_options_free(GMimeParserOptions *options);
void g_mime_parser_options_set_address_compliance_mode(GMimeParserOptions *options, GMimeRfcComplianceMode mode);
void g_mime_parser_options_set_allow_addresses_without_domain(GMimeParserOptions *options, gboolean allow);
void g_mime_parser_options_set_parameter_compliance_mode(GMimeParserOptions *options, GMimeRfcComplianceMode mode);
void g_mime_parser_options_set_rfc2047_compliance_mode(GMimeParserOptions *options, GMimeRfcComplianceMode mode);
void g_mime_parser_options_set_fallback_charsets(GMimeParserOptions *options, const char **charsets);

GMimeObject *g_mime_message_get_mime_part(GMimeMessage *message);
InternetAddressList *g_mime_message_get_addresses(GMimeMessage *message, GMimeAddressType type);
const char *g_mime_message_get_subject(GMimeMessage *message);
GDateTime *g_mime_message_get_date(GMimeMessage *message);
const char *g_mime_message_get_message_id(GMimeMessage *message);

GMimeHeaderList *g_mime_object_get_header_list(GMimeObject *object);
int g_mime_header_list_get_count(GMimeHeaderList *headers);
GMimeContentType *g_mime_object_get_content_type(GMimeObject *object);
const char *g_mime_object_get_content_type_parameter(GMimeObject *object, const char *name);
GMimeContentDisposition *g_mime_object_get_content_disposition(GMimeObject *object);
const char *g_mime_object_get_content_disposition_parameter(GMimeObject *object, const char *name);
ssize_t g_mime_object_write_to_stream(GMimeObject *object, GMimeFormatOptions *options, GMimeStream *stream);
char *g_mime_content_type_get_mime_type(GMimeContentType *content_type);
gboolean g_mime_content_disposition_is_attachment(GMimeContentDisposition *disposition);

int g_mime_multipart_get_count(GMimeMultipart *multipart);
GMimeObject *g_mime_multipart_get_part(GMimeMultipart *multipart, int index);
const char *g_mime_multipart_get_prologue(GMimeMultipart *multipart);
ssize_t g_mime_stream_write(GMimeStream *stream, const char *buffer, size_t length);
const char *g_mime_part_get_filename(GMimePart *mime_part);
GMimeDataWrapper *g_mime_part_get_content(GMimePart *mime_part);
ssize_t g_mime_data_wrapper_write_to_stream(GMimeDataWrapper *wrapper, GMimeStream *stream);
GMimeMessage *g_mime_message_part_get_message(GMimeMessagePart *part);

int internet_address_list_length(InternetAddressList *list);
InternetAddress *internet_address_list_get_address(InternetAddressList *list, int index);
InternetAddressList *internet_address_group_get_members(InternetAddressGroup *group);
const char *internet_address_get_name(InternetAddress *ia);
char *internet_address_to_string(InternetAddress *ia, GMimeFormatOptions *options, gboolean encode);

#endif
