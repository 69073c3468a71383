#!/usr/bin/env python3
"""Third-party GRDB code against GRDB 7.10.0 and against Petrel, one table per source. Called by scripts/grdb-corpus.

Sources are listed in scripts/data/grdb-corpus.txt (format described there). For each module (GRDB, then
Petrel) the script stages every source into one scratch SwiftPM package, <scratch>/corpus-<module>, kept
between runs so that builds are incremental:

  * files come from `git archive <commit>` of the source's fetched mirror; nothing of them is kept in Petrel;
  * for Petrel, `import GRDB` (and `@testable import GRDB`) becomes `import Petrel` and the dependency is
    Petrel by path (with its GRDBSQLite product for targets that import GRDBSQLite); nothing else changes;
  * build: `swift build --build-tests`, in rounds: a source with a compile error is set aside whole and the
    rest rebuilt, so one broken source does not hide the others;
  * tests: `swift test --skip-build --filter <test target>` per source (XCTest and Swift Testing results
    read from the output), under a time limit; programs run directly, and on Petrel must print what they
    printed on GRDB.

Exit status: 0 when every source that builds on GRDB builds on Petrel and >= 98% of the tests it passes
on GRDB pass on Petrel; 1 otherwise; 2 when a source's mirror is missing or the list is malformed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import io
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PETREL = os.path.abspath(os.path.join(HERE, "..", ".."))
LIST = os.path.join(PETREL, "scripts", "data", "grdb-corpus.txt")
SHIMS = os.path.join(PETREL, "scripts", "data", "grdb-corpus-shims")
GRDB_URL = "https://github.com/groue/GRDB.swift"
GRDB_VERSION = "7.10.0"
GOAL = 0.98
T0 = time.monotonic()


def say(line=""):
    print(line, flush=True)


def stamp():
    return f"[{int(time.monotonic() - T0):>5}s]"


# ---------------------------------------------------------------------------------------------------------
# The list of sources


class Source:
    def __init__(self, name):
        self.name = name
        self.repo = None
        self.commit = None
        self.about = ""
        self.root = ""
        self.swift = "6"
        self.libraries = []    # (module, [paths])
        self.tests = []        # (module, [paths])
        self.executables = []  # (module, file)
        self.drop_lines = []
        self.replace_lines = {}
        self.shims = []
        self.packages = []     # (url, version, [products])
        self.features = []     # upcoming features its project enables (BareSlashRegexLiterals, ...)
        self.skip = None
        self.slow = None

    def modules(self):
        return [m for m, _ in self.libraries] + [m for m, _ in self.tests] + [m for m, _ in self.executables]

    def mirror(self, mirrors):
        owner, name = self.repo.split("/", 1)
        return os.path.join(mirrors, f"{owner}+{name}", "repo")


def parse_list(path):
    sources, current = [], None
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            m = re.fullmatch(r"\[([\w.-]+)\]", line)
            if m:
                current = Source(m.group(1))
                sources.append(current)
                continue
            if current is None or "=" not in line:
                raise SystemExit(f"{path}:{number}: expected `[name]` or `key = value`")
            key, value = (part.strip() for part in line.split("=", 1))
            words = key.split()
            if words[0] in ("library", "tests", "executable") and len(words) == 2:
                if words[0] == "executable":
                    current.executables.append((words[1], value))
                else:
                    paths = [p.strip() for p in value.split(",") if p.strip()]
                    (current.libraries if words[0] == "library" else current.tests).append((words[1], paths))
            elif key == "repo":
                current.repo = value
            elif key == "commit":
                current.commit = value
            elif key == "about":
                current.about = value
            elif key == "root":
                current.root = value.strip("/")
            elif key == "swift":
                current.swift = value
            elif key == "replace-line":
                old, new = (part.strip() for part in value.split("=>", 1))
                current.replace_lines[old] = new.replace("\\n", "\n")
            elif key == "drop-line":
                current.drop_lines.append(value)
            elif key == "shim":
                current.shims.append(value)
            elif key == "feature":
                current.features.append(value)
            elif key == "package":
                words = value.split()
                if len(words) < 3:
                    raise SystemExit(f"{path}:{number}: package = <url> <version> <product> [<product>...]")
                current.packages.append((words[0], words[1], words[2:]))
            elif key == "slow":
                current.slow = value
            elif key == "skip":
                current.skip = value
            else:
                raise SystemExit(f"{path}:{number}: unknown key {key!r}")
    for s in sources:
        if not s.repo or not s.commit:
            raise SystemExit(f"{path}: source [{s.name}] needs repo and commit")
    return sources


# ---------------------------------------------------------------------------------------------------------
# Staging


def archive_files(source, mirrors):
    """{path relative to root: bytes} of the .swift files under root at the source's commit."""
    git_dir = source.mirror(mirrors)
    tree = source.commit + (":" + source.root if source.root else "")
    data = subprocess.run(["git", "--git-dir", git_dir, "archive", "--format=tar", tree],
                          check=True, capture_output=True).stdout
    files = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".swift"):
                files[member.name] = tar.extractfile(member).read()
    return files


