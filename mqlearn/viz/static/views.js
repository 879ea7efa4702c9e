// The animated views of mqlearn.viz, one anywidget ES module with no build step: the queue view
// (QueueView, view "queue"), the topology view (TopologyView, view "topology") and a line of
// text (TextView, view "text").
//
// Every view shows the rule IDs it cites as buttons (`.mq-rule`) that open the rule's card
// (`.mq-rule-card`: its entry in the catalogue, docs/rules.md) under the text; the kernel sends
// the cards of the rules a text cites along with it ({id: {heading, html}}).
//
// Queue view:
// The kernel sends `state` = {scene, transition}: the queue after an action, and the steps the
// action took (a get's walk, discards, reports, puts, a scan's sweep), each naming its message by
// the queue manager's number (msg_seq). The view plays the steps on the chips it shows now, then
// draws the new scene. `shown` counts the steps revealed when the learner steps by hand.
// Stable hooks (docs/views.md): every chip is an element `.mq-chip` with data-label, data-state,
// data-lane and data-expiry. A message group or segmented message is one `.mq-group` around its
// members' chips (the kernel decides which: a lane's `items`, mqlearn.viz.group_boxes).

const REDUCED = () =>
  typeof window.matchMedia === "function" &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const GLYPH = {
  live: "●", expired: "⊘", locked: "⊕", uncommitted: "○", "in-uow": "▽",
  discarded: "✕", got: "▼", report: "★", "in-transit": "▶",
};
const STATE_TEXT = {
  live: "live",
  expired: "expired, not yet discarded: still counted in CURDEPTH (EXP-25)",
  locked: "locked by a browse with MQGMO_LOCK",
  uncommitted: "put under syncpoint, not committed: counted, not gettable",
  "in-uow": "got under syncpoint, not committed",
  discarded: "discarded",
  got: "got",
  report: "expiration report",
};

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

const RULE_ID = /\b(?:EXP|RPT|UOW|LCK|RPL|DLQ|TRG|XQH|MD|MQI|EIP)-[0-9]{2}\b/g;

// `text` in `node`, each rule ID that has a card in `rules` a button that opens it.
function setRuleText(node, text, rules) {
  const cards = rules || {};
  const parts = [];
  let at = 0;
  for (const found of text.matchAll(RULE_ID)) {
    const card = cards[found[0]];
    if (!card) continue;
    const button = el("button", "mq-rule", found[0]);
    button.type = "button";
    button.dataset.rule = found[0];
    button.title = card.heading;
    parts.push(text.slice(at, found.index), button);
    at = found.index + found[0].length;
  }
  parts.push(text.slice(at));
  node.replaceChildren(...parts);
}

// Clicking a rule button under `root` opens that rule's card after the button's line (`.mq-ruled`),
// clicking it again or the card's × closes it. `root._rules` holds the cards the texts cite now.
function ruleCards(root) {
  root._rules = {};
  root.addEventListener("click", (event) => {
    const button = event.target.closest ? event.target.closest(".mq-rule") : null;
    if (!button || !root.contains(button)) return;
    const rule = button.dataset.rule;
    const open = root.querySelector(".mq-rule-card");
    if (open) open.remove();
    const card = root._rules[rule];
    if (!card || (open && open.dataset.rule === rule)) return;
    const shown = el("div", "mq-rule-card");
    shown.dataset.rule = rule;
    const close = el("button", "mq-rule-close", "×");
    close.type = "button";
    close.title = "close";
    close.addEventListener("click", () => shown.remove());
    const body = el("div", "mq-rule-body");
    body.innerHTML = card.html; // built by mqlearn.viz.rule_cards from the catalogue, escaped there
    shown.append(close, el("div", "mq-rule-heading", card.heading), body);
    (button.closest(".mq-ruled") || button).after(shown);
  });
}

// New texts, new cards: an open card stays only while some text still cites its rule.
function setRules(root, rules) {
  root._rules = rules || {};
  const open = root.querySelector(".mq-rule-card");
  if (open && !root._rules[open.dataset.rule]) open.remove();
}

function seconds(ms) {
  return (ms / 1000).toFixed(1) + " s";
}

function expiryText(c) {
  if (c.expiry === -1) return "∞";
  if (c.expiry === 0) return "0";
  return String(c.expiry);
}

function makeChip(c) {
  const node = el("div", "mq-chip");
  node.dataset.id = String(c.id);
  node.dataset.label = c.label;
  node.dataset.state = c.state;
  node.dataset.lane = String(c.lane);
  node.dataset.expiry = String(c.expiry);
  if (c.embedded_expiry !== undefined) node.dataset.embeddedExpiry = String(c.embedded_expiry);
  if (c.group !== undefined) {
    node.dataset.group = c.group;
    node.dataset.msgSeqNumber = String(c.msg_seq_number);
    node.dataset.offset = String(c.offset);
    node.dataset.msgFlags = String(c.msg_flags);
  }
  node.appendChild(el("span", "mq-chip-glyph", GLYPH[c.state] || ""));
  node.appendChild(el("span", "mq-chip-label", c.label));
  node.appendChild(el("span", "mq-chip-expiry", expiryText(c)));
  const deadline = c.deadline_ms === null ? "never expires" : "deadline " + seconds(c.deadline_ms);
  node.title =
    `${c.label}: Priority ${c.priority}, Expiry ${expiryText(c)} tenths left, ${deadline}; ` +
    (STATE_TEXT[c.state] || c.state) +
    (c.detail ? `; ${c.detail}` : "") +
    (c.properties ? `; properties: ${c.properties.join(", ")}` : "");
  node.dataset.sig = signature(c);
  return node;
}

