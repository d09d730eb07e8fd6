// trickrules serve: the page. It draws one seat's view (GET /api/state?seat=N) and sends the
// seat's choices; it long-polls for changes (bots moving, the spec reloaded). No build step.
"use strict";

const params = new URLSearchParams(location.search);
let seat = Math.max(0, parseInt(params.get("seat") || "0", 10) || 0);
let view = null;
let autoplay = null;
const $ = (id) => document.getElementById(id);
window.trickrules = { get view() { return view; } };  // for tests and the browser's console

// ------------------------------------------------------------------ talking to the server

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function post(path, body) {
  try {
    show(await api("POST", path, { seat, ...(body || {}) }));
  } catch (error) {
    flash(error.message);
  }
}

function flash(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  box.classList.add("alert");
}

async function poll() {
  for (;;) {
    try {
      const since = view ? `&since=${view.version}` : "";
      const next = await api("GET", `/api/state?seat=${seat}${since}`);
      if (!view || next.version >= view.version || next.seat !== view.seat) show(next);
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

// ------------------------------------------------------------------ cards

const SYMBOLS = { clubs: "\u2663", diamonds: "\u2666", hearts: "\u2665", spades: "\u2660" };
const COLOURS = {
  clubs: "#1b1b1b", spades: "#1b1b1b", hearts: "#c8102e", diamonds: "#c8102e",
  red: "#c8102e", green: "#2e7d32", yellow: "#b58900", blue: "#1565c0", grey: "#616161", gray: "#616161",
  orange: "#e65100", lila: "#7b1fa2", purple: "#7b1fa2", violet: "#7b1fa2", black: "#1b1b1b", white: "#8d8d8d",
  gold: "#b8860b", silver: "#78909c", brown: "#6d4c41", pink: "#d81b60", cyan: "#00838f",
};
const PALETTE = ["#1565c0", "#c8102e", "#2e7d32", "#6a1b9a", "#e65100", "#00838f", "#5d4037", "#ad1457"];

function suitColour(suit) {
  const known = COLOURS[suit.toLowerCase()];
  if (known) return known;
  const index = view && view.deck ? view.deck.suits.indexOf(suit) : 0;
  return PALETTE[(index < 0 ? 0 : index) % PALETTE.length];
}

function suitSymbol(suit) {
  return SYMBOLS[suit.toLowerCase()] || suit.slice(0, 1).toUpperCase();
}

// Replace an element's content only when it changed: a card under the pointer stays the same
// element (its hover and focus with it) while bots move elsewhere.
function setHtml(element, html) {
  if (element.dataset.html !== html) {
    element.innerHTML = html;
    element.dataset.html = html;
  }
}

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// A card drawn from the deck's suits and ranks: corner rank and suit, a big suit mark; a card
// with two faces shows the second one upside down at the bottom.
function cardHtml(id, extra = "", attrs = "") {
  const card = view.deck && view.deck.cards[id];
  if (!card) return `<span class="card ${extra}" ${attrs}><span class="rank">${esc(id)}</span></span>`;
  const faces = card.faces;
  const first = faces[0];
  const colour = suitColour(first.suit);
  const second = faces[1]
    ? `<span class="face second" style="--suit:${suitColour(faces[1].suit)}"><span class="rank">${esc(faces[1].name)}</span><span class="pip">${esc(suitSymbol(faces[1].suit))}</span></span>`
    : "";
  const label = faces.map((f) => `${f.name} of ${f.suit}`).join(" / ");
  return `<span class="card ${faces.length > 1 ? "two-faced" : ""} ${extra}" style="--suit:${colour}" data-card="${esc(id)}" aria-label="${esc(label)}" ${attrs}>`
    + `<span class="face first"><span class="rank">${esc(first.name)}</span><span class="pip">${esc(suitSymbol(first.suit))}</span></span>`
    + `<span class="big">${esc(suitSymbol(first.suit))}</span>${second}</span>`;
}

const CARD_VERBS = ["play", "pass", "discard", "place", "bury"];

function decisionHtml(decision) {
  const [verb, ...rest] = decision.label.split(" ");
  const name = rest.join(" ");
  const withCard = CARD_VERBS.includes(verb) && view.deck && view.deck.cards[name];
  const inner = withCard ? `${esc(verb)} ${cardHtml(name, "mini")}` : esc(decision.label);
  return `<button type="button" class="decision" data-action="${decision.action}" data-label="${esc(decision.label)}">${inner}</button>`;
}

// ------------------------------------------------------------------ drawing the view

function name(player) {
  if (player === null || player === undefined) return "-";
  return player === view.seat ? `${view.names[player]} (you)` : view.names[player];
}

function show(next) {
  view = next;
  document.title = view.spec && view.spec.title ? `${view.spec.title}: trickrules serve` : "trickrules serve";
  $("title").textContent = view.spec && view.spec.title ? view.spec.title : "trickrules";
  syncAddress();
  drawControls();
  drawErrors();
  if (!view.deck) return;
  drawInfo();
  drawPlayers();
  drawTrick();
  drawTableaux();
  drawDecisions();
  drawHand();
  drawScores();
  drawLog();
  drawGameOver();
}

function syncAddress() {
  const wanted = new URLSearchParams(location.search);
  wanted.set("seed", view.seed);
  if (seat) wanted.set("seat", seat); else wanted.delete("seat");
  const text = `?${wanted.toString()}`;
  if (text !== location.search) history.replaceState(null, "", text);
}

function drawControls() {
  const seedInput = $("seed");
  if (document.activeElement !== seedInput) seedInput.value = view.seed;
  const select = $("view-seat");
  const count = view.seats.length;
  if (select.options.length !== count) {
    select.innerHTML = view.seats.map((_, p) => `<option value="${p}">P${p}</option>`).join("");
  }
  [...select.options].forEach((option, p) => { option.textContent = `P${p} (${view.seats[p]})`; });
  select.value = String(seat);
  const pace = $("pace");
  if (document.activeElement !== pace) pace.value = view.pace;
  $("pace-out").textContent = `${Number(view.pace).toFixed(1)} s`;
  const kinds = $("seat-kinds");
  const choices = ["human", "random", "greedy", "ismcts:50", "ismcts:200", "ismcts:1000"];
  setHtml(kinds, view.seats.map((kind, p) => {
    const options = (choices.includes(kind) ? choices : [kind, ...choices])
      .map((c) => `<option ${c === kind ? "selected" : ""}>${esc(c)}</option>`).join("");
    return `<label>P${p} <select data-seat="${p}">${options}</select></label>`;
  }).join(""));
  $("undo").disabled = !view.live;
  $("position").textContent = `${view.position} / ${view.length}`;
  $("autoplay").textContent = autoplay ? "Pause" : "Play";
  const bar = $("history-bar");
  if (view.mode === "watch") {
    bar.hidden = false;
    bar.innerHTML = `Watching a record: action ${view.position} of ${view.length}. Step through it in the log, or <button type="button" id="leave-watch">start a new game</button>.`;
  } else if (!view.live) {
    bar.hidden = false;
    bar.innerHTML = `Looking back: action ${view.position} of ${view.length}. <button type="button" id="to-live">Back to the game</button>`;
  } else {
    bar.hidden = true;
  }
  const box = $("message");
  if (!box.classList.contains("alert") || !box.textContent) {
    box.textContent = view.message || "";
    box.hidden = !view.message;
  }
}

function drawErrors() {
  const errors = view.errors || [];
  $("errors").hidden = errors.length === 0;
  document.body.classList.toggle("has-errors", errors.length > 0);
  setHtml($("error-list"), errors.map((e) =>
    `<li><code class="where">${esc(e.file)}:${e.line}:${e.column}</code> <code class="code">${esc(e.code)}</code> ${esc(e.message)}</li>`).join(""));
}

function drawInfo() {
  const t = view.table;
  const bits = [
    `<span>Round <b>${t.round + 1}</b>${view.spec.rounds < 100 ? ` of ${view.spec.rounds}` : ""}</span>`,
    `<span>Phase <b>${esc(view.phase.replace("_", " "))}</b></span>`,
    `<span>Dealer <b>${esc(name(t.dealer))}</b></span>`,
    `<span class="trumps">Trumps <b>${t.trumps.length ? t.trumps.map((s) => `<span class="suit" style="--suit:${suitColour(s)}">${esc(suitSymbol(s))} ${esc(s)}</span>`).join(" ") : "none"}</b></span>`,
  ];
  if ("turned_up" in t) bits.push(`<span>Turned up ${t.turned_up ? cardHtml(t.turned_up, "mini") : "<b>none</b>"}</span>`);
  if (t.contract) bits.push(`<span>Contract <b>${esc(t.contract)}</b></span>`);
  if (t.called) bits.push(`<span>Called ${cardHtml(t.called, "mini")}</span>`);
  if (t.declarer !== undefined && t.declarer !== null) bits.push(`<span>Declarer <b>${esc(name(t.declarer))}</b></span>`);
  if (view.passing) bits.push(`<span>Passing <b>${view.passing.cards} ${esc(view.passing.direction)}</b></span>`);
  if (t.set_aside_shown) bits.push(`<span>Set aside ${t.set_aside_shown.map((c) => cardHtml(c, "mini")).join("")}</span>`);
  if (t.buried && t.buried.length) bits.push(`<span>You buried ${t.buried.map((c) => cardHtml(c, "mini")).join("")}</span>`);
  if (t.supply && Object.keys(t.supply).length) {
    bits.push(`<span>Supply ${Object.entries(t.supply).map(([k, v]) => `<b>${v}</b> ${esc(k)}`).join(", ")}</span>`);
  }
  const turn = view.terminal ? "game over" : view.thinking !== null ? `${name(view.current)} is thinking\u2026` : `${name(view.current)} to move`;
  bits.push(`<span class="turn">${esc(turn)}</span>`);
  setHtml($("info"), bits.join(""));
}

function drawPlayers() {
  const t = view.table;
  const teams = t.teams || [];
  setHtml($("players"), view.names.map((_, p) => {
    const team = teams.findIndex((members) => members.includes(p));
    const tags = [];
    if (p === t.dealer) tags.push(`<span class="chip dealer" title="dealer">D</span>`);
    if (team >= 0) tags.push(`<span class="chip team" title="team">T${team + 1}</span>`);
    if ((t.sitting_out || []).includes(p)) tags.push(`<span class="chip">sits out</span>`);
    const stats = [`<span title="cards in hand">\u{1F0A0} ${t.hand_sizes[p]}</span>`, `<span title="tricks won">tricks ${t.tricks_won[p]}</span>`];
    if (t.bids) stats.push(`<span class="bid" title="bid">bid ${t.bids[p] === null ? "-" : esc(t.bids[p])}</span>`);
    if (t.shown && t.shown[p].length) stats.push(`<span class="melds" title="melds shown to the table, until played">melds ${t.shown[p].map((c) => cardHtml(c, "mini")).join("")}</span>`);
    const tokens = Object.entries(t.tokens[p] || {}).filter(([, v]) => v);
    if (tokens.length) stats.push(tokens.map(([k, v]) => `<span title="tokens">${v} ${esc(k)}</span>`).join(" "));
    stats.push(`<span class="total" title="total points">${t.totals[p]} pts</span>`);
    const classes = ["player"];
    if (p === view.current) classes.push("to-move");
    if (p === view.seat) classes.push("viewer");
    if (view.winners.includes(p)) classes.push("winner");
    const thinking = view.thinking === p ? `<span class="thinking">thinking\u2026</span>` : "";
    return `<div class="${classes.join(" ")}" data-player="${p}"><div class="who"><b>${esc(name(p))}</b> <small>${esc(view.seats[p])}</small> ${tags.join("")} ${thinking}</div><div class="stats">${stats.join("")}</div></div>`;
  }).join(""));
}

function drawTrick() {
  const trick = view.trick;
  let plays = trick.plays;
  let caption = "";
  let winner = trick.winning;
  let old = false;
  if (!plays.length && view.last_trick) {
    plays = view.last_trick.plays;
    winner = view.last_trick.winner;
    caption = `Last trick: ${esc(name(view.last_trick.winner))} won it`;
    old = true;
  } else if (plays.length) {
    caption = `${esc(name(trick.leader))} led` + (winner !== null ? `; ${esc(name(winner))} is winning` : "");
  } else {
    caption = view.phase === "play" ? `${esc(name(view.current))} leads` : "";
  }
  $("trick").className = old ? "old" : "";
  setHtml($("trick"), `<div class="caption">${caption}</div><div class="plays">${plays.map((play) => {
    const classes = ["play"];
    if (play.player === winner) classes.push("winning");
    if (play.player === (old ? view.last_trick.leader : trick.leader)) classes.push("leader");
    return `<div class="${classes.join(" ")}" data-player="${play.player}">${cardHtml(play.card)}<div class="by">${esc(name(play.player))}</div></div>`;
  }).join("")}</div>`);
}

function drawTableaux() {
  const t = view.table;
  const has = t.tableau && t.tableau.some((sections) => sections.length);
  $("tableaux").hidden = !has;
  if (!has) return;
  const needed = Object.fromEntries((view.sections || []).map((s) => [s.name, s]));
  setHtml($("tableaux"), `<h2>Tableaux</h2>` + t.tableau.map((sections, p) =>
    `<div class="tableau" data-player="${p}"><div class="owner">${esc(name(p))}</div><div class="sections">${sections.map((s) => {
      const info = needed[s.section];
      const need = info && info.tokens_needed ? `<span class="need" title="tokens needed">${s.tokens}/${info.tokens_needed}</span>` : "";
      const tokens = s.tokens ? `<span class="tokens" title="tokens">${"\u25CF".repeat(Math.min(s.tokens, 8))}</span>` : "";
      return `<div class="section"><div class="name">${esc(s.section)} ${need}</div><div class="stack">${s.cards.map((c) => cardHtml(c, "mini")).join("")}</div>${tokens}</div>`;
    }).join("")}</div></div>`).join(""));
}

const PROMPTS = {
  play: "Your turn: play a card",
  pass: "Choose a card to pass",
  bid: "Your bid",
  choose_trumps: "Choose trumps, or pass",
  discard: "Discard a card",
  go_alone: "Go alone?",
  declare: "Declare a contract, or pass",
  place_tokens: "Place a token on a section",
  place_cards: "Place a won card on your tableau",
  take: "Take one group of the set-aside cards",
};

function drawDecisions() {
  const box = $("decisions");
  if (!view.decisions.length) {
    let text = "";
    if (view.terminal) text = "";
    else if (!view.live) text = view.mode === "watch" ? "" : "Looking back: go to the latest position to play.";
    else if (view.current !== null && view.current !== view.seat) {
      text = view.seats[view.current] === "human" ? `${name(view.current)} is a human seat: view it to play for it.` : `Waiting for ${name(view.current)}\u2026`;
    }
    setHtml(box, text ? `<p class="waiting">${esc(text)}</p>` : "");
    return;
  }
  let prompt = PROMPTS[view.phase] || "Your decision";
  if (view.phase === "pass" && view.passing) prompt = `Pass ${view.passing.cards} card${view.passing.cards === 1 ? "" : "s"} ${view.passing.direction}: choose one`;
  if (view.phase === "take" && view.decisions[0].label.startsWith("bury ")) prompt = "Bury a card: choose one from your hand";
  setHtml(box, `<p class="prompt">${esc(prompt)}</p><div class="buttons">${view.decisions.map(decisionHtml).join("")}</div>`);
}

function drawHand() {
  $("hand-title").textContent = `Hand of ${name(seat)}`;
  const yourTurn = view.decisions.length > 0;
  let lastSuit = null;
  setHtml($("hand"), view.hand.map((h) => {
    const card = view.deck.cards[h.card];
    const suit = card ? card.faces[0].suit : "";
    const gap = lastSuit !== null && suit !== lastSuit ? "suit-gap" : "";
    lastSuit = suit;
    let state = "";
    let attrs = "";
    if (yourTurn && h.legal) {
      state = "legal";
      attrs = `role="button" tabindex="0" data-action="${h.action}" title="${esc(view.decisions.find((d) => d.action === h.action).label)}"`;
    } else if (yourTurn && h.reason) {
      state = "illegal";
      attrs = `title="${esc(h.reason)}" data-reason="${esc(h.reason)}" tabindex="0"`;
    } else if (yourTurn) {
      state = "idle";
    }
    return cardHtml(h.card, `${state} ${gap}`, attrs);
  }).join("") || `<p class="empty">no cards</p>`);
  if (!yourTurn) $("reason").textContent = "";
}

function drawScores() {
  const rounds = view.rounds || [];
  const players = view.names.map((_, p) => p);
  const head = `<tr><th>Round</th>${players.map((p) => `<th>${esc(view.names[p])}</th>`).join("")}</tr>`;
  const rows = rounds.map((r) => `<tr><td>${r.round + 1}</td>${players.map((p) => `<td>${r.points[p]}</td>`).join("")}</tr>`);
  const total = `<tr class="total"><th>Total</th>${players.map((p) => `<th>${view.table.totals[p]}</th>`).join("")}</tr>`;
  const details = rounds.slice().reverse().map((r) => {
    const names = [...new Set(r.rules.flatMap((rules) => Object.keys(rules)))];
    const lines = names.map((n) => `<tr><td>${esc(n)}</td>${players.map((p) => `<td>${r.rules[p][n] ?? ""}</td>`).join("")}</tr>`);
    if (r.rewards && r.rewards.some((v) => v)) lines.push(`<tr><td>rewards</td>${players.map((p) => `<td>${r.rewards[p]}</td>`).join("")}</tr>`);
    if (r.sections) {
      lines.push(...r.sections[0].map((s, i) => `<tr><td>section ${esc(s.section)}</td>${players.map((p) => `<td title="${esc(r.sections[p][i].case)}">${r.sections[p][i].score}</td>`).join("")}</tr>`));
    }
    const measures = [...new Set(r.measures.flatMap((m) => Object.keys(m)))];
    lines.push(...measures.map((m) => `<tr class="measure"><td>${esc(m)}</td>${players.map((p) => `<td>${r.measures[p][m]}</td>`).join("")}</tr>`));
    return `<details><summary>Round ${r.round + 1}: how it scored</summary><table class="breakdown"><tr><th></th>${players.map((p) => `<th>${esc(view.names[p])}</th>`).join("")}</tr>${lines.join("")}</table></details>`;
  });
  setHtml($("scores"), `<table class="sheet">${head}${rows.join("")}${total}</table>${details.join("")}`);
}

function drawLog() {
  const list = $("log");
  list.innerHTML = view.log.map((line) => `<li class="${esc(line.kind)}">${esc(line.text)}</li>`).join("");
  list.scrollTop = list.scrollHeight;
}

function drawGameOver() {
  const box = $("gameover");
  box.hidden = !view.terminal;
  if (!view.terminal) return;
  const winners = view.winners.map(name).join(", ");
  setHtml(box, `<h2>Game over</h2><p><b>${esc(winners)}</b> win${view.winners.length === 1 ? "s" : ""} with ${view.table.totals[view.winners[0]]} points.</p>`
    + `<button type="button" id="again">New game</button>`);
}

// ------------------------------------------------------------------ what the page sends

function act(action) {
  post("/api/action", { action: Number(action), turn: view.turn });
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-action], #leave-watch, #to-live, #again, [data-step]");
  if (!target) {
    const refused = event.target.closest(".card.illegal");
    if (refused) $("reason").textContent = refused.dataset.reason;
    return;
  }
  if (target.dataset.action !== undefined) act(target.dataset.action);
  else if (target.id === "leave-watch" || target.id === "again") post("/api/new", {});
  else if (target.id === "to-live") post("/api/step", { to: "end" });
  else if (target.dataset.step) {
    const step = target.dataset.step;
    post("/api/step", step === "start" ? { to: 0 } : step === "end" ? { to: "end" } : { by: Number(step) });
  }
});

document.addEventListener("keydown", (event) => {
  if ((event.key === "Enter" || event.key === " ") && event.target.matches(".card.legal")) {
    event.preventDefault();
    act(event.target.dataset.action);
  }
});

document.addEventListener("mouseover", (event) => {
  const refused = event.target.closest(".card.illegal");
  if (refused) $("reason").textContent = `${refused.dataset.card}: ${refused.dataset.reason}`;
});
document.addEventListener("focusin", (event) => {
  if (event.target.matches(".card.illegal")) $("reason").textContent = `${event.target.dataset.card}: ${event.target.dataset.reason}`;
});

$("seed-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const value = $("seed").value.trim();
  post("/api/new", value === "" ? {} : { seed: Number(value) });
});
$("random-game").addEventListener("click", () => post("/api/new", {}));
$("undo").addEventListener("click", () => post("/api/undo", {}));
$("view-seat").addEventListener("change", (event) => {
  seat = Number(event.target.value);
  view = null;
  api("GET", `/api/state?seat=${seat}`).then(show).catch((e) => flash(e.message));
});
$("pace").addEventListener("change", (event) => post("/api/pace", { seconds: Number(event.target.value) }));
$("pace").addEventListener("input", (event) => { $("pace-out").textContent = `${Number(event.target.value).toFixed(1)} s`; });
$("seats-toggle").addEventListener("click", () => {
  const panel = $("seats-panel");
  panel.hidden = !panel.hidden;
  $("seats-toggle").setAttribute("aria-expanded", String(!panel.hidden));
});
$("seat-kinds").addEventListener("change", () => {
  const seats = [...document.querySelectorAll("#seat-kinds select")].map((s) => s.value);
  post("/api/seats", { seats });
});
$("open-record").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (error) {
    flash(`${file.name}: not JSON`);
    return;
  }
  try {
    show(await api("POST", "/api/record", record));
    if (seat) show(await api("GET", `/api/state?seat=${seat}`));
  } catch (error) {
    flash(error.message);
  }
  event.target.value = "";
});
$("autoplay").addEventListener("click", () => {
  if (autoplay) {
    clearInterval(autoplay);
    autoplay = null;
  } else {
    autoplay = setInterval(() => {
      if (!view || view.position >= view.length) {
        clearInterval(autoplay);
        autoplay = null;
        drawControls();
        return;
      }
      post("/api/step", { by: 1 });
    }, Math.max(100, (view ? view.pace : 0.5) * 1000));
  }
  drawControls();
});
$("message").addEventListener("click", () => { $("message").classList.remove("alert"); $("message").hidden = true; });

// ------------------------------------------------------------------ start

async function start() {
  try {
    let first = await api("GET", `/api/state?seat=${seat}`);
    if (seat >= first.seats.length) {
      seat = 0;
      first = await api("GET", "/api/state?seat=0");
    }
    const wanted = params.get("seed");
    if (wanted !== null && /^\d+$/.test(wanted) && Number(wanted) !== first.seed && first.mode === "live" && !first.errors.length) {
      first = await api("POST", "/api/new", { seed: Number(wanted), seat });
    }
    show(first);
  } catch (error) {
    flash(error.message);
  }
  poll();
}

start();
