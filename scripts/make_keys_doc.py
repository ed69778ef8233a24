"""Rewrite the key tables of docs/keys.md (English) and docs/es/keys.md (Spanish) from the
keymap table (fivecrowns.ui.keymap).

    .venv/bin/python scripts/make_keys_doc.py

Everything above the marker comment is prose and is kept; the tables after it are
made again, in each page's language (key names, actions and help as the game says them).
A page that does not exist yet is made with a short introduction.
tests/ui/test_keymap.py and tests/ui/test_session_spanish.py check that the pages and the table
agree.
"""

from __future__ import annotations

from pathlib import Path

from fivecrowns import i18n
from fivecrowns.ui.keymap import Keymap, keys_doc_tables

#: The comment each page's tables follow (a page's prose is in its own language).
MARKERS = {
    "en": "<!-- The tables below are made from the keymap table",
    "es": "<!-- Las tablas de abajo salen de la tabla de teclas",
}
DOCS = Path(__file__).resolve().parent.parent / "docs"
#: Each page and the language of its tables.
PAGES = {"en": DOCS / "keys.md", "es": DOCS / "es" / "keys.md"}
#: The beginning of a page that does not exist yet (only Spanish is ever new).
NEW_PAGE = {
    "es": (
        "# Teclas\n\n"
        "Todas las teclas del juego, por situación. Son las mismas letras que en inglés "
        "(D toma de la pila de extracción, T toma el descarte, G sale); la ayuda (F1) "
        "y el menú de acciones (Escape) las dicen en español. Las mismas teclas sirven en "
        "la pantalla completa (`fivecrowns --language es`) y en el modo de líneas "
        "(`fivecrowns play --line --language es`). Las teclas de información nunca gastan "
        "tu turno.\n\n"
        "- **F2** abre la configuración: el idioma (English o español) y el detalle. "
        "El idioma elegido cambia desde la frase siguiente y se guarda para las próximas "
        "partidas.\n"
        '- Para cambiar una tecla, añade una sección `"keys"` a `settings.json` con los '
        "nombres de la última columna. En ese archivo las teclas se escriben como en las "
        'tablas: `"d"`, `"Mayúsculas+H"`, `"Control+X"`, `"F5"`, `"Intro"`, `"Espacio"`, '
        '`"coma"` o `","`; los nombres ingleses (`"Shift+H"`, `"Enter"`) también valen.\n\n'
        "Los comandos `fivecrowns` de esta página se ejecutan desde la carpeta del juego "
        "como `.venv/bin/fivecrowns ...` una vez que se ha ejecutado `bash scripts/play` o "
        "`bash scripts/setup`; o escribe una vez `source .venv/bin/activate` en esa "
        "terminal y luego simplemente `fivecrowns ...`.\n\n"
        f"{MARKERS['es']} (fivecrowns.ui.keymap); una prueba las mantiene iguales. -->\n"
    ),
}


def tables(language: str) -> str:
    """The key tables in ``language``."""
    with i18n.speaking(language):
        if language != "en":  # why: the lobby's keys are not translated yet (issue 14)
            return Keymap.default().markdown().rstrip()
        return keys_doc_tables().rstrip()


def main() -> None:
    for language, page in PAGES.items():
        text = page.read_text(encoding="utf-8") if page.exists() else NEW_PAGE[language]
        head, marker, rest = text.partition(MARKERS[language])
        if not marker:
            raise SystemExit(f"{page} has no marker line: {MARKERS[language]}")
        comment = marker + rest.split("\n", 1)[0]
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"{head}{comment}\n\n{tables(language)}\n", "utf-8")
        print(f"Wrote the key tables of {page}.")


if __name__ == "__main__":
    main()
