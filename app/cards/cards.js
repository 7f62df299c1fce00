// The card component of the Mau Binh app (see app/cards/__init__.py for the Python API).
//
// One module draws every view: "editor" (three rows you arrange by drag or tap),
// "picker" (the 52-card grid), "rows" and "fan" (static cards, face up or backs) and
// "table" (the Macao table).  Streamlit calls the default export on mount and again
// whenever the data from Python changes; the interaction state of an instance lives in
// a WeakMap keyed by its parent element, so a drag or a tap never waits for the server.
// Every visible word comes from data.labels (Python, translated there).
//
// DOM contract used by tests outside the project: data-card="<code>" on every face-up
// card, data-row="front|middle|back" on editor rows, data-playable on Macao hand cards,
// data-seat on Macao seats and data-last-move="<text>" once that seat has moved.
// The card design (data.skin: face and back names) is set on the root as
// data-skin-face / data-skin-back; cards.css draws each design.

const INSTANCES = new WeakMap();
const SUIT_GLYPH = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANK_VALUE = { "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, T: 10, J: 11, Q: 12, K: 13, A: 14 };
const DRAG_THRESHOLD = 6; // pixels a pointer moves before a press becomes a drag

// --- cards -----------------------------------------------------------------------------

function rankOf(code) { return RANK_VALUE[code[0]]; }
function suitOf(code) { return code[1]; }
function isJoker(code) { return code === "BJ" || code === "RJ"; }
function rankText(code) { return code[0] === "T" ? "10" : code[0]; }

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

// A face-up card: rank and suit in two corners, a big pip in the middle.
function cardNode(code, opts) {
  const o = opts || {};
  const node = el(o.button ? "button" : "div", "card");
  if (o.button) node.type = "button";
  node.dataset.card = code;
  if (isJoker(code)) {
    node.classList.add(code === "RJ" ? "red" : "black", "joker");
    node.append(el("span", "corner", "\u2605"), el("span", "pip", code === "RJ" ? "\u2605" : "\u2606"));
    node.append(el("span", "corner low", "J"));
    node.setAttribute("aria-label", o.jokerNames ? o.jokerNames[code] : code);
    return node;
  }
  const suit = suitOf(code);
  node.classList.add("suit-" + suit, suit === "h" || suit === "d" ? "red" : "black");
  const corner = el("span", "corner");
  corner.append(el("span", "rank", rankText(code)), el("span", "suit", SUIT_GLYPH[suit]));
  node.append(corner, el("span", "pip", SUIT_GLYPH[suit]));
  node.setAttribute("aria-label", rankText(code) + SUIT_GLYPH[suit]);
  return node;
}

// Bring a freshly shown hand or result into view (a phone shows little above the fold):
// only when part of it is off the screen, so a page already showing it all stays put.
// scroll-margin-top keeps it clear of Streamlit's header and shows the heading above it.
function bringIntoView(node) {
  const go = () => {
    const box = node.getBoundingClientRect();
    const screen = window.innerHeight || document.documentElement.clientHeight;
    if (box.top >= 56 && box.bottom <= screen) return;
    node.style.scrollMarginTop = "104px";
    node.scrollIntoView({ block: "start" });
  };
  requestAnimationFrame(go);
  setTimeout(go, 350); // elements above may still settle (fonts, a spinner that goes)
}

// Scroll once per token: data.scroll names the result (a deal, a solve); a new one scrolls.
function scrollOnce(inst, node) {
  const token = inst.data && inst.data.scroll;
  if (!token || inst.scrolled === token) return;
  inst.scrolled = token;
  bringIntoView(node);
}

function backNode() {
  const node = el("div", "card back");
  node.dataset.back = "true";
  return node;
}

// --- Mau Binh row strength (mirrors solver/hands.py key3/key5; the server re-checks) ------

function packKey(category, digits) {
  let key = category;
  for (let i = 0; i < 5; i++) key = key * 32 + (digits[i] || 0);
  return key;
}

function groupedRanks(codes) {
  const ranks = codes.map(rankOf);
  const counts = {};
  ranks.forEach((r) => { counts[r] = (counts[r] || 0) + 1; });
  ranks.sort((a, b) => (counts[b] - counts[a]) || (b - a));
  return { ranks, counts };
}

function rowKey(codes, wheel) {
  const { ranks, counts } = groupedRanks(codes);
  const shape = Object.values(counts).sort((a, b) => b - a);
  const digits = ranks.map((r) => r - 1);
  if (codes.length === 3) {
    return packKey(shape[0] === 3 ? 3 : shape[0] === 2 ? 1 : 0, digits);
  }
  const flush = new Set(codes.map(suitOf)).size === 1;
  const distinct = [...new Set(ranks)].sort((a, b) => a - b);
  let top = null;
  if (distinct.length === 5) {
    if (distinct[4] - distinct[0] === 4) top = distinct[4] - 1;
    else if (distinct.join() === "2,3,4,5,14") top = 0;
  }
  if (top !== null) {
    const d1 = top === 0 ? (wheel === "second" ? 25 : 8) : 2 * top;
    return packKey(flush ? 8 : 4, [d1]);
  }
  let cat = 0;
  if (shape[0] === 4) cat = 7;
  else if (shape[0] === 3 && shape[1] === 2) cat = 6;
  else if (flush) cat = 5;
  else if (shape[0] === 3) cat = 3;
  else if (shape[0] === 2 && shape[1] === 2) cat = 2;
  else if (shape[0] === 2) cat = 1;
  return packKey(cat, digits);
}

function categoryOf(key) { return Math.floor(key / 33554432); } // key >> 25 without 32-bit overflow

function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (m, name) => (name in values ? values[name] : m));
}

