"use strict";
// The page of the job server: the job list, a job's ranks and live logs, its artifacts, and its
// plan report drawn as pictures (each operator's strategy as a device grid, the pipeline timeline)
// and, for a plan (a dry run), each rank's memory.
const params = new URLSearchParams(location.hash.slice(1));
let token = params.get("token") || sessionStorage.getItem("msjvm-token") || "";
let selected = params.get("job");
let logTimer = null;
document.getElementById("token").value = token;
document.getElementById("save").onclick = () => {
  token = document.getElementById("token").value;
  sessionStorage.setItem("msjvm-token", token);
  refresh();
};

async function api(path, text) {
  const r = await fetch(path, { headers: { Authorization: "Bearer " + token } });
  if (!r.ok) { throw new Error(path + ": HTTP " + r.status); }
  return text ? r.text() : r.json();
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
  children.forEach(c => e.append(c));
  return e;
}

async function refresh() {
  try {
    const jobs = await api("/v1/jobs");
    const body = document.querySelector("#jobs tbody");
    body.replaceChildren(...jobs.slice().reverse().map(j => {
      const row = el("tr", { class: "job", "data-id": j.id },
        el("td", {}, j.id), el("td", { class: j.state }, j.state), el("td", {}, String(j.workers)),
        el("td", {}, j.created || ""), el("td", {}, j.reason || ""));
      row.onclick = () => { selected = j.id; showJob(); };
      return row;
    }));
    document.getElementById("status").textContent = jobs.length + " jobs";
    if (selected && !document.getElementById("detail").dataset.id) { showJob(); }
  } catch (e) {
    document.getElementById("status").textContent = String(e);
  }
}

async function showJob() {
  const id = selected;
  const detail = document.getElementById("detail");
  detail.dataset.id = id;
  const job = await api("/v1/jobs/" + id);
  const ranks = el("table", { id: "ranks" }, el("tr", {}, el("th", {}, "rank"), el("th", {}, "exit code")),
    ...job.ranks.map(r => el("tr", {}, el("td", {}, String(r.rank)),
      el("td", {}, r.exitCode === null ? "" : String(r.exitCode)))));
  const logs = el("section", {}, el("h3", {}, "logs"));
  for (const r of job.ranks) {
    logs.append(el("h4", {}, "rank " + r.rank), el("pre", { class: "log", id: "log-" + r.rank }));
  }
  const artifacts = await api("/v1/jobs/" + id + "/artifacts");
  const list = el("ul", { id: "artifacts" }, ...artifacts.map(a => el("li", {}, a)));
  const pictures = el("section", { id: "plan" }, el("h3", {}, "plan"));
  detail.replaceChildren(el("h2", {}, "job " + id + " ", el("span", { class: job.state }, job.state)),
    ranks, logs, el("h3", {}, "artifacts"), list, pictures);
  await drawPlan(id, artifacts, pictures);
  if (logTimer) { clearInterval(logTimer); }
  const pull = async () => {
    for (const r of job.ranks) {
      document.getElementById("log-" + r.rank).textContent = await api("/v1/jobs/" + id + "/logs/" + r.rank, true);
    }
  };
  await pull();
  logTimer = setInterval(pull, 1000);
}

// "MatMul #3 strategy ((2, 1), (1, 1)) inputs [...] outputs [...]" lines of a plan report.
function parsePlan(text) {
  const ops = [];
  for (const line of text.split("\n")) {
    const m = line.match(/^(\S+) #(\d+)( \(backward\))? strategy (\(.*?\)\)?) inputs/);
    if (m) { ops.push({ op: m[1], node: +m[2], backward: !!m[3], strategy: m[4] }); }
  }
  return ops;
}

// One operator's strategy as grids: a row of boxes per input, each split as its strategy says.
function strategySvg(op) {
  const dims = [...op.strategy.matchAll(/\(([\d, ]+)\)/g)].map(m => m[1].split(",").map(Number));
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "strategy");
  svg.setAttribute("width", 60 * Math.max(1, dims.length) + 10);
  svg.setAttribute("height", 50);
  dims.forEach((d, i) => {
    const rows = d[0] || 1, cols = d.length > 1 ? d[1] : 1;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const rect = document.createElementNS(svg.namespaceURI, "rect");
        rect.setAttribute("x", 5 + i * 60 + c * 50 / cols);
        rect.setAttribute("y", 5 + r * 40 / rows);
        rect.setAttribute("width", 50 / cols);
        rect.setAttribute("height", 40 / rows);
        rect.setAttribute("fill", `hsl(${(r * cols + c) * 47 % 360}, 60%, 75%)`);
        rect.setAttribute("stroke", "#555");
        svg.append(rect);
      }
    }
  });
  return svg;
}

