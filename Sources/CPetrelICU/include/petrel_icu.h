#ifndef PETREL_ICU_H
#define PETREL_ICU_H

/* A small C bridge over the system ICU (libicu-dev). This header exposes no
 * ICU type: Swift modules that see Foundation (which carries its own ICU)
 * cannot import the system ICU headers, so only this file's opaque handles
 * and plain C types cross into Swift.
 *
 * All text is UTF-8. Functions that produce text write into `out`
 * (`capacity` bytes) and return the number of bytes the result needs
 * (without NUL): when that exceeds `capacity`, call again with a larger
 * buffer. A negative return value is an error. Error messages are written
 * into `message` (`message_capacity` bytes, NUL-terminated) when given. */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: - Word breaking */

typedef struct petrel_icu_breaker petrel_icu_breaker;

/* Segment kinds, from ICU's word rule status. */
enum {
    PETREL_ICU_SEGMENT_NONE = 0,   /* spaces, punctuation, symbols */
    PETREL_ICU_SEGMENT_NUMBER = 1,
    PETREL_ICU_SEGMENT_LETTER = 2,
    PETREL_ICU_SEGMENT_KANA = 3,
    PETREL_ICU_SEGMENT_IDEO = 4
};

/* A word break iterator for a locale ("" for the root locale). NULL on error. */
petrel_icu_breaker *petrel_icu_breaker_open(const char *locale, char *message, int32_t message_capacity);
void petrel_icu_breaker_close(petrel_icu_breaker *breaker);

/* Points the iterator at UTF-8 text, which must stay alive while iterating.
 * Returns 0, or a negative error. */
int32_t petrel_icu_breaker_set_text(petrel_icu_breaker *breaker, const char *utf8, int32_t length);

/* Moves to the next segment: returns 1 with its UTF-8 byte range
 * [*start, *end) and kind, or 0 at the end of the text. */
int32_t petrel_icu_breaker_next(petrel_icu_breaker *breaker, int32_t *start, int32_t *end, int32_t *kind);

/* MARK: - Folding and normalization */

enum {
    PETREL_ICU_FOLD_CASE = 1 << 0,              /* full Unicode case folding */
    PETREL_ICU_FOLD_TURKIC = 1 << 1,            /* with FOLD_CASE: I → ı, İ → i */
    PETREL_ICU_FOLD_LATIN_DIACRITICS = 1 << 2,  /* remove Latin combining marks only */
    PETREL_ICU_FOLD_NFKC = 1 << 3               /* compatibility composition (ﬁ → fi) */
};

/* Folds a string as the options say; the result is NFC (or NFKC). */
int32_t petrel_icu_fold(const char *in, int32_t length, int32_t options, char *out, int32_t capacity);

enum { PETREL_ICU_NFC = 0, PETREL_ICU_NFD = 1, PETREL_ICU_NFKC = 2, PETREL_ICU_NFKD = 3 };

int32_t petrel_icu_normalize(int32_t form, const char *in, int32_t length, char *out, int32_t capacity);

enum { PETREL_ICU_LOWER = 0, PETREL_ICU_UPPER = 1, PETREL_ICU_CASEFOLD = 2, PETREL_ICU_TITLE = 3 };

/* Locale-aware case mapping ("tr" maps i → İ). */
int32_t petrel_icu_case_map(const char *locale, int32_t operation, const char *in, int32_t length, char *out, int32_t capacity);

/* MARK: - Transliteration */

typedef struct petrel_icu_transliterator petrel_icu_transliterator;

/* A transliterator by ICU id ("Any-Latin; Latin-ASCII"). NULL on error. */
petrel_icu_transliterator *petrel_icu_transliterator_open(const char *id, char *message, int32_t message_capacity);
void petrel_icu_transliterator_close(petrel_icu_transliterator *transliterator);
int32_t petrel_icu_transliterate(petrel_icu_transliterator *transliterator, const char *in, int32_t length, char *out, int32_t capacity);

/* MARK: - Collation */

typedef struct petrel_icu_collator petrel_icu_collator;

/* strength: 0 primary, 1 secondary, 2 tertiary, 3 quaternary, 15 identical.
 * numeric: compare digit runs by value ("file2" < "file10").
 * Fails (NULL) for locales ICU does not know. */
petrel_icu_collator *petrel_icu_collator_open(const char *locale, int32_t strength, int32_t numeric, char *message, int32_t message_capacity);
void petrel_icu_collator_close(petrel_icu_collator *collator);
/* -1, 0 or 1. */
int32_t petrel_icu_collator_compare(const petrel_icu_collator *collator, const char *a, int32_t a_length, const char *b, int32_t b_length);

/* MARK: - Regular expressions */

typedef struct petrel_icu_regex petrel_icu_regex;

enum { PETREL_ICU_REGEX_CASE_INSENSITIVE = 1 << 0 };

petrel_icu_regex *petrel_icu_regex_open(const char *pattern, int32_t length, int32_t flags, char *message, int32_t message_capacity);
void petrel_icu_regex_close(petrel_icu_regex *regex);
/* 1 when the pattern matches somewhere in the subject, 0 when not, negative on error. */
int32_t petrel_icu_regex_find(petrel_icu_regex *regex, const char *subject, int32_t length);

/* MARK: - Locales */

/* 1 when ICU has data for the locale's language (or it is "" / "root"), else 0. */
int32_t petrel_icu_locale_is_known(const char *locale);

/* MARK: - Character sets */

/* Guesses the character set of bytes of unknown encoding. Writes its name
 * (such as "Shift_JIS", "windows-1252") into `name` and returns ICU's
 * confidence, 0-100, or a negative error. */
int32_t petrel_icu_detect_charset(const char *bytes, int32_t length, char *name, int32_t name_capacity);

/* Converts bytes in a named character set to UTF-8; malformed bytes become
 * U+FFFD. Returns the needed byte count, or a negative error (unknown name). */
int32_t petrel_icu_convert_to_utf8(const char *charset, const char *bytes, int32_t length, char *out, int32_t capacity);

/* The ICU version, such as "72.1". */
const char *petrel_icu_version(void);

#ifdef __cplusplus
}
#endif

#endif