// Group a row for display: multiples first, then high to low (what "auto-sort" does).
function sortRow(codes) {
  const counts = {};
  codes.forEach((c) => { counts[rankOf(c)] = (counts[rankOf(c)] || 0) + 1; });
  return [...codes].sort((a, b) => (counts[rankOf(b)] - counts[rankOf(a)]) || (rankOf(b) - rankOf(a))
    || "shdc".indexOf(suitOf(a)) - "shdc".indexOf(suitOf(b)));
}

// --- the hand editor ----------------------------------------------------------------------

const ROW_NAMES = ["front", "middle", "back"];

function editorCheck(inst) {
  const d = inst.data;
  const L = d.labels || {};
  const sizes = d.sizes || [3, 5, 5];
  const rows = inst.rows;
  const status = { rows: [], ok: false, text: "", kind: "info" };
  const keys = rows.map((r, i) => (r.length === sizes[i] ? rowKey(r, d.wheel || "second") : null));
  rows.forEach((r, i) => {
    let note;
    if (r.length === sizes[i]) note = (d.categories || [])[categoryOf(keys[i])] || "";
    else note = fill(r.length > sizes[i] ? L.too_many : L.too_few, { n: r.length, size: sizes[i] });
    status.rows.push({ note, full: r.length === sizes[i] });
  });
  if (keys.some((k) => k === null)) {
    status.text = fill(L.sizes, {});
    status.kind = "warn";
    return status;
  }
  if (d.special) {
    status.ok = true;
    status.text = d.special;
    status.kind = "ok";
    return status;
  }
  const [f, m, b] = keys;
  const problems = [];
  const pairs = [[1, 2], [0, 1]]; // (weaker row, stronger row) that must hold
  for (const [lo, hi] of pairs) {
    const bad = d.strict ? keys[lo] >= keys[hi] : keys[lo] > keys[hi];
    if (!bad) continue;
    const word = (i) => L[ROW_NAMES[i] + "_word"] || L[ROW_NAMES[i]] || ROW_NAMES[i];
    const names = { upper: word(lo), lower: word(hi),
      upper_hand: (d.categories || [])[categoryOf(keys[lo])] || "", lower_hand: (d.categories || [])[categoryOf(keys[hi])] || "" };
    if (keys[lo] === keys[hi]) problems.push(fill(L.foul_equal, names));
    else if (categoryOf(keys[lo]) === categoryOf(keys[hi])) problems.push(fill(L.foul_same, names));
    else problems.push(fill(L.foul_beats, names));
  }
  if (problems.length === 0 && f <= m && m <= b) {
    status.ok = true;
    status.text = L.valid || "";
    status.kind = "ok";
  } else {
    status.text = fill(L.foul, { reasons: problems.join("; ") });
    status.kind = inst.touched ? "bad" : "info";
  }
  return status;
}