// A pipeline timeline (Chrome trace of one rank): one bar per block, F blue, B green, waits grey.
function timelineSvg(traces) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "timeline");
  const width = 800, row = 22;
  const end = Math.max(...traces.flatMap(t => t.traceEvents.filter(e => e.ph === "X").map(e => e.ts + e.dur)), 1);
  svg.setAttribute("width", width + 120);
  svg.setAttribute("height", row * traces.length + 10);
  traces.forEach((t, i) => {
    const label = document.createElementNS(svg.namespaceURI, "text");
    label.setAttribute("x", 2);
    label.setAttribute("y", 5 + i * row + 14);
    label.textContent = "rank " + t.otherData.rank + " (stage " + t.otherData.stage + ")";
    svg.append(label);
    for (const e of t.traceEvents.filter(e => e.ph === "X")) {
      const rect = document.createElementNS(svg.namespaceURI, "rect");
      rect.setAttribute("x", 110 + e.ts / end * width);
      rect.setAttribute("y", 5 + i * row);
      rect.setAttribute("width", Math.max(1, e.dur / end * width));
      rect.setAttribute("height", row - 4);
      rect.setAttribute("class", "block " + e.name);
      rect.setAttribute("fill", e.name[0] === "F" ? "#6af" : e.name[0] === "B" ? "#6c6" : "#ccc");
      const title = document.createElementNS(svg.namespaceURI, "title");
      title.textContent = e.name + " " + e.dur.toFixed(0) + " us";
      rect.append(title);
      svg.append(rect);
    }
  });
  return svg;
}

async function drawPlan(id, artifacts, into) {
  const plans = artifacts.filter(a => /^rank_0\/parallel_plan_.*\.txt$/.test(a));
  for (const p of plans) {
    const ops = parsePlan(await api("/v1/jobs/" + id + "/artifacts/" + p, true)).filter(o => !o.backward);
    const table = el("table", { class: "ops" }, el("tr", {}, el("th", {}, "operator"), el("th", {}, "strategy"),
      el("th", {}, "device grid")));
    for (const o of ops) {
      const cell = el("td", {});
      cell.append(strategySvg(o));
      table.append(el("tr", {}, el("td", {}, o.op + " #" + o.node), el("td", {}, o.strategy), cell));
    }
    into.append(el("h4", {}, p), table);
  }
  // A dry run's (a POST /v1/plan's) memory per rank: dryrun_memory/rank_<r>.json.
  const memories = artifacts.filter(a => /^dryrun_memory\/rank_\d+\.json$/.test(a));
  if (memories.length) {
    const rows = [];
    for (const m of memories) { rows.push(await api("/v1/jobs/" + id + "/artifacts/" + m)); }
    rows.sort((a, b) => a.rank - b.rank);
    const mib = b => (b / 1048576).toFixed(1);
    into.append(el("h4", {}, "memory per rank (dry run of " + rows[0].rank_size + " ranks, MiB)"),
      el("table", { class: "memory" },
        el("tr", {}, ...["rank", "parameters", "optimizer states", "inputs", "activations at the peak",
          "used peak"].map(h => el("th", {}, h))),
        ...rows.map(r => el("tr", {}, el("td", {}, String(r.rank)), el("td", {}, mib(r.parameter_bytes)),
          el("td", {}, mib(r.optimizer_state_bytes)), el("td", {}, mib(r.input_bytes)),
          el("td", {}, mib(r.peak_activation_bytes)), el("td", {}, mib(r.used_peak_bytes))))));
  }
  const timelines = artifacts.filter(a => /^rank_\d+\/pipeline_timeline_.*\.json$/.test(a));
  if (timelines.length) {
    const traces = [];
    for (const t of timelines) { traces.push(await api("/v1/jobs/" + id + "/artifacts/" + t)); }
    traces.sort((a, b) => a.otherData.rank - b.otherData.rank);
    into.append(el("h4", {}, "pipeline timeline (measured bubble " +
      traces.map(t => t.otherData.bubble.toFixed(2)).join(", ") + ")"));
    into.append(timelineSvg(traces));
  }
}

refresh();
setInterval(refresh, 2000);
