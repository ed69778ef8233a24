// The sound packs the server offers (its operator's `serve --sounds PACK` first, then every
// other pack in its data folder; the player's choice is remembered): a pack's cue list, which
// cue goes with which event (the table fivecrowns.words.cues gives the terminal too, sent in
// /sounds/pack/LANGUAGE.json), Web Audio playback with a volume per kind of cue (your
// moves, others' moves, alerts) and mute all, remembered in localStorage; and the Sounds
// dialog (F2): those settings, and every cue to hear with its sentence.
import { _, N_, fill, language } from "./i18n.js";
import { KeptDialog } from "./dialog.js";

const $ = (id) => document.getElementById(id);
const STORED = "fivecrowns-sounds";
export const KINDS = ["own", "others", "alerts"];
const S = {
  pack: N_("Sound pack: {pack}."),
  heard: N_("{label}: {meaning}"),
  muted: N_("Sounds are muted. {label}: {meaning}"),
  noPack: N_("The sounds could not be loaded. Everything is also said in words."),
};

function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORED) || "null");
    if (kept && typeof kept === "object") return kept;
  } catch {
    // why quiet: settings that do not parse are the defaults again
  }
  return {};
}

const clamp = (value, fallback) =>
  typeof value === "number" && value >= 0 && value <= 1 ? value : fallback;

export class Sounds {
  constructor() {
    const kept = stored();
    this.on = kept.on === true; // why off at first: a browser lets a page start audio only after a key or click
    this.volumes = {};
    for (const kind of KINDS) this.volumes[kind] = clamp(kept.volumes && kept.volumes[kind], 1);
    this.master = 0.7;
    this.packName = typeof kept.pack === "string" ? kept.pack : null; // null: the operator's
    this.manifest = null;
    this.byName = new Map();
    this.context = null;
    this.gain = null;
    this.buffers = new Map();
    this.asked = []; // every cue the page asked for, {cue, kind, seq, human}: what tests read
    this.played = []; // every cue that started, [cue, gain]
  }

  save() {
    localStorage.setItem(STORED, JSON.stringify({ on: this.on, volumes: this.volumes, pack: this.packName }));
  }

  /** The pack's list in the page's language (labels and meanings are the server's words). */
  async fetchManifest() {
    const base = `/sounds/pack/${language()}.json`;
    try {
      let response = await fetch(this.packName ? `${base}?pack=${encodeURIComponent(this.packName)}` : base);
      // why the operator's then: the pack chosen last time is no longer offered here
      if (response.status === 404 && this.packName) response = await fetch(base);
      if (!response.ok) return;
      const manifest = await response.json();
      if (!this.manifest || this.manifest.pack !== manifest.pack) this.buffers = new Map();
      this.manifest = manifest;
      this.byName = new Map(manifest.cues.map((cue) => [cue.name, cue]));
      this.load();
    } catch {
      // why quiet: the game never needs a sound; everything is also said in words
    }
  }

  /** The cue for an event heard at ``seat`` (null: watching), as fivecrowns.words.cues.event_cue
   * chooses it for the terminal; ``human`` says whether the event's player is a person. */
  cueFor(kind, data, seat, human) {
    const events = this.manifest ? this.manifest.events : null;
    const cues = events ? events[kind] : null;
    if (!cues) return null;
    if (this.manifest.table_kinds.includes(kind)) return cues[1];
    if (kind === "laid_down" && !(data && Array.isArray(data.melds) && data.melds.length)) return null;
    const mine = seat !== null && data && data.player === seat;
    if (kind === "turn_started" && !mine && !human) return null;
    return mine ? cues[0] : cues[1];
  }

  /** Play the pack ``name`` from now on (one the server offers), remembered. */
  async choosePack(name) {
    this.packName = name;
    this.save();
    await this.fetchManifest();
  }

  refused() {
    return this.manifest ? this.manifest.refused : "invalid";
  }

  setOn(on) {
    this.on = on;
    this.save();
  }

  setVolume(kind, volume) {
    this.volumes[kind] = clamp(volume, this.volumes[kind]);
    this.save();
  }

  setMaster(volume) {
    this.master = volume;
    if (this.gain) this.gain.gain.value = volume;
  }

  /** Web Audio needs a key press or click first; every key handler calls this. */
  unlock() {
    if (this.context || !this.on) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    this.context = new Context();
    this.gain = this.context.createGain();
    this.gain.gain.value = this.master;
    this.gain.connect(this.context.destination);
    this.load();
  }

