"""Help-page sets for scripts/eval-relevance: LibreOffice's help, as Debian
ships it (libreoffice-help-*), written by its translators: the nine languages
of the other sets, and four whose words are not cut by spaces as in English:
Khmer (no space between words; the translators put a zero-width space there),
Dzongkha (Tibetan script: a tsheg after every syllable, no mark between words),
Vietnamese (a space between syllables, not words) and Hindi.

Each page is an HTML file whose first paragraph after the heading says what
the page is for ("Saves and organizes multiple versions of the current
document..."). That sentence is the query and is removed from the page; the
page is the one relevant answer. Pages whose sentence is left untranslated
(English in a Korean help) are not queried but stay in the index, as they
would in a user's folder.
"""
import glob, html, os, re

# Language code of the eval sets -> LibreOffice's folder.
HELP_FOLDERS = {"en": "en-US", "ja": "ja", "zh-hans": "zh-CN", "zh-hant": "zh-TW", "ko": "ko",
                "de": "de", "fr": "fr", "ru": "ru", "es": "es", "km": "km", "dz": "dz", "vi": "vi", "hi": "hi"}

PACKAGES = ["libreoffice-help-" + folder.lower() for folder in HELP_FOLDERS.values()]

_HEADING = re.compile(r"<h1\b[^>]*>(.*?)</h1>", re.S)
_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S)
_SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
_SCRIPTS = {
    "ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),
    "zh-hans": re.compile(r"[\u4e00-\u9fff]"),
    "zh-hant": re.compile(r"[\u4e00-\u9fff]"),
    "ko": re.compile(r"[\uac00-\ud7a3]"),
    "ru": re.compile(r"[\u0400-\u04ff]"),
    "km": re.compile(r"[\u1780-\u17ff]"),
    "dz": re.compile(r"[\u0f00-\u0fff]"),
    "hi": re.compile(r"[\u0900-\u097f]"),
}
# Words that only a translated French, German or Spanish sentence has.
_MARKERS = {
    "de": re.compile(r"\b(der|die|das|und|Sie|eine?n?|mit|für|werden)\b"),
    "fr": re.compile(r"\b(le|la|les|des|vous|une?|pour|dans|est)\b"),
    "es": re.compile(r"\b(el|la|los|las|una?|para|que|del|puede)\b"),
    "vi": re.compile(r"\b(các|của|và|được|một|này|trong|bạn)\b"),
}


def plain(fragment):
    return re.sub(r"\s+", " ", html.unescape(_TAG.sub(" ", fragment))).strip()


def is_translated(sentence, language):
    if language in _SCRIPTS:
        return bool(_SCRIPTS[language].search(sentence))
    if language in _MARKERS:
        return bool(_MARKERS[language].search(sentence))
    return True


def help_documents(root, language):
    """(name, file name, HTML without the sentence, its plain text, sentence) per page.

    The sentence is empty for a page that is indexed but not queried."""
    folder = os.path.join(root, "usr/share/libreoffice/help", HELP_FOLDERS[language], "text")
    pages = []
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.html"), recursive=True)):
        source = open(path, encoding="utf-8", errors="replace").read()
        if _HEADING.search(source):
            pages.append((path, source))
    # The help repeats some paragraphs on several pages: a sentence that
    # another page also has does not name one page, and is not queried.
    paragraph_pages = {}
    for number, (_, source) in enumerate(pages):
        for paragraph in _PARAGRAPH.finditer(source):
            paragraph_pages.setdefault(plain(paragraph.group(1)), set()).add(number)
    docs = []
    for number, (path, source) in enumerate(pages):
        sentence, body = "", source
        paragraph = _PARAGRAPH.search(source, _HEADING.search(source).end())
        if paragraph:
            text = plain(paragraph.group(1))
            if len(text) >= 12 and is_translated(text, language) and paragraph_pages.get(text) == {number}:
                sentence = text
                body = source[: paragraph.start()] + source[paragraph.end():]
        name = os.path.relpath(path, folder)
        docs.append((name, os.path.basename(path), body, plain(_SCRIPT.sub(" ", body)), sentence))
    return docs
