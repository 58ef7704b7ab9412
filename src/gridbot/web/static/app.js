// The gridbot playground page: plain JavaScript, no build step. The pictures come from the server
// (gridbot.render's SVG, one per step); this script only shows them one at a time, maps clicks on the board
// to cells (the SVG's <desc>board rows cols cell x0 y0</desc>) and talks to the JSON API.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  games: {},          // name -> the entry of GET /api/games
  game: "",
  levelName: null,    // a bundled level's name, or null for a level given as text
  levelText: "",
  frames: [],         // [{step, svg}] of the latest run or level picture
  index: 0,           // the frame shown
  steps: 0,
  timer: null,
  solveId: null,
  events: null,
  solution: null,
  choice: 0,          // counts choices of game and level: an answer to an older one is dropped
};

// ---------------------------------------------------------------- talking to the API

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  document.body.dataset.busy = String(Number(document.body.dataset.busy || 0) + 1);  // tests wait for 0
  let response;
  try {
    response = await fetch(path, options);
  } finally {
    document.body.dataset.busy = String(Number(document.body.dataset.busy) - 1);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: { kind: "server", message: `${response.status} ${response.statusText}` } };
  }
  if (!response.ok) {
    const error = new Error((data.error && data.error.message) || response.statusText);
    error.info = data.error || {};
    error.status = response.status;
    throw error;
  }
  return data;
}

function levelRef() {
  return state.levelName !== null
    ? { game: state.game, level: state.levelName }
    : { game: state.game, text: state.levelText };
}

function where(info) {
  if (info.line && info.column) return ` (line ${info.line}, column ${info.column})`;
  if (info.column) return ` (column ${info.column})`;
  return "";
}

// ---------------------------------------------------------------- messages

function showError(error) {
  const info = error.info || {};
  const text = error.message + where(info);
  $("program-error").textContent = info.kind === "program" ? text : "";
  $("level-error").textContent = info.kind === "program" ? "" : text;
  if (info.kind === "level" && state.levelName === null) $("level-box").open = true;
  $("program").classList.toggle("invalid", info.kind === "program");
  // the picture and verdict on show belong to an earlier request: say so rather than let them pass for this one
  $("board").classList.add("stale");
  $("verdict").textContent = "";
  $("verdict").className = "";
  $("fields").textContent = "";
}

function clearErrors() {
  $("program-error").textContent = "";
  $("level-error").textContent = "";
  $("program").classList.remove("invalid");
}

// ---------------------------------------------------------------- the board and the player

function showFrame(i) {
  if (!state.frames.length) {
    $("board").innerHTML = "";
    $("step-label").textContent = "";
    return;
  }
  state.index = Math.max(0, Math.min(i, state.frames.length - 1));
  const frame = state.frames[state.index];
  const board = $("board");
  board.innerHTML = frame.svg;  // the server's SVG: gridbot.render escapes every text it writes
  board.classList.remove("stale");
  fitBoard(board.querySelector("svg"));
  const sampled = state.frames.length < state.steps + 1 ? " (sampled)" : "";
  $("step-label").textContent = state.steps ? `step ${frame.step} of ${state.steps}${sampled}` : "";
  const last = state.index === state.frames.length - 1;
  $("first").disabled = $("back").disabled = state.index === 0;
  $("forward").disabled = $("last").disabled = last;
  $("play").disabled = state.frames.length < 2;
  if (last) stop();
}

// A small board is drawn with big cells up to a comfortable size; a big one shrinks to the room there is.
// The width decides: a height-bound box would centre the picture in empty margins.
function fitBoard(svg) {
  if (!svg) return;
  const natural = Number(svg.getAttribute("width")) || 400;
  const tall = Number(svg.getAttribute("height")) || natural;
  const room = $("board").clientWidth || natural;
  const below = (window.innerHeight || 800) * 0.78 * (natural / tall);  // keeps the player's buttons in sight
  const wanted = Math.max(natural, Math.min(natural * 3, 560));
  svg.style.width = `${Math.floor(Math.min(room, wanted, Math.max(below, 200)))}px`;
}

function stop() {
  if (state.timer !== null) clearInterval(state.timer);
  state.timer = null;
  $("play").textContent = "Play";
  $("play").setAttribute("aria-label", "play");
}

