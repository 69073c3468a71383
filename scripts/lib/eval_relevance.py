"""Known-item relevance evaluation for petrel-search (see scripts/eval-relevance)."""
import glob, gzip, json, math, os, re, shutil, sqlite3, subprocess, sys, tempfile

eval_dir, bin_dir = sys.argv[1], sys.argv[2]
root = os.path.join(eval_dir, "root")


def groff_to_text(source):
    """Plain text of a man page: comments dropped, macros kept as their words, escapes removed."""
    lines = []
    for line in source.splitlines():
        if line.startswith('.\\"') or line.startswith("'\\\""):
            continue
        if line.startswith("."):
            parts = line.split(None, 1)
            line = parts[1] if len(parts) > 1 and parts[0] not in (".TH",) else ""
        line = re.sub(r"\\f[BIRPV]|\\f\(..|\\f\[[^]]*\]|\\[/,&]", "", line)
        line = line.replace("\\-", "-").replace("\\(em", "—").replace("\\e", "\\").replace('"', "")
        lines.append(line)
    return "\n".join(lines)


def man_documents(language_folder):
    """(name, text without the summary, summary) for man pages of one language."""
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "usr/share/man", language_folder, "man*", "*.gz"))):
        try:
            source = gzip.open(path, "rt", encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        lines = source.splitlines()
        for i, line in enumerate(lines):
            if line.startswith(".SH") and i + 1 < len(lines):
                match = re.match(r"^(.+?)\s+\\-\s+(.+)$", lines[i + 1])
                if match:
                    summary = match.group(2).strip()
                    body = "\n".join(lines[: i + 1] + lines[i + 2 :])
                    docs.append((os.path.basename(path)[:-3], groff_to_text(body), summary))
                break
    return docs


def english_documents():
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "usr/share/perl/*/pod/*.pod"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        match = re.search(r"^=head1 NAME\s*\n\s*\n(\S+)\s+-+\s+(.+)$", text, re.M)
        if match:
            docs.append((os.path.basename(path), text[: match.start(2)] + text[match.end(2) :], match.group(2).strip()))
    for path in sorted(glob.glob(os.path.join(root, "usr/share/doc/git-doc/git-*.txt"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        match = re.search(r"^NAME\n-+\n(\S+)\s+-\s+(.+)$", text, re.M)
        if match:
            docs.append((os.path.basename(path), text[: match.start(2)] + text[match.end(2) :], match.group(2).strip()))
    return docs


def ranks_petrel(docs, work, tokenizer="icu"):
    work = os.path.join(work, tokenizer)
    folder = os.path.join(work, "docs")
    os.makedirs(folder)
    for n, (name, body, _) in enumerate(docs):
        with open(os.path.join(folder, "%05d-%s.txt" % (n, name)), "w", encoding="utf-8") as f:
            f.write(body)
    index = os.path.join(work, "petrel.sqlite")
    subprocess.run([os.path.join(bin_dir, "petrel-index"), "--index", index, "--tokenizer", tokenizer, "--quiet", "--progress", "never", folder], check=True)
    ranks = []
    for n, (name, _, summary) in enumerate(docs):
        out = subprocess.run([os.path.join(bin_dir, "petrel-search"), "--index", index, "--json", "-n", "10", summary],
                             capture_output=True, text=True)
        paths = [json.loads(line)["path"] for line in out.stdout.splitlines() if line.strip()]
        target = "%05d-%s.txt" % (n, name)
        ranks.append(next((i + 1 for i, p in enumerate(paths) if p.endswith("/" + target)), None))
    return ranks


def ranks_fts5(docs, tokenizer, operator):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(path, body, tokenize=%s)" % ("'%s'" % tokenizer))
    db.executemany("INSERT INTO t(rowid, path, body) VALUES (?, ?, ?)", [(n, name, body) for n, (name, body, _) in enumerate(docs)])
    ranks = []
    for n, (_, _, summary) in enumerate(docs):
        words = [w for w in re.split(r"\s+", summary) if w]
        if tokenizer == "trigram":
            words = [w for w in words if len(w) >= 3]
        expression = (" %s " % operator).join('"%s"' % w.replace('"', '""') for w in words)
        try:
            rows = db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10", (expression,)).fetchall() if words else []
        except sqlite3.OperationalError:
            rows = []
        ids = [r[0] for r in rows]
        ranks.append(ids.index(n) + 1 if n in ids else None)
    return ranks


def metrics(ranks):
    mrr = sum(1 / r for r in ranks if r) / len(ranks)
    ndcg = sum(1 / math.log2(r + 1) for r in ranks if r) / len(ranks)
    found = sum(1 for r in ranks if r) / len(ranks)
    return mrr, ndcg, found


print("| set | queries | system | MRR@10 | nDCG@10 | found in top 10 |")
print("|---|---|---|---|---|---|")
for label, docs in [("English (perl pod, git)", english_documents()), ("Chinese (manpages-zh)", man_documents("zh_CN")),
                    ("Japanese (manpages-ja)", man_documents("ja"))]:
    # Known items need distinct summaries.
    seen, unique = set(), []
    for doc in docs:
        if doc[2] not in seen:
            seen.add(doc[2])
            unique.append(doc)
    work = tempfile.mkdtemp(prefix="petrel-eval-")
    try:
        systems = [("petrel-search (icu, relaxed)", ranks_petrel(unique, work))]
        if label.startswith("English"):
            systems.append(("petrel-search (icu-english, relaxed)", ranks_petrel(unique, work, "icu-english")))
        systems += [
                   ("FTS5 unicode61, AND", ranks_fts5(unique, "unicode61", "AND")),
                   ("FTS5 unicode61, OR", ranks_fts5(unique, "unicode61", "OR")),
                   ("FTS5 trigram, AND", ranks_fts5(unique, "trigram", "AND"))]
    finally:
        shutil.rmtree(work)
    for system, ranks in systems:
        mrr, ndcg, found = metrics(ranks)
        print("| %s | %d | %s | %.3f | %.3f | %.0f%% |" % (label, len(unique), system, mrr, ndcg, found * 100))
    sys.stdout.flush()
