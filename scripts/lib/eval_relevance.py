"""Known-item relevance evaluation for petrel-search (see scripts/eval-relevance).

Each document's one-line summary (a man page's NAME description, a pod or git
page's NAME line) is the query; the document is the only relevant answer, and
the summary is removed from what is indexed. Every set is split by a hash of
the document's name into a development half (for tuning) and a held-out half
(reported, never tuned on).

Beside the man-page sets, sets of several kinds (manual sections queried by their headings, FAQ
questions, READMEs; see eval_kinds.py) in nine languages, each subsampled deterministically to at most
--sample queries per half.

usage: eval_relevance.py EVAL_DIR BIN_DIR [--sets a,b] [--kinds man,docs,faq,readme,help] [--systems a,b]
                         [--split dev|heldout|both] [--ranking PARAMS] [--max-queries N] [--sample N]
                         [--report FILE] [--keep-work DIR] [--markdown] [--list] [--jobs N]
"""
import argparse, concurrent.futures, glob, gzip, hashlib, json, math, os, re, shutil, sqlite3, subprocess, sys, tempfile, time, unicodedata
sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
import eval_kinds
from eval_help_sets import help_documents

parser = argparse.ArgumentParser()
parser.add_argument("eval_dir")
parser.add_argument("bin_dir")
parser.add_argument("--sets", default="")
parser.add_argument("--systems", default="")
parser.add_argument("--split", default="both", choices=["dev", "heldout", "both"])
parser.add_argument("--ranking", default="", help="petrel-search --ranking parameters (experiments)")
parser.add_argument("--kinds", default="", help="only sets of these kinds: man, docs, faq, readme, help")
parser.add_argument("--max-queries", type=int, default=0)
parser.add_argument("--sample", type=int, default=200, help="at most this many queries per half of a set of several kinds (a hash of the name picks them)")
parser.add_argument("--markdown", action="store_true", help="also print nDCG@10 as one table, sets by systems, with each set's runtime")
parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="petrel-search processes at a time")
parser.add_argument("--list", action="store_true", help="list the sets (documents and queries per half) and stop")
parser.add_argument("--report", default="", help="write each query's outcome (JSON lines) to this file, for error analysis")
parser.add_argument("--keep-work", default="", help="keep each set's documents and indexes in DIR/SET (for petrel-search --explain by hand)")
parser.add_argument("--petrel-args", default="", help="more petrel-search options, space-separated (experiments: --weights title=2)")
parser.add_argument("--reuse-work", action="store_true", help="with --keep-work: search the index kept there by an earlier run instead of indexing again (ranking experiments)")
args = parser.parse_args()
root = os.path.join(args.eval_dir, "root")

# ---------------------------------------------------------------- documents


def groff_to_text(source):
    """Plain text of a man page for the baselines: comments dropped, macros kept as their words, escapes removed."""
    lines = []
    for line in source.splitlines():
        if line.startswith('.\\"') or line.startswith("'\\\""):
            continue
        if line.startswith(".") or line.startswith("'"):
            parts = line.split(None, 1)
            line = parts[1] if len(parts) > 1 and parts[0] not in (".TH", ".de", ".if", ".ie", ".el", ".ds", ".nr") else ""
        line = re.sub(r"\\f[BIRPV1-4]|\\f\(..|\\f\[[^]]*\]|\\[/,&|^%]|\\s[-+]?\d", "", line)
        line = line.replace("\\-", "-").replace("\\(em", "—").replace("\\(en", "–").replace("\\e", "\\").replace('"', "")
        lines.append(line)
    return "\n".join(lines)


def unescape_summary(text):
    text = re.sub(r"\\f[BIRPV1-4]|\\f\(..|\\f\[[^]]*\]|\\[&|^%]", "", text)
    return text.replace("\\-", "-").replace("\\(em", "—").replace("\\(en", "–").replace('"', "").strip()