function play() {
  if (state.timer !== null) return stop();
  if (state.index >= state.frames.length - 1) showFrame(0);
  $("play").textContent = "Pause";
  $("play").setAttribute("aria-label", "pause");
  const tick = () => showFrame(state.index + 1);
  state.timer = setInterval(tick, 1000 / Number($("speed").value));
}

function speedChanged() {
  $("speed-label").textContent = `${$("speed").value} steps/s`;
  if (state.timer !== null) {
    stop();
    play();
  }
}

function showRun(data, atEnd) {
  stop();
  state.frames = data.frames;
  state.steps = data.steps;
  if (!data.drawing) {
    $("board").innerHTML = "";
    $("board").textContent = `${state.game} has no drawing yet: the verdict below is the simulator's.`;
  } else {
    showFrame(atEnd ? state.frames.length - 1 : 0);
  }
  const verdict = $("verdict");
  if (data.verdict) {
    verdict.textContent = `${data.level}: ${data.verdict.won ? "✔" : "✘"} ${data.verdict.text}`;
    verdict.className = data.verdict.won ? "won" : "lost";
    if (data.tokens !== null && data.tokens !== undefined) {
      verdict.textContent += ` · ${data.tokens} ${state.games[state.game].unit}`;
    }
  } else {
    verdict.textContent = data.level ? `${data.level}` : "";
    verdict.className = "";
  }
  const fields = Object.entries(data.fields || {}).filter(([, v]) => v !== null && v !== "");
  $("fields").textContent = fields.map(([k, v]) => `${k}: ${v}`).join(" · ");
}

function svgCell(event) {
  const svg = $("board").querySelector("svg");
  const desc = svg && svg.querySelector("desc");
  if (!desc) return null;
  const [word, rows, cols, cell, x0, y0] = desc.textContent.trim().split(/\s+/);
  if (word !== "board") return null;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const row = Math.floor((p.y - Number(y0)) / Number(cell));
  const col = Math.floor((p.x - Number(x0)) / Number(cell));
  if (row < 0 || col < 0 || row >= Number(rows) || col >= Number(cols)) return null;
  return { row, col };
}

async function boardClicked(event) {
  const cell = svgCell(event);
  if (!cell) return;
  try {
    const data = await api("POST", "/api/edit", { ...levelRef(), row: cell.row, col: cell.col });
    clearErrors();
    setCustomLevel(data.text);
    showRun(data, false);
    $("verdict").textContent = `edited cell (row ${cell.row + 1}, column ${cell.col + 1}); press Run or Solve`;
  } catch (error) {
    showError(error);
  }
}

// ---------------------------------------------------------------- games and levels

// A solve's answer belongs to the level it was asked for: a new level stops the solve and clears its answer.
function levelChanged() {
  if (state.solveId !== null) cancel();
  clearAnalysis();
  $("solve-status").textContent = "";
  $("solve-status").className = "";
  $("solve-result").textContent = "";
  $("use-solution").hidden = true;
}

function setCustomLevel(text) {
  levelChanged();
  state.levelName = null;
  state.levelText = text;
  $("level-text").value = text;
  $("level").value = "";
  levelForSlots();
}

async function loadGames() {
  const list = await api("GET", "/api/games");
  const select = $("game");
  select.innerHTML = "";
  for (const game of list) {
    state.games[game.name] = game;
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.name + (game.drawing ? "" : " (no picture yet)");
    select.appendChild(option);
  }
}