function sameRows(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function editorCommit(inst, newRows) {
  if (sameRows(newRows, inst.rows)) return;
  inst.history.push(inst.rows);
  inst.rows = newRows;
  inst.touched = true;
  inst.selected = [];
  inst.seq += 1;
  editorRender(inst);
  inst.args.setStateValue("arrangement", { rows: inst.rows, seq: inst.seq, moves: inst.history.length, deal_id: inst.data.deal_id });
}

function removeCodes(rows, codes) {
  return rows.map((r) => r.filter((c) => !codes.includes(c)));
}

function rowOfCode(rows, code) { return rows.findIndex((r) => r.includes(code)); }

// Put `codes` into row `target`, before card `before` (or at the end).
function moveCards(rows, codes, target, before) {
  const out = removeCodes(rows, codes);
  const row = out[target];
  const at = before && row.includes(before) ? row.indexOf(before) : row.length;
  row.splice(at, 0, ...codes);
  return out;
}

function swapCards(rows, a, b) {
  return rows.map((r) => r.map((c) => (c === a ? b : c === b ? a : c)));
}

// A card dropped or tapped onto another card: swap across full rows, otherwise move in.
function placeOnCard(inst, codes, targetCode) {
  const rows = inst.rows;
  const sizes = inst.data.sizes || [3, 5, 5];
  const from = rowOfCode(rows, codes[0]);
  const to = rowOfCode(rows, targetCode);
  if (codes.length === 1 && from !== to && rows[to].length >= sizes[to]) return swapCards(rows, codes[0], targetCode);
  return moveCards(rows, codes, to, targetCode);
}

function editorTapCard(inst, code) {
  if (inst.data.disabled) return;
  const sel = inst.selected;
  if (sel.includes(code)) {
    inst.selected = sel.filter((c) => c !== code);
  } else if (sel.length && rowOfCode(inst.rows, sel[0]) !== rowOfCode(inst.rows, code)) {
    editorCommit(inst, placeOnCard(inst, sel, code));
    return;
  } else {
    inst.selected = [...sel, code];
  }
  editorRender(inst);
}

function editorTapRow(inst, index) {
  if (inst.data.disabled || !inst.selected.length) return;
  editorCommit(inst, moveCards(inst.rows, inst.selected, index, null));
}

function editorBuild(inst) {
  const root = inst.root;
  root.replaceChildren();
  const wrap = el("div", "editor");
  inst.rowNodes = [];
  ROW_NAMES.forEach((name, i) => {
    const row = el("div", "row");
    row.dataset.row = name;
    const head = el("div", "row-head");
    head.append(el("span", "row-name"), el("span", "row-count"), el("span", "row-note"));
    const line = el("div", "row-cards");
    row.append(head, line);
    row.addEventListener("click", (ev) => {
      if (inst.suppressClick) return;
      if (ev.target.closest("[data-card]")) return;
      editorTapRow(inst, i);
    });
    row.tabIndex = 0; // the keyboard path: Enter or Space on a row places the selected cards
    row.addEventListener("keydown", (ev) => {
      if (ev.target !== row || (ev.key !== "Enter" && ev.key !== " ")) return;
      ev.preventDefault();
      editorTapRow(inst, i);
    });
    wrap.append(row);
    inst.rowNodes.push(row);
  });
  const status = el("div", "status");
  status.setAttribute("role", "status");
  const tools = el("div", "tools");
  const mk = (cls, action) => {
    const b = el("button", "tool " + cls);
    b.type = "button";
    b.addEventListener("click", action);
    tools.append(b);
    return b;
  };
  inst.undoButton = mk("undo", () => {
    if (!inst.history.length) return;
    inst.rows = inst.history.pop();
    inst.selected = [];
    inst.seq += 1;
    editorRender(inst);
    inst.args.setStateValue("arrangement", { rows: inst.rows, seq: inst.seq, moves: inst.history.length, deal_id: inst.data.deal_id });
  });
  inst.resetButton = mk("reset", () => editorCommit(inst, inst.data.deal.map((r) => [...r])));
  inst.sortButton = mk("sort", () => editorCommit(inst, inst.rows.map(sortRow)));
  inst.submitButton = mk("submit primary", () => {
    inst.args.setTriggerValue("submit", { rows: inst.rows, seq: inst.seq });
  });
  wrap.append(status, tools);
  root.append(wrap);
  inst.statusNode = status;
  root.addEventListener("pointerdown", (ev) => dragStart(inst, ev));
}

function editorRender(inst) {
  const d = inst.data;
  const L = d.labels || {};
  const sizes = d.sizes || [3, 5, 5];
  const check = editorCheck(inst);
  inst.rowNodes.forEach((row, i) => {
    row.querySelector(".row-name").textContent = L[ROW_NAMES[i]] || ROW_NAMES[i];
    row.querySelector(".row-count").textContent = fill(L.count, { n: inst.rows[i].length, size: sizes[i] });
    const note = row.querySelector(".row-note");
    note.textContent = check.rows[i].note;
    note.classList.toggle("warn", !check.rows[i].full);
    row.classList.toggle("target", inst.selected.length > 0 && !inst.selected.every((c) => inst.rows[i].includes(c)));
    const line = row.querySelector(".row-cards");
    line.replaceChildren(...inst.rows[i].map((code) => {
      const node = cardNode(code, { button: true });
      node.classList.add("movable");
      if (inst.selected.includes(code)) node.classList.add("selected");
      if (d.marked && d.marked.includes(code)) node.classList.add("marked");
      node.disabled = !!d.disabled;
      node.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (inst.suppressClick) return;
        editorTapCard(inst, code);
      });
      return node;
    }));
  });
  inst.statusNode.textContent = check.text;
  inst.statusNode.className = "status " + check.kind;
  inst.undoButton.textContent = L.undo || "";
  inst.undoButton.disabled = !inst.history.length || !!d.disabled;
  inst.resetButton.textContent = L.reset || "";
  inst.resetButton.disabled = sameRows(inst.rows, d.deal) || !!d.disabled;
  inst.sortButton.textContent = L.sort || "";
  inst.sortButton.disabled = !!d.disabled;
  inst.submitButton.textContent = L.submit || "";
  inst.submitButton.hidden = !L.submit;
  inst.submitButton.disabled = !check.rows.every((r) => r.full) || !!d.disabled;
}