// A group or segmented message (`u`: kind, key, title, members, folded) as one box around its
// members in MsgSeqNumber, then Offset order; each member a chip of its own (or, in a group, a
// segmented message's box). The box on screen for the same key is kept and patched.
function groupNode(boxes, kept, u) {
  let node = boxes.get(u.key);
  if (node) {
    boxes.delete(u.key); // one node, one place
  } else {
    node = el("div", "mq-group");
    node.dataset.key = u.key;
    node.append(el("span", "mq-group-label"), el("div", "mq-group-members"));
  }
  node.dataset.kind = u.kind;
  node.dataset.present = String(u.present);
  if (u.last_seq === undefined || u.last_seq === null) delete node.dataset.lastSeq;
  else node.dataset.lastSeq = String(u.last_seq);
  const label = u.folded ? `${u.title} · ${u.folded} more folded` : u.title;
  setText(node.firstChild, label);
  if (node.title !== label) node.title = label;
  const members = u.members.map((m) => (m.members ? groupNode(boxes, kept, m) : reuse(kept, m)));
  patchChildren(node.lastChild, members);
  return node;
}

function laneItem(boxes, kept, item) {
  return item.members ? groupNode(boxes, kept, item) : reuse(kept, item);
}

function setState(node, state) {
  node.dataset.state = state;
  delete node.dataset.sig; // no longer the chip its signature describes: never reused
  const glyph = node.querySelector(".mq-chip-glyph");
  if (glyph) glyph.textContent = GLYPH[state] || "";
}

// The chip nodes on screen, by message id, that a new scene may reuse as they are: a node that
// an animation has marked (an extra class) or changed (setState drops its signature) is drawn anew.
function keptChips(root) {
  const kept = new Map();
  for (const node of root.querySelectorAll(".mq-chip")) {
    if (node.classList.length === 1 && node.dataset.sig) kept.set(node.dataset.sig, node);
  }
  return kept;
}

function signature(c) {
  return [c.id, c.label, c.state, c.lane, c.expiry, c.priority, c.deadline_ms, c.detail].join("|");
}

