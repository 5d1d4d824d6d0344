// Turns the measured figures into the markdown the run prints and writes to BENCHMARKS.md.

import { DEPTHS } from "./harness.js";

const BEGIN = "<!-- bench:begin -->";
const END = "<!-- bench:end -->";

const group = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Items per second, to 3 significant figures: "1.23 M", "290 k". */
export function rate(x) {
  if (!Number.isFinite(x)) return "—";
  if (x >= 1e6) return `${(x / 1e6).toPrecision(3)} M`;
  if (x >= 1e3) return `${(x / 1e3).toPrecision(3)} k`;
  return x.toPrecision(3);
}

/** Milliseconds as µs (≥ 10 µs: integers), or ms past 10 ms. */
export function us(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const u = ms * 1000;
  if (u >= 10_000) return `${group(ms, 1)} ms`;
  return u >= 10 ? `${group(u)} µs` : `${u.toFixed(1)} µs`;
}

const ratio = (x) => (Number.isFinite(x) ? (x >= 10 ? `${group(x)}×` : x >= 1 ? `${x.toFixed(2)}×` : `${x.toPrecision(2)}×`) : "—");
const bytes = (n) => (n >= 1e6 ? `${(n / 1048576).toFixed(2)} MiB` : `${group(n / 1000, 1)} kB`);
const cell = (d) => (d ? `${us(d.median)} / ${us(d.p99)}` : "—");
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const configName = (c) => `page ${c.pageSize}, ${Math.round(c.selectivity * 100)}%`;

/** The one table of figures. */
export function figuresTable(run) {
  const { params, configs, asyncRun, codec, memory, init, sizes } = run;
  const rows = [["figure", "kubeapps-pager", "hand-written JS pager", "dashboard today", "bare loop"]];
  for (const { config, result: r } of configs) {
    rows.push([`**${configName(config)}** (${group(r.pages)} pages, ${group(r.emitted)} items shown)`, "", "", "", ""]);
    rows.push(["items/s (read from the sources)", rate(r.wasm.itemsPerSec), rate(r.js.itemsPerSec), `${rate(r.dashboard.itemsPerSec)} †`, rate(r.bare.itemsPerSec)]);
    rows.push([
      "pager ÷ contender, items/s",
      "1",
      ratio(r.wasm.itemsPerSec / r.js.itemsPerSec),
      ratio(r.wasm.itemsPerSec / r.dashboard.itemsPerSec),
      ratio(r.wasm.itemsPerSec / r.bare.itemsPerSec),
    ]);
    const split = (x) => `${x.feedUsPerItem.toFixed(2)} µs; ${us(x.restUsPerPage / 1000)} (${Math.round(x.feedShare * 100)}% in feed)`;
    rows.push(["time split (one warm walk): `feed` per item read; the rest per page, mean", split(r.wasm.split), split(r.js.split), "", ""]);
    DEPTHS.forEach((d, i) => {
      const dash = r.dashboard.depth[i];
      rows.push([
        `page ${group(d)}: median / p99`,
        cell(r.wasm.depth[i]),
        cell(r.js.depth[i]),
        dash ? `${cell(dash)} (${group(dash.loaded)} loaded)` : "—",
        "—",
      ]);
    });
  }
  rows.push(["**other figures**", "", "", "", ""]);
  rows.push([
    `\`nextPage\`, async fetch (${configName(asyncRun.config)}): items/s; page median / p99`,
    `${rate(asyncRun.itemsPerSec)}; ${us(asyncRun.pageMedian)} / ${us(asyncRun.pageP99)}`,
    "", "", "",
  ]);
  if (run.flatControl) {
    rows.push([
      "control: page 20, 100%, every list by offsets (no continue token): page 1 / page 5,000 median",
      `${us(run.flatControl.page1)} / ${us(run.flatControl.page5000)}`,
      "", "", "",
    ]);
  }
  rows.push([
    `wasm linear memory: after init → after ${group(memory.emitted)} items (one pager, page ${memory.pageSize})`,
    `${bytes(memory.before)} → ${bytes(memory.after)}`,
    "", "", "",
  ]);
  rows.push([`\`init()\`: median of ${init.loads.length} page loads (first load)`, `${us(init.median)} (${us(init.loads[0])})`, "", "", ""]);
  rows.push([
    `page token (3 sources): decode / encode per call`,
    `${us(codec.wasm.decodeUs / 1000)} / ${us(codec.wasm.encodeUs / 1000)} (${codec.wasm.tokenChars} chars)`,
    `${us(codec.js.decodeUs / 1000)} / ${us(codec.js.encodeUs / 1000)} (${codec.js.tokenChars} chars)`,
    "", "",
  ]);
  for (const f of sizes.files) rows.push([`size: ${f.file} raw / gzip -9`, `${bytes(f.raw)} / ${bytes(f.gzip)}`, "", "", ""]);
  rows.push(["size: wasm + glue, gzip -9", bytes(sizes.totalGzip), "", "", ""]);
  return (
    markdownTable(rows) +
    `\n† Dashboard items/s over its first ${group(configs[0].result.dashboard.prefixPages)} pages (fewer when the list has fewer): its per-page cost grows with` +
    ` everything loaded, so a whole walk would take minutes. Its per-page rows start with every earlier page loaded. kB = 1,000 bytes.\n` +
    `\nPer-page times (page driven to ready + \`takePage\`, token included): ${params.window} pages around each depth (page 1: the first ${params.window}) ` +
    `× ${params.depthReps} walk(s) of ${params.replicas} lockstep replicas (identical pagers taking page k in turn; sample = time ÷ ${params.replicas}, ` +
    `since the timer ticks at 5 µs); dashboard: ${params.dashboardWindow} single pages. "—": the list has fewer pages. ` +
    `Items/s: median of ${params.reps} whole walks per contender, interleaved (bare loop: ${params.reps} × 5 passes).\n`
  );
}