def select(files, paths):
    """Files of `paths` (files or folders; `-path` leaves one out), keyed by their path below the first folder."""
    chosen = {}
    excluded = [p[1:] for p in paths if p.startswith("-")]
    for p in (p for p in paths if not p.startswith("-")):
        for name in sorted(files):
            if p == "." or name == p or name.startswith(p.rstrip("/") + "/"):
                if any(name == e or name.startswith(e.rstrip("/") + "/") for e in excluded):
                    continue
                chosen[name] = files[name]
    return chosen


IMPORT_GRDB = re.compile(r"^(\s*(?:@\w+\s+)*)import\s+GRDB(?![\w.])", re.M)
IMPORTS_GRDB_SQLITE = re.compile(r"^\s*import\s+GRDBSQLite\b", re.M)


def transform(text, source, module):
    lines = text.split("\n")
    if source.drop_lines:
        lines = [l for l in lines if l.strip() not in source.drop_lines]
    lines = [source.replace_lines.get(l.strip(), l) for l in lines]
    text = "\n".join(lines)
    if module == "Petrel":
        text = IMPORT_GRDB.sub(r"\1import Petrel", text)
    return text


def stage(sources, module, scratch, mirrors):
    """Writes every source's targets into the scratch package; returns {module name: source}."""
    owners = {}
    for directory in ("Sources", "Tests"):
        shutil.rmtree(os.path.join(scratch, directory), ignore_errors=True)
    for source in sources:
        files = archive_files(source, mirrors)
        groups = [(m, p, "Sources", False) for m, p in source.libraries]
        groups += [(m, p, "Tests", False) for m, p in source.tests]
        groups += [(m, [f], "Sources", True) for m, f in source.executables]
        for target, paths, folder, is_program in groups:
            chosen = select(files, paths)
            if not chosen:
                raise SystemExit(f"[{source.name}] {target}: no .swift file under {paths} at {source.commit[:12]}")
            base = os.path.join(scratch, folder, target)
            for name, data in chosen.items():
                # A program's one file is its main.swift (top-level code, as in a playground page).
                if is_program:
                    relative = "main.swift"
                else:
                    relative = name if len(chosen) > 1 else os.path.basename(name)
                destination = os.path.join(base, relative)
                os.makedirs(os.path.dirname(destination), exist_ok=True)
                with open(destination, "w", encoding="utf-8") as f:
                    f.write(transform(data.decode("utf-8"), source, module))
            if folder == "Sources":
                for shim in source.shims:
                    shutil.copy(os.path.join(SHIMS, shim), os.path.join(base, "CorpusShim_" + shim))
            owners[target] = source
    return owners


