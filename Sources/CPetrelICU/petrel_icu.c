/* The system-ICU side of Petrel: the only file that includes ICU headers.
 * See include/petrel_icu.h for the contract of each function. */

#include "petrel_icu.h"

#include "petrel_loader.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include <unicode/ubrk.h>
#include <unicode/ucasemap.h>
#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/ucol.h>
#include <unicode/uloc.h>
#include <unicode/unorm2.h>
#include <unicode/uregex.h>
#include <unicode/ustring.h>
#include <unicode/utext.h>
#include <unicode/utrans.h>
#include <unicode/uversion.h>

/* MARK: - libicui18n, loaded at first use
 *
 * Collation, transliteration, regular expressions and charset detection
 * live in libicui18n, which a search uses none of: linked, it cost every
 * petrel-search process about 0.8 ms to load and relocate. It is loaded
 * (dlopen) the first time one of them is asked for; everything else
 * (word breaking, folding, normalization, case mapping, conversion) is in
 * libicuuc, linked as before. ICU renames its functions by version
 * (`ucol_open` is `ucol_open_72`): the names looked up are those the
 * headers give. */

#define PETREL_STRING(text) #text
#define PETREL_EXPANDED_STRING(text) PETREL_STRING(text)

#define PETREL_I18N_FUNCTIONS(X) \
    X(utrans_openU) X(utrans_close) X(utrans_transUChars) \
    X(ucol_open) X(ucol_setStrength) X(ucol_setAttribute) X(ucol_close) X(ucol_strcollUTF8) \
    X(uregex_openUText) X(uregex_close) X(uregex_setUText) X(uregex_find) \
    X(ucsdet_open) X(ucsdet_setText) X(ucsdet_detect) X(ucsdet_getName) X(ucsdet_getConfidence) X(ucsdet_close)

#define PETREL_I18N_POINTER(name) static __typeof__(name) *i18n_##name;
PETREL_I18N_FUNCTIONS(PETREL_I18N_POINTER)
#undef PETREL_I18N_POINTER

static pthread_once_t i18n_once = PTHREAD_ONCE_INIT;
static const char *i18n_error = "ICU's libicui18n was not loaded";

static void load_i18n(void) {
#define PETREL_I18N_NAME(name) PETREL_EXPANDED_STRING(name),
#define PETREL_I18N_SLOT(name) (void *)&i18n_##name,
    static const char *const names[] = { PETREL_I18N_FUNCTIONS(PETREL_I18N_NAME) };
    void *const slots[] = { PETREL_I18N_FUNCTIONS(PETREL_I18N_SLOT) };
#undef PETREL_I18N_NAME
#undef PETREL_I18N_SLOT
    i18n_error = petrel_load_library("libicui18n.so." PETREL_EXPANDED_STRING(U_ICU_VERSION_MAJOR_NUM), sizeof names / sizeof *names, names, slots);
}

/* NULL when libicui18n is ready, else why it is not (and writes it to
 * `message`). */
static const char *i18n_unavailable(char *message, int32_t capacity) {
    pthread_once(&i18n_once, load_i18n);
    if (i18n_error != NULL && message != NULL && capacity > 0) snprintf(message, (size_t)capacity, "%s", i18n_error);
    return i18n_error;
}

static void set_message(char *message, int32_t capacity, const char *prefix, UErrorCode error) {
    if (message == NULL || capacity <= 0) return;
    snprintf(message, (size_t)capacity, "%s: %s", prefix, u_errorName(error));
}

/* MARK: - UTF-16 buffers */

typedef struct {
    UChar *chars;
    int32_t length;
    int32_t capacity;
} buffer16;

static void buffer16_free(buffer16 *buffer) {
    free(buffer->chars);
    buffer->chars = NULL;
    buffer->length = buffer->capacity = 0;
}

static int buffer16_reserve(buffer16 *buffer, int32_t capacity) {
    if (capacity <= buffer->capacity) return 1;
    UChar *chars = realloc(buffer->chars, sizeof(UChar) * (size_t)capacity);
    if (chars == NULL) return 0;
    buffer->chars = chars;
    buffer->capacity = capacity;
    return 1;
}