function markdownTable(rows) {
  const [head, ...body] = rows;
  const line = (r) => `| ${r.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...body.map(line)].join("\n") + "\n";
}

/** Each target beside the measured value. */
export function targetsTable(targets) {
  const rows = [["target", "measured", "met", "what sets the figure"]];
  for (const t of targets) rows.push([t.target, t.measured, t.met ? "yes" : "**no**", t.limit]);
  return markdownTable(rows);
}

/** The profile summary: layers, then the top functions. */
export function profileSection(profiles, crossings) {
  let out = "";
  for (const p of profiles) {
    out += `\n**${p.title}** (${group(p.summary.totalMs)} ms sampled, ${p.note})\n\n`;
    if (p.breakdown) {
      out += markdownTable([["where the time goes (inclusive)", "ms", "share"], ...p.breakdown.map((b) => [b.label, group(b.ms), pct(b.share)])]);
      out += "\n";
    }
    out += markdownTable([["layer (self time)", "self ms", "share"], ...p.summary.layers.map((l) => [l.layer, group(l.ms), pct(l.share)])]);
    out += "\n";
    out += markdownTable([
      ["function (self time)", "layer", "self ms", "share"],
      ...p.summary.functions.slice(0, p.top).map((f) => [`\`${f.name.replace(/\|/g, "\\|").replace(/`/g, "'")}\``, f.layer, group(f.ms), pct(f.share)]),
    ]);
  }
  if (crossings) {
    out += `\n**Boundary crossings** (${crossings.config}: ${group(crossings.pages)} pages, ${group(crossings.scanned)} items read, ${group(crossings.chunks)} chunks fed; counting build)\n\n`;
    out += markdownTable([
      ["crossing", "calls", "per page", "per chunk", "per item read"],
      ...crossings.rows.map((c) => [c.name, group(c.calls), group(c.calls / crossings.pages, 2), group(c.calls / crossings.chunks, 1), group(c.calls / crossings.scanned, 3)]),
      ["**total**", group(crossings.total), group(crossings.total / crossings.pages, 2), group(crossings.total / crossings.chunks, 1), group(crossings.total / crossings.scanned, 3)],
    ]);
  }
  return out;
}

/**
 * `existing` (a markdown text) with `section` between the markers `begin` and `end` (each on its own
 * line), replacing what stood between them. When the markers are not there yet, `place(existing,
 * block)` says where the block goes; by default it is appended at the end.
 */
export function replaceBetween(existing, begin, end, section, place = (text, block) => `${text.replace(/\n*$/, "\n\n")}${block}`) {
  const block = `${begin}\n${section.trim()}\n${end}\n`;
  const a = existing.indexOf(begin);
  const b = existing.indexOf(end);
  if (a >= 0 && b > a) return existing.slice(0, a) + block + existing.slice(b + end.length).replace(/^\n/, "");
  return place(existing, block);
}

/** Replaces (or appends) the section between the markers; creates the file's title when new. */
export function spliceSection(existing, section) {
  if (existing === null) return `# Benchmarks\n\nMeasured figures of kubeapps-pager. Each section says how it was measured and how to re-run it.\n\n${BEGIN}\n${section.trim()}\n${END}\n`;
  return replaceBetween(existing, BEGIN, END, section);
}
