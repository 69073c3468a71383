"""Evaluation sets of several kinds for scripts/eval-relevance (beside its man-page sets).

Every set is known-item search on text nobody here wrote, from Debian's documentation packages:

  docs    a section of a manual (Debian Reference, the New Maintainers' Guide, the Installation Guide,
          the Debian Administrator's Handbook, Python's library reference), queried by its heading
  faq     one question of a FAQ (the Debian FAQ, perlfaq, Python's FAQ); the answer is the document
  readme  a README of a TeX package, queried by the description line under its first heading

The query is removed from the document. Each document is written as an HTML, Markdown or plain-text
file (chosen by a hash of its name), the way people keep such text; the peers get its plain text.
A document is the tuple the driver uses: (name, file name, file content, plain text, query).
"""
import functools, glob, gzip, hashlib, html, os, re
from html.parser import HTMLParser

# ---------------------------------------------------------------- reading HTML

VOID = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr", "source", "param"}
SKIPPED_TAGS = {"script", "style", "head", "nav", "title"}
SKIPPED_CLASSES = {"toc", "navheader", "navfooter", "headerlink", "list-of-tables", "list-of-figures", "list-of-examples",
                   "footer", "related", "sphinxsidebar", "sphinxsidebarwrapper", "breadcrumbs", "indexterm", "mobile-nav",
                   "highlight-default-notranslate", "copyright", "legalnotice", "authorgroup", "revhistory"}
BLOCK = {"p", "li", "dt", "dd", "pre", "td", "th", "tr", "div", "table", "blockquote", "section", "ul", "ol", "dl",
         "h1", "h2", "h3", "h4", "h5", "h6", "body", "article", "figure", "caption", "br"}


class Blocks(HTMLParser):
    """An HTML page as a list of blocks: ("h1".."h6", text), ("p", text), ("li", text), ("pre", text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.buffer, self.kind = [], [], "p"
        self.skip = 0      # depth inside a skipped element
        self.pre = 0

    def flush(self):
        text = "".join(self.buffer)
        self.buffer = []
        text = text.strip("\n") if self.pre else re.sub(r"\s+", " ", text).strip()
        if text:
            self.blocks.append((self.kind, text))

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if tag == "br" and not self.skip:
                self.buffer.append("\n" if self.pre else " ")
            return
        classes = set((dict(attrs).get("class") or "").split())
        if self.skip or tag in SKIPPED_TAGS or classes & SKIPPED_CLASSES or dict(attrs).get("role") == "navigation":
            self.skip += 1
            return
        if tag in BLOCK:
            self.flush()
            if tag in ("li", "dd"):
                self.kind = "li"
            elif tag == "pre":
                self.kind, self.pre = "pre", self.pre + 1
            elif tag[0] == "h" and tag[1:].isdigit():
                self.kind = tag
            else:
                self.kind = "p"

    def handle_startendtag(self, tag, attrs):
        if tag == "br" and not self.skip:
            self.buffer.append("\n" if self.pre else " ")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.skip:
            self.skip -= 1
            return
        if tag in BLOCK:
            self.flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            self.kind = "p"

    def handle_data(self, data):
        if not self.skip:
            self.buffer.append(data)


@functools.lru_cache(maxsize=None)
def html_blocks(path):
    parser = Blocks()
    with open(path, encoding="utf-8", errors="replace") as f:
        parser.feed(f.read())
    parser.close()
    parser.flush()
    return tuple(parser.blocks)


NUMBER = re.compile(r"^\s*(?:"
                    r"第\s*[0-9]+\s*[章节節]\.?|[0-9]+\s*장\.?|(?:付録|附录|附錄|부록)\s*[A-Z]\.?"
                    r"|(?:[^\W\d_][\w]*\s+)?(?:[0-9]+|[A-Z])(?:\.[0-9]+)*\.(?=\s)"
                    r"|[0-9]+(?:\.[0-9]+)+"
                    r")\s*")


def heading_query(text):
    """A heading without its number (`2.1.3. `, `第2章 `, `8장. `, `Appendix A. `) or Sphinx's pilcrow."""
    text = text.replace("¶", "").strip()
    return NUMBER.sub("", text, count=1).strip()


def sections(blocks):
    """(heading level, heading text, blocks under it up to the next heading of any level)."""
    out, current = [], None
    for kind, text in blocks:
        if kind[0] == "h" and kind[1:].isdigit():
            current = (int(kind[1:]), text, [])
            out.append(current)
        elif current:
            current[2].append((kind, text))
    return out


