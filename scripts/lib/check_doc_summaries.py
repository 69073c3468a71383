#!/usr/bin/env python3
"""Fails when a public symbol declared in Sources/ has no doc comment and is
not on the list of those that had none when the check began
(scripts/data/undocumented-symbols.txt). scripts/docs runs it on the symbol
graphs that DocC just extracted, so a new public symbol without a summary
fails CI, and the list only shrinks.

    python3 scripts/lib/check_doc_summaries.py                # check
    python3 scripts/lib/check_doc_summaries.py --write-list   # after documenting some
"""
import glob, json, os, sys

MODULES = ['Petrel', 'PetrelText', 'PetrelICU', 'PetrelIndex']
LIST = 'scripts/data/undocumented-symbols.txt'


def undocumented():
    """(module, USR) -> readable name, for public symbols of our sources without a doc comment."""
    found = {}
    for module in MODULES:
        files = glob.glob(f'.build/*/extracted-symbols/*/{module}/*.symbols.json')
        if not files:
            sys.exit(f'check_doc_summaries: no symbol graph for {module}; run scripts/docs first')
        for path in files:
            for symbol in json.load(open(path, encoding='utf-8'))['symbols']:
                if symbol.get('accessLevel') not in ('public', 'open') or symbol.get('docComment'):
                    continue
                uri = symbol.get('location', {}).get('uri', '')
                if '/Sources/' not in uri:
                    continue  # synthesized, or inherited from another module
                source = 'Sources/' + uri.split('/Sources/', 1)[1]
                name = '.'.join(symbol['pathComponents'])
                found[(module, symbol['identifier']['precise'])] = f'{name} ({source})'
    return found


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    found = undocumented()
    if '--write-list' in sys.argv:
        with open(LIST, 'w', encoding='utf-8') as out:
            out.write('# Public symbols without a doc comment, kept from the start of the check\n'
                      '# (issue 51). Document them and run\n'
                      '#   python3 scripts/lib/check_doc_summaries.py --write-list\n'
                      '# to shorten this list; a symbol missing from it must have a summary.\n')
            for (module, usr), name in sorted(found.items(), key=lambda item: (item[0][0], item[1])):
                out.write(f'{module}\t{usr}\t{name}\n')
        print(f'check_doc_summaries: {len(found)} undocumented public symbols listed in {LIST}')
        return 0
    allowed = set()
    for line in open(LIST, encoding='utf-8'):
        if line.strip() and not line.startswith('#'):
            module, usr = line.split('\t')[:2]
            allowed.add((module, usr))
    new = sorted(name for key, name in found.items() if key not in allowed)
    fixed = len(allowed - found.keys())
    for name in new:
        print(f'error: public symbol without a doc comment: {name}', file=sys.stderr)
    print(f'check_doc_summaries: {len(found)} public symbols without a summary, all listed' if not new
          else f'check_doc_summaries: {len(new)} new public symbols without a summary', file=sys.stderr)
    if fixed:
        print(f'check_doc_summaries: {fixed} listed symbols are documented or gone; '
              f'shorten the list with --write-list', file=sys.stderr)
    return 1 if new else 0


if __name__ == '__main__':
    sys.exit(main())