async function chooseGame(name, levelName) {
  const mine = ++state.choice;
  state.game = name;
  $("game").value = name;
  generateFollows(name);
  const game = state.games[name];
  $("edit-hint").textContent = game.drawing && game.palette
    ? `Click a cell of the board to change it (in turn: ${[...game.palette].map((c) => (c === " " ? "space" : c)).join(", ")}).`
    : "";
  $("program").placeholder = game.program_optional
    ? `${game.solution} (optional: empty shows the robot's own journey)`
    : `the ${game.solution} to run`;
  if (levelName === undefined) $("program").value = "";  // another game's program would not parse
  const data = await api("GET", `/api/levels/${encodeURIComponent(name)}`);
  if (mine !== state.choice) return;  // another game or level was chosen meanwhile: it wins
  const select = $("level");
  select.innerHTML = "";
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "(your own text)";
  select.appendChild(custom);
  // one group per set when a game has several (RoboZZle's later puzzles); one plain list otherwise
  const grouped = data.sets.length > 1;
  for (const set of data.sets) {
    let parent = select;
    if (grouped) {
      parent = document.createElement("optgroup");
      parent.label = `${set.name} set (${set.levels.length})`;
      select.appendChild(parent);
    }
    for (const level of set.levels) {
      const option = document.createElement("option");
      option.value = level;
      option.textContent = level;
      parent.appendChild(option);
    }
  }
  if (levelName !== undefined) return;
  if (data.levels.length) await chooseLevel(data.levels[0]);
}

async function chooseLevel(name) {
  const mine = ++state.choice;
  const data = await api("GET", `/api/levels/${encodeURIComponent(state.game)}/${encodeURIComponent(name)}`);
  if (mine !== state.choice) return;
  levelChanged();
  state.levelName = data.name;
  state.levelText = data.text;
  $("level").value = data.name;
  $("level-text").value = data.text;
  clearErrors();
  await showLevel();
  await levelForSlots();
}

async function showLevel() {
  try {
    const data = await api("POST", "/api/run", levelRef());
    showRun(data, false);
  } catch (error) {
    showError(error);
  }
}

// ---------------------------------------------------------------- running

async function runProgram() {
  clearErrors();
  const body = { ...levelRef(), program: $("program").value };
  $("run").disabled = true;
  try {
    const data = await api("POST", "/api/run", body);
    showRun(data, true);
  } catch (error) {
    showError(error);
  } finally {
    $("run").disabled = false;
  }
}

// ---------------------------------------------------------------- solving

function describeProgress(s) {
  const p = s.progress || {};
  const parts = [];
  if (p.phase) parts.push(String(p.phase));
  if (p.length !== undefined && p.length !== null) parts.push(`length ${p.length}`);
  if (p.candidates !== undefined && p.candidates !== null) parts.push(`${Number(p.candidates).toLocaleString("en")} candidates`);
  parts.push(`${Number(s.seconds).toFixed(1)} s of ${s.time_limit} s`);
  return `Searching: ${parts.join(", ")}`;
}

function solveFinished(s) {
  closeEvents();
  state.solveId = null;
  $("solve").disabled = false;
  $("cancel").disabled = true;
  const unit = state.games[s.game] ? state.games[s.game].unit : "tokens";
  const seconds = `${Number(s.seconds).toFixed(1)} s`;
  const status = $("solve-status");
  const result = $("solve-result");
  result.textContent = "";
  $("use-solution").hidden = true;
  state.solution = null;
  if (s.status === "optimal" || s.status === "solved") {
    status.textContent = s.status === "optimal"
      ? `Proven optimal: ${s.length} ${unit} (${seconds})`
      : `Best found, not proven optimal: ${s.length} ${unit} (${seconds}; lengths up to ${s.proven_impossible} proven impossible)`;
    const code = document.createElement("code");
    code.id = "solution";
    code.textContent = s.solution;
    result.appendChild(code);
    state.solution = s.solution;
    $("use-solution").hidden = false;
    if (slots.shape) {  // a program game: the answer fills the slots (and the text under them)
      $("program").value = s.solution;
      readText().catch(showError);
    }
  } else if (s.status === "unsolvable") {
    status.textContent = `Unsolvable: proven that no ${state.games[s.game].solution} completes this level (${seconds})`;
  } else if (s.status === "timeout") {
    status.textContent = `No solution within the time limit (${seconds})` + (s.message ? `: ${s.message}` : "");
  } else if (s.status === "cancelled") {
    status.textContent = `Cancelled after ${seconds}`;
  } else {
    status.textContent = `The solve failed: ${s.message || s.status}`;
  }
  status.className = s.status;
}

function closeEvents() {
  if (state.events !== null) state.events.close();
  state.events = null;
}