# ---------------------------------------------------------------- writing documents


def render(blocks, form):
    """Blocks as an HTML, Markdown or plain-text file."""
    if form == "html":
        parts = ["<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>"]
        in_list = False
        for kind, text in blocks:
            if kind == "li" and not in_list:
                parts.append("<ul>")
                in_list = True
            elif kind != "li" and in_list:
                parts.append("</ul>")
                in_list = False
            tag = {"li": "li", "pre": "pre"}.get(kind, "p")
            parts.append("<%s>%s</%s>" % (tag, html.escape(text, quote=False), tag))
        if in_list:
            parts.append("</ul>")
        parts.append("</body></html>\n")
        return "\n".join(parts)
    parts = []
    for kind, text in blocks:
        if kind == "pre":
            parts.append("```\n%s\n```" % text if form == "md" else "\n".join("    " + line for line in text.splitlines()))
        elif kind == "li":
            parts.append(("- " if form == "md" else "  * ") + text)
        else:
            parts.append(text)
    return "\n\n".join(parts) + "\n"


def form_of(name):
    return ("html", "md", "txt")[int(hashlib.md5(name.encode()).hexdigest(), 16) % 3]


def document(name, blocks, query):
    form = form_of(name)
    return (name, "%s.%s" % (re.sub(r"[^\w.-]", "_", name)[-60:], form), render(blocks, form), render(blocks, "txt"), query)


def long_enough(blocks, minimum=160):
    return sum(len(text) for _, text in blocks) >= minimum


def manual_documents(root, files, prefix, english_headings=frozenset()):
    """Sections of HTML manuals, each queried by its heading (sections repeating an English heading untranslated are left out)."""
    docs = []
    # Named by the page's place in its manual, not by its file name: the Handbook's and Python's file names are
    # the section's words (sect.remote-login.html), which would give the query away to every system.
    # Translations share the names, so a section falls in the same half in every language.
    for number, path in enumerate(files):
        for n, (_, heading, blocks) in enumerate(sections(html_blocks(path))):
            query = heading_query(heading)
            if len(query) < 3 or query in english_headings or not long_enough(blocks):
                continue
            docs.append(document("%s-%03d-%d" % (prefix, number, n), blocks, query))
    return docs


@functools.lru_cache(maxsize=None)
def headings_of(files):
    return {heading_query(h) for path in files for _, h, _ in sections(html_blocks(path))}


# ---------------------------------------------------------------- sources


def reference_files(root, language):
    return sorted(glob.glob(os.path.join(root, "usr/share/debian-reference/*.%s.html" % language)))


def maint_guide_files(root, language):
    folder = "maint-guide" if language == "en" else "maint-guide-" + language
    return sorted(glob.glob(os.path.join(root, "usr/share/doc", folder, "html/*.html")))


def install_guide_files(root, language):
    return sorted(glob.glob(os.path.join(root, "usr/share/doc/installation-guide-amd64", language, "*.html")))


def handbook_files(root, language):
    return sorted(glob.glob(os.path.join(root, "usr/share/doc/debian-handbook/html", language, "*.html")))


def debian_faq_files(root, language):
    if language == "en":
        return sorted(glob.glob(os.path.join(root, "usr/share/doc/debian/FAQ/*.en.html")))
    return sorted(glob.glob(os.path.join(root, "usr/share/doc/debian/FAQ", language, "*.html")))


def python_files(root, folder):
    return sorted(glob.glob(os.path.join(root, "usr/share/doc/python3.11/html", folder, "*.html")))


# Each language's code in each manual's file names (None: no translation in Debian 12).
LANGUAGES = {
    #        reference  maint-guide  install-guide  handbook  faq
    "en": ("en", "en", "en", "en-US", "en"),
    "ja": ("ja", "ja", "ja", "ja-JP", "ja"),
    "zh-hans": ("zh-cn", "zh-cn", "zh_CN", "zh-CN", "zh-cn"),
    "zh-hant": ("zh-tw", "zh-tw", None, "zh-TW", None),
    "ko": (None, None, "ko", "ko-KR", "ko"),
    "de": ("de", "de", "de", "de-DE", "de"),
    "fr": ("fr", "fr", "fr", "fr-FR", "fr"),
    "ru": (None, "ru", "ru", "ru-RU", "ru"),
    "es": ("es", "es", "es", "es-ES", None),
}


