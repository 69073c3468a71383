"""Mixed-format "Documents folder" evaluation (see scripts/eval-documents).

Builds a corpus of about 1,000 documents in many formats and seven languages
from Debian documentation packages, makes one known-item query per document
(a distinctive fragment of its text), and runs petrel-index/petrel-search,
recollindex/recollq and omindex/quest on it.

usage: eval_documents.py WORK_DIR --tools BIN_DIR [--systems a,b] [--split dev|heldout|all]
                         [--markdown] [--keep-work DIR] [--report FILE]
"""
import argparse, base64, bz2, csv, email.policy, gzip, hashlib, html, io, json, os, random, re, shutil, subprocess, sys
import lzma, tarfile, tempfile, time, unicodedata, urllib.parse, zipfile
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
import datetime
import mailbox

parser = argparse.ArgumentParser()
parser.add_argument("work_dir")
parser.add_argument("--tools", required=True, help="the folder of petrel-index and petrel-search (a .build/release)")
parser.add_argument("--systems", default="petrel,recoll,omindex")
parser.add_argument("--split", default="heldout", choices=["dev", "heldout", "all"])
parser.add_argument("--markdown", action="store_true", help="markdown tables (for the README)")
parser.add_argument("--keep-work", default="", help="keep the corpus's indexes in DIR/SYSTEM")
parser.add_argument("--report", default="", help="write each query's outcome (JSON lines) to this file")
args = parser.parse_args()

# Bump to rebuild every converted document.
VERSION = "1"
WORK = os.path.abspath(args.work_dir)
ROOT = os.path.join(WORK, "root")
CACHE = os.path.join(WORK, "cache")
CORPUS = os.path.join(os.path.realpath(WORK), "corpus")
MANIFEST = os.path.join(WORK, "manifest.json")
LANGUAGES = ["en", "ja", "zh", "de", "fr", "es", "ru"]
PER_LANGUAGE = {"en": 420, "ja": 100, "zh": 100, "de": 100, "fr": 100, "es": 100, "ru": 100}
MAX_CHARS = 6000


def log(message):
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- source texts


