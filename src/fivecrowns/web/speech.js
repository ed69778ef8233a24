// The optional built-in voice (the browser's speech synthesis, for screen readers that drop
// quick live-region updates) and the game's earcons through Web Audio, with mute and volume.
// Both are off until the player turns them on; nothing here is needed to play.
const SOUNDS = [
  "discard", "draw_stock", "game_over", "invalid", "last_turn", "round_over", "shuffle",
  "take_discard", "went_out", "your_turn",
];

export class Speaker {
  constructor() {
    this.voice = false;
    this.sounds = false;
    this.volume = 0.7;
    this.context = null;
    this.gain = null;
    this.buffers = new Map();
  }

  setVoice(on) {
    this.voice = on && "speechSynthesis" in window;
    if (!this.voice && "speechSynthesis" in window) speechSynthesis.cancel();
  }

  setSounds(on) {
    this.sounds = on;
    if (on) this.load();
  }

  setVolume(volume) {
    this.volume = volume;
    if (this.gain) this.gain.gain.value = volume;
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
    if (this.context || !this.sounds) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    this.context = new Context();
    this.gain = this.context.createGain();
    this.gain.gain.value = this.volume;
    this.gain.connect(this.context.destination);
    this.load();
  }

  async load() {
    if (!this.context) return;
    for (const name of SOUNDS) {
      if (this.buffers.has(name)) continue;
      try {
        const response = await fetch(`/sounds/${name}.wav`);
        const data = await response.arrayBuffer();
        this.buffers.set(name, await this.context.decodeAudioData(data));
      } catch {
        // why quiet: a missing sound never stops the game; everything is also in words
      }
    }
  }

  sound(name) {
    if (!this.sounds || !this.context || this.volume === 0) return;
    const buffer = this.buffers.get(name);
    if (!buffer) return;
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.gain);
    source.start();
  }
}
