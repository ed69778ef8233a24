// The optional built-in voice (the browser's speech synthesis, for screen readers that drop
// quick live-region updates) and the game's cues (sounds.js: the server's sound pack, a volume
// for each kind of cue), with one volume for both.
// Both are off until the player turns them on; nothing here is needed to play.
import { Sounds } from "./sounds.js";

export class Speaker {
  constructor() {
    this.voice = false;
    this.volume = 0.7;
    this.pack = new Sounds();
  }

  get sounds() {
    return this.pack.on;
  }

  get context() {
    return this.pack.context;
  }

  get gain() {
    return this.pack.gain;
  }

  get buffers() {
    return this.pack.buffers;
  }
  setVoice(on) {
    this.voice = on && "speechSynthesis" in window;
    if (!this.voice && "speechSynthesis" in window) speechSynthesis.cancel();
  }

  setSounds(on) {
    this.pack.setOn(on);
    if (on) this.pack.load();
  }

  setVolume(volume) {
    this.volume = volume;
    this.pack.setMaster(volume);
  }

  /** Others' moves: queued after what is being said, never cut off. */
  queue(text) {
    if (this.voice) this.say(text);
  }

  /** What the player asked for, and their turn: said at once. */
  interrupt(text) {
    if (!this.voice) return;
    speechSynthesis.cancel();
    this.say(text);
  }

  stop() {
    if ("speechSynthesis" in window) speechSynthesis.cancel();
  }

  say(text) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.volume = Math.max(0.1, this.volume);
    speechSynthesis.speak(utterance);
  }

  /** Web Audio needs a key press or click first; every key handler calls this. */
  unlock() {
    this.pack.unlock();
  }

  /** Play cue ``name``; ``why`` (the event that asked) goes into the page's record. */
  sound(name, why = {}) {
    this.pack.play(name, why);
  }
}