def docs_set(root, language):
    reference, maint, install, handbook, _ = LANGUAGES[language]
    docs = []
    for code, files, prefix in ((reference, reference_files, "reference"), (maint, maint_guide_files, "maint-guide"),
                                (install, install_guide_files, "install"), (handbook, handbook_files, "handbook")):
        if not code:
            continue
        english = frozenset() if language == "en" else headings_of(tuple(files(root, LANGUAGES["en"][("reference", "maint-guide", "install", "handbook").index(prefix)])))
        docs += manual_documents(root, files(root, code), prefix, english)
    if language == "en":
        docs += manual_documents(root, python_files(root, "library"), "python-library")
    return docs


def pod_to_text(text):
    """Pod's formatting codes as their text (C<x> → x, L<text|target> → text, E<gt> → >)."""
    entities = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}
    for _ in range(3):
        text = re.sub(r"E<(\w+)>", lambda m: entities.get(m.group(1), m.group(1)), text)
        text = re.sub(r"L<([^<>|]*)\|[^<>]*>", r"\1", text)
        text = re.sub(r"[A-Z]<<+\s+(.*?)\s+>>+", r"\1", text)
        text = re.sub(r"[A-Z]<([^<>]*)>", r"\1", text)
    return text


def perlfaq_documents(root):
    """perlfaq1-9, one document per question (=head2), queried by the question."""
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "usr/share/perl/*/pod/perlfaq[1-9].pod"))):
        base = os.path.basename(path)[:-4]
        text = open(path, encoding="utf-8", errors="replace").read()
        parts = re.split(r"^=head2\s+(.+)$", text, flags=re.M)
        for n in range(1, len(parts), 2):
            query = pod_to_text(parts[n]).strip()
            blocks = []
            for paragraph in re.split(r"\n\s*\n", parts[n + 1]):
                if paragraph.startswith("=") or not paragraph.strip():
                    continue
                if paragraph[0] in " \t":
                    blocks.append(("pre", "\n".join(line[1:] if line.startswith(" ") else line for line in paragraph.splitlines())))
                else:
                    blocks.append(("p", re.sub(r"\s+", " ", pod_to_text(paragraph)).strip()))
            if query and long_enough(blocks):
                docs.append(document("%s-%d" % (base, n // 2), blocks, query))
    return docs


def faq_set(root, language):
    code = LANGUAGES[language][4]
    files = [f for f in debian_faq_files(root, code) if not re.search(r"/(index|faqinfo)\.", f)]
    docs = manual_documents(root, files, "debian-faq", frozenset() if language == "en" else headings_of(tuple(debian_faq_files(root, "en"))))
    if language == "en":
        docs += perlfaq_documents(root)
        docs += manual_documents(root, python_files(root, "faq"), "python-faq")
    return docs


BOILERPLATE = re.compile(r"\b(version|copyright|licen[cs]e|LPPL|GPL|released?|maintained|maintainer|e-?mail|https?:|www\.|ctan|"
                         r"\d{4}[-/]\d\d)|^(this|the)\s+(is|directory|file|files|archive|bundle|readme|package\s+is\s+version)\b|"
                         r"^(readme|author|date)\b|@", re.I)


def readme_query(lines):
    """The first sentence of prose among a README's first 40 lines (no heading, rule, boilerplate), and where it is."""
    for i, line in enumerate(lines[:40]):
        stripped = line.strip()
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if (not stripped or stripped.startswith(("#", "[", "<", "%", "!", "|", "*", "-", "=", "`", ">")) or re.match(r"^[=\-~*#_ ]+$", following)
                or BOILERPLATE.search(stripped) or len(stripped.split()) < 4 or stripped.upper() == stripped):
            continue
        sentence = re.split(r"(?<=[.!?:;])\s", stripped)[0].rstrip(".:;")
        words = sentence.split()
        if len(words) >= 4 and not re.search(r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]", sentence):
            return i, " ".join(words[:16])
    return None


README_PACKAGES = ("texlive-latex-recommended-doc", "texlive-science-doc", "texlive-humanities-doc", "texlive-metapost-doc",
                   "texlive-lang-german", "texlive-lang-cyrillic")


def readme_set(root):
    """READMEs of TeX packages (TeX Live's documentation in Debian): the first sentence of prose (the description
    under the package's heading, as a rule) is the query and is taken out; the heading and the rest stay. Only
    READMEs in Latin script (almost all are English)."""
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "usr/share/doc/texlive-doc/**/README*"), recursive=True)):
        if not os.path.isfile(path) or "TEXLIVE" in os.path.basename(path):
            continue
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rt", encoding="utf-8", errors="replace") as f:
                text = f.read()
        except (OSError, EOFError):
            continue
        if re.search(r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]{3}", text) or len(text) < 300:
            continue
        lines = text.splitlines()
        found = readme_query(lines)
        if not found:
            continue
        i, query = found
        rest = "\n".join(lines[:i] + [lines[i].replace(query, "", 1)] + lines[i + 1:])
        package = os.path.relpath(os.path.dirname(path), os.path.join(root, "usr/share/doc/texlive-doc")).replace("/", "-")
        # README, README.txt and README.md as they are; README.doc, README.1st and the like are text too.
        name = os.path.basename(path).replace(".gz", "")
        if not name.endswith((".md", ".txt")):
            name += ".txt"
        docs.append((package, "%s/%s" % (os.path.basename(os.path.dirname(path)), name), rest, rest, query))
    return docs


