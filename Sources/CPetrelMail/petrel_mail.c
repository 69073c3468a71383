/* The only file that calls GMime: one message parsed from memory, its
 * decoded headers and leaf parts handed out as plain C values. */
#include "petrel_mail.h"
#include "gmime_declarations.h"

#include "petrel_loader.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t petrel_mail_once = PTHREAD_ONCE_INIT;

/* GMime is loaded when the first message is parsed, not when the program
 * starts: petrel-search, which parses none, would otherwise load GMime,
 * GLib, GObject, GIO, GPGME and a dozen more libraries at each start
 * (2.2 ms of a process measured at 10 ms). Each function is called
 * through a pointer looked up in GMime (and the libraries it loads). */
#define PETREL_GMIME_FUNCTIONS(X) \
    X(g_free) \
    X(g_object_unref) \
    X(g_type_check_instance_is_a) \
    X(g_date_time_to_unix) \
    X(g_mime_init) \
    X(g_mime_multipart_get_type) \
    X(g_mime_multipart_encrypted_get_type) \
    X(g_mime_part_get_type) \
    X(g_mime_message_part_get_type) \
    X(internet_address_group_get_type) \
    X(g_mime_stream_mem_new) \
    X(g_mime_stream_mem_new_with_buffer) \
    X(g_mime_stream_mem_get_byte_array) \
    X(g_mime_parser_new_with_stream) \
    X(g_mime_parser_set_format) \
    X(g_mime_parser_construct_message) \
    X(g_mime_parser_options_new) \
    X(g_mime_parser_options_free) \
    X(g_mime_parser_options_set_address_compliance_mode) \
    X(g_mime_parser_options_set_allow_addresses_without_domain) \
    X(g_mime_parser_options_set_parameter_compliance_mode) \
    X(g_mime_parser_options_set_rfc2047_compliance_mode) \
    X(g_mime_parser_options_set_fallback_charsets) \
    X(g_mime_message_get_mime_part) \
    X(g_mime_message_get_addresses) \
    X(g_mime_message_get_subject) \
    X(g_mime_message_get_date) \
    X(g_mime_message_get_message_id) \
    X(g_mime_object_get_header_list) \
    X(g_mime_header_list_get_count) \
    X(g_mime_object_get_content_type) \
    X(g_mime_object_get_content_type_parameter) \
    X(g_mime_object_get_content_disposition) \
    X(g_mime_object_get_content_disposition_parameter) \
    X(g_mime_object_write_to_stream) \
    X(g_mime_content_type_get_mime_type) \
    X(g_mime_content_disposition_is_attachment) \
    X(g_mime_multipart_get_count) \
    X(g_mime_multipart_get_part) \
    X(g_mime_multipart_get_prologue) \
    X(g_mime_stream_write) \
    X(g_mime_part_get_filename) \
    X(g_mime_part_get_content) \
    X(g_mime_data_wrapper_write_to_stream) \
    X(g_mime_message_part_get_message) \
    X(internet_address_list_length) \
    X(internet_address_list_get_address) \
    X(internet_address_group_get_members) \
    X(internet_address_get_name) \
    X(internet_address_to_string)

#define PETREL_GMIME_POINTER(name) static __typeof__(name) *petrel_##name;
PETREL_GMIME_FUNCTIONS(PETREL_GMIME_POINTER)
#undef PETREL_GMIME_POINTER

