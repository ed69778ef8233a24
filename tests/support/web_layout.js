// Cards, buttons and text that overlap each other or leave the viewport (test_web_browser.py).
() => {
  const width = document.documentElement.clientWidth;
  const picked = [...document.querySelectorAll(
    '.card, button, h1, h2, h3, label, #players li span, .pile p, .log p, .round-line, th, td'
  )].filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
    && !e.closest('[hidden]') && !e.closest('dialog:not([open])')
    && !e.classList.contains('visually-hidden')
    // a retiring part is clipped out of sight (style.css .retiring), though its children keep a size
    && !e.closest('.retiring'));
  const problems = [];
  const boxes = picked.map(e => [e, e.getBoundingClientRect()]);
  for (const [e, r] of boxes) {
    if (r.left < -1 || r.right > width + 1) {
      problems.push(`${e.tagName}.${e.className} "${e.textContent.slice(0, 30)}" leaves the viewport (${r.left}..${r.right} of ${width})`);
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      if (a.closest('.scroll') || b.closest('.scroll') || a.closest('.log') || b.closest('.log')) {
        if (a.closest('.scroll, .log') !== b.closest('.scroll, .log')) continue;
      }
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (x > 1 && y > 1) {
        problems.push(`${a.tagName}.${a.className} "${a.textContent.slice(0, 20)}" overlaps ${b.tagName}.${b.className} "${b.textContent.slice(0, 20)}"`);
      }
    }
  }
  for (const card of document.querySelectorAll('.card')) {
    if (!card.getClientRects().length || card.closest('[hidden]')) continue;
    if (card.scrollWidth > card.clientWidth + 1 || card.scrollHeight > card.clientHeight + 1) {
      problems.push(`the card "${card.textContent}" is cut off (its text is wider or taller than it)`);
    }
  }
  return problems;
}