// Drag with pointer events (mouse and finger alike): a press that moves past the
// threshold lifts a copy of the card that follows the pointer; the drop target is the
// card or row under the pointer.  A press that does not move stays a tap (click).
function dragStart(inst, ev) {
  const card = ev.target.closest(".movable");
  if (!card || inst.data.disabled || ev.button > 0) return;
  const code = card.dataset.card;
  const start = { x: ev.clientX, y: ev.clientY };
  const scope = inst.args.parentElement;
  let ghost = null;
  let over = null;
  const finder = scope.elementFromPoint ? scope : document;
  const targetAt = (x, y) => {
    if (ghost) ghost.style.display = "none";
    const hit = finder.elementFromPoint(x, y);
    if (ghost) ghost.style.display = "";
    if (!hit || !inst.root.contains(hit)) return null;
    return hit.closest("[data-card]") || hit.closest("[data-row]");
  };
  const move = (e) => {
    if (!ghost) {
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_THRESHOLD) return;
      const box = card.getBoundingClientRect();
      ghost = cardNode(code);
      ghost.classList.add("ghost");
      ghost.style.width = box.width + "px";
      ghost.style.height = box.height + "px";
      inst.root.append(ghost);
      card.classList.add("dragging");
      inst.selected = [];
      inst.offset = { x: start.x - box.left, y: start.y - box.top };
    }
    e.preventDefault();
    ghost.style.left = e.clientX - inst.offset.x + "px";
    ghost.style.top = e.clientY - inst.offset.y + "px";
    const target = targetAt(e.clientX, e.clientY);
    if (over && over !== target) over.classList.remove("drop");
    over = target;
    if (over && over.dataset.card !== code) over.classList.add("drop");
  };
  const end = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (over) over.classList.remove("drop");
    if (!ghost) return;
    ghost.remove();
    card.classList.remove("dragging");
    // the click that follows a drag must not count as a tap
    inst.suppressClick = true;
    setTimeout(() => { inst.suppressClick = false; }, 0);
    const target = e.type === "pointerup" ? targetAt(e.clientX, e.clientY) : null;
    if (!target) { editorRender(inst); return; }
    if (target.dataset.card) {
      if (target.dataset.card === code) { editorRender(inst); return; }
      editorCommit(inst, placeOnCard(inst, [code], target.dataset.card));
    } else {
      editorCommit(inst, moveCards(inst.rows, [code], ROW_NAMES.indexOf(target.dataset.row), null));
    }
  };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