function reuse(kept, c) {
  const node = kept.get(signature(c));
  if (node) {
    kept.delete(node.dataset.sig); // one node, one place
    return node;
  }
  return makeChip(c);
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// Make `parent`'s children exactly `wanted`, moving only what is out of place: a redraw after
// undo or a replay touches the few chips that differ, so the browser lays out and paints little.
// What leaves goes first, so a row that lost its head is not rebuilt by moving every chip up one.
function patchChildren(parent, wanted) {
  const keep = new Set(wanted);
  for (const child of [...parent.children]) if (!keep.has(child)) child.remove();
  wanted.forEach((node, i) => {
    const here = parent.children[i];
    if (here !== node) parent.insertBefore(node, here || null);
  });
  while (parent.children.length > wanted.length) parent.lastElementChild.remove();
}

// The view's fixed frame (head, narration, lanes, the side boxes), built once and then reused.
function frame(root) {
  if (root._frame) return root._frame;
  const head = el("div", "mq-qv-head");
  const where = el("span", "mq-qv-where");
  const clock = el("span", "mq-qv-clock");
  const depth = el("span", "mq-qv-depth");
  head.append(where, clock, depth);
  const narration = el("div", "mq-qv-narration mq-ruled");
  const body = el("div", "mq-qv-body");
  const lanes = el("div", "mq-qv-lanes");
  const side = el("div", "mq-qv-side");
  const box = (cls, title) => {
    const node = el("div", "mq-qv-box " + cls);
    node.appendChild(el("div", "mq-qv-box-title", title));
    return node;
  };
  const out = box("mq-qv-out", "returned to the application");
  const tray = box("mq-qv-tray", "discarded (gone for good)");
  const reply = box("mq-qv-reply", "");
  side.append(out, tray);
  body.append(lanes, side);
  root.replaceChildren(head, narration, body);
  root._frame = { where, clock, depth, narration, lanes, side, out, tray, reply };
  return root._frame;
}

function laneRow(rows, lane, fifo) {
  let row = rows.get(String(lane.lane));
  if (!row) {
    row = el("div", "mq-lane");
    row.dataset.lane = String(lane.lane);
    row.append(el("span", "mq-lane-label"), el("div", "mq-lane-chips"));
  }
  setText(row.firstChild, fifo ? `FIFO (all at ${lane.lane})` : `priority ${lane.lane}`);
  return row;
}

function moreNode(row, more) {
  const text = `+${more.count} more (${more.expired} expired)`;
  const old = row.querySelector(".mq-more");
  if (old && old.textContent === text) return old;
  const node = el("span", "mq-more", text);
  node.dataset.count = String(more.count);
  return node;
}

function render(root, scene, transition) {
  const kept = keptChips(root);
  const f = frame(root);
  root.querySelectorAll(".mq-stop").forEach((n) => n.remove());
  root.dataset.curdepth = String(scene.curdepth);
  root.dataset.expired = String(scene.expired);
  setText(f.where, `${scene.qmgr} · ${scene.queue} (${scene.msgdlvsq}) · profile ${scene.profile}`);
  setText(f.clock, (scene.live ? "now " : "replay at ") + seconds(scene.now_ms));
  setText(f.depth, `CURDEPTH ${scene.curdepth} · ${scene.expired} expired, not yet discarded`);
  setRules(root, transition && transition.rules);
  setRuleText(f.narration, transition && transition.summary ? transition.summary : "", root._rules);

  const fifo = scene.msgdlvsq === "FIFO";
  const rows = new Map([...f.lanes.children].map((row) => [row.dataset.lane, row]));
  const boxes = new Map([...f.lanes.querySelectorAll(".mq-group")].map((n) => [n.dataset.key, n]));
  const wantedRows = scene.lanes.map((lane) => {
    const row = laneRow(rows, lane, fifo);
    const chips = (lane.items || lane.chips).map((item) => laneItem(boxes, kept, item));
    if (lane.more.count) chips.push(moreNode(row, lane.more));
    row.dataset.empty = String(!chips.length); // collapsed: both trays stay on the screen
    patchChildren(row.lastChild, chips);
    return row;
  });
  patchChildren(f.lanes, wantedRows);

  const title = (box) => box.firstChild;
  const got = transition && transition.got ? [makeChip(transition.got)] : [];
  got.forEach((node) => node.classList.add("mq-lifted"));
  patchChildren(f.out, [title(f.out), ...got]);
  patchChildren(f.tray, [title(f.tray), ...scene.tray.map((c) => reuse(kept, c))]);
  if (scene.reply) {
    setText(title(f.reply), `${scene.reply.queue} · CURDEPTH ${scene.reply.curdepth}`);
    patchChildren(f.reply, [title(f.reply), ...scene.reply.chips.map((c) => reuse(kept, c))]);
    if (!f.reply.parentNode) f.side.appendChild(f.reply);
  } else {
    f.reply.remove();
  }

  if (transition && transition.stop_mark) markStop(root, transition.stop_mark);
  if (transition) {
    for (const id of transition.entering || []) {
      const node = chipNode(root, id);
      if (node) node.classList.add("mq-entering");
    }
  }
}

function chipNode(root, id) {
  return root.querySelector(`.mq-qv-lanes .mq-chip[data-id="${id}"]`);
}

function markStop(root, where) {
  // where = {before: msg id | null, lane: lane of the stop}: the walk stopped just ahead of it
  const mark = el("span", "mq-stop", "walk stopped");
  mark.title = "the get stopped here: expired messages behind this mark were not touched";
  const next = where.before === null ? null : chipNode(root, where.before);
  if (next) {
    next.parentNode.insertBefore(mark, next);
  } else {
    const lanes = root.querySelectorAll(".mq-lane-chips");
    if (lanes.length) lanes[lanes.length - 1].appendChild(mark);
  }
}

// Move `node` into `target` with a FLIP animation (from where it was to where it lands).
function fly(node, target, ms) {
  const from = node.getBoundingClientRect();
  target.appendChild(node);
  if (!ms) return;
  const to = node.getBoundingClientRect();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: ms, easing: "ease-in-out" });
}

// Keep the head's counts true while a walk is played: each discard or get leaves CURDEPTH.
function countDown(root, expired) {
  const depth = root.querySelector(".mq-qv-depth");
  if (!depth) return;
  root.dataset.curdepth = String(Number(root.dataset.curdepth) - 1);
  if (expired) root.dataset.expired = String(Number(root.dataset.expired) - 1);
  depth.textContent =
    `CURDEPTH ${root.dataset.curdepth} · ${root.dataset.expired} expired, not yet discarded`;
}