def package_swift(sources, module):
    if module == "Petrel":
        dependency = f'.package(path: "{PETREL}")'
        identity = os.path.basename(PETREL)
        product = f'.product(name: "Petrel", package: "{identity}")'
        sqlite = f'.product(name: "GRDBSQLite", package: "{identity}")'
    else:
        dependency = f'.package(url: "{GRDB_URL}", exact: "{GRDB_VERSION}")'
        product = '.product(name: "GRDB", package: "GRDB.swift")'
        sqlite = None
    targets = []
    dependencies = [dependency]
    for source in sources:
        mode = ".v5" if source.swift == "5" else ".v6"
        flags = "".join(f', .enableUpcomingFeature("{f}")' for f in source.features)
        settings = f"swiftSettings: [.swiftLanguageMode({mode}){flags}]"
        libraries = [m for m, _ in source.libraries]
        # The other packages a source depends on (from this machine's package cache), for each of its targets.
        others = ""
        for url, version, products in source.packages:
            line = f'.package(url: "{url}", exact: "{version}")'
            if line not in dependencies:
                dependencies.append(line)
            identity = url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
            others += "".join(f', .product(name: "{p}", package: "{identity}")' for p in products)
        for index, m in enumerate(libraries):
            # A library sees the ones listed before it (a model package below its store).
            earlier = "".join(f'"{l}", ' for l in libraries[:index])
            targets.append(f'.target(name: "{m}", dependencies: [{earlier}{product}{others}{extra(sqlite, source, m)}], '
                           f'{settings})')
        for m, _ in source.executables:
            targets.append(f'.executableTarget(name: "{m}", dependencies: [{product}{others}{extra(sqlite, source, m)}], '
                           f'{settings})')
        for m, _ in source.tests:
            deps = ", ".join([f'"{l}"' for l in libraries] + [product])
            targets.append(f'.testTarget(name: "{m}", dependencies: [{deps}{others}{extra(sqlite, source, m)}], '
                           f'{settings})')
    body = ",\n        ".join(targets)
    packages = ",\n        ".join(dependencies)
    return f"""// swift-tools-version: 6.0
// Generated by scripts/grdb-corpus: third-party GRDB code staged against {module}.
import PackageDescription

let package = Package(
    name: "GRDBCorpus{module}",
    platforms: [.macOS(.v14)],
    dependencies: [
        {packages}
    ],
    targets: [
        {body}
    ]
)
"""


SQLITE_USERS = {}


def extra(sqlite, source, target):
    return f", {sqlite}" if sqlite and SQLITE_USERS.get(target) else ""


def note_sqlite_users(scratch, owners):
    for target in owners:
        for folder in ("Sources", "Tests"):
            base = os.path.join(scratch, folder, target)
            for dirpath, _, names in os.walk(base):
                for n in names:
                    with open(os.path.join(dirpath, n), encoding="utf-8") as f:
                        if IMPORTS_GRDB_SQLITE.search(f.read()):
                            SQLITE_USERS[target] = True


# ---------------------------------------------------------------------------------------------------------
# Building, testing


def run(command, cwd, log, timeout, env=None):
    """Runs a command in its own process group; returns (exit status or None on time-out, output)."""
    with open(log, "w") as out:
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                   env=env)
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # swift test starts the test binary in a process group of its own: end the whole session.
            subprocess.run(["pkill", "-KILL", "-s", str(process.pid)], check=False)
            process.wait()
            status = None
    with open(log, encoding="utf-8", errors="replace") as f:
        return status, f.read()


ERROR = re.compile(r"^(/[^:\n]+):\d+:\d+: error: (.*)$", re.M)