function editorUpdate(inst, data, fresh) {
  const prev = inst.data;
  inst.data = data;
  const incoming = (data.value && data.value.rows) || data.deal;
  const newDeal = !prev || prev.deal_id !== data.deal_id;
  if (fresh || newDeal) {
    inst.rows = incoming.map((r) => [...r]);
    inst.history = [];
    inst.selected = [];
    inst.seq = (data.value && data.value.seq) || 0;
    inst.touched = !sameRows(inst.rows, data.deal);
  } else if ((data.value ? data.value.seq : 0) >= inst.seq && !sameRows(incoming, inst.rows)) {
    // Python set the rows itself (it has seen every move we sent): adopt them
    inst.history.push(inst.rows);
    inst.rows = incoming.map((r) => [...r]);
    inst.seq = data.value ? data.value.seq : inst.seq;
    inst.selected = [];
  }
  if (fresh) editorBuild(inst);
  editorRender(inst);
  if (data.scroll) scrollOnce(inst, inst.root);
}

// --- the 52-card picker ---------------------------------------------------------------------

function pickerBuild(inst) {
  inst.root.replaceChildren();
  const grid = el("div", "picker");
  inst.root.append(grid);
  inst.grid = grid;
}

function pickerRender(inst) {
  const d = inst.data;
  const grid = inst.grid;
  grid.replaceChildren();
  for (const suit of "shdc") {
    const line = el("div", "suit-line");
    line.setAttribute("aria-label", (d.labels || {})["suit_" + suit] || suit);
    for (const r of "AKQJT98765432") {
      const code = r + suit;
      const node = cardNode(code, { button: true });
      node.classList.add("mini");
      const on = inst.selected.includes(code);
      node.classList.toggle("selected", on);
      node.setAttribute("aria-pressed", on ? "true" : "false");
      node.addEventListener("click", () => {
        inst.selected = on ? inst.selected.filter((c) => c !== code) : [...inst.selected, code];
        inst.seq += 1;
        pickerRender(inst);
        inst.args.setStateValue("selection", { selected: inst.selected, seq: inst.seq });
      });
      line.append(node);
    }
    grid.append(line);
  }
}

function pickerUpdate(inst, data, fresh) {
  inst.data = data;
  const value = data.value || { selected: [], seq: 0 };
  if (fresh || value.seq >= inst.seq) {
    inst.selected = [...value.selected];
    inst.seq = value.seq;
  }
  if (fresh) pickerBuild(inst);
  pickerRender(inst);
}

// --- static rows and fans ---------------------------------------------------------------------

function staticRender(inst) {
  const d = inst.data;
  inst.root.replaceChildren();
  const box = el("div", d.view === "fan" ? "fan-view" : "rows-view");
  if (d.compact) box.classList.add("compact");
  if (d.small) box.classList.add("small");
  for (const [name, value] of Object.entries(d.attrs || {})) box.setAttribute(name, value);
  for (const row of d.rows || []) {
    const line = el("div", "static-row");
    if (row.label || row.note) {
      const head = el("div", "row-head");
      if (row.label) head.append(el("span", "row-name", row.label));
      if (row.note) head.append(el("span", "row-note", row.note));
      line.append(head);
    }
    const cards = el("div", "row-cards");
    for (const code of row.cards || []) {
      const node = code === "??" ? backNode() : cardNode(code);
      if ((row.marked || []).includes(code)) node.classList.add("marked");
      cards.append(node);
    }
    if (row.backs) for (let i = 0; i < row.backs; i++) cards.append(backNode());
    line.append(cards);
    box.append(line);
  }
  inst.root.append(box);
  scrollOnce(inst, box);
}