function applyStep(root, step, ms) {
  const narration = root.querySelector(".mq-qv-narration");
  root.querySelectorAll(".mq-visiting").forEach((n) => n.classList.remove("mq-visiting"));
  const node = step.id === undefined || step.id === null ? null : chipNode(root, step.id);
  const rule = step.rule ? ` (${step.rule})` : "";
  let say = "";
  switch (step.op) {
    case "visit":
      if (node) node.classList.add("mq-visiting");
      say = `the ${root.dataset.walk || "get"} looks at ${step.label}`;
      break;
    case "skip":
      if (node) node.classList.add("mq-skipped");
      say = `${step.label} is passed over: ${step.why}`;
      break;
    case "discard":
      if (node) {
        setState(node, "discarded");
        fly(node, root.querySelector(".mq-qv-tray"), ms);
        countDown(root, true);
      }
      say = `${step.label} has expired: discarded${rule}`;
      break;
    case "discard-more":
      for (let i = 0; i < step.count; i++) countDown(root, true);
      say = `${step.count} more expired message(s) further along discarded${rule}`;
      break;
    case "report": {
      const reply = root.querySelector(".mq-qv-reply");
      const from = root.querySelector(`.mq-qv-tray .mq-chip[data-id="${step.id}"]`);
      const report = makeChip({ id: "r" + step.id, label: "R·" + step.label, lane: 0, priority: 0,
        expiry: -1, deadline_ms: null, state: "report" });
      if (from) from.parentNode.appendChild(report);
      if (reply) fly(report, reply, ms);
      say = `expiration report for ${step.label}: ${step.detail}${rule}`;
      break;
    }
    case "return":
    case "browse":
      if (node) {
        node.classList.add("mq-visiting");
        if (step.op === "return") {
          countDown(root, false);
          setState(node, "got");
          fly(node, root.querySelector(".mq-qv-out"), ms);
        } else {
          node.classList.add("mq-browsed");
        }
      }
      say = `${step.label} is live: ${step.op === "return" ? "returned" : "browsed"}, ` +
        `Expiry = remaining tenths${rule}`;
      break;
    case "stop":
      say = step.id === null
        ? `no live message: reason ${step.reason} (MQRC_NO_MSG_AVAILABLE is 2033)${rule}`
        : `the walk stops at ${node ? node.dataset.label : "the message it returned"}; ` +
          "what lies behind is not looked at";
      break;
    case "sweep":
      for (const id of step.ids) {
        const n = chipNode(root, id);
        if (n) {
          setState(n, "discarded");
          fly(n, root.querySelector(".mq-qv-tray"), ms);
          countDown(root, true);
        }
      }
      say = `the expiry scan discards ${step.ids.length} expired message(s)${rule}`;
      break;
    case "put":
      say = `${step.label} put on ${step.queue}`;
      break;
    default:
      say = "";
  }
  if (narration && say) setRuleText(narration, say, root._rules);
}

function renderQueueView(model, root) {
  let drawn = false; // a scene is on screen, so steps have chips to play on
  let token = 0; // the transition on screen; a newer state replaces it
  let applied = 0; // steps of the current transition shown
  let closing = null; // the timer that draws the final scene after the last step's animation
  let loaded = 0; // the transition (n) whose steps the pacer holds

  function finish(state) {
    const started = performance.now();
    render(root, state.scene, state.transition);
    root.dataset.renderMs = (performance.now() - started).toFixed(1); // read by bench_browser
    root.dataset.transition = String(state.transition ? state.transition.n : 0);
    drawn = true;
  }

  // Tell the kernel the walk has reached its end: the result line reveals the outcome then.
  function reached(transition) {
    if (transition && model.get("finished") !== transition.n) {
      model.set("finished", transition.n);
      model.save_changes();
    }
  }

  // Show the current call with its first k steps done (the pacer's and the Step button's way).
  function goTo(k, animate) {
    const state = model.get("state");
    const transition = state.transition;
    if (!transition || !transition.steps.length) return;
    const mine = token;
    let ms = animate ? paceDelay(model.get("speed")) : 0;
    if (closing) clearTimeout(closing);
    if (k < applied || (k === applied && applied >= transition.steps.length)) {
      // back: the queue as it was before the call, then its steps again up to k, at once
      render(root, transition.before,
        { summary: `${transition.summary} · step ${k} of ${transition.steps.length}`,
          rules: transition.rules });
      applied = 0;
      ms = 0;
    }
    setRules(root, transition.rules);
    while (applied < k) {
      applyStep(root, transition.steps[applied], applied === k - 1 ? Math.min(ms, 600) : 0);
      applied += 1;
    }
    root.dataset.shown = String(applied);
    if (transition.manual && model.get("shown") !== applied) {
      model.set("shown", applied); // Step and Back in the kernel count from here
      model.save_changes();
    }
    if (applied >= transition.steps.length) {
      const done = () => {
        if (mine === token && applied >= transition.steps.length) finish(state);
      };
      if (ms) closing = setTimeout(done, Math.min(ms, 600));
      else done();
      reached(transition);
    }
  }

  const pace = pacer(goTo);

  function play() {
    token += 1;
    loaded = model.get("state").transition ? model.get("state").transition.n : 0;
    if (closing) clearTimeout(closing);
    pace.stop();
    applied = 0;
    const state = model.get("state");
    const transition = state.transition;
    if (!drawn || !transition || !transition.steps.length) {
      finish(state);
      if (!root.contains(pace.box)) root._frame.narration.after(pace.box);
      pace.load(0, 0, 0);
      reached(transition);
      return;
    }
    root.dataset.walk = transition.action || "get";
    setRules(root, transition.rules); // the steps' narration cites this transition's rules
    const delay = paceDelay(model.get("speed"));
    pace.load(transition.steps.length, 0, delay);
    if (transition.manual) {
      pace.to(Math.min(model.get("shown"), transition.steps.length), true);
      return;
    }
    if (!delay || !transition.steps.some((step) => step.op === "stop")) {
      pace.to(transition.steps.length, false); // no walk (a put, a clock tick): nothing to pace
      return;
    }
    pace.to(1, true); // the first step is on screen at once, the rest one per delay
    pace.play();
  }

  function reveal() {
    const transition = model.get("state").transition;
    if (!transition || !transition.manual || model.get("shown") === applied) return;
    if (transition.n !== loaded) return; // a new call: play() loads it (events come in any order)
    pace.stop();
    pace.to(Math.min(model.get("shown"), transition.steps.length), true);
  }

  model.on("change:state", play);
  model.on("change:shown", reveal);
  model.on("change:speed", () => { pace.delay = paceDelay(model.get("speed")); });
  finish(model.get("state"));
  root._frame.narration.after(pace.box);
  return () => {
    token += 1;
    pace.stop();
    if (closing) clearTimeout(closing);
  };
}