def build(sources, module, scratch, owners, jobs, results):
    """Builds in rounds, setting aside the sources that do not compile. Returns the sources that built."""
    active = list(sources)
    for round_number in range(1, 8):
        with open(os.path.join(scratch, "Package.swift"), "w") as f:
            f.write(package_swift(active, module))
        for folder in ("Sources", "Tests"):   # targets of set-aside sources must not be seen by SwiftPM
            for target in os.listdir(os.path.join(scratch, folder)) if os.path.isdir(os.path.join(scratch, folder)) else []:
                if owners.get(target) not in active:
                    shutil.rmtree(os.path.join(scratch, folder, target))
        if not active:
            return []
        say(f"{stamp()} {module}: build round {round_number} ({len(active)} sources)")
        log = os.path.join(scratch, "logs", f"build-{round_number}.log")
        status, output = run(["swift", "build", "--build-tests", "-j", str(jobs)], scratch, log, 3600)
        if status == 0:
            return active
        failing = {}
        for path, message in ERROR.findall(output):
            relative = os.path.relpath(path, scratch).split(os.sep)
            if len(relative) > 2 and relative[0] in ("Sources", "Tests") and relative[1] in owners:
                entry = f"{'/'.join(relative[2:])}: {message}"
                errors = failing.setdefault(owners[relative[1]], [])
                if entry not in errors:
                    errors.append(entry)
        if not failing:
            tail = "\n".join(output.strip().splitlines()[-15:])
            raise SystemExit(f"{module}: the build failed outside the staged sources (log {log}):\n{tail}")
        for source, errors in failing.items():
            results[source.name][module]["build_errors"] = errors
            active.remove(source)
    raise SystemExit(f"{module}: still failing after 7 build rounds")


TEST_LINE = re.compile(r"^Test Case '(?:-\[)?([^' \]]+(?:[ .][^' \]]+)?)\]?' (passed|failed|skipped)", re.M)
# "✔ Test name() passed after 0.1 seconds.", "✘ Test name() failed after ...", "➜ Test name() skipped."; not
# "✘ Test name() recorded an issue at ...: Expectation failed: ...".
SWIFT_TESTING_LINE = re.compile(r"^\S+ Test (.+?) (passed|failed|skipped)(?: after|\.)", re.M)


XCTEST_FAILURE = re.compile(r"error: (\S+) : failed: (.*)$", re.M)
# Linux's XCTest fails a measure block whose times vary by more than 10% (relative standard deviation), which
# on a shared machine says nothing of the code: a test whose only failures are that one counts as passed.
TIMING_NOISE = re.compile(r"^The relative standard deviation of the measurements is [\d.]+% which is higher")
MEASURED = re.compile(r"Test Case '([^']+)' measured \[Time, seconds\] average: ([\d.]+)")


def parse_tests(output):
    """{test name: passed?} of an XCTest and Swift Testing run's output."""
    outcome = {}
    failures = {}
    for name, message in XCTEST_FAILURE.findall(output):
        failures.setdefault(name, []).append(message)
    for name, verdict in TEST_LINE.findall(output):
        noise_only = name in failures and all(TIMING_NOISE.match(m) for m in failures[name])
        outcome[name.replace(" ", ".")] = verdict == "passed" or noise_only
    for name, verdict in SWIFT_TESTING_LINE.findall(output):
        if verdict != "skipped" and not name.startswith("run with "):
            outcome[name] = outcome.get(name, True) and verdict == "passed"
    return outcome


# Statements a library runs for itself, which a program's trace prints too: schema introspection, the
# migrator's bookkeeping, and GRDB asking SQLite to quote a value it writes into SQL that takes no arguments
# (SELECT QUOTE(?), as it writes the definition of a full-text table). Left out when a program's output on
# Petrel is compared with its output on GRDB.
OWN_STATEMENT = re.compile(r"^SQL> (PRAGMA |.*\bsqlite_(temp_)?master\b|.*\bgrdb_migrations\b|SELECT QUOTE\(\?\)$)")


def program_lines(output):
    return [line for line in output.splitlines() if not OWN_STATEMENT.match(line)]