/* UTF-8 → UTF-16; invalid bytes become U+FFFD. */
static int buffer16_from_utf8(buffer16 *buffer, const char *in, int32_t length) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t needed = 0;
    u_strFromUTF8WithSub(NULL, 0, &needed, in, length, 0xFFFD, NULL, &error);
    if (error != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(error)) return 0;
    if (!buffer16_reserve(buffer, needed + 1)) return 0;
    error = U_ZERO_ERROR;
    u_strFromUTF8WithSub(buffer->chars, buffer->capacity, &buffer->length, in, length, 0xFFFD, NULL, &error);
    return U_SUCCESS(error);
}

/* UTF-16 → UTF-8 into the caller's buffer; returns the needed byte count. */
static int32_t buffer16_to_utf8(const buffer16 *buffer, char *out, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t needed = 0;
    u_strToUTF8WithSub(out, capacity, &needed, buffer->chars, buffer->length, 0xFFFD, NULL, &error);
    if (U_FAILURE(error) && error != U_BUFFER_OVERFLOW_ERROR && error != U_STRING_NOT_TERMINATED_WARNING) return -1;
    return needed;
}

/* Applies a normalizer from `source` into `target`. */
static int normalize16(const UNormalizer2 *normalizer, const buffer16 *source, buffer16 *target) {
    UErrorCode error = U_ZERO_ERROR;
    int32_t needed = unorm2_normalize(normalizer, source->chars, source->length, target->chars, target->capacity, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) {
        if (!buffer16_reserve(target, needed + 1)) return 0;
        error = U_ZERO_ERROR;
        needed = unorm2_normalize(normalizer, source->chars, source->length, target->chars, target->capacity, &error);
    }
    if (U_FAILURE(error)) return 0;
    target->length = needed;
    return 1;
}

static void swap16(buffer16 *a, buffer16 *b) {
    buffer16 t = *a;
    *a = *b;
    *b = t;
}

/* MARK: - Word breaking */

struct petrel_icu_breaker {
    UBreakIterator *iterator;
    UText *text;
    int32_t previous;
};

petrel_icu_breaker *petrel_icu_breaker_open(const char *locale, char *message, int32_t message_capacity) {
    UErrorCode error = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_WORD, locale, NULL, 0, &error);
    if (U_FAILURE(error)) {
        set_message(message, message_capacity, "cannot open the ICU word break iterator", error);
        return NULL;
    }
    petrel_icu_breaker *breaker = calloc(1, sizeof(petrel_icu_breaker));
    if (breaker == NULL) {
        ubrk_close(iterator);
        return NULL;
    }
    breaker->iterator = iterator;
    return breaker;
}

void petrel_icu_breaker_close(petrel_icu_breaker *breaker) {
    if (breaker == NULL) return;
    ubrk_close(breaker->iterator);
    if (breaker->text != NULL) utext_close(breaker->text);
    free(breaker);
}

int32_t petrel_icu_breaker_set_text(petrel_icu_breaker *breaker, const char *utf8, int32_t length) {
    UErrorCode error = U_ZERO_ERROR;
    /* Reuse one UText: utext_openUTF8 re-initializes the one it is given. */
    breaker->text = utext_openUTF8(breaker->text, utf8, length, &error);
    if (U_FAILURE(error)) return -1;
    ubrk_setUText(breaker->iterator, breaker->text, &error);
    if (U_FAILURE(error)) return -1;
    breaker->previous = ubrk_first(breaker->iterator);
    return 0;
}

