// The playground's tools for level designers: the Analyze panel (the current level's proven par, how many optimal
// programs and behaviours it has, a few of them to run with one click) and the Generate form (a level made to
// order, opened when made). Both run as jobs in worker processes on the server, followed by server-sent events
// as a solve is, and can be cancelled. Uses $, api, state, levelRef, setCustomLevel, chooseGame, showLevel,
// runProgram and showError of app.js, and readText of slots.js.
"use strict";

const jobs = {
  analyze: null,   // {id, events} of the running analysis
  generate: null,  // {id, events} of the running generation
};

// ---------------------------------------------------------------- following a job

// Start a job (POST `path` with `body`) and follow it: `progress(state)` now and then, `done(state)` once.
async function startJob(which, path, body, progress, done) {
  const started = await api("POST", path, body);
  const events = new EventSource(started.events);
  jobs[which] = { id: started.id, events };
  const finish = (s) => {
    if (!jobs[which] || jobs[which].id !== started.id) return;
    events.close();
    jobs[which] = null;
    done(s);
  };
  events.addEventListener("progress", (e) => progress(JSON.parse(e.data)));
  events.addEventListener("done", (e) => finish(JSON.parse(e.data)));
  events.onerror = () => {  // the stream broke before its end: ask once
    events.close();
    api("GET", `/api/jobs/${started.id}`).then((s) => {
      if (s.status !== "running") finish(s);
    }).catch(showError);
  };
  return started;
}

async function cancelJob(which) {
  const job = jobs[which];
  if (!job) return null;
  jobs[which] = null;
  job.events.close();
  return api("DELETE", `/api/jobs/${job.id}`);
}

function seconds(s) {
  return `${Number(s).toFixed(1)} s`;
}

function progressText(s, what) {
  const p = s.progress || {};
  const parts = [];
  if (p.phase) parts.push(String(p.phase));
  if (p.length !== undefined && p.length !== null) parts.push(`length ${p.length}`);
  if (p.made !== undefined && p.made !== null) parts.push(`${p.made} made`);
  if (p.tried !== undefined && p.tried !== null) parts.push(`${Number(p.tried).toLocaleString("en")} tried`);
  if (p.candidates !== undefined && p.candidates !== null) {
    parts.push(`${Number(p.candidates).toLocaleString("en")} candidates`);
  }
  parts.push(`${seconds(s.seconds)} of ${s.time_limit} s`);
  return `${what}: ${parts.join(", ")}`;
}

function setStatus(id, text, cls) {
  $(id).textContent = text;
  $(id).className = cls || "";
}

// ---------------------------------------------------------------- the Analyze panel

function clearAnalysis() {
  if (jobs.analyze) cancelJob("analyze").catch(() => {});
  setStatus("analyze-status", "");
  $("analysis").innerHTML = "";
  $("analyze").disabled = false;
  $("analyze-cancel").disabled = true;
}

function count(n, capped) {
  return capped ? `at least ${n} (counted up to the cap)` : String(n);
}

function fact(list, term, value) {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.textContent = value;
  list.append(dt, dd);
  return dd;
}

// Show an analysis (gridbot.analyze's JSON): the par and how sure it is, the counts, effort, and the examples.
function showAnalysis(a) {
  const box = $("analysis");
  box.innerHTML = "";
  const unit = state.games[a.game] ? state.games[a.game].unit : "tokens";
  const list = document.createElement("dl");
  list.className = "facts";
  if (a.status === "optimal") {
    fact(list, "Par", `${a.par} ${unit}, proven optimal`);
  } else if (a.status === "solved") {
    const excluded = a.excluded ? `; up to ${a.excluded} proven impossible` : "";
    fact(list, "Par", `${a.par} ${unit} found, not proven optimal${excluded}`);
  } else if (a.status === "unsolvable") {
    fact(list, "Par", "none: proven unsolvable");
  } else {
    fact(list, "Par", a.excluded ? `unknown: up to ${a.excluded} proven impossible` : "unknown: nothing found in time");
  }
  if (a.par !== null && a.par !== undefined) {
    fact(list, "Optimal programs", count(a.programs, a.programs_capped));
    fact(list, "Distinct behaviours", count(a.behaviours, a.behaviours_capped));
    if (a.longer !== null && a.longer !== undefined) {
      fact(list, "One longer", `${count(a.longer, a.longer_capped)} of ${a.par + 1} ${unit}`);
    }
  }
  if (a.needed && a.needed.length) {
    fact(list, "Needed", a.needed.map(([name, yes]) => `${name} ${yes ? "yes" : "no"}`).join(", "));
  }
  fact(list, "Effort", `${Number(a.candidates).toLocaleString("en")} candidates, ${seconds(a.seconds)}`);
  box.appendChild(list);
  if (a.status === "optimal" && (a.programs_capped || a.behaviours_capped)) {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = "The counts stopped at the cap: there are more.";
    box.appendChild(note);
  } else if (a.status !== "optimal" && a.par !== null && a.par !== undefined) {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = "The par is not proven, so neither are the counts: a longer time limit may prove it.";
    box.appendChild(note);
  }
  if (a.examples && a.examples.length) {
    const head = document.createElement("p");
    head.className = "examples-head";
    head.textContent = a.examples.length > 1 ? `${a.examples.length} of the optimal programs:` : "An optimal program:";
    box.appendChild(head);
    const examples = document.createElement("ul");
    examples.className = "examples";
    a.examples.forEach((text, i) => {
      const item = document.createElement("li");
      const code = document.createElement("code");
      code.textContent = text;
      const run = document.createElement("button");
      run.type = "button";
      run.textContent = "Run";
      run.setAttribute("aria-label", `run optimal program ${i + 1}: ${text}`);
      run.addEventListener("click", () => runExample(text));
      item.append(run, code);
      examples.appendChild(item);
    });
    box.appendChild(examples);
  }
}