async function solve() {
  clearErrors();
  const limit = Number($("time-limit").value);
  $("solve-result").textContent = "";
  $("use-solution").hidden = true;
  try {
    const started = await api("POST", "/api/solve", { ...levelRef(), time_limit: limit });
    state.solveId = started.id;
    $("solve").disabled = true;
    $("cancel").disabled = false;
    $("solve-status").className = "running";
    $("solve-status").textContent = "Starting the solver…";
    const events = new EventSource(started.events);
    state.events = events;
    events.addEventListener("progress", (e) => {
      $("solve-status").textContent = describeProgress(JSON.parse(e.data));
    });
    events.addEventListener("done", (e) => solveFinished(JSON.parse(e.data)));
    events.onerror = () => {
      if (state.solveId === started.id) {  // the stream broke before its end: ask once more
        closeEvents();
        api("GET", `/api/solve/${started.id}`).then((s) => {
          if (s.status === "running") $("solve-status").textContent = "Lost the progress stream; the solve goes on.";
          else solveFinished(s);
        }).catch(showError);
      }
    };
  } catch (error) {
    if (error.status === 429) {
      $("solve-status").textContent = `Busy: ${error.message}`;
      $("solve-status").className = "error";
    } else {
      showError(error);
    }
  }
}

async function cancel() {
  const id = state.solveId;
  if (id === null) return;
  $("cancel").disabled = true;
  try {
    solveFinished(await api("DELETE", `/api/solve/${id}`));
  } catch (error) {
    showError(error);
  }
}

// ---------------------------------------------------------------- sharing

function shareUrl() {
  const params = new URLSearchParams();
  params.set("game", state.game);
  if (state.levelName !== null) params.set("level", state.levelName);
  else params.set("text", state.levelText);
  if ($("program").value.trim()) params.set("program", $("program").value);
  return `${location.origin}${location.pathname}#${params.toString()}`;
}

function share() {
  const url = shareUrl();
  history.replaceState(null, "", url);
  const box = $("share-url");
  box.hidden = false;
  box.value = url;
  box.select();
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
}

async function restore() {
  const params = new URLSearchParams(location.hash.slice(1));
  const game = params.get("game");
  if (!game || !state.games[game]) return false;
  await chooseGame(game, params.get("level") || "");
  if (params.has("level")) {
    await chooseLevel(params.get("level"));
  } else {
    setCustomLevel(params.get("text") || "");
    $("level-box").open = true;
  }
  $("program").value = params.get("program") || "";
  await levelForSlots();
  if ($("program").value) await runProgram();
  else await showLevel();
  return true;
}

// ---------------------------------------------------------------- wiring

async function start() {
  $("game").addEventListener("change", () => chooseGame($("game").value).catch(showError));
  $("level").addEventListener("change", () => {
    if ($("level").value) chooseLevel($("level").value).catch(showError);
  });
  $("use-text").addEventListener("click", () => {
    setCustomLevel($("level-text").value);
    clearErrors();
    showLevel();
  });
  $("run").addEventListener("click", runProgram);
  $("program").addEventListener("input", textTyped);
  $("program").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) runProgram();
  });
  $("first").addEventListener("click", () => { stop(); showFrame(0); });
  $("back").addEventListener("click", () => { stop(); showFrame(state.index - 1); });
  $("forward").addEventListener("click", () => { stop(); showFrame(state.index + 1); });
  $("last").addEventListener("click", () => { stop(); showFrame(state.frames.length - 1); });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("input", speedChanged);
  $("board").addEventListener("click", boardClicked);
  $("solve").addEventListener("click", solve);
  $("cancel").addEventListener("click", cancel);
  $("use-solution").addEventListener("click", () => {
    $("program").value = state.solution;
    if (slots.shape) readText().catch(showError);
    runProgram();
  });
  $("share").addEventListener("click", share);
  window.addEventListener("resize", () => fitBoard($("board").querySelector("svg")));
  window.addEventListener("hashchange", () => restore().catch(showError));
  speedChanged();
  try {
    await loadGames();
    startDesign();
    if (!(await restore())) await chooseGame("carrots");
  } catch (error) {
    showError(error);
  }
  document.body.dataset.ready = "1";  // for tests and scripts: the first picture is on the page
}

document.addEventListener("DOMContentLoaded", start);