#define g_free petrel_g_free
#define g_object_unref petrel_g_object_unref
#define g_type_check_instance_is_a petrel_g_type_check_instance_is_a
#define g_date_time_to_unix petrel_g_date_time_to_unix
#define g_mime_init petrel_g_mime_init
#define g_mime_multipart_get_type petrel_g_mime_multipart_get_type
#define g_mime_multipart_encrypted_get_type petrel_g_mime_multipart_encrypted_get_type
#define g_mime_part_get_type petrel_g_mime_part_get_type
#define g_mime_message_part_get_type petrel_g_mime_message_part_get_type
#define internet_address_group_get_type petrel_internet_address_group_get_type
#define g_mime_stream_mem_new petrel_g_mime_stream_mem_new
#define g_mime_stream_mem_new_with_buffer petrel_g_mime_stream_mem_new_with_buffer
#define g_mime_stream_mem_get_byte_array petrel_g_mime_stream_mem_get_byte_array
#define g_mime_parser_new_with_stream petrel_g_mime_parser_new_with_stream
#define g_mime_parser_set_format petrel_g_mime_parser_set_format
#define g_mime_parser_construct_message petrel_g_mime_parser_construct_message
#define g_mime_parser_options_new petrel_g_mime_parser_options_new
#define g_mime_parser_options_free petrel_g_mime_parser_options_free
#define g_mime_parser_options_set_address_compliance_mode petrel_g_mime_parser_options_set_address_compliance_mode
#define g_mime_parser_options_set_allow_addresses_without_domain petrel_g_mime_parser_options_set_allow_addresses_without_domain
#define g_mime_parser_options_set_parameter_compliance_mode petrel_g_mime_parser_options_set_parameter_compliance_mode
#define g_mime_parser_options_set_rfc2047_compliance_mode petrel_g_mime_parser_options_set_rfc2047_compliance_mode
#define g_mime_parser_options_set_fallback_charsets petrel_g_mime_parser_options_set_fallback_charsets
#define g_mime_message_get_mime_part petrel_g_mime_message_get_mime_part
#define g_mime_message_get_addresses petrel_g_mime_message_get_addresses
#define g_mime_message_get_subject petrel_g_mime_message_get_subject
#define g_mime_message_get_date petrel_g_mime_message_get_date
#define g_mime_message_get_message_id petrel_g_mime_message_get_message_id
#define g_mime_object_get_header_list petrel_g_mime_object_get_header_list
#define g_mime_header_list_get_count petrel_g_mime_header_list_get_count
#define g_mime_object_get_content_type petrel_g_mime_object_get_content_type
#define g_mime_object_get_content_type_parameter petrel_g_mime_object_get_content_type_parameter
#define g_mime_object_get_content_disposition petrel_g_mime_object_get_content_disposition
#define g_mime_object_get_content_disposition_parameter petrel_g_mime_object_get_content_disposition_parameter
#define g_mime_object_write_to_stream petrel_g_mime_object_write_to_stream
#define g_mime_content_type_get_mime_type petrel_g_mime_content_type_get_mime_type
#define g_mime_content_disposition_is_attachment petrel_g_mime_content_disposition_is_attachment
#define g_mime_multipart_get_count petrel_g_mime_multipart_get_count
#define g_mime_multipart_get_part petrel_g_mime_multipart_get_part
#define g_mime_multipart_get_prologue petrel_g_mime_multipart_get_prologue
#define g_mime_stream_write petrel_g_mime_stream_write
#define g_mime_part_get_filename petrel_g_mime_part_get_filename
#define g_mime_part_get_content petrel_g_mime_part_get_content
#define g_mime_data_wrapper_write_to_stream petrel_g_mime_data_wrapper_write_to_stream
#define g_mime_message_part_get_message petrel_g_mime_message_part_get_message
#define internet_address_list_length petrel_internet_address_list_length
#define internet_address_list_get_address petrel_internet_address_list_get_address
#define internet_address_group_get_members petrel_internet_address_group_get_members
#define internet_address_get_name petrel_internet_address_get_name
#define internet_address_to_string petrel_internet_address_to_string

/* Why GMime could not be loaded, or NULL once it is. */
static const char *petrel_mail_load_error = "GMime was not loaded";

static void petrel_mail_load(void) {
#define PETREL_GMIME_NAME(name) #name,
#define PETREL_GMIME_SLOT(name) (void *)&petrel_##name,
    static const char *const names[] = { PETREL_GMIME_FUNCTIONS(PETREL_GMIME_NAME) };
    void *const slots[] = { PETREL_GMIME_FUNCTIONS(PETREL_GMIME_SLOT) };
#undef PETREL_GMIME_NAME
#undef PETREL_GMIME_SLOT
    petrel_mail_load_error = petrel_load_library("libgmime-3.0.so.0", sizeof names / sizeof *names, names, slots);
    if (petrel_mail_load_error == NULL) g_mime_init();
}

const char *petrel_mail_unavailable(void) {
    pthread_once(&petrel_mail_once, petrel_mail_load);
    return petrel_mail_load_error;
}

/* What GMime's type-check macros do, as a function. */
static inline int petrel_gmime_is_a(void *object, GType type) {
    return object && g_type_check_instance_is_a((GTypeInstance *)object, type);
}

/* A growable array of pointers. */
typedef struct {
    void **items;
    int32_t count;
    int32_t capacity;
} pointer_list;

