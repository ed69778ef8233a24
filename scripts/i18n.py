"""Extract, update, compile and check the game's translation catalogs, with Babel.

    .venv/bin/python scripts/i18n.py update    # after changing sentences in the code
    .venv/bin/python scripts/i18n.py compile   # after translating in a .po file
    .venv/bin/python scripts/i18n.py check     # what tests/test_i18n.py checks
    .venv/bin/python scripts/i18n.py resolve   # after a merge conflict in a catalog

``update`` extracts every marked sentence (``_``, ``ngettext``, ``pgettext``,
``npgettext``, ``N_``) from ``src/fivecrowns`` (Python, and the web page's JavaScript)
and merges it into each language's ``.po``: new sentences arrive untranslated, gone
ones are dropped, translations are kept. Then it compiles. No fuzzy matching: a guess
at a near sentence is worse than an English one the check reports.

The ``.po`` has file names but no line numbers and a fixed header date, so that an edit
elsewhere in a file does not rewrite the catalog, and two people's additions to
different files merge without conflict. After a merge or rebase conflict in a catalog,
``resolve`` keeps both sides' translations, updates and compiles.
docs/i18n.md says how to write a translatable sentence.
"""

from __future__ import annotations

import io
import re
import string
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "fivecrowns"
LOCALE = PACKAGE / "locale"
DOMAIN = "fivecrowns"
#: The languages with a catalog (English is the source language).
TRANSLATED = ("es",)
# why: a fixed date keeps the header still, so the catalog changes only when a sentence does
FIXED_DATE = datetime(2026, 11, 23, tzinfo=UTC)
METHODS = [("**.py", "python"), ("web/**.js", "javascript")]
COMMENT_TAGS = ("TRANSLATORS:",)
PLURAL_FORMS = {"es": "nplurals=2; plural=(n != 1);"}


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def extract() -> Catalog:
    """Every marked sentence in the package, as a template."""
    template = Catalog(
        project="fivecrowns",
        domain=DOMAIN,
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )
    found = extract_from_dir(
        PACKAGE,
        method_map=METHODS,
        keywords=DEFAULT_KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        if filename.endswith("melds/reference.py"):
            continue
        template.add(
            message,
            None,
            [(f"src/fivecrowns/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def read(language: str) -> Catalog:
    path = po_path(language)
    if not path.exists():
        catalog = Catalog(locale=language, domain=DOMAIN, project="fivecrowns", fuzzy=False)
        catalog.creation_date = FIXED_DATE
        return catalog
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


def write(language: str, catalog: Catalog) -> None:
    catalog.revision_date = FIXED_DATE
    catalog.creation_date = FIXED_DATE
    catalog.language_team = "Spanish" if language == "es" else language
    catalog.last_translator = "fivecrowns contributors"
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(
        buffer, catalog, width=100, include_lineno=False, sort_by_file=True, ignore_obsolete=True
    )
    text = buffer.getvalue().decode("utf-8")
    # why: Babel writes Plural-Forms from CLDR; gettext's two Spanish forms are what we translate
    lines = [
        f'"Plural-Forms: {PLURAL_FORMS[language]}\\n"'
        if line.startswith('"Plural-Forms:')
        else line
        for line in text.splitlines()
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def compiled(language: str) -> bytes:
    catalog = read(language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def update() -> None:
    template = extract()
    for language in TRANSLATED:
        catalog = read(language)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        write(language, catalog)
        print(f"Updated {po_path(language).relative_to(ROOT)}: {len(catalog)} sentences.")
    compile_all()


def compile_all() -> None:
    for language in TRANSLATED:
        mo_path(language).write_bytes(compiled(language))
        print(f"Compiled {mo_path(language).relative_to(ROOT)}.")


PERCENT = re.compile(r"%(\([a-z_]+\))?[sdr]")


def fields(text: str) -> set[str]:
    """The placeholders of a template: ``"{name} drew"`` → ``{"name"}``; argparse's ``%s``
    and ``%(prog)s`` count too (its sentences are in the catalog).

    >>> sorted(fields("{name} drew {card}")), sorted(fields("%(prog)s: %s"))
    (['card', 'name'], ['%(prog)s', '%s'])
    """
    found = {match.group(0) for match in PERCENT.finditer(text)}
    try:
        found |= {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        found.add("<unbalanced braces>")
    return found


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (str(message.id),)


def _strings(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, tuple | list):
        return tuple(message.string)
    return (message.string or "",)


def problems(language: str) -> list[str]:
    """What stops the catalog being complete: missing, untranslated, fuzzy, bad placeholders."""
    found: list[str] = []
    template = extract()
    catalog = read(language)
    wanted = {(message.id, message.context) for message in template if message.id}
    have = {(message.id, message.context): message for message in catalog if message.id}
    for key in sorted(wanted - set(have), key=str):
        found.append(f"not in the {language} catalog (run scripts/i18n.py update): {key[0]!r}")
    for key in sorted(set(have) - wanted, key=str):
        found.append(f"in the {language} catalog but no longer in the code: {key[0]!r}")
    for key, message in have.items():
        if key not in wanted:
            continue
        ids = _ids(message)
        strings = _strings(message)
        if message.fuzzy:
            found.append(f"fuzzy: {ids[0]!r}")
        if not all(strings):
            found.append(f"untranslated: {ids[0]!r}")
            continue
        found.extend(_placeholder_problems(ids, strings, message))
    if mo_path(language).exists() and mo_path(language).read_bytes() != compiled(language):
        found.append(f"{mo_path(language).name} is older than its .po: run scripts/i18n.py compile")
    elif not mo_path(language).exists():
        found.append(f"{mo_path(language)} is missing: run scripts/i18n.py compile")
    return found


def _placeholder_problems(
    ids: tuple[str, ...], strings: Iterable[str], message: Message
) -> list[str]:
    if len(ids) == 1:
        expected = fields(ids[0])
        return [
            f"placeholders differ: {ids[0]!r} has {sorted(expected)}, "
            f"the translation {text!r} has {sorted(fields(text))}"
            for text in strings
            if fields(text) != expected
        ]
    # A plural: every form may use any of the English forms' placeholders, and must use
    # those both English forms use, except the number itself ({count} by convention, or
    # argparse's %s): "un naipe" may leave out the count, never the name.
    allowed = set().union(*(fields(text) for text in ids))
    required = set.intersection(*(fields(text) for text in ids)) - {"count", "%s", "%d"}
    return [
        f"placeholders differ: {ids[0]!r}: the translation {text!r} has {sorted(fields(text))}"
        for text in strings
        if not required <= fields(text) <= allowed
    ]


def resolve() -> None:
    """Settle a merge or rebase conflict in the catalogs: both sides' translations are kept.

    Reads the two conflicting versions of each ``.po`` from git's index (stages 2 and 3),
    keeps every translated sentence of either (the first side's when both translated the
    same sentence), then runs ``update`` (the code decides which sentences remain) and
    ``compile``; ``git add`` the catalogs afterwards.
    """
    import subprocess

    for language in TRANSLATED:
        relative = po_path(language).relative_to(ROOT).as_posix()
        sides = []
        for stage in (2, 3):
            shown = subprocess.run(
                ["git", "show", f":{stage}:{relative}"], cwd=ROOT, capture_output=True
            )
            if shown.returncode == 0:
                sides.append(read_po(io.BytesIO(shown.stdout), locale=language, domain=DOMAIN))
        if len(sides) < 2:
            print(f"{relative}: no conflict to resolve.")
            continue
        first, second = sides
        for message in second:
            if not message.id or not any(_strings(message)):
                continue
            mine = first.get(message.id, message.context)
            if mine is None:
                first[message.id] = message
            elif not all(_strings(mine)):
                mine.string = message.string
        write(language, first)
        print(f"{relative}: both sides' translations kept.")
    update()


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "resolve":
        resolve()
    elif command == "compile":
        compile_all()
    elif command == "check":
        listed = [problem for language in TRANSLATED for problem in problems(language)]
        for problem in listed:
            print(problem)
        print(f"{len(listed)} problems.")
        return 1 if listed else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