def clean_lines(text):
    """Lines with runs of blanks made one space, at most one empty line in a row."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"[ \t\u00a0]+", " ", line).strip()
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def clip(text):
    """The text up to MAX_CHARS, cut at a paragraph's end."""
    if len(text) <= MAX_CHARS:
        return text
    cut = text.rfind("\n\n", 0, MAX_CHARS)
    return text[: cut if cut > MAX_CHARS // 2 else MAX_CHARS]


def rst_sections():
    """Sections of the Python documentation's reStructuredText sources, markup removed."""
    base = os.path.join(ROOT, "usr/share/doc/python3.11/html/_sources")
    sections = []
    for folder, _, files in sorted(os.walk(base)):
        for name in sorted(files):
            if not name.endswith(".rst.txt"):
                continue
            path = os.path.join(folder, name)
            lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
            current_title, current = None, []

            def flush():
                if current_title:
                    body = []
                    for line in current:
                        if re.match(r"^\s*\.\. ", line) or re.match(r"^\s*:[\w-]+:\s*\S*$", line):
                            continue
                        line = re.sub(r":[\w:.-]+:`(?:[^`<]*<)?~?!?([^`>]*)>?`", r"\1", line)
                        line = line.replace("``", "").replace("**", "").replace("`_", "").replace("`", "")
                        body.append(line)
                    text = clean_lines("\n".join(body))
                    if len(text) >= 1500:
                        rel = os.path.relpath(path, base)[: -len(".rst.txt")]
                        sections.append(("py/%s#%s" % (rel, current_title), current_title, clip(text)))

            for i, line in enumerate(lines):
                if i + 1 < len(lines) and lines[i].strip() and re.match(r"^([=\-~^*#])\1{2,}\s*$", lines[i + 1]) and len(lines[i + 1].strip()) >= len(lines[i].strip()) - 1:
                    flush()
                    current_title, current = lines[i].strip(), []
                elif re.match(r"^([=\-~^*#])\1{2,}\s*$", line):
                    continue
                else:
                    current.append(line)
            flush()
    return sections


def pod_pages():
    pages = []
    for path in sorted(os.listdir(os.path.join(ROOT, "usr/share/perl/5.36/pod")) if os.path.isdir(os.path.join(ROOT, "usr/share/perl/5.36/pod")) else []):
        if not path.endswith(".pod"):
            continue
        text = open(os.path.join(ROOT, "usr/share/perl/5.36/pod", path), encoding="utf-8", errors="replace").read()
        text = re.sub(r"^=(head\d|item|over|back|pod|cut|begin|end|for|encoding)\s*", "", text, flags=re.M)
        for _ in range(3):
            text = re.sub(r"[BICFLSEX]<<+\s(.*?)\s>>+", r"\1", text)
            text = re.sub(r"[BICFLSEX]<([^<>]*)>", r"\1", text)
        text = clean_lines(text)
        if len(text) >= 1500:
            pages.append(("perl/" + path, path[:-4], clip(text)))
    return pages


def git_pages():
    folder = os.path.join(ROOT, "usr/share/doc/git-doc")
    pages = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.startswith("git-") and name.endswith(".txt"):
            text = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read()
            text = clean_lines(re.sub(r"^(-{3,}|={3,}|\+|\[.*\]|:\S.*|include::.*|ifdef::.*|endif::.*)$", "", text, flags=re.M))
            if len(text) >= 1500:
                pages.append(("git/" + name, name[:-4], clip(text)))
    return pages


MAN_FOLDERS = {"ja": "ja", "zh": "zh_CN", "de": "de", "fr": "fr", "es": "es", "ru": "ru"}


def render_man(path):
    """A man page as text (cached): no hyphenation or justification, one line a paragraph."""
    key = hashlib.sha1((VERSION + path).encode()).hexdigest()
    cached = os.path.join(CACHE, "man", key + ".txt")
    if os.path.exists(cached):
        return open(cached, encoding="utf-8").read()
    env = dict(os.environ, MANWIDTH="1000", MAN_KEEP_FORMATTING="", LC_ALL="C.UTF-8", MANOPT="")
    result = subprocess.run(["man", "-l", "-E", "UTF-8", "--nh", "--nj", path], capture_output=True, env=env, timeout=60)
    text = re.sub(r".\x08", "", result.stdout.decode("utf-8", "replace"))
    lines = text.splitlines()
    text = clean_lines("\n".join(lines[1:-1]))  # without the page's header and footer
    os.makedirs(os.path.dirname(cached), exist_ok=True)
    with open(cached, "w", encoding="utf-8") as f:
        f.write(text)
    return text


def man_pages(language, count):
    folder = os.path.join(ROOT, "usr/share/man", MAN_FOLDERS[language])
    paths = []
    for section in sorted(os.listdir(folder)):
        for name in sorted(os.listdir(os.path.join(folder, section))):
            full = os.path.join(folder, section, name)
            if name.endswith(".gz") and not os.path.islink(full):
                paths.append(full)
    random.Random("man-" + language).shuffle(paths)
    pages = []
    # Render in batches until there are enough pages of some length.
    for start in range(0, len(paths), 64):
        batch = [p for p in paths[start:start + 64] if os.path.getsize(p) > 700]
        with ThreadPoolExecutor(4) as pool:
            texts = list(pool.map(render_man, batch))
        for path, text in zip(batch, texts):
            if len(text) >= 1200:
                name = os.path.basename(path)[:-3]
                pages.append(("man-%s/%s" % (language, name), name, clip(text)))
        if len(pages) >= count:
            break
    return pages[:count]


def source_documents():
    """(id, language, title, text), a fixed selection."""
    docs = []
    english = rst_sections()
    random.Random("py").shuffle(english)
    pods, gits = pod_pages(), git_pages()
    random.Random("perl").shuffle(pods)
    random.Random("git").shuffle(gits)
    n = PER_LANGUAGE["en"]
    chosen = english[: n - 120] + pods[:60] + gits[:60]
    docs += [(i, "en", t, x) for i, t, x in chosen]
    for language in LANGUAGES[1:]:
        log("rendering %s man pages" % language)
        docs += [(i, language, t, x) for i, t, x in man_pages(language, PER_LANGUAGE[language])]
    return docs


# ---------------------------------------------------------------- formats
# A document's kind in the evaluation: the file format, or how it is held
# (a message of an mbox or a Maildir, an attachment, an archive member).

KINDS = ["txt", "md", "html", "docx", "odt", "epub", "rtf", "pptx", "xlsx", "ods", "odp", "doc", "xls", "ppt", "pdf",
         "eml", "mbox", "maildir", "attachment", "zip", "tar.gz", "compressed"]
ATTACHMENT_FORMATS = ["pdf", "docx", "odt", "txt", "xlsx", "html"]
MEMBER_FORMATS = ["docx", "txt", "pdf", "odt", "md", "html", "pptx"]
# A file compressed whole: its format, and the compression's extension.
COMPRESSED_FORMATS = [("txt", "bz2"), ("md", "xz"), ("pdf", "bz2"), ("html", "zst"), ("txt", "xz")]


def compressed(extension, data):
    if extension == "bz2":
        return bz2.compress(data)
    if extension == "xz":
        return lzma.compress(data, format=lzma.FORMAT_XZ)
    return subprocess.run(["zstd", "-q", "-c"], input=data, stdout=subprocess.PIPE, check=True).stdout
MIME = {"pdf": "application/pdf", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "odt": "application/vnd.oasis.opendocument.text", "txt": "text/plain",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "html": "text/html"}


def slug(doc_id):
    return re.sub(r"[^A-Za-z0-9]+", "-", doc_id.split("/", 1)[1]).strip("-").lower()[:60] or "doc"


def paragraphs(text):
    return [p for p in text.split("\n\n") if p.strip()]


def as_html(title, text):
    body = "\n".join("<p>%s</p>" % html.escape(p).replace("\n", "<br>\n") for p in paragraphs(text))
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body>\n<h1>%s</h1>\n%s\n</body></html>\n" % (
        html.escape(title), html.escape(title), body)