static int append(pointer_list *list, void *item) {
    if (list->count == list->capacity) {
        int32_t capacity = list->capacity ? list->capacity * 2 : 16;
        void **items = realloc(list->items, (size_t)capacity * sizeof *items);
        if (!items) return -1;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = item;
    return 0;
}

struct petrel_mail_message {
    GMimeMessage *message;
    pointer_list parts;          /* GMimeObject *, owned by message */
    pointer_list addresses[3];   /* InternetAddress *, owned by message */
    int32_t left_out;
    pointer_list strings;        /* char * from g_malloc, freed with the message */
    GMimeStream *content;        /* the last part content handed out */
};


/* A GLib-allocated string the message owns from now on. */
static const char *keep(petrel_mail_message *m, char *string) {
    if (string && append(&m->strings, string) != 0) {
        g_free(string);
        return NULL;
    }
    return string;
}

/* Whether `object` is a multipart whose boundary never appears (or that
 * names none): GMime then lists no part and keeps the whole body as the
 * prologue, which is the message's text. */
static int is_multipart_without_parts(GMimeObject *object) {
    if (!petrel_gmime_is_a(object, g_mime_multipart_get_type())) return 0;
    if (petrel_gmime_is_a(object, g_mime_multipart_encrypted_get_type())) return 0;
    GMimeMultipart *multipart = (GMimeMultipart *)object;
    if (g_mime_multipart_get_count(multipart) != 0) return 0;
    const char *prologue = g_mime_multipart_get_prologue(multipart);
    if (!prologue) return 0;
    for (const char *c = prologue; *c; c++) {
        if (*c != ' ' && *c != '\t' && *c != '\r' && *c != '\n') return 1;
    }
    return 0;
}

static void collect_parts(petrel_mail_message *m, GMimeObject *object, int32_t depth,
                          int32_t maximum_parts, int32_t maximum_depth) {
    if (!object) return;
    if (m->parts.count >= maximum_parts) { m->left_out += 1; return; }
    int is_multipart = petrel_gmime_is_a(object, g_mime_multipart_get_type());
    if (!is_multipart || petrel_gmime_is_a(object, g_mime_multipart_encrypted_get_type()) || is_multipart_without_parts(object)) {
        if (append(&m->parts, object) != 0) m->left_out += 1;
        return;
    }
    if (depth >= maximum_depth) { m->left_out += 1; return; }
    GMimeMultipart *multipart = (GMimeMultipart *)object;
    int count = g_mime_multipart_get_count(multipart);
    for (int index = 0; index < count; index++) {
        collect_parts(m, g_mime_multipart_get_part(multipart, index), depth + 1, maximum_parts, maximum_depth);
    }
}

static void collect_addresses(pointer_list *into, InternetAddressList *list, int32_t depth) {
    if (!list || depth > 4) return;
    int count = internet_address_list_length(list);
    for (int index = 0; index < count; index++) {
        InternetAddress *address = internet_address_list_get_address(list, index);
        if (!address) continue;
        if (petrel_gmime_is_a(address, internet_address_group_get_type())) {
            collect_addresses(into, internet_address_group_get_members((InternetAddressGroup *)address), depth + 1);
        } else {
            append(into, address);
        }
    }
}

petrel_mail_message *petrel_mail_parse(const uint8_t *bytes, size_t length, int32_t maximum_parts, int32_t maximum_depth) {
    if (petrel_mail_unavailable()) return NULL;
    GMimeStream *stream = g_mime_stream_mem_new_with_buffer((const char *)bytes, length);
    if (!stream) return NULL;
    GMimeParser *parser = g_mime_parser_new_with_stream(stream);
    g_object_unref(stream);
    if (!parser) return NULL;
    g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
    GMimeParserOptions *options = g_mime_parser_options_new();
    g_mime_parser_options_set_rfc2047_compliance_mode(options, GMIME_RFC_COMPLIANCE_LOOSE);
    g_mime_parser_options_set_address_compliance_mode(options, GMIME_RFC_COMPLIANCE_LOOSE);
    g_mime_parser_options_set_parameter_compliance_mode(options, GMIME_RFC_COMPLIANCE_LOOSE);
    g_mime_parser_options_set_allow_addresses_without_domain(options, 1);
    /* Raw 8-bit header text: UTF-8 when it is, else windows-1252. */
    const char *fallback[] = { "UTF-8", "windows-1252", NULL };
    g_mime_parser_options_set_fallback_charsets(options, fallback);
    GMimeMessage *message = g_mime_parser_construct_message(parser, options);
    g_mime_parser_options_free(options);
    g_object_unref(parser);
    if (!message) return NULL;

    petrel_mail_message *m = calloc(1, sizeof *m);
    if (!m) {
        g_object_unref(message);
        return NULL;
    }
    m->message = message;
    collect_parts(m, g_mime_message_get_mime_part(message), 0, maximum_parts, maximum_depth);
    const GMimeAddressType types[3] = { GMIME_ADDRESS_TYPE_FROM, GMIME_ADDRESS_TYPE_TO, GMIME_ADDRESS_TYPE_CC };
    for (int field = 0; field < 3; field++) {
        collect_addresses(&m->addresses[field], g_mime_message_get_addresses(message, types[field]), 0);
    }
    return m;
}

void petrel_mail_free(petrel_mail_message *m) {
    if (!m) return;
    for (int field = 0; field < 3; field++) free(m->addresses[field].items);
    free(m->parts.items);
    for (int32_t index = 0; index < m->strings.count; index++) g_free(m->strings.items[index]);
    free(m->strings.items);
    if (m->content) g_object_unref(m->content);
    g_object_unref(m->message);
    free(m);
}

int32_t petrel_mail_header_count(petrel_mail_message *m) {
    GMimeHeaderList *headers = g_mime_object_get_header_list((GMimeObject *)m->message);
    return headers ? (int32_t)g_mime_header_list_get_count(headers) : 0;
}

const char *petrel_mail_subject(petrel_mail_message *m) {
    return g_mime_message_get_subject(m->message);
}

const char *petrel_mail_message_id(petrel_mail_message *m) {
    return g_mime_message_get_message_id(m->message);
}

int32_t petrel_mail_date(petrel_mail_message *m, int64_t *seconds) {
    GDateTime *date = g_mime_message_get_date(m->message);
    if (!date) return 0;
    *seconds = (int64_t)g_date_time_to_unix(date);
    return 1;
}

int32_t petrel_mail_address_count(petrel_mail_message *m, int32_t field) {
    if (field < 0 || field > 2) return 0;
    return m->addresses[field].count;
}

int32_t petrel_mail_address(petrel_mail_message *m, int32_t field, int32_t index, const char **name, const char **text) {
    if (field < 0 || field > 2 || index < 0 || index >= m->addresses[field].count) return -1;
    InternetAddress *address = m->addresses[field].items[index];
    const char *display = internet_address_get_name(address);
    *name = display && *display ? display : NULL;
    *text = keep(m, internet_address_to_string(address, NULL, 0));
    return *text ? 0 : -1;
}

int32_t petrel_mail_part_count(petrel_mail_message *m) {
    return m->parts.count;
}

int32_t petrel_mail_parts_left_out(petrel_mail_message *m) {
    return m->left_out;
}

int32_t petrel_mail_part_at(petrel_mail_message *m, int32_t index, petrel_mail_part *part) {
    if (index < 0 || index >= m->parts.count) return -1;
    GMimeObject *object = m->parts.items[index];
    memset(part, 0, sizeof *part);
    GMimeContentType *type = g_mime_object_get_content_type(object);
    char *mime_type = type && !is_multipart_without_parts(object) ? (char *)keep(m, g_mime_content_type_get_mime_type(type)) : NULL;
    if (mime_type) {
        for (char *c = mime_type; *c; c++) if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    }
    part->content_type = mime_type ? mime_type : "text/plain";
    part->charset = g_mime_object_get_content_type_parameter(object, "charset");
    if (petrel_gmime_is_a(object, g_mime_part_get_type())) {
        part->file_name = g_mime_part_get_filename((GMimePart *)object);
    } else {
        part->file_name = g_mime_object_get_content_disposition_parameter(object, "filename");
        if (!part->file_name) part->file_name = g_mime_object_get_content_type_parameter(object, "name");
    }
    GMimeContentDisposition *disposition = g_mime_object_get_content_disposition(object);
    part->is_attachment = disposition && g_mime_content_disposition_is_attachment(disposition) ? 1 : 0;
    part->is_encrypted = petrel_gmime_is_a(object, g_mime_multipart_encrypted_get_type()) ? 1 : 0;
    return 0;
}

int32_t petrel_mail_part_content(petrel_mail_message *m, int32_t index, size_t maximum_length, const uint8_t **bytes, size_t *length) {
    if (index < 0 || index >= m->parts.count) return -1;
    GMimeObject *object = m->parts.items[index];
    if (m->content) g_object_unref(m->content);
    m->content = g_mime_stream_mem_new();
    if (!m->content) return -1;
    if (petrel_gmime_is_a(object, g_mime_part_get_type())) {
        GMimeDataWrapper *wrapper = g_mime_part_get_content((GMimePart *)object);
        if (wrapper) g_mime_data_wrapper_write_to_stream(wrapper, m->content);
    } else if (petrel_gmime_is_a(object, g_mime_message_part_get_type())) {
        GMimeMessage *attached = g_mime_message_part_get_message((GMimeMessagePart *)object);
        if (attached) g_mime_object_write_to_stream((GMimeObject *)attached, NULL, m->content);
    } else if (is_multipart_without_parts(object)) {
        const char *prologue = g_mime_multipart_get_prologue((GMimeMultipart *)object);
        g_mime_stream_write(m->content, prologue, strlen(prologue));
    }
    GByteArray *array = g_mime_stream_mem_get_byte_array((GMimeStreamMem *)m->content);
    if (!array || array->len > maximum_length) return -1;
    *bytes = array->data;
    *length = array->len;
    return 0;
}