def man_documents(language_folder):
    """(name, file name, source without the summary, plain text without it, summary) for man pages."""
    docs = []
    pattern = os.path.join(root, "usr/share/man", language_folder, "man*", "*.gz") if language_folder else os.path.join(root, "usr/share/man/man*/*.gz")
    for path in sorted(glob.glob(pattern)):
        try:
            source = gzip.open(path, "rt", encoding="utf-8", errors="replace").read()
        except (OSError, EOFError):
            continue
        if source.startswith(".so "):
            continue  # a link to another page
        lines = source.splitlines()
        for i, line in enumerate(lines):
            if re.match(r"^\.S[Hh]\s+\"?(NAME|名前|名称|NOM|BEZEICHNUNG|ИМЯ|НАЗВАНИЕ)", line.upper()) or (line.startswith(".SH") and i + 1 < len(lines) and re.match(r"^\S.*\s\\-\s", lines[i + 1])):
                j = i + 1
                while j < len(lines) and lines[j].startswith(".") and not lines[j].startswith(".SH"):
                    j += 1
                if j < len(lines):
                    match = re.match(r"^(.+?)\s+\\-\s+(.+)$", lines[j])
                    if match:
                        summary = unescape_summary(match.group(2))
                        # The NAME line keeps the page's names, loses the summary.
                        kept = lines[:j] + [match.group(1) + " \\-"] + lines[j + 1:]
                        body = "\n".join(kept)
                        file_name = os.path.basename(path)[:-3]
                        docs.append((file_name, file_name, body, groff_to_text(body), summary))
                break
    return docs


