# Sourced by scripts/test: installs a debug build into a temporary prefix
# with scripts/install and checks what a user gets: the tools run from
# there, the extension loads from there into the sqlite3 shell, the man
# pages name every option, and the completion scripts are valid and
# complete the options.
check_install() {
    local prefix
    prefix="$(mktemp -d)"
    local failed=0
    fail() { echo "error: scripts/install: $*" >&2; failed=1; }
    scripts/install --configuration debug --prefix "$prefix" >/dev/null
    "$prefix/bin/petrel-search" --help | grep -q -- '--explain' || fail "the installed petrel-search does not run"
    "$prefix/bin/petrel-index" --help | grep -q -- '--rebuild' || fail "the installed petrel-index does not run"
    "$prefix/bin/petrel-serve" --help | grep -q -- '--listen' || fail "the installed petrel-serve does not run"
    # The tools carry the Swift runtime (Package.swift): a new process of
    # petrel-search does not load and relocate the shared Swift libraries.
    local tool
    for tool in petrel-index petrel-search; do
        if ldd "$prefix/bin/$tool" | grep -q 'libswiftCore\|libFoundation'; then
            fail "the installed $tool loads the shared Swift runtime"
        fi
    done
    # An index on PostgreSQL goes to the twin installed beside the tool,
    # which tries the (absent) server.
    local twin
    twin="$("$prefix/bin/petrel-search" --database postgres://petrel@127.0.0.1:1/postgres lamp 2>&1 >/dev/null || true)"
    grep -q 'cannot search the index in PostgreSQL' <<<"$twin" || fail "the installed petrel-search does not reach petrel-search-postgres: $twin"
    [ "$(sqlite3 :memory: ".load $prefix/lib/petrel/libpetrel" "SELECT icu_casefold('Straße')")" = "strasse" ] \
        || fail "the installed libpetrel.so does not load"
    local option
    for option in --rebuild --tokenizer --max-size --exclude; do
        grep -q -- "Fl -${option#--}" "$prefix/share/man/man1/petrel-index.1" || fail "petrel-index.1 lacks $option"
        grep -q -- "$option" "$prefix/share/bash-completion/completions/petrel-index" || fail "the bash completion lacks $option"
        grep -q -- "${option#--}" "$prefix/share/fish/vendor_completions.d/petrel-index.fish" || fail "the fish completion lacks $option"
    done
    for option in --explain --kind --since --json; do
        grep -q -- "Fl -${option#--}" "$prefix/share/man/man1/petrel-search.1" || fail "petrel-search.1 lacks $option"
        grep -q -- "$option" "$prefix/share/zsh/site-functions/_petrel-search" || fail "the zsh completion lacks $option"
    done
    grep -qx "ExecStart=$prefix/bin/petrel-index --watch --progress never" "$prefix/share/systemd/user/petrel-index.service" \
        || fail "the systemd user unit does not run the installed petrel-index --watch"
    bash -n "$prefix/share/bash-completion/completions/petrel-index" || fail "the bash completion is not valid bash"
    bash -n "$prefix/share/bash-completion/completions/petrel-search" || fail "the bash completion is not valid bash"
    # Completing `petrel-index --tok` in bash offers --tokenizer (with
    # extglob on, as bash-completion has it).
    local offered
    offered="$(bash -c '
        shopt -s extglob
        source "$1/share/bash-completion/completions/petrel-index"
        COMP_WORDS=(petrel-index --tok); COMP_CWORD=1; COMP_LINE="petrel-index --tok"; COMP_POINT=${#COMP_LINE}
        _petrel-index petrel-index --tok petrel-index 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix")"
    grep -qx -- '--tokenizer' <<<"$offered" || fail "bash does not complete --tok to --tokenizer (offered: $offered)"
    rm -rf "$prefix"
    [ "$failed" -eq 0 ] && echo "scripts/install: checked (tools, extension, man pages, completions)"
    return "$failed"
}
