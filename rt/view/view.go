// Package view renders a finding as a self-contained HTML page: one lane
// per goroutine with its events in order and their source lines, the two
// accesses of a data race joined by a line (nothing orders them), "waits
// for" arrows between the goroutines of a deadlock, the points where the
// schedule preempted a goroutine that could have gone on, and the source
// around each event. The page needs no network and no build step: its data
// is JSON inside the page and a short script lays it out.
//
// The test binary makes the page of a finding, and puts the same data in
// the finding's schedule file (wire.Schedule.View), from which
// "interleave view FILE" renders the page again, anywhere: the package is
// not internal so that the command can.
package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"strings"
)

// Page is what the page shows.
type Page struct {
	Test     string `json:"test"`
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Schedule string `json:"schedule,omitempty"` // the schedule file
	Report   string `json:"report"`             // the text report printed under the test

	Goroutines []Goroutine `json:"goroutines"`
	Events     []Event     `json:"events"`
	// Dropped counts the earlier events of the run that are not shown.
	Dropped int `json:"dropped"`
	// Sources holds source lines around the events: file, then line
	// number (as a string, a JSON object key), then text.
	Sources map[string]map[string]string `json:"sources"`
}

// Goroutine is one lane.
type Goroutine struct {
	ID       int32  `json:"id"`
	Main     bool   `json:"main,omitempty"`
	Status   string `json:"status,omitempty"` // at the end of the run, for those the finding names
	At       string `json:"at,omitempty"`
	Started  string `json:"started,omitempty"`
	WaitsFor int32  `json:"waitsFor,omitempty"` // the goroutine holding what it waits for
}

// Event is one executed event.
type Event struct {
	G    int32  `json:"g"` // 0: a timer fired
	Op   string `json:"op"`
	Obj  string `json:"obj,omitempty"`
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Preempt marks an event that ran while the goroutine of the event
	// before it could have gone on: a choice of the schedule, not the
	// obvious order.
	Preempt bool `json:"preempt,omitempty"`
	// Race marks the two accesses of a data race ("earlier", "later").
	Race string `json:"race,omitempty"`
}

// Render returns the page.
func Render(p *Page) ([]byte, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("view: encoding the page data: %w", err)
	}
	// Inside <script>, "</" must not appear; JSON allows escaping it.
	js := strings.ReplaceAll(string(data), "</", `<\/`)
	var b bytes.Buffer
	title := html.EscapeString(p.Kind + " in " + p.Test)
	fmt.Fprintf(&b, head, title)
	fmt.Fprintf(&b, "<script id=\"data\" type=\"application/json\">%s</script>\n", js)
	b.WriteString(body)
	return b.Bytes(), nil
}