def kind_sets(root):
    """(key, label, language, kind, loader) for every set of several kinds."""
    analysis = {"zh-hans": "zh", "zh-hant": "zh"}
    names = {"en": "English", "ja": "Japanese", "zh-hans": "Chinese (simplified)", "zh-hant": "Chinese (traditional)",
             "ko": "Korean", "de": "German", "fr": "French", "ru": "Russian", "es": "Spanish"}
    out = []
    for language in LANGUAGES:
        out.append(("%s-docs" % language, "%s manual sections" % names[language], analysis.get(language, language), "docs",
                    lambda language=language: docs_set(root, language)))
    for language in LANGUAGES:
        if LANGUAGES[language][4]:
            out.append(("%s-faq" % language, "%s FAQ questions" % names[language], analysis.get(language, language), "faq",
                        lambda language=language: faq_set(root, language)))
    out.append(("en-readme", "English READMEs", "en", "readme", lambda: readme_set(root)))
    return out


def self_check():
    """What the sets rely on, checked on small inputs: `python3 scripts/lib/eval_kinds.py`."""
    cases = {"2.1.3. Package configuration": "Package configuration", "第2章 Debian パッケージ管理": "Debian パッケージ管理",
             "第 2 章 Debian 软件包管理": "Debian 软件包管理", "8장. 데비안 패키지 관리 도구": "데비안 패키지 관리 도구",
             "Appendix A. Appendix": "Appendix", "A.1. The Debian maze": "The Debian maze", "Kapitel 2. Paketverwaltung": "Paketverwaltung",
             "os.path — Common pathname manipulations¶": "os.path — Common pathname manipulations", "Remote Login": "Remote Login",
             "4.2 Partitioning": "Partitioning"}
    for heading, query in cases.items():
        assert heading_query(heading) == query, (heading, heading_query(heading))
    parser = Blocks()
    parser.feed('<html><head><title>T</title></head><body><div class="toc"><a href="#x">1. Skip me</a></div>'
                '<h2 class="title"><a id="x"/>1. First</h2><p>One &amp; <b>two</b></p><ul><li>three</li></ul>'
                '<pre>a\n  b</pre><h3>1.1. Second<a class="headerlink">¶</a></h3><p>four</p></body></html>')
    parser.close()
    parser.flush()
    found = sections(parser.blocks)
    assert [(level, heading_query(h)) for level, h, _ in found] == [(2, "First"), (3, "Second")], found
    assert found[0][2] == [("p", "One & two"), ("li", "three"), ("pre", "a\n  b")], found[0][2]
    assert render(found[0][2], "md") == "One & two\n\n- three\n\n```\na\n  b\n```\n"
    assert "<li>three</li>" in render(found[0][2], "html") and "One &amp; two" in render(found[0][2], "html")
    assert readme_query(["foo", "===", "", "Copyright 2020 A. Author", "Draws boxes and arrows around words. More text."]) == (4, "Draws boxes and arrows around words")
    assert pod_to_text("Use C<< $x->y >> or L<perlfunc|perlfunc/open> E<gt> B<bold>") == "Use $x->y or perlfunc > bold"
    print("eval_kinds: ok")


if __name__ == "__main__":
    self_check()