int32_t petrel_icu_breaker_next(petrel_icu_breaker *breaker, int32_t *start, int32_t *end, int32_t *kind) {
    int32_t boundary = ubrk_next(breaker->iterator);
    if (boundary == UBRK_DONE) return 0;
    int32_t status = ubrk_getRuleStatus(breaker->iterator);
    *start = breaker->previous;
    *end = boundary;
    breaker->previous = boundary;
    if (status >= UBRK_WORD_IDEO && status < UBRK_WORD_IDEO_LIMIT) *kind = PETREL_ICU_SEGMENT_IDEO;
    else if (status >= UBRK_WORD_KANA && status < UBRK_WORD_KANA_LIMIT) *kind = PETREL_ICU_SEGMENT_KANA;
    else if (status >= UBRK_WORD_LETTER && status < UBRK_WORD_LETTER_LIMIT) *kind = PETREL_ICU_SEGMENT_LETTER;
    else if (status >= UBRK_WORD_NUMBER && status < UBRK_WORD_NUMBER_LIMIT) *kind = PETREL_ICU_SEGMENT_NUMBER;
    else *kind = PETREL_ICU_SEGMENT_NONE;
    return 1;
}

/* MARK: - Folding */

static int is_latin_mark(UChar c) {
    return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF)
        || (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
}

/* Case-folds `a` into `b` and swaps them. */
static int fold_case16(buffer16 *a, buffer16 *b, uint32_t options) {
    UErrorCode error = U_ZERO_ERROR;
    if (!buffer16_reserve(b, a->length * 3 + 16)) return 0;
    int32_t needed = u_strFoldCase(b->chars, b->capacity, a->chars, a->length, options, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) {
        if (!buffer16_reserve(b, needed + 1)) return 0;
        error = U_ZERO_ERROR;
        needed = u_strFoldCase(b->chars, b->capacity, a->chars, a->length, options, &error);
    }
    if (U_FAILURE(error) && error != U_STRING_NOT_TERMINATED_WARNING) return 0;
    b->length = needed;
    swap16(a, b);
    return 1;
}

int32_t petrel_icu_fold(const char *in, int32_t length, int32_t options, char *out, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    buffer16 a = {0}, b = {0};
    int32_t result = -1;
    int fold = options & PETREL_ICU_FOLD_CASE;
    int turkic = options & PETREL_ICU_FOLD_TURKIC;
    uint32_t foldOptions = turkic ? U_FOLD_CASE_EXCLUDE_SPECIAL_I : U_FOLD_CASE_DEFAULT;
    if (!buffer16_from_utf8(&a, in, length) || !buffer16_reserve(&b, a.length * 3 + 16)) goto done;

    /* Case first, so that İ folds (to i + dot, or to i in Turkish) before
     * the dot could be taken for a diacritic. */
    if (fold && !fold_case16(&a, &b, foldOptions)) goto done;

    if (options & PETREL_ICU_FOLD_LATIN_DIACRITICS) {
        const UNormalizer2 *nfd = unorm2_getNFDInstance(&error);
        if (U_FAILURE(error) || !normalize16(nfd, &a, &b)) goto done;
        int32_t kept = 0;
        for (int32_t i = 0; i < b.length; i++) {
            if (!is_latin_mark(b.chars[i])) b.chars[kept++] = b.chars[i];
        }
        b.length = kept;
        swap16(&a, &b);
    }

    const UNormalizer2 *final;
    if (options & PETREL_ICU_FOLD_NFKC) {
        /* Compatibility mappings can produce capitals (Ⅻ → XII): fold again. */
        final = (fold && !turkic) ? unorm2_getNFKCCasefoldInstance(&error) : unorm2_getNFKCInstance(&error);
    } else {
        final = unorm2_getNFCInstance(&error);
    }
    if (U_FAILURE(error) || !normalize16(final, &a, &b)) goto done;
    swap16(&a, &b);
    if (fold && turkic && (options & PETREL_ICU_FOLD_NFKC) && !fold_case16(&a, &b, foldOptions)) goto done;
    result = buffer16_to_utf8(&a, out, capacity);
done:
    buffer16_free(&a);
    buffer16_free(&b);
    return result;
}

