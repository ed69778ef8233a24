// Installed in a page before its own scripts (page.add_init_script): right after the page has
// handled each snapshot or event frame, what its table shows is written down in
// window.__tableSeen, as a sighted player or browse mode would read it: the round line, each
// player's row, whose turn, the piles, the melds (each card's spoken name), the hand and the
// move buttons. It reads the DOM only; tests/web/test_table.py compares it with the server.
(() => {
  window.__tableSeen = [];
  const text = (element) => (element ? element.textContent.replace(/\s+/g, " ").trim() : "");
  const shown = (element) => Boolean(element) && !element.closest("[hidden]");
  const read = () => ({
    round: text(document.getElementById("round-line")),
    players: [...document.querySelectorAll("#players > li")].map((item) => ({
      text: text(item),
      current: item.getAttribute("aria-current") === "true",
    })),
    stock: text(document.getElementById("stock-text")),
    discard: text(document.getElementById("discard-text")),
    melds: [...document.querySelectorAll("#melds .meld-group")].map((group) => ({
      who: text(group.querySelector("p")),
      melds: [...group.querySelectorAll("ul.meld")].map((list) => ({
        label: list.getAttribute("aria-label"),
        cards: [...list.querySelectorAll("li")].map((item) => text(item.querySelector(".visually-hidden"))),
      })),
    })),
    noMelds: text(document.querySelector("#melds > p")),
    hand: shown(document.getElementById("hand"))
      ? [...document.querySelectorAll("#hand [role=option]")].map((option) => option.dataset.token)
      : null,
    moveButtons: [...document.querySelectorAll(".moves:not(.info) button, [data-action=hand], [data-action=hint]")]
      .filter(shown).length,
  });
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return add.call(this, type, listener, options);
    const after = (event) => {
      listener.call(this, event);
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if ((data.type === "snapshot" || data.type === "event") && window.__tableSeen.length < 20000) {
        window.__tableSeen.push({ type: data.type, seq: data.seq, dom: read() });
      }
    };
    return add.call(this, type, after, options);
  };
})();
