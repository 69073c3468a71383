# Sourced by the scripts: installs the Debian packages Petrel builds against
# and that its tests and demo use, when they are missing: SQLite and ICU
# headers, zlib, Snowball's stemmers (libstemmer-dev), pkg-config, and
# poppler-utils (pdftotext: PDF documents in corpora/ are indexed, and the
# golden files list them); libarchive-dev and libxml2-dev (zip members
# and the XML of OOXML, OpenDocument and EPUB documents), antiword and
# catdoc (antiword, catdoc and catppt for legacy doc and ppt files, xls2csv
# as the fallback for xls; the office extraction tests run them); time (/usr/bin/time: the hostile-input tests
# bound peak memory), util-linux (setpriv: they run read-only cases as an
# unprivileged user), bsdutils (script: a pseudo-terminal for the
# progress line) and gzip (compressed documents made by the tests);
# sqlite3 (the shell) and python3 (Debian's, whose sqlite3 module loads
# extensions): the tests load libpetrel into both. libarchive-dev (zip,
# tar and 7z members) and libgmime-3.0-dev (mail: MIME, encoded headers);
# zip (password-protected zip files), p7zip-full (7z archives, encrypted
# too) and zstd (tar.zst), which the mail and archive tests make their
# files with, as bzip2, xz-utils and lz4 make files compressed whole;
# djvulibre-bin (djvutxt reads DjVu documents; cjb2, djvused and djvm make
# the test's); ghostscript (gs prints PostScript and EPS files to a PDF
# that pdftotext reads, as Recoll does; the tests run it on real and
# hostile files). Packages only the tests use are named by scripts/test and
# scripts/test-tsan (test_packages, below), so that installing the tools
# installs no server and no browser.
ensure_system_packages() {
    local missing=()
    local package
    for package in libsqlite3-dev libicu-dev zlib1g-dev libstemmer-dev libarchive-dev libxml2-dev libgmime-3.0-dev pkg-config poppler-utils ghostscript antiword catdoc zip p7zip-full zstd bzip2 xz-utils lz4 djvulibre-bin time util-linux bsdutils gzip sqlite3 python3 "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing missing packages: ${missing[*]}" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "error: need root or sudo to install ${missing[*]}" >&2; return 1; }
        sudo="sudo"
    fi
    # Another apt run (unattended upgrades, a second script) may hold the
    # lock for a while: wait for it instead of failing.
    local wait=(-o DPkg::Lock::Timeout=600)
    $sudo apt-get "${wait[@]}" update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get "${wait[@]}" install -y -qq "${missing[@]}"
}

# What the tests alone use: postgresql-15, because the PetrelPostgres tests
# start servers of their own (initdb and pg_ctl from
# /usr/lib/postgresql/15/bin, as the package's postgres user, in temporary
# folders, on free loopback ports; the cluster the package creates and may
# start on port 5432 is never used, so whether it runs does not matter);
# chromium, chromium-driver and python3-selenium (Debian's headless
# browser, its WebDriver and Selenium: the browser tests of petrel-serve's
# page); gdb (the test watchdog prints the stacks of a test process that
# hangs, scripts/lib/run-tests.sh).
test_packages=(postgresql-15 chromium chromium-driver python3-selenium gdb)