int32_t petrel_icu_normalize(int32_t form, const char *in, int32_t length, char *out, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    const UNormalizer2 *normalizer;
    switch (form) {
    case PETREL_ICU_NFC: normalizer = unorm2_getNFCInstance(&error); break;
    case PETREL_ICU_NFD: normalizer = unorm2_getNFDInstance(&error); break;
    case PETREL_ICU_NFKC: normalizer = unorm2_getNFKCInstance(&error); break;
    case PETREL_ICU_NFKD: normalizer = unorm2_getNFKDInstance(&error); break;
    default: return -1;
    }
    if (U_FAILURE(error)) return -1;
    buffer16 a = {0}, b = {0};
    int32_t result = -1;
    if (buffer16_from_utf8(&a, in, length) && buffer16_reserve(&b, a.length * 3 + 16) && normalize16(normalizer, &a, &b)) {
        result = buffer16_to_utf8(&b, out, capacity);
    }
    buffer16_free(&a);
    buffer16_free(&b);
    return result;
}

int32_t petrel_icu_case_map(const char *locale, int32_t operation, const char *in, int32_t length, char *out, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    UCaseMap *map = ucasemap_open(locale, U_FOLD_CASE_DEFAULT, &error);
    if (U_FAILURE(error)) return -1;
    int32_t needed = -1;
    switch (operation) {
    case PETREL_ICU_LOWER: needed = ucasemap_utf8ToLower(map, out, capacity, in, length, &error); break;
    case PETREL_ICU_UPPER: needed = ucasemap_utf8ToUpper(map, out, capacity, in, length, &error); break;
    case PETREL_ICU_CASEFOLD: needed = ucasemap_utf8FoldCase(map, out, capacity, in, length, &error); break;
    case PETREL_ICU_TITLE: needed = ucasemap_utf8ToTitle(map, out, capacity, in, length, &error); break;
    default: error = U_ILLEGAL_ARGUMENT_ERROR;
    }
    ucasemap_close(map);
    if (U_FAILURE(error) && error != U_BUFFER_OVERFLOW_ERROR && error != U_STRING_NOT_TERMINATED_WARNING) return -1;
    return needed;
}

/* MARK: - Transliteration */

struct petrel_icu_transliterator {
    UTransliterator *transliterator;
};

petrel_icu_transliterator *petrel_icu_transliterator_open(const char *id, char *message, int32_t message_capacity) {
    if (i18n_unavailable(message, message_capacity) != NULL) return NULL;
    UErrorCode error = U_ZERO_ERROR;
    buffer16 id16 = {0};
    if (!buffer16_from_utf8(&id16, id, -1)) return NULL;
    UParseError parse;
    UTransliterator *transliterator = i18n_utrans_openU(id16.chars, id16.length, UTRANS_FORWARD, NULL, 0, &parse, &error);
    buffer16_free(&id16);
    if (U_FAILURE(error)) {
        set_message(message, message_capacity, "unknown or invalid transliterator", error);
        return NULL;
    }
    petrel_icu_transliterator *result = malloc(sizeof(petrel_icu_transliterator));
    if (result == NULL) {
        i18n_utrans_close(transliterator);
        return NULL;
    }
    result->transliterator = transliterator;
    return result;
}

void petrel_icu_transliterator_close(petrel_icu_transliterator *transliterator) {
    if (transliterator == NULL) return;
    i18n_utrans_close(transliterator->transliterator);
    free(transliterator);
}

int32_t petrel_icu_transliterate(petrel_icu_transliterator *transliterator, const char *in, int32_t length, char *out, int32_t capacity) {
    buffer16 text = {0};
    int32_t result = -1;
    if (!buffer16_from_utf8(&text, in, length)) goto done;
    /* utrans_transUChars works in place and can grow the text: leave room. */
    int32_t room = text.length * 4 + 16;
    for (int attempt = 0; attempt < 4; attempt++) {
        if (!buffer16_reserve(&text, room)) goto done;
        buffer16 copy = {0};
        if (!buffer16_reserve(&copy, text.length + 1)) goto done;
        memcpy(copy.chars, text.chars, sizeof(UChar) * (size_t)text.length);
        copy.length = text.length;
        int32_t textLength = text.length;
        int32_t limit = text.length;
        UErrorCode error = U_ZERO_ERROR;
        i18n_utrans_transUChars(transliterator->transliterator, text.chars, &textLength, text.capacity, 0, &limit, &error);
        if (error == U_BUFFER_OVERFLOW_ERROR) {
            memcpy(text.chars, copy.chars, sizeof(UChar) * (size_t)copy.length);
            text.length = copy.length;
            buffer16_free(&copy);
            room *= 4;
            continue;
        }
        buffer16_free(&copy);
        if (U_FAILURE(error)) goto done;
        text.length = textLength;
        result = buffer16_to_utf8(&text, out, capacity);
        break;
    }
done:
    buffer16_free(&text);
    return result;
}