// Pacing (Visualgo's): play/pause and a scrubber over the steps of the current call. `go(k)`
// shows the call with its first k steps done; the pacer only decides when and to which k.
const PACE_MS = 900; // one step at normal speed: long enough to read the line it changes

function pacer(go) {
  const box = el("div", "mq-pacer");
  const play = el("button", "mq-play", "▶ Play");
  const pause = el("button", "mq-pause", "❚❚ Pause");
  const scrub = el("input", "mq-step-scrubber");
  const count = el("span", "mq-pacer-count");
  play.type = pause.type = "button";
  play.title = "play the rest of this call's steps";
  pause.title = "hold this step";
  scrub.type = "range";
  scrub.min = "0";
  scrub.step = "1";
  scrub.title = "the steps of the current call: drag to any one";
  scrub.setAttribute("aria-label", "step of the current call");
  box.append(play, pause, scrub, count);
  const p = { box, n: 0, at: 0, delay: PACE_MS, timer: null };
  const show = () => {
    scrub.max = String(p.n);
    scrub.value = String(p.at);
    count.textContent = p.n ? `step ${p.at} of ${p.n}` : "no steps";
    play.disabled = p.at >= p.n || p.timer !== null;
    pause.disabled = p.timer === null;
    box.dataset.playing = String(p.timer !== null);
  };
  p.stop = () => {
    if (p.timer !== null) clearTimeout(p.timer);
    p.timer = null;
    show();
  };
  p.to = (k, animate) => {
    p.at = Math.max(0, Math.min(p.n, k));
    go(p.at, animate);
    show();
  };
  const tick = () => {
    p.timer = null;
    if (p.at >= p.n) return show();
    p.to(p.at + 1, true);
    if (p.at < p.n && p.delay > 0) p.timer = setTimeout(tick, p.delay);
    else if (p.at < p.n) tick();
    show();
  };
  p.play = (now) => {
    p.stop();
    if (p.delay > 0) p.timer = setTimeout(tick, now ? 0 : p.delay);
    else while (p.at < p.n) p.to(p.at + 1, false);
    show();
  };
  p.load = (n, at, delay) => {
    p.stop();
    p.n = n;
    p.at = at;
    p.delay = delay;
    show();
  };
  play.addEventListener("click", () => p.play(true));
  pause.addEventListener("click", () => p.stop());
  const dragged = () => {
    const k = Number(scrub.value); // read first: stop() redraws the scrubber at the old step
    if (k === p.at && p.timer === null) return;
    p.stop();
    p.to(k, false);
  };
  scrub.addEventListener("input", dragged);
  scrub.addEventListener("change", dragged);
  show();
  return p;
}

function paceDelay(speed) {
  if (REDUCED() || !(speed > 0)) return 0;
  return PACE_MS / speed;
}

// Topology view: queue managers as boxes with their queues, channels as tracks between them.
// Chips sit side by side in delivery order everywhere (a channel's too: the first sent is the
// furthest along), each message's two Expiry fields as bars on the scale of its own Expiry
// (c.scale). Buttons send {do: ...} to the kernel. Between two scenes a message that moved
// (same label, another place) glides from where it was to where it is.
//
// A new scene patches what is on screen: the frame, the boxes, the tracks and their buttons are
// built once and kept by name; a chip is kept by its message id and only the attributes, texts
// and bar widths that changed are written; rows are reordered in place (patchChildren). The only
// layout reads are the rects of the few chips that change place (all read before any write,
// then all after), so a click on a deep topology lays out once and paints only what changed.

function setData(node, key, value) {
  if (value === undefined) {
    if (key in node.dataset) delete node.dataset[key];
  } else if (node.dataset[key] !== value) {
    node.dataset[key] = value;
  }
}

function setWidth(node, share) {
  const width = (share * 100).toFixed(1) + "%";
  if (node.style.width !== width) node.style.width = width;
}

function setTitle(node, title) {
  if (node.title !== title) node.title = title;
}