def run_tests(source, module, scratch, results, timeout):
    record = results[source.name][module]
    outcome = {}
    for target, _ in source.tests:
        log = os.path.join(scratch, "logs", f"test-{target}.log")
        # Anchored: a target named DatabaseTests must not run the tests of another's AppDatabaseTests.
        status, output = run(["swift", "test", "--skip-build", "--filter", f"^{target}\\."], scratch, log, timeout)
        outcome.update(parse_tests(output))
        record.setdefault("measured", {}).update({n: float(t) for n, t in MEASURED.findall(output)})
        if status is None:
            record.setdefault("notes", []).append(f"{target}: stopped after {timeout}s")
        elif status < 0 or status > 1:
            record.setdefault("notes", []).append(f"{target}: test process ended with status {status}")
    for target, _ in source.executables:
        binary = os.path.join(scratch, ".build", "debug", target)
        log = os.path.join(scratch, "logs", f"run-{target}.log")
        # A program may print a Set (the playground observer prints the changed tables): with hashing
        # seeded per process its order would differ between any two runs, on either library.
        env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
        status, output = run([binary], scratch, log, 300, env=env)
        saved = os.path.join(os.path.dirname(scratch), "corpus-outputs", f"{target}.txt")
        if module == "GRDB":
            os.makedirs(os.path.dirname(saved), exist_ok=True)
            with open(saved, "w") as f:
                f.write(output)
            outcome[f"run {target}"] = status == 0
        else:
            expected = open(saved).read() if os.path.exists(saved) else None
            same = expected is not None and program_lines(expected) == program_lines(output)
            outcome[f"run {target}"] = status == 0 and same
            if status == 0 and not same:
                record.setdefault("notes", []).append(f"{target}: output differs from GRDB's (diff {saved} {log})")
    record["tests"] = outcome