/* MARK: - Collation */

struct petrel_icu_collator {
    UCollator *collator;
};

int32_t petrel_icu_locale_is_known(const char *locale) {
    if (locale == NULL || locale[0] == 0 || strcmp(locale, "root") == 0) return 1;
    char language[ULOC_LANG_CAPACITY];
    UErrorCode error = U_ZERO_ERROR;
    uloc_getLanguage(locale, language, ULOC_LANG_CAPACITY, &error);
    if (U_FAILURE(error) || language[0] == 0) return 0;
    int32_t count = uloc_countAvailable();
    for (int32_t i = 0; i < count; i++) {
        char available[ULOC_LANG_CAPACITY];
        UErrorCode availableError = U_ZERO_ERROR;
        uloc_getLanguage(uloc_getAvailable(i), available, ULOC_LANG_CAPACITY, &availableError);
        if (U_SUCCESS(availableError) && strcmp(available, language) == 0) return 1;
    }
    return 0;
}

petrel_icu_collator *petrel_icu_collator_open(const char *locale, int32_t strength, int32_t numeric, char *message, int32_t message_capacity) {
    if (!petrel_icu_locale_is_known(locale)) {
        if (message != NULL && message_capacity > 0) snprintf(message, (size_t)message_capacity, "unknown locale: %s", locale);
        return NULL;
    }
    if (i18n_unavailable(message, message_capacity) != NULL) return NULL;
    UErrorCode error = U_ZERO_ERROR;
    UCollator *collator = i18n_ucol_open(locale, &error);
    if (U_FAILURE(error)) {
        set_message(message, message_capacity, "cannot open the ICU collator", error);
        return NULL;
    }
    UColAttributeValue value;
    switch (strength) {
    case 0: value = UCOL_PRIMARY; break;
    case 1: value = UCOL_SECONDARY; break;
    case 2: value = UCOL_TERTIARY; break;
    case 3: value = UCOL_QUATERNARY; break;
    default: value = UCOL_IDENTICAL; break;
    }
    i18n_ucol_setStrength(collator, value);
    if (numeric) i18n_ucol_setAttribute(collator, UCOL_NUMERIC_COLLATION, UCOL_ON, &error);
    if (U_FAILURE(error)) {
        set_message(message, message_capacity, "cannot configure the ICU collator", error);
        i18n_ucol_close(collator);
        return NULL;
    }
    petrel_icu_collator *result = malloc(sizeof(petrel_icu_collator));
    if (result == NULL) {
        i18n_ucol_close(collator);
        return NULL;
    }
    result->collator = collator;
    return result;
}

void petrel_icu_collator_close(petrel_icu_collator *collator) {
    if (collator == NULL) return;
    i18n_ucol_close(collator->collator);
    free(collator);
}

int32_t petrel_icu_collator_compare(const petrel_icu_collator *collator, const char *a, int32_t a_length, const char *b, int32_t b_length) {
    UErrorCode error = U_ZERO_ERROR;
    UCollationResult result = i18n_ucol_strcollUTF8(collator->collator, a, a_length, b, b_length, &error);
    if (U_FAILURE(error)) {
        /* Invalid UTF-8: fall back to byte order, which is at least total. */
        int32_t shorter = a_length < b_length ? a_length : b_length;
        int c = memcmp(a, b, (size_t)shorter);
        if (c != 0) return c < 0 ? -1 : 1;
        return a_length < b_length ? -1 : (a_length > b_length ? 1 : 0);
    }
    return result == UCOL_LESS ? -1 : (result == UCOL_GREATER ? 1 : 0);
}

/* MARK: - Regular expressions */

struct petrel_icu_regex {
    URegularExpression *regex;
    UText *subject;
};