def english_documents():
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "usr/share/perl/*/pod/*.pod"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        match = re.search(r"^=head1 NAME\s*\n\s*\n(\S+)\s+-+\s+(.+)$", text, re.M)
        if match:
            body = text[: match.start(2)] + text[match.end(2):]
            docs.append((os.path.basename(path), os.path.basename(path), body, body, match.group(2).strip()))
    for path in sorted(glob.glob(os.path.join(root, "usr/share/doc/git-doc/git-*.txt"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        match = re.search(r"^NAME\n-+\n(\S+)\s+-\s+(.+)$", text, re.M)
        if match:
            body = text[: match.start(2)] + text[match.end(2):]
            docs.append((os.path.basename(path), os.path.basename(path), body, body, match.group(2).strip()))
    return docs


SETS = [
    ("en-man", "English man pages", "en", "man", lambda: man_documents("")),
    ("en-doc", "English perl and git docs", "en", "man", english_documents),
    ("ja", "Japanese man pages", "ja", "man", lambda: man_documents("ja")),
    ("zh-hans", "Chinese (simplified) man pages", "zh", "man", lambda: man_documents("zh_CN")),
    ("zh-hant", "Chinese (traditional) man pages", "zh", "man", lambda: man_documents("zh_TW")),
    ("de", "German man pages", "de", "man", lambda: man_documents("de")),
    ("fr", "French man pages", "fr", "man", lambda: man_documents("fr")),
    ("ru", "Russian man pages", "ru", "man", lambda: man_documents("ru")),
] + eval_kinds.kind_sets(root) + [
    ("help-" + code, "%s help pages (LibreOffice)" % name, language, "help", (lambda code: lambda: help_documents(root, code))(code))
    for code, name, language in [("en", "English", "en"), ("ja", "Japanese", "ja"), ("zh-hans", "Chinese (simplified)", "zh"),
                                 ("zh-hant", "Chinese (traditional)", "zh"), ("ko", "Korean", "ko"), ("de", "German", "de"),
                                 ("fr", "French", "fr"), ("ru", "Russian", "ru"), ("es", "Spanish", "es"),
                                 ("km", "Khmer", "km"), ("dz", "Dzongkha", "dz"), ("vi", "Vietnamese", "vi"), ("hi", "Hindi", "hi")]
]


def is_heldout(name):
    return int(hashlib.md5(name.encode()).hexdigest(), 16) % 2 == 1


# ---------------------------------------------------------------- systems
# Each system takes the documents and the queries (index into docs) and
# returns, per query, the ranked list of document numbers (top 10).


def ranks_petrel(docs, queries, work):
    folder = os.path.join(work, "petrel-docs")
    index = os.path.join(work, "petrel.sqlite")
    if not (args.reuse_work and os.path.exists(index)):
        shutil.rmtree(folder, ignore_errors=True)
        write_documents(docs, folder)
        subprocess.run([os.path.join(args.bin_dir, "petrel-index"), "--index", index, "--quiet", "--progress", "never", folder], check=True)
    return petrel_searches(["petrel-search", "--index", index], docs, queries)


def petrel_searches(command, docs, queries):
    """The ranked document numbers of each query, from `command` (a petrel-search tool and its index) with --json:
    one process per query, --jobs at a time (the index is only read); the first alone, in case opening it writes."""
    extra = (["--ranking", args.ranking] if args.ranking else []) + args.petrel_args.split()

    def search(q):
        out = subprocess.run([os.path.join(args.bin_dir, command[0])] + command[1:] + ["--json", "-n", "10"] + extra + ["--", docs[q][4]],
                             capture_output=True, text=True)
        ids = []
        for line in out.stdout.splitlines():
            if line.strip():
                match = re.search(r"/(\d{5})/", json.loads(line)["path"])
                if match:
                    ids.append(int(match.group(1)))
        return ids

    results = [search(q) for q in queries[:1]]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results += list(pool.map(search, queries[1:]))
    return results


def fts5_ranks(tokenizer, query_terms):
    def run(docs, queries, work):
        db = sqlite3.connect(":memory:")
        db.execute("CREATE VIRTUAL TABLE t USING fts5(path, body, tokenize=%s)" % ("'%s'" % tokenizer))
        db.executemany("INSERT INTO t(rowid, path, body) VALUES (?, ?, ?)", [(n, d[0], d[3]) for n, d in enumerate(docs)])
        results = []
        for q in queries:
            terms = query_terms(docs[q][4])
            expression = " OR ".join('"%s"' % w.replace('"', '""') for w in terms)
            try:
                rows = db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10", (expression,)).fetchall() if terms else []
            except sqlite3.OperationalError:
                rows = []
            results.append([r[0] for r in rows])
        return results
    return run


def words(text):
    return [w for w in re.split(r"\s+", text) if w]


def trigrams(text):
    chars = re.sub(r"\s+", " ", text)
    return sorted({chars[i:i + 3] for i in range(len(chars) - 2) if " " not in chars[i:i + 3]})


BIGRAM_SCRIPTS = re.compile(r"[\u1100-\u11ff\u1780-\u17ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]")
# A word: letters and digits with their combining marks (Python's \w alone cuts
# Khmer, Tibetan and Devanagari words at every vowel sign).
MARKS = "".join(re.escape(chr(c)) for c in range(0x300, 0x10000)
                if unicodedata.category(chr(c)) in ("Mn", "Mc", "Me") and not 0xd800 <= c < 0xe000)
WORD = re.compile(r"(?:\w|[%s])+" % MARKS)


def peer_tokens(text, language, stemmer):
    """Words (stemmed where a Snowball stemmer exists) plus character bigrams of CJK and Khmer runs (a Khmer run
    ends at the zero-width space its writers put between words): the peers' usual setup. Tibetan is cut at its
    syllables' tshegs."""
    text = unicodedata.normalize("NFKC", text).lower()
    tokens = []
    for run in WORD.findall(text):
        if BIGRAM_SCRIPTS.search(run):
            tokens += [run[i:i + 2] for i in range(len(run) - 1)] or [run]
        else:
            tokens.append(stemmer.stemWord(run) if stemmer else run)
    return tokens


SNOWBALL = {"en": "english", "de": "german", "fr": "french", "ru": "russian", "es": "spanish"}
BIGRAMS = ("ja", "zh", "ko", "km")  # languages the peers index as character bigrams


def bm25s_ranks(language):
    def run(docs, queries, work):
        import bm25s, Stemmer
        stemmer = Stemmer.Stemmer(SNOWBALL[language]) if language in SNOWBALL else None
        corpus = [peer_tokens(d[0] + " " + d[3], language, stemmer) for d in docs]
        vocabulary = {}
        ids = [[vocabulary.setdefault(t, len(vocabulary)) for t in doc] for doc in corpus]
        retriever = bm25s.BM25()
        retriever.index(bm25s.tokenization.Tokenized(ids=ids, vocab=vocabulary), show_progress=False)
        results = []
        for q in queries:
            terms = [t for t in peer_tokens(docs[q][4], language, stemmer) if t in vocabulary]
            if not terms:
                results.append([])
                continue
            scores = retriever.get_scores(terms)
            top = sorted(range(len(docs)), key=lambda i: -scores[i])[:10]
            results.append([i for i in top if scores[i] > 0])
        return results
    return run


def tantivy_ranks(language):
    def run(docs, queries, work):
        import tantivy
        builder = tantivy.SchemaBuilder()
        cjk = language in BIGRAMS
        tokenizer = "bigram" if cjk else ("stem" if language in SNOWBALL else "default")
        builder.add_text_field("body", stored=False, tokenizer_name=tokenizer)
        builder.add_integer_field("id", stored=True, indexed=True)
        schema = builder.build()
        index = tantivy.Index(schema)
        if cjk:
            index.register_tokenizer("bigram", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.ngram(2, 2)).filter(tantivy.Filter.lowercase()).build())
        elif language in SNOWBALL:
            index.register_tokenizer("stem", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(tantivy.Filter.lowercase()).filter(tantivy.Filter.stemmer(SNOWBALL[language])).build())
        writer = index.writer()
        for n, d in enumerate(docs):
            writer.add_document(tantivy.Document(body=d[0] + " " + d[3], id=n))
        writer.commit()
        index.reload()
        searcher = index.searcher()
        results = []
        for q in queries:
            text = re.sub(r"[+\-&|!(){}\[\]^\"~*?:\\/'<>=]", " ", docs[q][4])
            text = re.sub(r"\b(AND|OR|NOT|IN)\b", " ", text)
            try:
                if cjk:
                    # An OR of the query's bigrams (the parser would make a phrase of them).
                    lowered = docs[q][4].lower()
                    grams = sorted({lowered[i:i + 2] for i in range(len(lowered) - 1)})
                    query = tantivy.Query.boolean_query([(tantivy.Occur.Should, tantivy.Query.term_query(schema, "body", g)) for g in grams])
                else:
                    query = index.parse_query(text, ["body"])
                hits = searcher.search(query, 10).hits
                results.append([searcher.doc(address)["id"][0] for _, address in hits])
            except ValueError:
                results.append([])
        return results
    return run


def xapian_ranks(language):
    def run(docs, queries, work):
        sys.path.append("/usr/lib/python3/dist-packages")
        import xapian
        db = xapian.WritableDatabase(os.path.join(work, "xapian"), xapian.DB_CREATE_OR_OVERWRITE)
        generator = xapian.TermGenerator()
        stem = xapian.Stem(SNOWBALL[language]) if language in SNOWBALL else xapian.Stem("none")
        generator.set_stemmer(stem)
        flags = xapian.TermGenerator.FLAG_CJK_NGRAM if language in BIGRAMS else 0
        generator.set_flags(flags)
        for n, d in enumerate(docs):
            document = xapian.Document()
            generator.set_document(document)
            generator.index_text(d[0] + " " + d[3])
            document.set_data(str(n))
            db.add_document(document)
        db.commit()
        enquire = xapian.Enquire(db)
        query_parser = xapian.QueryParser()
        query_parser.set_stemmer(stem)
        query_parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
        query_parser.set_database(db)
        query_parser.set_default_op(xapian.Query.OP_OR)
        results = []
        for q in queries:
            try:
                if flags:
                    # An OR of the n-grams the term generator makes of the query.
                    scratch = xapian.Document()
                    generator.set_document(scratch)
                    generator.index_text(docs[q][4])
                    query = xapian.Query(xapian.Query.OP_OR, [t.term for t in scratch.termlist()])
                else:
                    query = query_parser.parse_query(docs[q][4], xapian.QueryParser.FLAG_DEFAULT)
            except xapian.QueryParserError:
                results.append([])
                continue
            enquire.set_query(query)
            results.append([int(m.document.get_data()) for m in enquire.get_mset(0, 10)])
        return results
    return run


# ---------------------------------------------------------------- PostgreSQL (only when named in --systems)
# petrel-postgres: the same documents in Petrel's PostgreSQL store (petrel-index-postgres and
# petrel-search-postgres), which must give SQLite's pages; ts_rank: PostgreSQL's own full-text
# search as a user of it would set it up (to_tsvector with the language's configuration, 'simple'
# for Chinese, Japanese and Korean; the query's words OR-ed; ts_rank), on a server of the script's
# own (initdb in a temporary folder, fsync off; as root it runs as Debian's postgres user).

PG_CONFIGS = {"en": "english", "de": "german", "fr": "french", "ru": "russian", "es": "spanish"}


class PostgresServer:
    url = None

    @classmethod
    def start(cls):
        if cls.url:
            return cls.url
        import atexit, pwd, socket
        pgbin = "/usr/lib/postgresql/15/bin"
        work = tempfile.mkdtemp(prefix="petrel-eval-pg-")
        os.chmod(work, 0o755)
        run_as = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(work, user.pw_uid, user.pw_gid)
            run_as = ["runuser", "-u", "postgres", "--"]
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        data = os.path.join(work, "data")
        subprocess.run(run_as + [pgbin + "/initdb", "-D", data, "-U", "petrel", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run(run_as + [pgbin + "/pg_ctl", "-D", data, "-l", os.path.join(work, "log"), "-w", "-t", "60", "start", "-o",
                                 "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=256MB" % (port, work)],
                       check=True, stdout=subprocess.DEVNULL)

        def stop():
            subprocess.run(run_as + [pgbin + "/pg_ctl", "-D", data, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.rmtree(work, ignore_errors=True)
        atexit.register(stop)
        cls.url = "postgres://petrel@127.0.0.1:%d/postgres" % port
        return cls.url

    @classmethod
    def database(cls, name):
        """A new database for one set (dropped first), and its URL."""
        url = cls.start()
        for statement in ("DROP DATABASE IF EXISTS %s" % name, "CREATE DATABASE %s" % name):
            subprocess.run(["psql", "-X", "-q", url, "-c", statement], check=True, stderr=subprocess.DEVNULL)
        return url.rsplit("/", 1)[0] + "/" + name


def write_documents(docs, folder):
    """The documents as files, as petrel-index reads them (NNNNN/name), once."""
    if os.path.isdir(folder):
        return
    for n, (_, file_name, source, _, _) in enumerate(docs):
        os.makedirs(os.path.dirname(os.path.join(folder, "%05d" % n, file_name)))
        with open(os.path.join(folder, "%05d" % n, file_name), "w", encoding="utf-8") as f:
            f.write(source)


def ranks_petrel_postgres(docs, queries, work):
    folder = os.path.join(work, "petrel-docs")
    write_documents(docs, folder)
    url = PostgresServer.database("petrel_" + re.sub(r"[^a-z0-9]", "_", os.path.basename(work).lower()))
    subprocess.run([os.path.join(args.bin_dir, "petrel-index-postgres"), "--database", url, "--quiet", "--progress", "never", folder], check=True)
    return petrel_searches(["petrel-search-postgres", "--database", url], docs, queries)


def ts_rank_ranks(language):
    def run(docs, queries, work):
        config = PG_CONFIGS.get(language, "simple")
        url = PostgresServer.database("tsrank_" + re.sub(r"[^a-z0-9]", "_", os.path.basename(work).lower()))

        def clean(text):  # COPY's text format: no tab, newline, backslash or NUL inside a field
            return re.sub(r"[\t\n\r\\\x00]", " ", text)
        rows = "".join("%d\t%s\n" % (n, clean(d[0] + " " + d[3])) for n, d in enumerate(docs))
        subprocess.run(["psql", "-X", "-q", url, "-v", "ON_ERROR_STOP=1", "-c", "CREATE TABLE t (id int, body text)",
                        "-c", "COPY t FROM STDIN", "-c", "ALTER TABLE t ADD COLUMN v tsvector",
                        "-c", "UPDATE t SET v = to_tsvector('%s', body)" % config, "-c", "CREATE INDEX ON t USING gin (v)"],
                       input=rows, text=True, check=True, capture_output=True)
        script = []
        for q in queries:
            text = docs[q][4].replace("\x00", " ")
            tag = "$q%s$" % hashlib.sha1(text.encode()).hexdigest()[:12]
            tsquery = "to_tsquery('%s', replace(plainto_tsquery('%s', %s%s%s)::text, '&', '|'))" % (config, config, tag, text, tag)
            script.append("SELECT coalesce(string_agg(id::text, ',' ORDER BY r DESC, id), '') FROM (SELECT id, ts_rank(v, q) AS r FROM t, %s q "
                          "WHERE v @@ q ORDER BY r DESC, id LIMIT 10) s;" % tsquery)
        out = subprocess.run(["psql", "-X", "-q", "-A", "-t", url], input="\n".join(script) + "\n", text=True, capture_output=True, check=True)
        lines = out.stdout.split("\n")
        return [[int(x) for x in lines[i].split(",") if x] if i < len(lines) else [] for i in range(len(queries))]
    return run


OPT_IN_SYSTEMS = {"petrel-postgres", "ts_rank"}


def systems_for(language):
    return [
        ("petrel", "petrel-search", ranks_petrel),
        ("fts5-or", "FTS5 unicode61, OR", fts5_ranks("unicode61 remove_diacritics 2", words)),
        ("fts5-porter", "FTS5 porter, OR", fts5_ranks("porter unicode61 remove_diacritics 2", words)),
        ("fts5-trigram", "FTS5 trigram, OR of trigrams", fts5_ranks("trigram", trigrams)),
        ("bm25s", "bm25s + PyStemmer" + (" (bigrams)" if language in BIGRAMS else ""), bm25s_ranks(language)),
        ("tantivy", "tantivy " + ("bigrams" if language in BIGRAMS else "en_stem" if language == "en" else "stemmer"), tantivy_ranks(language)),
        ("xapian", "Xapian BM25" + (" CJK n-grams" if language in BIGRAMS else ", stemming"), xapian_ranks(language)),
        ("petrel-postgres", "petrel-search-postgres", ranks_petrel_postgres),
        ("ts_rank", "PostgreSQL ts_rank (%s)" % PG_CONFIGS.get(language, "simple"), ts_rank_ranks(language)),
    ]


# ---------------------------------------------------------------- metrics


def metrics(targets, results):
    n = len(targets)
    ranks = [(r.index(t) + 1 if t in r else None) for t, r in zip(targets, results)]
    ndcg = sum(1 / math.log2(r + 1) for r in ranks if r) / n
    mrr = sum(1 / r for r in ranks if r) / n
    recall = sum(1 for r in ranks if r) / n
    zero = sum(1 for r in results if not r) / n
    return ndcg, mrr, recall, zero


wanted_sets = set(filter(None, args.sets.split(",")))
wanted_kinds = set(filter(None, args.kinds.split(",")))
wanted_systems = set(filter(None, args.systems.split(",")))
unknown = wanted_sets - {key for key, _, _, _, _ in SETS}
if unknown:
    sys.exit("unknown set(s): %s (sets: %s)" % (", ".join(sorted(unknown)), ", ".join(key for key, _, _, _, _ in SETS)))
splits = ["dev", "heldout"] if args.split == "both" else [args.split]


def sample(name):
    """The order in which a set of several kinds keeps its queries: a hash of the name, unrelated to the split's."""
    return hashlib.sha1(name.encode()).hexdigest()


if args.list:
    print("| set | kind | language | documents | dev queries | held-out queries |")
    print("|---|---|---|---|---|---|")
else:
    print("| set | half | queries | system | nDCG@10 | MRR@10 | R@10 | no result |")
    print("|---|---|---|---|---|---|---|---|")
summary = []  # (set key, label, split, queries, system key, nDCG@10)
runtimes = {}
for key, label, language, kind, load in SETS:
    if (wanted_sets and key not in wanted_sets) or (wanted_kinds and kind not in wanted_kinds):
        continue
    started = time.monotonic()
    docs = load()
    # Known items need distinct summaries.
    counts = {}
    for d in docs:
        counts[d[4]] = counts.get(d[4], 0) + 1
    queries_by_split = {"dev": [], "heldout": []}
    for n, d in enumerate(docs):
        if counts[d[4]] == 1 and d[4]:
            queries_by_split["heldout" if is_heldout(d[0]) else "dev"].append(n)
    if kind != "man":
        for split in queries_by_split:
            kept = sorted(queries_by_split[split], key=lambda n: sample(docs[n][0]))[: args.sample]
            queries_by_split[split] = sorted(kept)
    for split in queries_by_split:
        queries_by_split[split] = queries_by_split[split][: args.max_queries or None]
    if args.list:
        print("| %s | %s | %s | %d | %d | %d |" % (key, kind, language, len(docs), len(queries_by_split["dev"]), len(queries_by_split["heldout"])))
        continue
    if args.keep_work:
        work = os.path.join(os.path.abspath(args.keep_work), key)
        if not args.reuse_work:
            shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work, exist_ok=True)
    else:
        work = tempfile.mkdtemp(prefix="petrel-eval-")
    try:
        for system_key, system_label, run in systems_for(language):
            if (wanted_systems or system_key in OPT_IN_SYSTEMS) and system_key not in wanted_systems:
                continue
            queries = [q for s in splits for q in queries_by_split[s]]
            system_started = time.monotonic()
            try:
                results = dict(zip(queries, run(docs, queries, work)))
            except Exception as error:  # a peer that fails is reported, not fatal
                print("| %s | | | %s | failed: %s | | | |" % (label, system_label, str(error)[:60]))
                continue
            print("  %s %s: %.0f s" % (key, system_key, time.monotonic() - system_started), file=sys.stderr)
            if args.report:
                with open(args.report, "a", encoding="utf-8") as report:
                    for split in splits:
                        for q in queries_by_split[split]:
                            ranked = results[q]
                            report.write(json.dumps({"set": key, "split": split, "system": system_key, "query": docs[q][4], "target": docs[q][0],
                                                     "rank": ranked.index(q) + 1 if q in ranked else None,
                                                     "top": [docs[r][0] for r in ranked[:3]]}, ensure_ascii=False) + "\n")
            for split in splits:
                qs = queries_by_split[split]
                if not qs:
                    continue
                ndcg, mrr, recall, zero = metrics(qs, [results[q] for q in qs])
                print("| %s | %s | %d | %s | %.3f | %.3f | %.3f | %.1f%% |" % (label, split, len(qs), system_label, ndcg, mrr, recall, zero * 100))
                summary.append((key, label, split, len(qs), system_key, ndcg))
                sys.stdout.flush()
    finally:
        if not args.keep_work:
            shutil.rmtree(work)
    runtimes[key] = time.monotonic() - started
    print("%s: %d documents, %.0f s" % (key, len(docs), runtimes[key]), file=sys.stderr)

if args.markdown and summary:
    systems = [s for s, _, _ in systems_for("en") if any(row[4] == s for row in summary)]
    print()
    print("| set | half | queries | " + " | ".join(systems) + " | Petrel − best peer | seconds |")
    print("|---|---|---|" + "---|" * len(systems) + "---|---|")
    for key in runtimes:
        for split in splits:
            rows = {row[4]: row for row in summary if row[0] == key and row[2] == split}
            if not rows:
                continue
            best = max(row[5] for row in rows.values())
            cells = [("**%.3f**" if rows[s][5] == best else "%.3f") % rows[s][5] if s in rows else "" for s in systems]
            # Petrel's PostgreSQL store is Petrel, not a peer.
            peers = [row[5] for s, row in rows.items() if s not in ("petrel", "petrel-postgres")]
            margin = "%+.3f" % (rows["petrel"][5] - max(peers)) if "petrel" in rows and peers else ""
            queries = next(iter(rows.values()))[3]
            print("| %s | %s | %d | %s | %s | %.0f |" % (key, split, queries, " | ".join(cells), margin, runtimes[key]))