function barShare(value, scale) {
  return value === -1 ? 1 : Math.max(0, Math.min(1, value / scale));
}

// The chip's parts that come and go with its state: the two Expiry bars and the trip bar.
function chipPart(node, cls, wanted, make) {
  let part = node.querySelector(":scope > ." + cls);
  if (!wanted) {
    if (part) part.remove();
    return null;
  }
  if (!part) {
    part = make();
    node.appendChild(part);
  }
  return part;
}

function chipTitle(c) {
  const deadline = c.deadline_ms === null ? "never expires" : "deadline " + seconds(c.deadline_ms);
  const where = c.state === "discarded" ? `discarded from ${c.where}, ran out on ${c.ran_out}`
    : `on ${c.where}`;
  return `${c.label} ${where}: Priority ${c.priority}, Expiry ${expiryText(c)} tenths left, ` +
    `${deadline}; ` + (STATE_TEXT[c.state] || c.state);
}

// Make `node` show chip `c`, writing only what differs from what it shows now.
function patchTopologyChip(node, c) {
  setData(node, "id", String(c.id));
  setData(node, "label", c.label);
  setData(node, "state", c.state);
  setData(node, "lane", String(c.lane));
  setData(node, "expiry", String(c.expiry));
  setData(node, "embeddedExpiry",
    c.embedded_expiry === undefined ? undefined : String(c.embedded_expiry));
  setData(node, "where", c.where);
  const [glyph, label, expiry] = node.children;
  setText(glyph, GLYPH[c.state] || "");
  setText(label, c.label);
  setText(expiry, c.embedded_expiry === undefined ? expiryText(c)
    : `MD ${expiryText(c)} · XQH ${expiryText({ expiry: c.embedded_expiry })}`);
  setTitle(node, chipTitle(c));
  const finite = c.expiry !== -1 || (c.embedded_expiry !== undefined && c.embedded_expiry !== -1);
  const box = chipPart(node, "mq-bars", c.state !== "discarded" && c.state !== "got" && finite,
    () => el("div", "mq-bars"));
  if (box) {
    const scale = c.scale || 1;
    const outer = box.firstChild || box.appendChild(el("div", "mq-bar mq-bar-outer"));
    setWidth(outer, barShare(c.expiry, scale));
    setTitle(outer, `MQMD Expiry ${expiryText(c)} tenths left (decides discard)`);
    let embedded = outer.nextSibling;
    if (c.embedded_expiry === undefined) {
      if (embedded) embedded.remove();
    } else {
      embedded = embedded || box.appendChild(el("div", "mq-bar mq-bar-embedded"));
      setWidth(embedded, barShare(c.embedded_expiry, scale));
      setTitle(embedded,
        `MQXQH's embedded Expiry ${expiryText({ expiry: c.embedded_expiry })} tenths`);
    }
  }
  const trip = chipPart(node, "mq-trip", c.progress !== undefined, () => el("div", "mq-trip"));
  if (trip) {
    setWidth(trip, c.progress);
    setTitle(trip, `${Math.round(c.progress * 100)} % of the way`);
  }
  if (box && trip && box.nextSibling !== trip) node.appendChild(trip); // bars, then the trip
  return node;
}

function topologyChip(c) {
  const node = el("div", "mq-chip mq-chip-wide");
  node.append(el("span", "mq-chip-glyph"), el("span", "mq-chip-label"),
    el("span", "mq-chip-expiry"));
  return patchTopologyChip(node, c);
}

// The chip nodes on screen by message id, for the next scene to reuse (one node, one place).
function chipPool(root) {
  const pool = new Map();
  for (const node of root.querySelectorAll(".mq-topo .mq-chip")) {
    const id = node.dataset.id;
    if (!pool.has(id)) pool.set(id, []);
    pool.get(id).push(node);
  }
  return pool;
}

function takeChip(pool, c) {
  const nodes = pool.get(String(c.id));
  const node = nodes && nodes.length ? nodes.shift() : null;
  return node ? patchTopologyChip(node, c) : topologyChip(c);
}

function button(cls, text, title, data, send) {
  const b = el("button", cls, text);
  b.type = "button";
  b.title = title;
  Object.assign(b.dataset, data);
  b.addEventListener("click", () => send({ do: b.dataset.do, ...data }));
  return b;
}

// `row`'s children: the chips of `chips`, then a "+N more" chip when some are folded.
function patchChipRow(row, chips, more, pool) {
  const wanted = chips.map((c) => takeChip(pool, c));
  if (more && more.count) {
    const text = `+${more.count} more (${more.expired} expired)`;
    const node = row.querySelector(":scope > .mq-more") || el("span", "mq-more");
    setText(node, text);
    setData(node, "count", String(more.count));
    wanted.push(node);
  }
  patchChildren(row, wanted);
}