def as_slides_html(title, text):
    """Slides for pandoc's pptx writer: a heading every three paragraphs."""
    parts = paragraphs(text)
    out = ["<html><head><title>%s</title></head><body>" % html.escape(title)]
    for n in range(0, len(parts), 3):
        out.append("<h2>%s (%d)</h2>" % (html.escape(title), n // 3 + 1))
        out += ["<p>%s</p>" % html.escape(p).replace("\n", "<br>") for p in parts[n:n + 3]]
    out.append("</body></html>")
    return "\n".join(out)


def as_csv(text):
    """One row a line: its number and its text (a cell holds up to 32,767 characters)."""
    out = io.StringIO()
    writer = csv.writer(out)
    for n, line in enumerate((l for l in text.splitlines() if l.strip()), 1):
        writer.writerow([n, line[:30000]])
    return out.getvalue()


PANDOC = {"docx": "docx", "odt": "odt", "epub": "epub", "rtf": "rtf", "pptx": "pptx"}
# LibreOffice: target -> (intermediate format it is made from, --convert-to filter)
SOFFICE = {"doc": ("docx", "doc:MS Word 97"), "pdf": ("docx", "pdf:writer_pdf_Export"),
           "odp": ("pptx", "odp:impress8"), "ppt": ("pptx", "ppt:MS PowerPoint 97"),
           "xlsx": ("csv", "xlsx:Calc MS Excel 2007 XML"), "ods": ("csv", "ods:calc8"), "xls": ("csv", "xls:MS Excel 97")}


def cache_key(fmt, title, text):
    return hashlib.sha1(("\0".join([VERSION, fmt, title, text])).encode()).hexdigest()


def cached_path(fmt, title, text):
    return os.path.join(CACHE, "files", cache_key(fmt, title, text) + "." + fmt)


def pandoc(fmt, title, text, out):
    source = as_slides_html(title, text) if fmt == "pptx" else as_html(title, text)
    subprocess.run(["pandoc", "-f", "html", "-t", PANDOC[fmt], "-s", "--metadata", "title=" + title, "-o", out],
                   input=source.encode(), check=True, capture_output=True, timeout=300)


def convert_all(needed):
    """Makes every (fmt, title, text) in needed that the cache lacks."""
    os.makedirs(os.path.join(CACHE, "files"), exist_ok=True)
    missing = {}
    for fmt, title, text in needed:
        if fmt in ("txt", "md", "html"):
            continue
        if not os.path.exists(cached_path(fmt, title, text)):
            missing[cache_key(fmt, title, text)] = (fmt, title, text)
    if not missing:
        return
    log("converting %d documents (cached for the next run)" % len(missing))
    # Intermediates first: pandoc's docx and pptx are LibreOffice's input too.
    pandoc_jobs = {}
    for fmt, title, text in missing.values():
        if fmt in PANDOC:
            pandoc_jobs[cache_key(fmt, title, text)] = (fmt, title, text)
        elif fmt in SOFFICE and SOFFICE[fmt][0] != "csv":
            source = SOFFICE[fmt][0]
            if not os.path.exists(cached_path(source, title, text)):
                pandoc_jobs[cache_key(source, title, text)] = (source, title, text)

    def run_pandoc(job):
        fmt, title, text = job
        final = cached_path(fmt, title, text)
        pandoc(fmt, title, text, final + ".part" + "." + fmt)
        os.replace(final + ".part" + "." + fmt, final)

    with ThreadPoolExecutor(3) as pool:
        list(pool.map(run_pandoc, pandoc_jobs.values()))
    # LibreOffice, one process a target format, with a private profile.
    scratch = tempfile.mkdtemp(prefix="petrel-evaldocs-soffice-")
    try:
        profile = "file://" + os.path.join(scratch, "profile")
        for target, (source, filter_name) in SOFFICE.items():
            jobs = [(k, t, x) for k, (f, t, x) in missing.items() if f == target]
            if not jobs:
                continue
            inputs = os.path.join(scratch, target + "-in")
            outputs = os.path.join(scratch, target + "-out")
            os.makedirs(inputs)
            os.makedirs(outputs)
            files = []
            for key, title, text in jobs:
                name = os.path.join(inputs, key + "." + source)
                if source == "csv":
                    with open(name, "w", encoding="utf-8") as f:
                        f.write(as_csv(text))
                else:
                    shutil.copyfile(cached_path(source, title, text), name)
                files.append(name)
            log("  soffice --convert-to %s: %d files" % (target, len(files)))
            for start in range(0, len(files), 100):
                command = ["soffice", "-env:UserInstallation=" + profile, "--headless", "--norestore", "--nolockcheck"]
                if source == "csv":
                    command += ["--infilter=CSV:44,34,76,1"]
                subprocess.run(command + ["--convert-to", filter_name, "--outdir", outputs] + files[start:start + 100],
                               check=True, capture_output=True, timeout=3600)
            for key, title, text in jobs:
                made = os.path.join(outputs, key + "." + target)
                if not os.path.exists(made):
                    raise SystemExit("error: LibreOffice made no %s of %s" % (target, title))
                shutil.move(made, cached_path(target, title, text))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def document_bytes(fmt, title, text):
    if fmt == "txt":
        return (title + "\n\n" + text + "\n").encode()
    if fmt == "md":
        return ("# " + title + "\n\n" + text + "\n").encode()
    if fmt == "html":
        return as_html(title, text).encode()
    with open(cached_path(fmt, title, text), "rb") as f:
        return f.read()


# ---------------------------------------------------------------- mail

CHARSETS = {"en": ["us-ascii", "utf-8"], "ja": ["iso-2022-jp", "utf-8"], "zh": ["gb2312", "utf-8"], "de": ["iso-8859-1", "utf-8"],
            "fr": ["iso-8859-15", "utf-8"], "es": ["iso-8859-1", "utf-8"], "ru": ["koi8-r", "utf-8"]}
BASE_DATE = datetime.datetime(2024, 3, 1, 9, 30, tzinfo=datetime.timezone.utc)


def message(n, language, title, text, attachments=()):
    """A mail: the text in the language's usual charset when it fits, else UTF-8."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = "Documentation %s <docs-%s@lists.example.org>" % (language.upper(), language)
    msg["To"] = "Reader <reader@example.org>"
    msg["Subject"] = title
    msg["Date"] = format_datetime(BASE_DATE + datetime.timedelta(hours=7 * n))
    msg["Message-ID"] = "<eval-%05d@documents.example.org>" % n
    charset = CHARSETS[language][n % 2]
    try:
        text.encode(charset)
    except UnicodeEncodeError:
        charset = "utf-8"
    cte = {"utf-8": "base64" if n % 4 else "quoted-printable", "us-ascii": "7bit", "iso-2022-jp": "7bit"}.get(charset, "quoted-printable")
    msg.set_content(text, charset=charset, cte=cte)
    for name, fmt, data in attachments:
        maintype, subtype = MIME[fmt].split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg


# ---------------------------------------------------------------- corpus


def plan(docs):
    """Each document's kind, file and inner path; what each file is made of."""
    by_language = {}
    for d in docs:
        by_language.setdefault(d[1], []).append(d)
    entries = []  # dict per document
    for offset, language in enumerate(LANGUAGES):
        items = by_language.get(language, [])
        items.sort(key=lambda d: d[0])
        random.Random("kinds-" + language).shuffle(items)
        for i, (doc_id, lang, title, text) in enumerate(items):
            entries.append({"id": doc_id, "language": lang, "title": title, "text": text, "kind": KINDS[(i + offset * 3) % len(KINDS)]})
    counters = {}
    for e in entries:
        kind = e["kind"]
        k = counters[kind] = counters.get(kind, 0) + 1
        name = "%s-%s" % (slug(e["id"]), e["language"])
        if kind in ("txt", "md", "html", "docx", "odt", "epub", "rtf", "pptx", "xlsx", "ods", "odp", "doc", "xls", "ppt", "pdf"):
            e["file"], e["inner"], e["format"] = "%s/%s.%s" % (e["language"], name, kind), "", kind
        elif kind == "eml":
            e["file"], e["inner"], e["format"] = "mail/%s.eml" % name, "", "eml"
        elif kind == "mbox":
            e["file"], e["inner"], e["format"] = "mail/archive.mbox", str(k), "mbox"
        elif kind == "maildir":
            e["file"], e["inner"], e["format"] = "mail/Maildir/cur/%d.M%dP7.evalhost:2,S" % (1709280000 + k * 3600, k), "", "maildir"
        elif kind == "compressed":
            fmt, extension = COMPRESSED_FORMATS[k % len(COMPRESSED_FORMATS)]
            e["file"], e["inner"], e["format"] = "%s/%s.%s.%s" % (e["language"], name, fmt, extension), "", fmt
        elif kind == "attachment":
            fmt = ATTACHMENT_FORMATS[k % len(ATTACHMENT_FORMATS)]
            e["file"], e["inner"], e["format"] = "mail/attachments/%03d-%s.eml" % (k, e["language"]), "%s.%s" % (name, fmt), fmt
        else:
            fmt = MEMBER_FORMATS[k % len(MEMBER_FORMATS)]
            e["file"] = "archives/bundle-%02d.%s" % ((k - 1) // 5 + 1, kind)
            e["inner"], e["format"] = "%s/%s.%s" % (e["language"], name, fmt), fmt
    return entries


def build_corpus(entries):
    needed = {(e["format"], e["title"], e["text"]) for e in entries if e["format"] not in ("eml", "mbox", "maildir")}
    convert_all(sorted(needed))
    manifest = json.dumps([[e["id"], e["kind"], e["file"], e["inner"], cache_key(e["format"], e["title"], e["text"])] for e in entries])
    if os.path.isdir(CORPUS) and os.path.exists(MANIFEST) and open(MANIFEST).read() == manifest:
        return
    log("writing the corpus")
    shutil.rmtree(CORPUS, ignore_errors=True)

    def write(rel, data):
        path = os.path.join(CORPUS, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)

    mbox, archives = [], {}
    for n, e in enumerate(entries):
        kind = e["kind"]
        if kind == "eml" or kind == "maildir":
            write(e["file"], message(n, e["language"], e["title"], e["text"]).as_bytes())
        elif kind == "mbox":
            mbox.append((int(e["inner"]), message(n, e["language"], e["title"], e["text"])))
        elif kind == "attachment":
            data = document_bytes(e["format"], e["title"], e["text"])
            cover = "%s\n\n-- \n%s" % (e["title"], e["id"])
            write(e["file"], message(n, e["language"], e["title"], cover, [(e["inner"], e["format"], data)]).as_bytes())
        elif kind == "compressed":
            write(e["file"], compressed(e["file"].rsplit(".", 1)[1], document_bytes(e["format"], e["title"], e["text"])))
        elif kind in ("zip", "tar.gz"):
            archives.setdefault(e["file"], []).append((e["inner"], document_bytes(e["format"], e["title"], e["text"])))
        else:
            write(e["file"], document_bytes(e["format"], e["title"], e["text"]))
    os.makedirs(os.path.join(CORPUS, "mail"), exist_ok=True)
    box = mailbox.mbox(os.path.join(CORPUS, "mail/archive.mbox"), create=True)
    for _, msg in sorted(mbox, key=lambda m: m[0]):
        box.add(mailbox.mboxMessage(msg))
    box.flush()
    box.close()
    for sub in ("new", "tmp"):
        os.makedirs(os.path.join(CORPUS, "mail/Maildir", sub), exist_ok=True)
    for rel, members in sorted(archives.items()):
        path = os.path.join(CORPUS, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if rel.endswith(".zip"):
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
                for name, data in members:
                    z.writestr(zipfile.ZipInfo(name, (2024, 3, 1, 12, 0, 0)), data, zipfile.ZIP_DEFLATED)
        else:
            with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz, tarfile.open(fileobj=gz, mode="w") as tar:
                for name, data in members:
                    info = tarfile.TarInfo(name)
                    info.size, info.mtime, info.mode = len(data), 1709294400, 0o644
                    tar.addfile(info, io.BytesIO(data))
    with open(MANIFEST, "w") as f:
        f.write(manifest)


# ---------------------------------------------------------------- queries

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{7,}")


def normalized(text):
    text = unicodedata.normalize("NFKC", text).lower()
    return " " + re.sub(r"[\W_]+", " ", text) + " "


def grams(text):
    """Words, and character bigrams of CJK runs: the units of rarity."""
    units = set()
    for word in re.findall(r"\w+", unicodedata.normalize("NFKC", text).lower()):
        if CJK.search(word):
            units.update(word[i:i + 2] for i in range(len(word) - 1))
        else:
            units.add(word)
    return units


def make_queries(entries):
    """One query a document: a fragment of one of its lines with rare words, found in no other document."""
    frequency = {}
    for e in entries:
        for unit in grams(e["text"]):
            frequency[unit] = frequency.get(unit, 0) + 1
    everything = "\x00".join(normalized(e["text"]) for e in entries)
    for e in entries:
        rng = random.Random("query-" + e["id"])
        candidates = []
        for line in e["text"].splitlines()[1:]:
            if e["language"] in ("ja", "zh"):
                for run in CJK_RUN.findall(unicodedata.normalize("NFKC", line)):
                    for start in range(0, len(run) - 6, 2):
                        fragment = run[start:start + 8]
                        rare = sum(1 for i in range(len(fragment) - 1) if frequency.get(fragment[i:i + 2].lower(), 0) <= 2)
                        candidates.append((rare, fragment))
            else:
                words = [w for w in re.findall(r"\w+", unicodedata.normalize("NFKC", line)) if not w.isdigit() and "_" not in w]
                for start in range(0, max(0, len(words) - 4)):
                    window = words[start:start + 5]
                    rare = sum(1 for w in window if frequency.get(w.lower(), 0) <= 2)
                    candidates.append((rare, " ".join(window)))
        e["query"] = None
        for least in (2, 1, 0):
            good = sorted({c for r, c in candidates if r >= least})
            rng.shuffle(good)
            for fragment in good[:100]:
                if everything.count(normalized(fragment)) == 1:
                    e["query"] = fragment.lower()
                    break
            if e["query"]:
                break


def is_heldout(doc_id):
    return int(hashlib.md5(doc_id.encode()).hexdigest(), 16) % 2 == 1


# ---------------------------------------------------------------- systems
# Each system indexes CORPUS into its work folder and answers queries with
# up to 100 (file relative to CORPUS, inner path) pairs, best first.


def timed(command, env=None, cwd=None):
    """Runs an indexer: (wall seconds, peak resident MiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        start = time.monotonic()
        result = subprocess.run(["/usr/bin/time", "-v", "-o", report.name] + command, env=env, cwd=cwd, capture_output=True)
        wall = time.monotonic() - start
        if result.returncode != 0:
            raise RuntimeError("%s failed (%d): %s" % (command[0], result.returncode, result.stderr.decode(errors="replace")[-400:]))
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read())
    return wall, int(peak.group(1)) / 1024 if peak else 0.0


def relative(path):
    if path.startswith("file://"):
        path = path[len("file://"):]
    if "%" in path:
        path = urllib.parse.unquote(path)
    if path.startswith(CORPUS + "/"):
        return path[len(CORPUS) + 1:]
    return path.lstrip("/")


class Petrel:
    label = "petrel-index / petrel-search"

    def index(self, work):
        self.db = os.path.join(work, "petrel.sqlite")
        return timed([os.path.join(args.tools, "petrel-index"), "--index", self.db, "--quiet", "--progress", "never", CORPUS])

    def search(self, query):
        out = subprocess.run([os.path.join(args.tools, "petrel-search"), "--index", self.db, "--json", "-n", "100", "--color", "never", "--", query],
                             capture_output=True, text=True)
        hits = []
        for line in out.stdout.splitlines():
            if line.strip():
                hit = json.loads(line)
                path, inner = hit["path"], hit.get("inner_path") or ""
                if inner and path.endswith("!/" + inner):
                    path = path[: -len("!/" + inner)]
                hits.append((relative(path), inner))
        return hits


class Recoll:
    label = "recollindex / recollq"

    def index(self, work):
        self.conf = os.path.join(work, "recoll")
        os.makedirs(self.conf)
        with open(os.path.join(self.conf, "recoll.conf"), "w") as f:
            f.write("topdirs = %s\nloglevel = 1\n" % CORPUS)
        # Recoll's Python helpers need Debian's python3 (python3-lxml), not
        # another one earlier on the PATH (pyenv's).
        self.env = dict(os.environ, RECOLL_CONFDIR=self.conf, HOME=work, PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
        return timed(["recollindex", "-c", self.conf, "-z"], env=self.env)

    def search(self, query):
        out = subprocess.run(["recollq", "-c", self.conf, "-n", "100", "-F", "url ipath", query], capture_output=True, env=self.env)
        hits = []
        for line in out.stdout.decode("utf-8", "replace").splitlines():
            fields = line.split(" ")
            if len(fields) < 1 or not fields[0]:
                continue
            try:
                url = base64.b64decode(fields[0], validate=True).decode("utf-8", "replace")
                ipath = base64.b64decode(fields[1], validate=True).decode("utf-8", "replace") if len(fields) > 1 and fields[1] else ""
            except ValueError:
                continue
            if url.startswith("file://"):
                hits.append((relative(url), ipath))
        return hits


class Omindex:
    label = "omindex / quest"

    def index(self, work):
        self.db = os.path.join(work, "omega")
        self.env = dict(os.environ, XAPIAN_CJK_NGRAM="1")
        return timed(["omindex", "--db", self.db, "--url", "/", CORPUS], env=self.env)

    def search(self, query):
        out = subprocess.run(["quest", "-d", self.db, "-m", "100", query], capture_output=True, env=self.env)
        hits = []
        for line in out.stdout.decode("utf-8", "replace").splitlines():
            if line.startswith("url="):
                hits.append((relative(line[4:]), ""))
        return hits


SYSTEMS = {"petrel": Petrel, "recoll": Recoll, "omindex": Omindex}


def names(inner, got):
    """Whether the inner path a system reported is `inner` or a part of it
    (Recoll reports an EPUB's chapters, "ch001_xhtml"; nested parts are
    joined by "!/" or ":")."""
    if got.startswith("./"):
        got = got[2:]
    got = got.lstrip("/")
    return got == inner or any(got.startswith(inner + separator) for separator in ("!/", ":", "/", "|"))


def rank_of(e, hits, siblings):
    """The rank of the first hit on e's file that names no other document of
    that file: the file alone (a system that reports only containers), e's
    inner path or a part of it, or a part of a file the evaluation sees as
    one document (an EPUB's chapter, a mail's one attachment by number)."""
    others = [s for s in siblings.get(e["file"], ()) if s != e["inner"]]
    for n, (path, inner) in enumerate(hits, 1):
        if inner and path + "/" + inner.lstrip("/") == e["file"]:
            return n  # a Maildir message reported as a document of its folder
        if path != e["file"]:
            continue
        if inner == "" or (e["inner"] and names(e["inner"], inner)):
            return n
        if not any(names(s, inner) for s in others if s):
            return n
    return None


# ---------------------------------------------------------------- main


def table(title, columns, rows):
    if args.markdown:
        print("\n**%s**\n" % title)
        print("| " + " | ".join(columns) + " |")
        print("|" + "---|" * len(columns))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        print("\n" + title)
        widths = [max(len(str(x)) for x in [c] + [r[i] for r in rows]) for i, c in enumerate(columns)]
        print("  ".join(c.ljust(w) for c, w in zip(columns, widths)))
        for row in rows:
            print("  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(row, widths))))
    sys.stdout.flush()


def main():
    started = time.monotonic()
    wanted = [s for s in args.systems.split(",") if s]
    for s in wanted:
        if s not in SYSTEMS:
            raise SystemExit("error: unknown system %s (petrel, recoll, omindex)" % s)
    if "petrel" in wanted and not os.access(os.path.join(args.tools, "petrel-search"), os.X_OK):
        raise SystemExit("error: no petrel-search in %s" % args.tools)
    docs = source_documents()
    entries = plan(docs)
    build_corpus(entries)
    make_queries(entries)
    queried = [e for e in entries if e["query"] and (args.split == "all" or is_heldout(e["id"]) == (args.split == "heldout"))]
    log("%d documents in %d files, %d queries in the %s half (%d documents had no distinctive fragment)" % (
        len(entries), sum(len(fs) for _, _, fs in os.walk(CORPUS)), len(queried), args.split, sum(1 for e in entries if not e["query"])))
    log("without a query: " + ", ".join("%s %d" % (l, sum(1 for e in entries if not e["query"] and e["language"] == l)) for l in LANGUAGES))
    siblings = {}
    for e in entries:
        siblings.setdefault(e["file"], []).append(e["inner"])
    results = {}
    costs = {}
    for key in wanted:
        system = SYSTEMS[key]()
        if args.keep_work:
            work = os.path.join(os.path.abspath(args.keep_work), key)
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
        else:
            work = tempfile.mkdtemp(prefix="petrel-evaldocs-")
        try:
            log("%s: indexing" % key)
            try:
                costs[key] = system.index(work)
            except (RuntimeError, OSError) as error:
                log("%s: %s" % (key, error))
                continue
            log("%s: %d queries" % (key, len(queried)))
            with ThreadPoolExecutor(2) as pool:
                hits = list(pool.map(system.search, [e["query"] for e in queried]))
            results[key] = [rank_of(e, h, siblings) for e, h in zip(queried, hits)]
            if args.report:
                with open(args.report, "a", encoding="utf-8") as report:
                    for e, h, r in zip(queried, hits, results[key]):
                        report.write(json.dumps({"system": key, "id": e["id"], "kind": e["kind"], "language": e["language"], "query": e["query"],
                                                 "file": e["file"], "inner": e["inner"], "rank": r, "top": h[:3]}, ensure_ascii=False) + "\n")
        finally:
            if not args.keep_work:
                shutil.rmtree(work, ignore_errors=True)
    systems = [k for k in wanted if k in results]
    groups = [("kind", k) for k in KINDS] + [("language", l) for l in LANGUAGES] + [("all", "all")]

    def members(group):
        field, value = group
        return [i for i, e in enumerate(queried) if field == "all" or e[field] == value]

    print("%s half: %d known-item queries over %d documents (%s)" % (args.split, len(queried), len(entries), ", ".join(
        "%s %d" % (l, sum(1 for e in queried if e["language"] == l)) for l in LANGUAGES)))
    metrics = [("share of documents found (top 100)", 100), ("known-item success@1", 1), ("known-item success@10", 10)]

    def label_of(group):
        label = group[1] if group[0] != "kind" else {"attachment": "mail attachment", "mbox": "mbox message", "maildir": "Maildir message",
                                                      "zip": "zip member", "tar.gz": "tar.gz member",
                                                      "compressed": "compressed file (bz2, xz, zst)"}.get(group[1], group[1])
        return "**%s**" % label if group[0] == "all" and args.markdown else label

    def score(k, ids, depth):
        found = sum(1 for i in ids if results[k][i] is not None and results[k][i] <= depth)
        return ("%.1f%%" % (100 * found / len(ids))) if depth == 100 else "%.2f" % (found / len(ids))

    columns = ["", "queries"] + [SYSTEMS[k].label for k in systems]
    for title, depth in metrics:
        rows = [[label_of(g), str(len(members(g)))] + [score(k, members(g), depth) for k in systems] for g in groups if members(g)]
        table(title + ", by kind and by language", columns, rows)
    # The three in one table, for the README.
    rows = [["%s (%d)" % (label_of(g), len(members(g)))] + [" / ".join(score(k, members(g), d) for _, d in metrics) for k in systems]
            for g in groups if members(g)]
    table("found / success@1 / success@10, by kind and by language", ["kind or language (queries)"] + [SYSTEMS[k].label for k in systems], rows)
    rows = []
    for k in systems:
        ids = members(("all", "all"))
        found = sum(1 for i in ids if results[k][i] is not None)
        s1 = sum(1 for i in ids if results[k][i] == 1)
        s10 = sum(1 for i in ids if results[k][i] is not None and results[k][i] <= 10)
        wall, peak = costs[k]
        rows.append([SYSTEMS[k].label, "%.1f%%" % (100 * found / len(ids)), "%.2f" % (s1 / len(ids)), "%.2f" % (s10 / len(ids)),
                     "%.1f s" % wall, "%.0f MiB" % peak])
    table("Summary (%d documents, %d files)" % (len(entries), sum(len(fs) for _, _, fs in os.walk(CORPUS))),
          ["", "documents found", "success@1", "success@10", "index time", "peak memory"], rows)
    log("whole evaluation: %.0f s" % (time.monotonic() - started))


if __name__ == "__main__":
    main()
