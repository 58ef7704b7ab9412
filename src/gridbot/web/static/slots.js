// The slot editor of the playground (RoboZZle's F1..F5, Light-Bot's main, f1, f2): a row of slots per function,
// a palette of commands (and for RoboZZle colour conditions), and the program's text kept in step both ways.
// Clicking the slots writes the text (with the labels and separators the server's layout gives, the game's
// canonical form); typing the text reads it back through POST /api/program, the game's own parser.
// Uses $, api, levelRef and state of app.js.
"use strict";

const slots = {
  shape: null,      // the layout of POST /api/program (rows, palette), or null: this game's programs are typed
  rows: [],         // [[{op, cond}]] per function of shape.functions, packed: no gap between commands
  at: null,         // the selected slot {f, k}
  pending: "",      // a colour chosen for an empty slot: the next command picked there takes it
  asked: 0,         // counts reads of the text: an answer to an older one is dropped
  timer: null,
};

const COLOURS = { R: "red", G: "green", B: "blue" };

// ---------------------------------------------------------------- the text

function slotsText() {
  if (!slots.rows.some((row) => row.length)) return "";
  const parts = [];
  slots.shape.functions.forEach((fn, f) => {
    const row = slots.rows[f];
    if (!row.length && !slots.shape.always.includes(fn.name)) return;
    const body = row.map((slot) => slot.cond.toLowerCase() + slot.op).join(slots.shape.joiner);
    parts.push(`${fn.label} ${body}`);
  });
  return parts.join(slots.shape.separator);
}

// The slots changed: write their text into the program box.
function writeText() {
  slots.asked++;  // a read of older text still on its way must not undo this
  $("program").value = slotsText();
  $("program-error").textContent = "";
  $("program").classList.remove("invalid");
  $("slots").classList.remove("stale");
  drawSlots();
}

// Read the program box into the slots (the game's parser, on the server). A parse error or a program that does
// not fit the level shows under the editor; the slots then keep the last program read (dimmed) or show what
// parsed.
async function readText() {
  clearTimeout(slots.timer);
  const mine = ++slots.asked;
  const data = await api("POST", "/api/program", { ...levelRef(), program: $("program").value });
  if (mine !== slots.asked) return;
  const shape = JSON.stringify(data.editor);
  if (shape !== JSON.stringify(slots.shape)) {
    slots.shape = data.editor;
    slots.rows = slots.shape ? slots.shape.functions.map(() => []) : [];
    buildSlots();
  }
  if (!slots.shape) return;
  if (!data.error) slots.rows = data.functions || slots.shape.functions.map(() => []);
  const problem = data.error ? data.error.message + where(data.error) : data.problems;
  $("program-error").textContent = problem || "";
  $("program").classList.toggle("invalid", Boolean(problem));
  $("slots").classList.toggle("stale", Boolean(data.error));
  const at = current();
  selectSlot(at.f, at.k, false);
}

function textTyped() {
  clearTimeout(slots.timer);
  slots.timer = setTimeout(() => readText().catch(showError), 300);
}

// ---------------------------------------------------------------- drawing

function button(cls, label, html) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.setAttribute("aria-label", label);
  b.title = label;
  if (html !== undefined) b.textContent = html;
  return b;
}

function opLabel(op) {
  const known = slots.shape.commands.find((c) => c.op === op);
  if (known) return known.label;
  if (op[0] === "P") return `paint ${COLOURS[op[1]]}`;
  return `call ${op}`;
}

function slotLabel(fn, k, slot) {
  const where_ = `${fn.name} slot ${k + 1} of ${fn.slots}`;
  if (!slot) return `${where_}: empty`;
  return `${where_}: ${opLabel(slot.op)}${slot.cond ? ` on ${COLOURS[slot.cond]}` : ""}`;
}