function channelTrack(ch, send) {
  const track = el("div", "mq-channel");
  track.dataset.channel = ch.name;
  const head = el("div", "mq-channel-label");
  const name = el("span", "mq-channel-name");
  // one arrow per layout, the stylesheet shows the one that points at the target's box:
  // across in a row of queue managers, down or up when they are stacked (views.css)
  const across = el("span", "mq-channel-arrow mq-arrow-across");
  const stacked = el("span", "mq-channel-arrow mq-arrow-stacked");
  const words = el("span", "");
  name.append(across, stacked, words);
  const toggle = button("", "", "", { channel: ch.name }, send);
  head.append(name, toggle);
  const lane = el("div", "mq-topo-chips mq-channel-track");
  track.append(head, lane);
  track._parts = { name, across, stacked, words, toggle, lane };
  return track;
}

function patchChannel(track, ch, pool) {
  const { name, across, stacked, words, toggle, lane } = track._parts;
  const forward = ch.toward === "next"; // toward the box drawn after its source
  setData(track, "running", String(ch.running));
  setData(track, "toward", ch.toward);
  setText(across, forward ? "→ " : "← ");
  setText(stacked, forward ? "↓ " : "↑ ");
  setText(words, `${ch.name} · ${ch.running ? "RUNNING" : "STOPPED"} · ` +
    `${(ch.latency_ms / 1000).toFixed(1)} s on the way`);
  setTitle(name, `from ${ch.from} to ${ch.to}`);
  const verb = ch.running ? "stop" : "start";
  const cls = `mq-channel-${verb} mq-channel-toggle`;
  if (toggle.className !== cls) toggle.className = cls;
  setText(toggle, `${verb.toUpperCase()} CHANNEL`);
  setTitle(toggle, `${verb} the channel from ${ch.from} to ${ch.to}`);
  setData(toggle, "do", verb);
  lane.classList.toggle("mq-rightward", forward); // the first sent, furthest along: on the right
  patchChipRow(lane, ch.in_flight, ch.more, pool);
}

function qmgrBox(qm, send) {
  const box = el("div", "mq-qmgr");
  box.dataset.qmgr = qm.name;
  const head = el("div", "mq-qmgr-name");
  const name = el("span", "");
  const scan = button("mq-scan", "", "discard every expired message on this queue " +
    "manager's queues now, with reports (EXP-28)", { qmgr: qm.name, do: "scan" }, send);
  head.append(name, scan);
  const out = el("div", "mq-qv-box mq-qv-out");
  out.append(el("div", "mq-qv-box-title", "returned by the last MQGET"));
  const tray = el("div", "mq-qv-box mq-qv-tray");
  tray.append(el("div", "mq-qv-box-title", "discarded (gone for good)"));
  box.append(head, out, tray);
  box._parts = { name, scan, out, tray, queues: new Map() };
  return box;
}

function queueBox(qm, q, send) {
  const queue = el("div", "mq-topo-queue");
  queue.dataset.queue = q.name;
  const title = el("div", "mq-qv-box-title");
  const name = el("span", "");
  const get = button("mq-get", "MQGET", `MQGET from ${q.name} (no wait, no syncpoint)`,
    { qmgr: qm.name, queue: q.name, do: "get" }, send);
  title.append(name, get);
  const row = el("div", "mq-topo-chips");
  queue.append(title, row);
  queue._parts = { name, row };
  return queue;
}

function patchQmgr(box, qm, pool, send) {
  const p = box._parts;
  setText(p.name, `${qm.name} (${qm.profile})`);
  setText(p.scan, qm.scan);
  const queues = qm.queues.map((q) => {
    const queue = p.queues.get(q.name) || queueBox(qm, q, send);
    p.queues.set(q.name, queue);
    setText(queue._parts.name, `${q.xmitq ? "transmission queue " : ""}${q.name} · ` +
      `CURDEPTH ${q.curdepth}`);
    patchChipRow(queue._parts.row, q.chips, q.more, pool);
    return queue;
  });
  patchChildren(box, [box.firstChild, ...queues, p.out, p.tray]);
  const title = (node) => node.firstChild;
  patchChildren(p.out, [title(p.out), ...(qm.got ? [takeChip(pool, qm.got)] : [])]);
  patchChildren(p.tray, [title(p.tray), ...qm.tray.map((c) => takeChip(pool, c))]);
}

// Where each chip of `scene` will be (label -> where), to find the ones that change place.
function placesIn(scene) {
  const at = new Map();
  const put = (c) => {
    if (c.state !== "discarded") at.set(c.label, c.where);
  };
  for (const qm of scene.qmgrs) {
    for (const q of qm.queues) q.chips.forEach(put);
    if (qm.got) put(qm.got);
  }
  for (const ch of scene.channels) ch.in_flight.forEach(put);
  return at;
}

// The rects of the chips on screen whose label will be somewhere else in `scene` (read before
// any write: one layout, and only these few chips measured).
function movers(body, scene) {
  const next = placesIn(scene);
  const from = new Map();
  for (const node of body.querySelectorAll(".mq-chip")) {
    const label = node.dataset.label;
    if (node.dataset.state === "discarded" || !next.has(label)) continue;
    if (next.get(label) === node.dataset.where) continue;
    // a glide still running ends now: measure where the chip is, not where it is passing
    if (node.getAnimations) node.getAnimations().forEach((a) => a.finish());
    from.set(label, node.getBoundingClientRect());
  }
  return from;
}

