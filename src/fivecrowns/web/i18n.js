// The page's words in the player's language (docs/web.md). Sentences are marked with _,
// ngettext, pgettext and N_ (whole sentences, named {placeholders}); scripts/i18n.py extracts
// them with Babel into the game's catalog, and the server sends their translations from it
// as /web/i18n/LANGUAGE.json. English is the source language and needs no file.

export const LANGUAGES = ["en", "es"];
const STORED = "fivecrowns-language";
let current = "en";
let messages = {};

/** Marks a sentence for the catalog without translating it (a template translated at use). */
export const N_ = (message) => message;

export function _(message) {
  const found = messages[message];
  return typeof found === "string" && found ? found : message;
}

/** English and Spanish both have two forms: one, and every other number. */
export function ngettext(singular, plural, count) {
  const found = messages[singular];
  const forms = Array.isArray(found) && found.every((form) => form) ? found : [singular, plural];
  return forms[count === 1 ? 0 : 1];
}

export function pgettext(context, message) {
  const found = messages[`${context}\u0004${message}`];
  return typeof found === "string" && found ? found : message;
}

/** Fills a template's {placeholders} (translate it first: fill(_(TEMPLATE), values)). */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (match, key) => (key in values ? String(values[key]) : match));
}

/** "a, b and c" by the language's rules (British English, as the game's sentences). */
export function joinList(items) {
  const kept = items.filter((item) => item);
  if (kept.length < 2) return kept[0] ?? "";
  const locale = current === "en" ? "en-GB" : current;
  return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(kept);
}

export function language() {
  return current;
}

function known(code) {
  if (!code) return null;
  const base = String(code).toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(base) ? base : null;
}

/** ?lang= in the address, then the player's choice on this page, then the browser's
 * languages in order, then English. */
export function chosenLanguage() {
  const asked = known(new URLSearchParams(location.search).get("lang"));
  if (asked) return asked;
  let stored = null;
  try {
    stored = known(localStorage.getItem(STORED));
  } catch {
    // why quiet: storage may be off; the browser's language still chooses
  }
  if (stored) return stored;
  for (const code of navigator.languages ?? [navigator.language]) {
    const found = known(code);
    if (found) return found;
  }
  return "en";
}

export function remember(code) {
  try {
    localStorage.setItem(STORED, code);
  } catch {
    // why quiet: without storage the choice lasts until the page is reloaded
  }
}

/** Loads the page's sentences in ``code``; English (or a failed load) keeps the page's own. */
export async function load(code) {
  current = "en";
  messages = {};
  if (code !== "en" && LANGUAGES.includes(code)) {
    try {
      const response = await fetch(`/web/i18n/${code}.json`);
      if (response.ok) {
        const data = await response.json();
        messages = data.messages ?? {};
        current = code;
      }
    } catch {
      // why quiet: a page in English is better than no page; the server still words its
      // own sentences in the language the hello names
    }
  }
  document.documentElement.lang = current;
  return current;
}