const head = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>interleave: %s</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 12px 20px; background: #f4f4f6; border-bottom: 1px solid #ddd; }
header h1 { font-size: 18px; margin: 0 0 4px; }
header .kind { color: #b00020; }
header code, .src, .report { font-family: ui-monospace, monospace; font-size: 12px; }
main { display: flex; align-items: flex-start; }
#timeline { position: relative; padding: 12px 20px; overflow-x: auto; flex: 1; }
#grid { display: grid; gap: 2px 8px; position: relative; width: max-content; }
.lanehead, .ev, .status { min-width: 200px; box-sizing: border-box; }
.lanehead { font-weight: 600; position: sticky; top: 0; background: #fff; padding: 4px; border-bottom: 2px solid #888; }
.ev { border: 1px solid #ccd; border-radius: 4px; padding: 2px 6px; background: #fafaff; cursor: pointer; white-space: nowrap; font-size: 12px; }
.ev .at { color: #666; margin-left: 6px; }
.ev.preempt { border-left: 4px solid #e69500; }
.ev.race { border: 2px solid #b00020; background: #fff0f0; }
.ev.sel { outline: 2px solid #3366ff; }
.status { font-size: 12px; padding: 4px; border-top: 2px solid #888; color: #444; margin-bottom: 60px; max-width: 260px; }
.status.blocked { color: #b00020; }
#side { width: 42%%; max-width: 640px; padding: 12px 20px; border-left: 1px solid #ddd; position: sticky; top: 0; max-height: 100vh; overflow: auto; }
.src { white-space: pre; background: #f7f7f7; padding: 6px; border-radius: 4px; }
.src .hl { background: #fff3b0; display: block; }
.report { white-space: pre-wrap; }
.legend span { margin-right: 14px; font-size: 12px; }
svg#arrows { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
</style>
</head>
<body>
`

const body = `<header>
<h1><span class="kind" id="kind"></span> in <span id="test"></span></h1>
<div id="message"></div>
<div id="replay"></div>
<div class="legend"><span>&#9646; <b style="color:#e69500">orange edge</b>: the schedule preempted a goroutine that could have gone on</span><span><b style="color:#b00020">red</b>: the accesses of the race, which nothing orders</span><span>&#8594; waits for</span></div>
</header>
<main>
<div id="timeline"><div id="grid"></div><svg id="arrows"></svg></div>
<div id="side"><h3>Source</h3><div id="source">Click an event to see its source.</div><h3>Report</h3><div class="report" id="report"></div></div>
</main>
<script>
"use strict";
const page = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
$("kind").textContent = page.kind;
$("test").textContent = page.test;
$("message").textContent = page.message;
if (page.schedule) $("replay").textContent = "interleave replay " + page.schedule;
$("report").textContent = page.report;

const ids = [];
const seen = new Set();
for (const g of page.goroutines) { if (!seen.has(g.id)) { seen.add(g.id); ids.push(g.id); } }
for (const e of page.events) { if (!seen.has(e.g)) { seen.add(e.g); ids.push(e.g); } }
ids.sort((a, b) => (a === 0 ? 1e9 : a) - (b === 0 ? 1e9 : b));
const col = new Map(ids.map((id, i) => [id, i + 1]));
const info = new Map(page.goroutines.map((g) => [g.id, g]));
const grid = $("grid");
grid.style.gridTemplateColumns = "repeat(" + ids.length + ", max-content)";

function cell(cls, text, c, r) {
  const d = document.createElement("div");
  d.className = cls;
  d.textContent = text;
  d.style.gridColumn = c;
  d.style.gridRow = r;
  grid.appendChild(d);
  return d;
}
for (const id of ids) {
  const g = info.get(id);
  let name = id === 0 ? "timers" : "goroutine " + id;
  if (g && g.main) name += " (test)";
  const h = cell("lanehead", name, col.get(id), 1);
  h.dataset.g = id;
  if (g && g.started) h.title = "started at " + g.started;
}
if (page.dropped > 0) {
  const d = cell("status", "(" + page.dropped + " earlier events not shown)", "1 / -1", 2);
}
const evEls = [];
page.events.forEach((e, i) => {
  const d = cell("ev", "", col.get(e.g), i + 3);
  d.classList.toggle("preempt", !!e.preempt);
  d.classList.toggle("race", !!e.race);
  const what = document.createElement("span");
  what.textContent = e.op + (e.obj ? " " + e.obj : "");
  d.appendChild(what);
  if (e.file) {
    const at = document.createElement("span");
    at.className = "at";
    at.textContent = base(e.file) + ":" + e.line;
    d.appendChild(at);
  }
  if (e.race) d.title = e.race + " access of the race";
  else if (e.preempt) d.title = "the schedule switched here while the goroutine before could have gone on";
  d.addEventListener("click", () => show(e, d));
  evEls.push(d);
});
const statusEls = new Map();
const last = page.events.length + 3;
for (const id of ids) {
  const g = info.get(id);
  if (!g || !g.status) continue;
  const s = cell("status" + (/^blocked/.test(g.status) ? " blocked" : ""), g.status + (g.at ? " at " + base(g.at) : ""), col.get(id), last);
  statusEls.set(id, s);
}

function base(f) { const i = f.lastIndexOf("/"); return i < 0 ? f : f.slice(i + 1); }
function show(e, el) {
  for (const x of document.querySelectorAll(".ev.sel")) x.classList.remove("sel");
  el.classList.add("sel");
  const src = $("source");
  src.textContent = "";
  const hdr = document.createElement("div");
  hdr.textContent = (e.g === 0 ? "timer" : "goroutine " + e.g) + ": " + e.op + (e.obj ? " " + e.obj : "") + (e.file ? " at " + e.file + ":" + e.line : "");
  src.appendChild(hdr);
  const lines = (page.sources[e.file] || {});
  const pre = document.createElement("div");
  pre.className = "src";
  for (let n = e.line - 3; n <= e.line + 3; n++) {
    if (!(String(n) in lines)) continue;
    const l = document.createElement("span");
    l.textContent = String(n).padStart(5) + "  " + lines[String(n)] + "\n";
    if (n === e.line) l.className = "hl";
    pre.appendChild(l);
  }
  if (pre.childNodes.length === 0) pre.textContent = "(source not available)";
  src.appendChild(pre);
}

// Arrows: the race pair, and waits-for between blocked goroutines.
function center(el, side) {
  const g = grid.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return { x: r.left - g.left + (side === "left" ? 0 : side === "right" ? r.width : r.width / 2), y: r.top - g.top + r.height / 2 };
}
function arrow(svg, a, b, color, dashed, bend) {
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  const mx = (a.x + b.x) / 2, my = Math.max(a.y, b.y) + bend;
  path.setAttribute("d", "M" + a.x + "," + a.y + " Q" + mx + "," + my + " " + b.x + "," + b.y);
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", color); path.setAttribute("stroke-width", "2");
  if (dashed) path.setAttribute("stroke-dasharray", "5,4");
  path.setAttribute("marker-end", "url(#head-" + color.slice(1) + ")");
  svg.appendChild(path);
}
function bottom(el, dx) {
  const g = grid.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return { x: r.left - g.left + r.width / 2 + dx, y: r.bottom - g.top };
}
function draw() {
  const svg = $("arrows");
  const gr = grid.getBoundingClientRect();
  svg.setAttribute("width", gr.width);
  svg.setAttribute("height", gr.height);
  svg.style.left = grid.offsetLeft + "px";
  svg.style.top = grid.offsetTop + "px";
  svg.innerHTML = '<defs><marker id="head-b00020" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#b00020"/></marker><marker id="head-3366ff" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#3366ff"/></marker></defs>';
  const race = page.events.map((e, i) => [e, i]).filter(([e]) => e.race);
  if (race.length === 2) {
    const a = evEls[race[0][1]], b = evEls[race[1][1]];
    const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
    const right = rb.left > ra.left;
    arrow(svg, center(a, right ? "right" : "left"), center(b, right ? "left" : "right"), "#b00020", true, 0);
  }
  for (const [id, s] of statusEls) {
    const g = info.get(id);
    const to = statusEls.get(g.waitsFor);
    if (g.waitsFor && to) {
      // Below the status row, curving down: an arrow and its reverse (a
      // cycle of two) stay apart.
      const fwd = col.get(g.waitsFor) > col.get(id);
      arrow(svg, bottom(s, fwd ? 10 : -10), bottom(to, fwd ? -10 : 10), "#3366ff", false, fwd ? 30 : 55);
    }
  }
}
draw();
window.addEventListener("resize", draw);
const first = page.events.findIndex((e) => e.race);
if (page.events.length > 0) {
  const i = first >= 0 ? first : page.events.length - 1;
  show(page.events[i], evEls[i]);
}
</script>
</body>
</html>
`