async function runExample(text) {
  $("program").value = text;
  if (slots.shape) await readText().catch(showError);
  await runProgram();
}

async function analyze() {
  clearAnalysis();
  const limit = Number($("analyze-limit").value);
  const asked = state.choice;
  try {
    $("analyze").disabled = true;
    $("analyze-cancel").disabled = false;
    setStatus("analyze-status", "Starting the analysis…", "running");
    await startJob("analyze", "/api/analyze", { ...levelRef(), time_limit: limit },
      (s) => setStatus("analyze-status", progressText(s, "Analysing"), "running"),
      (s) => analyzed(s, asked));
  } catch (error) {
    $("analyze").disabled = false;
    $("analyze-cancel").disabled = true;
    setStatus("analyze-status", error.status === 429 ? `Busy: ${error.message}` : error.message + where(error.info || {}), "error");
  }
}

function analyzed(s, asked) {
  $("analyze").disabled = false;
  $("analyze-cancel").disabled = true;
  if (asked !== state.choice) return;  // another level since: this answer is not about it
  if (s.analysis) {
    const a = s.analysis;
    const words = { optimal: "Proven", solved: "Not proven", unsolvable: "Unsolvable", timeout: "No solution in time" };
    setStatus("analyze-status", `${words[a.status] || a.status} (${seconds(s.seconds)})`, a.status);
    showAnalysis(a);
  } else if (s.status === "timeout") {
    setStatus("analyze-status", `Stopped at the time limit (${seconds(s.seconds)})`, "timeout");
  } else if (s.status === "cancelled") {
    setStatus("analyze-status", `Cancelled after ${seconds(s.seconds)}`, "cancelled");
  } else {
    setStatus("analyze-status", `The analysis failed: ${s.message || s.status}`, "error");
  }
}

// ---------------------------------------------------------------- the Generate form

function fillGenerateGames() {
  const select = $("gen-game");
  select.innerHTML = "";
  for (const game of Object.values(state.games)) {
    if (!game.generate) continue;
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.name;
    select.appendChild(option);
  }
}

// The form follows the game on show, where that game makes levels to order.
function generateFollows(game) {
  if (state.games[game] && state.games[game].generate && !jobs.generate) $("gen-game").value = game;
  generateOptions();
}

// The options of one game only: Pellet's boards with no path, the torch cave's torches every path needs.
function generateOptions() {
  const game = $("gen-game").value;
  $("gen-none-box").hidden = game !== "pellet";
  $("gen-torches-box").hidden = game !== "torch_cave";
}

async function generate() {
  const body = {
    game: $("gen-game").value,
    par: $("gen-par").value ? Number($("gen-par").value) : null,
    size: $("gen-size").value.trim() || null,
    unique: $("gen-unique").checked,
    none: $("gen-game").value === "pellet" && $("gen-none").checked,
    torches: $("gen-game").value === "torch_cave" && $("gen-torches").value ? Number($("gen-torches").value) : null,
    seed: Number($("gen-seed").value || 0),
    time_limit: Number($("gen-limit").value),
  };
  $("generate").disabled = true;
  $("gen-cancel").disabled = false;
  setStatus("gen-status", "Starting the generator…", "running");
  try {
    await startJob("generate", "/api/generate", body,
      (s) => setStatus("gen-status", progressText(s, "Making"), "running"),
      (s) => generated(s, body));
  } catch (error) {
    generateIdle();
    const why = error.status === 429 ? "Busy" : "No such level";
    setStatus("gen-status", `${why}: ${error.message}`, "error");
  }
}

function generateIdle() {
  $("generate").disabled = false;
  $("gen-cancel").disabled = true;
}

async function generated(s, body) {
  generateIdle();
  if (s.status === "made" && s.levels && s.levels.length) {
    const made = s.levels[0];
    const a = made.analysis;
    const what = a.status === "unsolvable" ? "with no path" : `of par ${a.par}`;
    const unique = body.unique ? ", one optimal behaviour" : "";
    try {
      if (state.game !== body.game) await chooseGame(body.game, "");
      setCustomLevel(made.text);
      $("level-box").open = true;
      clearErrors();
      await showLevel();
    } catch (error) {
      showError(error);
      return;
    }
    setStatus("gen-status", `Made a ${body.game} level ${what}${unique}, proven, after ${made.tried} tried `
      + `(${seconds(s.seconds)}). It is open as your level; its analysis follows.`, "optimal");
    await analyze();  // the counts the order did not need (made: only up to what it asked)
  } else if (s.status === "timeout") {
    setStatus("gen-status", `No level made within the time limit (${seconds(s.seconds)}): `
      + "try a longer time, another seed, or an easier order", "timeout");
  } else if (s.status === "cancelled") {
    setStatus("gen-status", `Cancelled after ${seconds(s.seconds)}`, "cancelled");
  } else if (s.status === "refused") {
    setStatus("gen-status", `No such level: ${s.message}`, "error");
  } else {
    setStatus("gen-status", `The generator failed: ${s.message || s.status}`, "error");
  }
}

// ---------------------------------------------------------------- wiring

function startDesign() {
  fillGenerateGames();
  $("analyze").addEventListener("click", analyze);
  $("analyze-cancel").addEventListener("click", () => {
    cancelJob("analyze").then((s) => s && analyzed(s, state.choice)).catch(showError);
  });
  $("generate").addEventListener("click", generate);
  $("gen-game").addEventListener("change", generateOptions);
  $("gen-cancel").addEventListener("click", () => {
    cancelJob("generate").then((s) => s && generated(s, {})).catch(showError);
  });
}