// Only a chip that moved to another queue, channel or box glides (a shift along its row
// does not): few animations, so a click still paints at once on a deep topology.
function glide(body, from, ms) {
  if (!ms || !from.size) return;
  const moved = [];
  for (const node of body.querySelectorAll(".mq-chip")) {
    if (node.dataset.state === "discarded") continue;
    const rect = from.get(node.dataset.label);
    if (rect) moved.push([node, rect, null]);
  }
  for (const m of moved) m[2] = m[0].getBoundingClientRect(); // all reads, then all writes
  for (const [node, a, b] of moved) {
    const dx = a.left - b.left;
    const dy = a.top - b.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: ms, easing: "ease-in-out" });
  }
}

function renderTopology(model, root) {
  const send = (msg) => model.send(msg);
  const head = el("div", "mq-qv-head");
  const clock = el("span", "mq-qv-clock");
  head.append(clock, el("span", "mq-qv-where",
    "bars: solid = MQMD Expiry (decides discard), striped = MQXQH Expiry; full width = the " +
    "message's Expiry when first seen"));
  const caption = el("div", "mq-qv-narration mq-ruled");
  const stepLine = el("div", "mq-qv-step mq-ruled");
  const body = el("div", "mq-topo");
  const boxes = new Map(); // queue manager name -> its box
  const tracks = new Map(); // channel name -> its track
  const betweens = new Map(); // "QM1|QM2" -> the column of channels between two boxes
  let steps = [];
  const go = (k) => {
    body.querySelectorAll(".mq-visiting").forEach((n) => n.classList.remove("mq-visiting"));
    const step = steps[k - 1];
    if (!step) {
      setText(stepLine, steps.length ? "press ▶ Play or drag the steps to follow this call" : "");
      return;
    }
    setRuleText(stepLine, `${k}. ${step.say}`, root._rules);
    const node = body.querySelector(`.mq-chip[data-id="${step.id}"]`);
    if (node) node.classList.add("mq-visiting");
  };
  const pace = pacer(go);
  root.replaceChildren(head, caption, pace.box, stepLine, body);
  let drawn = null;
  const draw = () => {
    const scene = model.get("state");
    const started = performance.now();
    const delay = paceDelay(model.get("speed"));
    const gliding = drawn !== null && drawn !== scene.n && delay > 0;
    const from = gliding ? movers(body, scene) : new Map();
    body.querySelectorAll(".mq-visiting").forEach((n) => n.classList.remove("mq-visiting"));
    setText(clock, "now " + seconds(scene.now_ms));
    setRules(root, scene.rules);
    setRuleText(caption, scene.caption || "", root._rules);
    const pool = chipPool(body);
    const wanted = [];
    scene.qmgrs.forEach((qm, i) => {
      if (i > 0) {
        const left = scene.qmgrs[i - 1].name;
        const key = `${left}|${qm.name}`;
        const between = betweens.get(key) || el("div", "mq-topo-channels");
        betweens.set(key, between);
        const here = scene.channels.filter((ch) => {
          const pair = [ch.from, ch.to];
          return pair.includes(qm.name) && pair.includes(left);
        }).map((ch) => {
          const track = tracks.get(ch.name) || channelTrack(ch, send);
          tracks.set(ch.name, track);
          patchChannel(track, ch, pool);
          return track;
        });
        patchChildren(between, here);
        wanted.push(between);
      }
      const box = boxes.get(qm.name) || qmgrBox(qm, send);
      boxes.set(qm.name, box);
      patchQmgr(box, qm, pool, send);
      wanted.push(box);
    });
    patchChildren(body, wanted);
    root.dataset.renderMs = (performance.now() - started).toFixed(1); // read by bench_browser
    root.dataset.transition = String(scene.n || 0);
    if (gliding) glide(body, from, Math.min(delay, 700));
    drawn = scene.n;
    steps = scene.steps || [];
    pace.load(steps.length, 0, delay);
    if (steps.length) {
      pace.to(1, true);
      if (steps.length > 1) pace.play();
    } else {
      go(0);
    }
  };
  model.on("change:state", draw);
  draw();
  return () => pace.stop();
}

function renderText(model, root) {
  root.className = "mq-text";
  const line = el("div", "mq-text-line mq-ruled");
  root.appendChild(line);
  const draw = () => {
    setRules(root, model.get("rules"));
    setRuleText(line, model.get("value"), root._rules);
  };
  model.on("change:value", draw);
  model.on("change:rules", draw);
  draw();
  return () => {};
}

export default {
  render({ model, el: host }) {
    const root = document.createElement("div");
    root.className = "mq-qv";
    host.appendChild(root);
    ruleCards(root);
    if (model.get("view") === "text") return renderText(model, root);
    if (model.get("view") === "topology") return renderTopology(model, root);
    return renderQueueView(model, root);
  },
};