// --- the Macao table --------------------------------------------------------------------------

function tableRender(inst) {
  const d = inst.data;
  const L = d.labels || {};
  const root = inst.root;
  root.replaceChildren();
  const table = el("div", "table");
  const seats = el("div", "seats");
  for (const s of d.seats || []) {
    const seat = el("div", "seat");
    seat.dataset.seat = String(s.seat);
    if (s.current) seat.classList.add("current");
    if (s.out) seat.classList.add("out");
    const name = el("div", "seat-name", s.name);
    const fan = el("div", "seat-fan");
    for (let i = 0; i < Math.min(s.count, 6); i++) fan.append(backNode());
    const count = el("div", "seat-count", s.count_text);
    seat.append(name, fan, count);
    if (s.note) seat.append(el("div", "seat-note", s.note));
    if (s.last_move) {
      seat.dataset.lastMove = s.last_move;
      seat.append(el("div", "seat-move" + (s.fresh ? " fresh" : ""), s.last_move));
    }
    seats.append(seat);
  }
  const middle = el("div", "middle");
  const stock = el("div", "pile stock");
  const stockCard = backNode();
  stock.append(stockCard, el("div", "pile-label", d.stock_text || ""));
  const pile = el("div", "pile discard");
  if (d.top) pile.append(cardNode(d.top));
  pile.append(el("div", "pile-label", d.suit_text || ""));
  middle.append(stock, pile);
  if (d.pending_text) middle.append(el("div", "pending", d.pending_text));
  const turn = el("div", "turn " + (d.your_turn ? "mine" : ""), d.turn_text || "");
  table.append(seats, middle, turn);

  const hand = el("div", "hand");
  const codes = d.hand || [];
  const n = codes.length;
  codes.forEach((code, i) => {
    const node = cardNode(code, { button: true, jokerNames: L.jokers });
    const playable = !!(d.playable && d.playable[i]);
    node.dataset.playable = playable ? "true" : "false";
    node.classList.add(playable ? "lit" : "dim");
    if (inst.selected.includes(i)) node.classList.add("selected");
    if (d.drawn_index === i) node.classList.add("drawn");
    node.style.setProperty("--tilt", n > 1 ? ((i - (n - 1) / 2) * Math.min(3, 24 / n)).toFixed(2) + "deg" : "0deg");
    node.addEventListener("click", () => tableTap(inst, i));
    hand.append(node);
  });
  const controls = el("div", "hand-controls");
  const sel = inst.selected;
  if (sel.length) {
    const selCodes = sel.map((i) => codes[i]);
    controls.append(el("span", "sel-text", fill(L.selected, { cards: selCodes.map(label).join(" \u2192 ") })));
    const needSuit = selCodes.length && !isJoker(selCodes[selCodes.length - 1]) && rankOf(selCodes[selCodes.length - 1]) === 14
      && rankOf(selCodes[0]) === 14;
    if (needSuit) {
      controls.append(el("span", "suit-ask", L.name_suit || ""));
      for (const suit of "shdc") {
        const b = el("button", "suit-btn " + (suit === "h" || suit === "d" ? "red" : "black"), SUIT_GLYPH[suit]);
        b.type = "button";
        b.dataset.suit = suit;
        b.setAttribute("aria-label", (L.suits || {})[suit] || suit);
        b.addEventListener("click", () => tablePlay(inst, selCodes, suit));
        controls.append(b);
      }
    } else {
      const play = el("button", "tool primary play", L.play || "");
      play.type = "button";
      play.addEventListener("click", () => tablePlay(inst, selCodes, null));
      controls.append(play);
    }
    const clear = el("button", "tool", L.clear || "");
    clear.type = "button";
    clear.addEventListener("click", () => { inst.selected = []; tableRender(inst); });
    controls.append(clear);
  } else if (d.hint) {
    controls.append(el("span", "hint", d.hint));
  }
  const notes = el("div", "hand-notes");
  if (inst.reason !== null && inst.reason !== undefined && (d.reasons || [])[inst.reason]) {
    const why = el("div", "reason", d.reasons[inst.reason]);
    why.setAttribute("role", "status");
    why.dataset.reasonFor = codes[inst.reason];
    notes.append(why);
  }
  if (!sel.length && (d.guide || []).length) {
    const guide = el("ul", "guide");
    for (const line of d.guide) guide.append(el("li", null, line));
    notes.append(guide);
  }
  root.append(table, hand, controls, notes);
}