// Build the rows and the palette for the current layout (none: hide the editor).
function buildSlots() {
  const box = $("slots");
  box.innerHTML = "";
  box.hidden = !slots.shape;
  $("slots-hint").textContent = "";
  $("slots-count").textContent = "";
  if (!slots.shape) return;
  const shape = slots.shape;
  shape.functions.forEach((fn, f) => {
    if (!fn.slots) return;
    const row = document.createElement("div");
    row.className = "fn-row";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", `${fn.name}, ${fn.slots} slots`);
    const name = document.createElement("span");
    name.className = "fn-name";
    name.textContent = fn.name;
    row.appendChild(name);
    const cells = document.createElement("span");
    cells.className = "fn-slots";
    for (let k = 0; k < fn.slots; k++) {
      const b = button("slot", "");
      b.dataset.f = f;
      b.dataset.k = k;
      b.addEventListener("click", () => selectSlot(f, k, true));
      b.addEventListener("keydown", slotKey);
      cells.appendChild(b);
    }
    row.appendChild(cells);
    box.appendChild(row);
  });
  const palette = document.createElement("div");
  palette.id = "palette";
  palette.setAttribute("role", "toolbar");
  palette.setAttribute("aria-label", "commands for the selected slot");
  for (const c of shape.commands) {
    const b = button("cmd", c.label + (c.key ? ` (key ${c.key})` : ""));
    b.dataset.op = c.op;
    b.appendChild(symbol(c.op, c.symbol));
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = c.label;
    b.appendChild(words);
    b.addEventListener("click", () => pick(c.op));
    palette.appendChild(b);
  }
  if (shape.conditions.length) {
    const group = document.createElement("span");
    group.className = "conds";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "colour condition");
    for (const c of shape.conditions) {
      const b = button(`cond cond-${c.cond || "none"}`, `${c.label} (key ${c.key})`, c.cond ? COLOURS[c.cond] : "any");
      b.dataset.cond = c.cond;
      b.addEventListener("click", () => pickCondition(c.cond));
      group.appendChild(b);
    }
    palette.appendChild(group);
  }
  const clear = button("clear", "empty this slot (key Delete)", "Empty");
  clear.addEventListener("click", () => emptySlot());
  palette.appendChild(clear);
  const all = button("clear-all", "empty every slot", "Empty all");
  all.addEventListener("click", () => {
    slots.rows = slots.rows.map(() => []);
    slots.pending = "";
    selectSlot(firstFunction(), 0, false);
    writeText();
  });
  palette.appendChild(all);
  box.appendChild(palette);
  const keys = shape.commands.filter((c) => c.key).map((c) => c.key).join(" ");
  const colours = shape.conditions.map((c) => c.key).join(" ");
  $("slots-hint").textContent = `Click a slot, then a command. Keys on a slot: ${keys} for the commands`
    + (colours ? `, ${colours} for the colour` : "") + "; Delete empties it; arrows move.";
  const at = current();
  selectSlot(at.f, at.k, false);
}

// The selected slot, or the first slot of the first function when none (still) is.
function current() {
  const fn = slots.at && slots.shape.functions[slots.at.f];
  if (!fn || !fn.slots) slots.at = { f: firstFunction(), k: 0 };
  return slots.at;
}

function firstFunction() {
  return slots.shape.functions.findIndex((fn) => fn.slots > 0);
}

function symbol(op, text) {
  const s = document.createElement("span");
  s.className = "sym";
  s.setAttribute("aria-hidden", "true");
  if (op[0] === "P" && op.length === 2) {
    s.classList.add(`paint-${op[1]}`);
    s.textContent = "●";
  } else {
    s.textContent = text;
  }
  return s;
}

// Show the rows' commands in the slot buttons, the selection, and the palette's choice for the selected slot.
function drawSlots() {
  if (!slots.shape) return;
  for (const b of $("slots").querySelectorAll("button.slot")) {
    const f = Number(b.dataset.f);
    const k = Number(b.dataset.k);
    const fn = slots.shape.functions[f];
    const slot = slots.rows[f][k];
    b.textContent = "";
    b.className = "slot";
    if (slot) {
      b.appendChild(symbol(slot.op, slots.shape.symbols[slot.op] || slot.op));
      b.classList.add(slot.cond ? `cond-${slot.cond}` : "filled");
    } else if (k > slots.rows[f].length) {
      b.classList.add("beyond");  // a click here selects the first empty slot: the commands have no gaps
    }
    const chosen = slots.at && slots.at.f === f && slots.at.k === k;
    if (chosen && !slot && slots.pending) b.classList.add(`cond-${slots.pending}`);
    b.classList.toggle("selected", chosen);
    b.setAttribute("aria-pressed", String(chosen));
    b.tabIndex = chosen ? 0 : -1;
    b.setAttribute("aria-label", slotLabel(fn, k, slot));
    b.title = b.getAttribute("aria-label");
  }
  const slot = slots.at ? slots.rows[slots.at.f][slots.at.k] : null;
  for (const b of $("slots").querySelectorAll("button.cmd")) {
    b.setAttribute("aria-pressed", String(Boolean(slot && slot.op === b.dataset.op)));
  }
  const cond = slot ? slot.cond : slots.pending;
  for (const b of $("slots").querySelectorAll("button.cond")) {
    b.setAttribute("aria-pressed", String(b.dataset.cond === cond));
  }
  const used = slots.rows.reduce((n, row) => n + row.length, 0);
  const total = slots.shape.functions.reduce((n, fn) => n + fn.slots, 0);
  $("slots-count").textContent = `${used} of ${total} slots used`;
}