# ---------------------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description="GRDB-using code against GRDB 7.10.0 and Petrel")
    parser.add_argument("--only", action="append", help="run only this source (repeatable)")
    parser.add_argument("--module", choices=["GRDB", "Petrel"], action="append",
                        help="stage only against this module (default both; Petrel's program outputs are "
                             "compared with those of an earlier GRDB run)")
    parser.add_argument("--slow", action="store_true", help="also run the sources marked slow")
    args = parser.parse_args()

    scratch_root = os.environ.get("GRDB_CORPUS_SCRATCH", "/tmp/petrel-compat")
    mirrors = os.environ.get("GRDB_CORPUS_MIRRORS", "/work/.mirror")
    jobs = int(os.environ.get("GRDB_CORPUS_JOBS", "2"))
    test_timeout = int(os.environ.get("GRDB_CORPUS_TEST_TIMEOUT", "900"))
    modules = args.module or ["GRDB", "Petrel"]

    sources = parse_list(LIST)
    if args.only:
        unknown = set(args.only) - {s.name for s in sources}
        if unknown:
            raise SystemExit(f"unknown source(s): {', '.join(sorted(unknown))}")
        sources = [s for s in sources if s.name in args.only]
    if not args.slow:
        for s in sources:
            if s.slow and not s.skip and not (args.only and s.name in args.only):
                s.skip = f"slow ({s.slow}): run with --slow or --only {s.name}"
    staged = [s for s in sources if not s.skip]

    missing = []
    for s in staged:
        git_dir = s.mirror(mirrors)
        ok = os.path.isdir(git_dir) and subprocess.run(
            ["git", "--git-dir", git_dir, "cat-file", "-e", s.commit + "^{commit}"],
            capture_output=True).returncode == 0
        if not ok:
            missing.append(s)
    if missing:
        for s in missing:
            say(f"missing: [{s.name}] {s.repo} at {s.commit} (looked in {s.mirror(mirrors)})")
        say("Fetch each missing repository into the mirrors folder first (in a session: the fetch tool, "
            "`github:<owner>/<name>`, which writes <mirrors>/<owner>+<name>/repo; elsewhere: "
            "`git clone --bare https://github.com/<owner>/<name> <mirrors>/<owner>+<name>/repo`), or set "
            "GRDB_CORPUS_MIRRORS. This script never reaches the network.")
        sys.exit(2)

    results = {s.name: {m: {} for m in ("GRDB", "Petrel")} for s in sources}
    # A module not run this time keeps the results of its last run (results.json in its scratch package),
    # so that `--module Petrel` after a change to Petrel compares with GRDB's last run.
    for module in ("GRDB", "Petrel"):
        saved = os.path.join(scratch_root, f"corpus-{module}", "results.json")
        if module not in modules and os.path.exists(saved):
            with open(saved) as f:
                previous = json.load(f)
            for s in sources:
                results[s.name][module] = previous.get(s.name, {})
    for module in modules:
        scratch = os.path.join(scratch_root, f"corpus-{module}")
        os.makedirs(os.path.join(scratch, "logs"), exist_ok=True)
        SQLITE_USERS.clear()
        owners = stage(staged, module, scratch, mirrors)
        note_sqlite_users(scratch, owners)
        built = build(staged, module, scratch, owners, jobs, results)
        for s in staged:
            results[s.name][module]["built"] = s in built
        for s in built:
            say(f"{stamp()} {module}: tests of {s.name}")
            run_tests(s, module, os.path.join(scratch), results, test_timeout)
        with open(os.path.join(scratch, "results.json"), "w") as f:
            json.dump({s.name: results[s.name][module] for s in staged}, f, indent=1)

    # The table
    say()
    say(f"GRDB-using code on GRDB {GRDB_VERSION} and on Petrel (import GRDB -> import Petrel), {stamp()[1:-1]}")
    header = f"{'source':<18} {'builds GRDB':>11} {'builds Petrel':>13} {'tests GRDB':>10} {'GRDB-passed':>11} " \
             f"{'pass Petrel':>11} {'ratio':>7}"
    say(header)
    say("-" * len(header))
    ok = True
    total_base = total_kept = 0
    for s in sources:
        if s.skip:
            say(f"{s.name:<18} skipped: {s.skip}")
            continue
        g, p = results[s.name]["GRDB"], results[s.name]["Petrel"]
        gt, pt = g.get("tests", {}), p.get("tests", {})
        base = sorted(name for name, passed in gt.items() if passed)
        kept = [name for name in base if pt.get(name)]
        def yn(r):
            return "-" if "built" not in r else ("yes" if r["built"] else "NO")
        compared = "built" in p
        ratio = f"{100 * len(kept) / len(base):.1f}%" if base and compared else "-"
        say(f"{s.name:<18} {yn(g):>11} {yn(p):>13} {len(gt):>10} {len(base):>11} "
            f"{(len(kept) if compared else '-'):>11} {ratio:>7}")
        if g.get("built") and compared:
            total_base += len(base)
            total_kept += len(kept)
            if not p.get("built") or (base and len(kept) < GOAL * len(base)):
                ok = False
    say("-" * len(header))
    if total_base:
        say(f"{'all':<18} {'':>11} {'':>13} {'':>10} {total_base:>11} {total_kept:>11} "
            f"{100 * total_kept / total_base:.1f}%")
    say()
    for s in sources:
        for module in ("GRDB", "Petrel"):
            r = results[s.name][module]
            for e in r.get("build_errors", [])[:6]:
                say(f"{s.name} on {module}: {e}")
            for n in r.get("notes", []):
                say(f"{s.name} on {module}: {n}")
        g, p = results[s.name]["GRDB"].get("tests", {}), results[s.name]["Petrel"].get("tests", {})
        if "built" in results[s.name]["Petrel"]:
            for name in sorted(n for n, passed in g.items() if passed and not p.get(n)):
                say(f"{s.name}: passes on GRDB, not on Petrel: {name}")
    for s in sources:
        g, p = results[s.name]["GRDB"].get("measured", {}), results[s.name]["Petrel"].get("measured", {})
        for name in sorted(set(g) & set(p)):
            say(f"{s.name}: measure {name}: GRDB {g[name]:.3f} s, Petrel {p[name]:.3f} s "
                f"(Petrel/GRDB {p[name] / g[name]:.2f}; debug builds)")
    say(f"Logs: {scratch_root}/corpus-<module>/logs")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