function label(code) {
  if (isJoker(code)) return code === "RJ" ? "\u2605R" : "\u2605B";
  return rankText(code) + SUIT_GLYPH[suitOf(code)];
}

function groupOf(code) { return isJoker(code) ? "J" : code[0]; }

// After a play is sent, taps wait for the table that follows it (or a moment, if the
// server kept the table as it was), so a double tap never plays twice.
function tableWait(inst) {
  inst.waiting = true;
  clearTimeout(inst.waitTimer);
  inst.waitTimer = setTimeout(() => { inst.waiting = false; }, 1500);
}

// A tap on a card no play starts with (dim) says why, right away (no round trip).
function tableExplain(inst, index) {
  inst.reason = index;
  tableRender(inst);
}

function tableTap(inst, index) {
  const d = inst.data;
  if (inst.waiting) return;
  if (!d.your_turn) { tableExplain(inst, index); return; }
  const codes = d.hand;
  const sel = inst.selected;
  inst.reason = null;
  if (sel.includes(index)) {
    inst.selected = sel.filter((i) => i !== index);
  } else if (sel.length && groupOf(codes[sel[0]]) === groupOf(codes[index])) {
    inst.selected = [...sel, index]; // another card of the selected rank joins the play
  } else {
    if (!(d.playable && d.playable[index])) { tableExplain(inst, index); return; } // only lit cards start a play
    const one = d.one_tap ? d.one_tap[index] : null;
    if (one !== null && one !== undefined) {
      tableWait(inst);
      inst.args.setTriggerValue("action", { id: one, move: d.move });
      return;
    }
    inst.selected = [index];
  }
  tableRender(inst);
}

function tablePlay(inst, codes, suit) {
  if (inst.waiting) return;
  tableWait(inst);
  inst.args.setTriggerValue("play", { cards: codes, suit: suit, move: inst.data.move });
  inst.selected = [];
  tableRender(inst);
}

function tableUpdate(inst, data, fresh) {
  const prev = inst.data;
  inst.data = data;
  inst.waiting = false;
  if (fresh || !prev || prev.move !== data.move || !data.your_turn) inst.selected = [];
  if (fresh || !prev || prev.move !== data.move) inst.reason = null;
  tableRender(inst);
}

// --- entry point ------------------------------------------------------------------------------

export default function (args) {
  const { parentElement, data } = args;
  let inst = INSTANCES.get(parentElement);
  const fresh = !inst || inst.view !== data.view;
  if (fresh) {
    const root = parentElement.querySelector(".cards-root");
    inst = { view: data.view, root, selected: [], history: [], seq: 0, data: null };
    INSTANCES.set(parentElement, inst);
  }
  inst.args = args;
  inst.root.classList.toggle("four-colour", !!data.four_colour);
  const skin = data.skin || {};
  inst.root.dataset.skinFace = skin.face || "classic";
  inst.root.dataset.skinBack = skin.back || "green";
  inst.root.dataset.view = data.view;
  if (data.view === "editor") {
    // data-* attributes a page puts on the editor (the Rooms page's data-seat)
    for (const [name, value] of Object.entries(data.attrs || {})) inst.root.setAttribute(name, value);
    editorUpdate(inst, data, fresh);
  }
  else if (data.view === "picker") pickerUpdate(inst, data, fresh);
  else if (data.view === "table") tableUpdate(inst, data, fresh);
  else { inst.data = data; staticRender(inst); }
}