petrel_icu_regex *petrel_icu_regex_open(const char *pattern, int32_t length, int32_t flags, char *message, int32_t message_capacity) {
    if (i18n_unavailable(message, message_capacity) != NULL) return NULL;
    UErrorCode error = U_ZERO_ERROR;
    UParseError parse;
    UText *text = utext_openUTF8(NULL, pattern, length, &error);
    if (U_FAILURE(error)) {
        set_message(message, message_capacity, "invalid regular expression", error);
        return NULL;
    }
    uint32_t regexFlags = (flags & PETREL_ICU_REGEX_CASE_INSENSITIVE) ? UREGEX_CASE_INSENSITIVE : 0;
    URegularExpression *regex = i18n_uregex_openUText(text, regexFlags, &parse, &error);
    utext_close(text);
    if (U_FAILURE(error)) {
        if (message != NULL && message_capacity > 0) {
            snprintf(message, (size_t)message_capacity, "invalid regular expression: %s at offset %d",
                     u_errorName(error), (int)parse.offset);
        }
        return NULL;
    }
    petrel_icu_regex *result = calloc(1, sizeof(petrel_icu_regex));
    if (result == NULL) {
        i18n_uregex_close(regex);
        return NULL;
    }
    result->regex = regex;
    return result;
}

void petrel_icu_regex_close(petrel_icu_regex *regex) {
    if (regex == NULL) return;
    i18n_uregex_close(regex->regex);
    if (regex->subject != NULL) utext_close(regex->subject);
    free(regex);
}

int32_t petrel_icu_regex_find(petrel_icu_regex *regex, const char *subject, int32_t length) {
    UErrorCode error = U_ZERO_ERROR;
    regex->subject = utext_openUTF8(regex->subject, subject, length, &error);
    if (U_FAILURE(error)) return -1;
    i18n_uregex_setUText(regex->regex, regex->subject, &error);
    if (U_FAILURE(error)) return -1;
    UBool found = i18n_uregex_find(regex->regex, 0, &error);
    if (U_FAILURE(error)) return -1;
    return found ? 1 : 0;
}

/* MARK: - Character sets */

int32_t petrel_icu_detect_charset(const char *bytes, int32_t length, char *name, int32_t name_capacity) {
    if (i18n_unavailable(NULL, 0) != NULL) return -1;
    UErrorCode error = U_ZERO_ERROR;
    UCharsetDetector *detector = i18n_ucsdet_open(&error);
    if (U_FAILURE(error)) return -1;
    i18n_ucsdet_setText(detector, bytes, length, &error);
    const UCharsetMatch *match = U_SUCCESS(error) ? i18n_ucsdet_detect(detector, &error) : NULL;
    int32_t confidence = -1;
    if (match != NULL && U_SUCCESS(error)) {
        const char *found = i18n_ucsdet_getName(match, &error);
        confidence = i18n_ucsdet_getConfidence(match, &error);
        if (U_FAILURE(error) || found == NULL) {
            confidence = -1;
        } else if (name != NULL && name_capacity > 0) {
            snprintf(name, (size_t)name_capacity, "%s", found);
        }
    }
    i18n_ucsdet_close(detector);
    return confidence;
}

int32_t petrel_icu_convert_to_utf8(const char *charset, const char *bytes, int32_t length, char *out, int32_t capacity) {
    UErrorCode error = U_ZERO_ERROR;
    UConverter *converter = ucnv_open(charset, &error);
    if (U_FAILURE(error)) return -1;
    buffer16 text = {0};
    int32_t result = -1;
    /* A UTF-16 unit per byte is enough for every ICU charset but the
     * four-byte ones, which produce fewer units than bytes anyway. */
    if (buffer16_reserve(&text, length + 1)) {
        text.length = ucnv_toUChars(converter, text.chars, text.capacity, bytes, length, &error);
        if (U_SUCCESS(error) || error == U_STRING_NOT_TERMINATED_WARNING) {
            result = buffer16_to_utf8(&text, out, capacity);
        }
    }
    buffer16_free(&text);
    ucnv_close(converter);
    return result;
}

const char *petrel_icu_version(void) {
    return U_ICU_VERSION;
}
