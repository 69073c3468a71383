#ifndef PETREL_MAIL_H
#define PETREL_MAIL_H

/* Mail messages through GMime 3 (libgmime-3.0-dev). This header exposes no
 * GMime or GLib type: a message is an opaque handle, read through the
 * functions below, and all text comes out as NUL-terminated UTF-8 owned by
 * the message (valid until petrel_mail_free).
 *
 * Headers are decoded (RFC 2047 encoded words, raw 8-bit text tried as
 * UTF-8 then windows-1252). A message's leaf MIME parts are listed in
 * order, multiparts walked into; an attached message (message/rfc822) is
 * one part whose content is the whole attached message. A multipart whose
 * boundary never appears is one text/plain part: its body as written.
 *
 * Messages may be parsed on several threads at once (GMime is set up once,
 * on first use); one message handle is used by one thread at a time. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct petrel_mail_message petrel_mail_message;

/* Address headers. */
enum { PETREL_MAIL_FROM = 0, PETREL_MAIL_TO = 1, PETREL_MAIL_CC = 2 };

/* NULL when GMime (libgmime-3.0.so.0) is loaded and ready, else why it
 * cannot be: it is loaded at the first call of this function or of
 * petrel_mail_parse, never at the program's start. */
const char *petrel_mail_unavailable(void);

/* Parses one message from `length` bytes (copied: the buffer may go
 * away). At most `maximum_parts` leaf parts are listed, and multiparts
 * are walked `maximum_depth` levels deep; what lies beyond is counted in
 * petrel_mail_parts_left_out. NULL when GMime cannot read the bytes. */
petrel_mail_message *petrel_mail_parse(const uint8_t *bytes, size_t length, int32_t maximum_parts, int32_t maximum_depth);
void petrel_mail_free(petrel_mail_message *message);

/* How many header fields the message has (0: not a mail message). */
int32_t petrel_mail_header_count(petrel_mail_message *message);
/* The decoded Subject, or NULL. */
const char *petrel_mail_subject(petrel_mail_message *message);
/* The Message-ID without angle brackets, or NULL. */
const char *petrel_mail_message_id(petrel_mail_message *message);
/* 1 with the Date header in seconds since 1970 (UTC) in *seconds, or 0. */
int32_t petrel_mail_date(petrel_mail_message *message, int64_t *seconds);

/* The number of mailboxes in an address header (groups flattened). */
int32_t petrel_mail_address_count(petrel_mail_message *message, int32_t field);
/* The index-th mailbox of a header: its display name (NULL when none) in
 * *name and the address as written ("Ann Smith <ann@example.org>") in
 * *text. Returns 0, or -1 when index is out of range. */
int32_t petrel_mail_address(petrel_mail_message *message, int32_t field, int32_t index, const char **name, const char **text);

/* A leaf part, as petrel_mail_part_at describes it. */
typedef struct petrel_mail_part {
    const char *content_type;  /* "text/plain", lowercase */
    const char *charset;       /* the charset parameter, or NULL */
    const char *file_name;     /* the decoded file name, or NULL */
    int32_t is_attachment;     /* Content-Disposition: attachment */
    int32_t is_encrypted;      /* multipart/encrypted: no content */
} petrel_mail_part;

/* How many leaf parts were listed, and how many were left out (past the
 * part or depth bound). */
int32_t petrel_mail_part_count(petrel_mail_message *message);
int32_t petrel_mail_parts_left_out(petrel_mail_message *message);

/* Describes the index-th part. Returns 0, or -1 when out of range. */
int32_t petrel_mail_part_at(petrel_mail_message *message, int32_t index, petrel_mail_part *part);

/* The index-th part's content, transfer-decoded (base64, quoted-printable,
 * uuencode) but not charset-converted: *bytes and *length stay valid until
 * the next call or petrel_mail_free. Returns 0, or -1 when out of range or
 * when the content is larger than `maximum_length` bytes. */
int32_t petrel_mail_part_content(petrel_mail_message *message, int32_t index, size_t maximum_length, const uint8_t **bytes, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