// ---------------------------------------------------------------- editing

// Select slot k of function f; an empty slot past the commands selects the first empty one (no gaps).
function selectSlot(f, k, focus) {
  const fn = slots.shape.functions[f];
  if (!fn || !fn.slots) return;
  k = Math.max(0, Math.min(k, fn.slots - 1, slots.rows[f].length));
  if (!slots.at || slots.at.f !== f || slots.at.k !== k) slots.pending = "";
  slots.at = { f, k };
  drawSlots();
  if (focus) slotButton(f, k).focus();
}

function slotButton(f, k) {
  return $("slots").querySelector(`button.slot[data-f="${f}"][data-k="${k}"]`);
}

function pick(op) {
  const { f, k } = slots.at;
  const row = slots.rows[f];
  const cond = row[k] ? row[k].cond : slots.pending;
  row[k] = { op, cond };
  slots.pending = "";
  const next = Math.min(k + 1, slots.shape.functions[f].slots - 1);
  slots.at = { f, k: next };
  writeText();
}

function pickCondition(cond) {
  const { f, k } = slots.at;
  const slot = slots.rows[f][k];
  if (slot) {
    slot.cond = cond;
    writeText();
  } else {
    slots.pending = cond;
    drawSlots();
  }
}

function emptySlot() {
  const { f, k } = slots.at;
  if (k < slots.rows[f].length) {
    slots.rows[f].splice(k, 1);
    writeText();
  }
  slots.pending = "";
  selectSlot(f, k, false);
}

function slotKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const { f, k } = slots.at;
  const shown = slots.shape.functions.map((fn, i) => i).filter((i) => slots.shape.functions[i].slots);
  const row = shown.indexOf(f);
  const moves = {
    ArrowLeft: () => selectSlot(f, k - 1, true),
    ArrowRight: () => selectSlot(f, k + 1, true),
    ArrowUp: () => row > 0 && selectSlot(shown[row - 1], k, true),
    ArrowDown: () => row < shown.length - 1 && selectSlot(shown[row + 1], k, true),
    Home: () => selectSlot(f, 0, true),
    End: () => selectSlot(f, slots.shape.functions[f].slots - 1, true),
    Delete: () => { emptySlot(); slotButton(f, slots.at.k).focus(); },
    Backspace: () => {  // on the empty slot after the commands, as in a text: the command before it
      const after = k >= slots.rows[f].length;
      if (after && k > 0) selectSlot(f, k - 1, false);
      emptySlot();
      selectSlot(f, k - 1, true);
    },
  };
  if (moves[event.key]) {
    event.preventDefault();
    moves[event.key]();
    return;
  }
  // the keys of the layout, exactly (RoboZZle: R turns right, r is the red condition), else in either case
  const find = (key) => slots.shape.commands.find((c) => c.key === key)
    || slots.shape.conditions.find((c) => c.key === key);
  const hit = find(event.key) || (event.key.length === 1 && find(event.key.toLowerCase()));
  if (!hit) return;
  event.preventDefault();
  if ("op" in hit) pick(hit.op);
  else pickCondition(hit.cond);
  slotButton(slots.at.f, slots.at.k).focus();
}

// A new level or game: its layout (RoboZZle's slots vary by puzzle) and the program box read against it.
function levelForSlots() {
  slots.at = null;
  slots.pending = "";
  return readText().catch(showError);
}