  async load() {
    const manifest = this.manifest;
    if (!this.context || !manifest) return;
    for (const cue of manifest.cues) {
      if (this.buffers.has(cue.name)) continue;
      try {
        const response = await fetch(cue.url);
        const data = await response.arrayBuffer();
        const buffer = await this.context.decodeAudioData(data);
        // why: another pack chosen meanwhile; its own load fills the buffers
        if (this.manifest !== manifest) return;
        this.buffers.set(cue.name, buffer);
      } catch {
        // why quiet: a missing sound never stops the game; everything is also in words
      }
    }
  }

  /** Play cue ``name`` at its kind's volume; ``why`` is what asked (an event), for the record. */
  play(name, why = {}) {
    if (!name) return;
    this.asked.push({ cue: name, ...why });
    if (this.asked.length > 3000) this.asked.shift();
    const cue = this.byName.get(name);
    if (!this.on || !this.context || !cue) return;
    const volume = this.volumes[cue.kind] ?? 1;
    const buffer = this.buffers.get(name);
    if (volume === 0 || this.master === 0 || !buffer) return;
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    const gain = this.context.createGain();
    gain.gain.value = volume;
    source.connect(gain);
    gain.connect(this.gain);
    source.start();
    this.played.push([name, volume]);
  }
}

/** The Sounds dialog: mute all, a volume for each kind, and each cue as a button that plays
 * it and says what it means. A kept dialog (dialog.js), as the Keys and Leave ones: why not
 * showModal, see there (Orca fell silent after a modal dialog closed). */
export class SoundsDialog {
  constructor(app, sounds) {
    this.app = app;
    this.sounds = sounds;
    const dialog = $("sounds-dialog");
    this.kept = new KeptDialog(dialog, () => this.app.viewTarget(), (e) => this.app.marked(e));
    $("sounds-button").addEventListener("click", () => this.open());
    $("sounds-close").addEventListener("click", () => this.kept.close());
    $("sounds-mute").addEventListener("change", (e) => this.app.setSoundsOn(!e.target.checked));
    $("sounds-pack-choice").addEventListener("change", async (e) => {
      await this.sounds.choosePack(e.target.value);
      this.show();
      const manifest = this.sounds.manifest;
      if (manifest) this.say(fill(_(S.pack), { pack: manifest.pack }));
    });
    for (const kind of KINDS) {
      $(`volume-${kind}`).addEventListener("input", (e) => {
        this.sounds.setVolume(kind, Number(e.target.value) / 100);
        this.valueText(e.target);
      });
    }
  }

  valueText(range) {
    range.setAttribute("aria-valuetext", fill(_("{value} percent"), { value: range.value }));
  }

  show() {
    const sounds = this.sounds;
    $("sounds-mute").checked = !sounds.on;
    for (const kind of KINDS) {
      const range = $(`volume-${kind}`);
      range.value = String(Math.round(sounds.volumes[kind] * 100));
      this.valueText(range);
    }
    const list = $("cue-list");
    list.replaceChildren();
    const manifest = sounds.manifest;
    const choice = $("sounds-pack-choice");
    const packs = manifest ? manifest.packs : [];
    // why only when the list changed: options rebuilt under the focus would be read again
    if ([...choice.options].map((o) => o.value).join("\n") !== packs.join("\n")) {
      choice.replaceChildren(...packs.map((name) => new Option(name, name)));
    }
    if (manifest) choice.value = manifest.pack;
    $("sounds-pack").textContent = manifest ? fill(_(S.pack), { pack: manifest.pack }) : _(S.noPack);
    for (const cue of manifest ? manifest.cues : []) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.id = `cue-${cue.name}`;
      button.textContent = cue.label;
      const meaning = document.createElement("span");
      meaning.id = `cue-${cue.name}-meaning`;
      meaning.textContent = ` ${cue.meaning}`;
      button.setAttribute("aria-describedby", meaning.id);
      button.addEventListener("click", () => this.hear(cue));
      item.append(button, meaning);
      list.append(item);
    }
  }

  /** F2 "Hear the sounds": the cue, and its sentence in the dialog's own status line (heard
   * where the player is, inside the dialog). */
  hear(cue) {
    this.sounds.unlock();
    this.sounds.play(cue.name, { heard: true });
    const template = this.sounds.on ? S.heard : S.muted;
    this.say(fill(_(template), { label: cue.label, meaning: cue.meaning }));
  }

  say(text) {
    const said = $("cue-said");
    said.replaceChildren();
    const line = document.createElement("p");
    line.textContent = text;
    said.append(line);
    this.app.speaker.interrupt(text);
  }

  async open() {
    if (this.kept.open) return;
    if (!this.sounds.manifest) await this.sounds.fetchManifest();
    this.show();
    $("cue-said").replaceChildren();
    this.kept.show($("sounds-mute"));
  }
}
