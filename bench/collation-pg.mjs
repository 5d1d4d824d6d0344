// How often PostgreSQL's `ORDER BY name` under en_US.UTF-8 (glibc's collation), the order Kubeapps'
// helm plugin pages charts in, disagrees with the pager's collation (UCA, CLDR root, tertiary,
// alternate shifted: src/collation.rs), on the real Bitnami and k8s-at-home indexes.
//
//   node bench/collation-pg.mjs [--data DIR]     (DIR default ../shared/data; run as root)
//
// It installs what it lacks (Debian's postgresql and locales; the en_US.UTF-8 locale), starts its
// own PostgreSQL in a temporary folder on a free loopback port as the `postgres` user, loads every
// chart of DIR/<repo>/index.yaml as Kubeapps' helm plugin stores it (a row per chart, `info` JSONB),
// reads `SELECT … ORDER BY info->>'name'` (the plugin's query's order), stops and removes the server,
// then compares each adjacent pair of that order with the pager's collation sort keys
// (examples/collation_keys.rs): the pager verifies a streamed source's order by these keys, so a
// pair in the other order is a disorder it detects; equal keys are a tie, accepted in any order.
// Prints a Markdown report (BENCHMARKS.md "Collation").
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";

const root = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const dataDir = args[0] === "--data" ? args[1] : join(root, "..", "shared", "data");

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { encoding: "utf8", maxBuffer: 1 << 28, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}

/** PostgreSQL's bin folder, after installing postgresql and the en_US.UTF-8 locale if missing. */
function ensurePostgres() {
  const find = () => {
    const base = "/usr/lib/postgresql";
    const v = existsSync(base) ? readdirSync(base).filter((d) => existsSync(join(base, d, "bin", "initdb"))) : [];
    return v.length ? join(base, v.sort((a, b) => b - a)[0], "bin") : null;
  };
  if (!find() || !existsSync("/usr/sbin/locale-gen")) {
    run("apt-get", ["update", "-qq"], { stdio: "ignore" });
    run("apt-get", ["install", "-y", "-qq", "postgresql", "locales"], { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
  if (!/^en_US\.utf8$/m.test(run("locale", ["-a"]))) {
    const gen = readFileSync("/etc/locale.gen", "utf8");
    if (!/^en_US\.UTF-8 UTF-8$/m.test(gen)) run("sed", ["-i", "s/^# *en_US.UTF-8 UTF-8/en_US.UTF-8 UTF-8/", "/etc/locale.gen"]);
    run("locale-gen", []);
  }
  return find();
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Every chart of every DIR/<repo>/index.yaml: [{ repo, name }]. */
function charts() {
  const out = [];
  for (const repo of readdirSync(dataDir).sort()) {
    const file = join(dataDir, repo, "index.yaml");
    if (!existsSync(file)) continue;
    const index = parse(readFileSync(file, "utf8"));
    for (const name of Object.keys(index.entries ?? {})) out.push({ repo, name });
  }
  return out;
}

/** The charts in the order of `ORDER BY info->>'name'` in a fresh en_US.UTF-8 database, and under COLLATE "C". */
async function postgresOrder(list) {
  const bin = ensurePostgres();
  const dir = mkdtempSync(join(tmpdir(), "collation-pg-"));
  const uid = Number(run("id", ["-u", "postgres"]).trim());
  const gid = Number(run("id", ["-g", "postgres"]).trim());
  chownSync(dir, uid, gid);
  chmodSync(dir, 0o700);
  const as = (cmd, argv, opts) => run("runuser", ["-u", "postgres", "--", join(bin, cmd), ...argv], opts);
  const data = join(dir, "data");
  const port = await freePort();
  as("initdb", ["-D", data, "--locale=en_US.UTF-8", "-E", "UTF8", "--auth=trust"]);
  as("pg_ctl", ["-D", data, "-w", "-l", join(dir, "log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start"]);
  try {
    const psql = (sql) => as("psql", ["-h", dir, "-p", String(port), "-d", "postgres", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"], { input: sql });
    const rows = list.map((c) => JSON.stringify({ name: c.name, repo: c.repo }).replace(/\\/g, "\\\\")).join("\n");
    const collate = psql("SHOW lc_collate;").trim();
    const load = `CREATE TABLE charts (info jsonb);\nCOPY charts (info) FROM STDIN;\n${rows}\n\\.\n`;
    const query = (c) => `SELECT info->>'name', info->>'repo' FROM charts ORDER BY info->>'name'${c};`;
    const out = psql(`${load}\\pset fieldsep '\\t'\n${query("")}\n\\echo ====\n${query(' COLLATE "C"')}\n`);
    // Not trimmed: names may start or end with spaces (the probes).
    const [en, c] = out.split("====\n").map((part) => part.split("\n").filter((l) => l !== "").map((l) => {
      const [name, repo] = l.split("\t");
      return { name, repo };
    }));
    return { collate, en, c };
  } finally {
    as("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The pager's collation key (hex) of each name (examples/collation_keys.rs). */
function keys(names, locale) {
  const out = run("cargo", ["run", "--quiet", "--example", "collation_keys", "--", locale], { cwd: root, input: names.join("\n") + "\n" });
  const hex = out.trim().split("\n");
  return new Map(names.map((n, i) => [n, hex[i]]));
}

/** Adjacent pairs of `order` (names) that `key` puts the other way round, and ties. */
function compare(order, key) {
  const disagree = [];
  let ties = 0, pairs = 0;
  for (let i = 1; i < order.length; i++) {
    const [a, b] = [order[i - 1].name, order[i].name];
    if (a === b) continue;
    pairs++;
    const [ka, kb] = [key(a), key(b)];
    if (ka > kb) disagree.push([a, b]);
    else if (ka === kb) ties++;
  }
  return { pairs, disagree, ties };
}

/**
 * Names beyond the indexes, where collations differ: every string of 1 to 3 characters over
 * letters in both cases, an accented one, a digit, a space and three punctuation marks charts use.
 */
function probes() {
  const alphabet = ["a", "b", "B", "é", "1", " ", "-", "_", "."];
  let level = [""];
  const out = [];
  for (let len = 1; len <= 3; len++) {
    level = level.flatMap((p) => alphabet.map((ch) => p + ch));
    out.push(...level);
  }
  return out.map((name) => ({ repo: "probe", name }));
}

const list = [...charts(), ...probes()];
const { collate, en: all, c: allC } = await postgresOrder(list);
const en = all.filter((x) => x.repo !== "probe");
const c = allC.filter((x) => x.repo !== "probe");
const probeOrder = all.filter((x) => x.repo === "probe");
if (all.length !== list.length) throw new Error(`PostgreSQL returned ${all.length} rows of ${list.length}`);
const names = [...new Set(list.map((x) => x.name))];
const chartNames = new Set(en.map((x) => x.name));
const lines = [`Data: ${dataDir} (${en.length} charts, ${chartNames.size} distinct names); PostgreSQL lc_collate ${collate}.`, ""];
lines.push("| order compared with PostgreSQL en_US.UTF-8 `ORDER BY name` | adjacent pairs (distinct names) | in the other order | equal keys (ties) | which |");
lines.push("|---|---|---|---|---|");
const bytes = (s) => Buffer.from(s, "utf8").toString("hex");
for (const locale of ["root", "en"]) {
  const k = keys(names, locale);
  for (const [label, subset] of [["bitnami", "bitnami"], ["k8s-at-home", "k8s-at-home"], ["both", null]]) {
    const order = subset ? en.filter((x) => x.repo === subset) : en;
    const r = compare(order, (n) => k.get(n));
    const which = r.disagree.map(([a, b]) => `\`${a}\` > \`${b}\``).join(", ") || "none";
    lines.push(`| collation \`${locale}\`, ${label} | ${r.pairs} | ${r.disagree.length} | ${r.ties} | ${which} |`);
  }
}
for (const [label, subset] of [["bitnami", "bitnami"], ["k8s-at-home", "k8s-at-home"], ["both", null]]) {
  const order = subset ? en.filter((x) => x.repo === subset) : en;
  const r = compare(order, bytes);
  const which = r.disagree.map(([a, b]) => `\`${a}\` > \`${b}\``).join(", ") || "none";
  lines.push(`| byte order (the pager's \`name\` sort), ${label} | ${r.pairs} | ${r.disagree.length} | ${r.ties} | ${which} |`);
}
{
  const k = keys(names, "root");
  const r = compare(probeOrder, (n) => k.get(n));
  const show = (s) => JSON.stringify(s);
  lines.push("", `Probe names (${probeOrder.length}: every 1 to 3 characters over a b B é 1 space - _ .), PostgreSQL en_US.UTF-8 order against collation \`root\`: ${r.pairs} adjacent pairs, ${r.disagree.length} in the other order, ${r.ties} ties.`);
  if (r.disagree.length) lines.push(`The first 20 in the other order (PostgreSQL's order, as JSON strings): ${r.disagree.slice(0, 20).map(([a, b]) => `${show(a)} then ${show(b)}`).join("; ")}.`);
  for (const [a] of r.disagree.slice(0, 3)) {
    const i = probeOrder.findIndex((x) => x.name === a);
    lines.push(`PostgreSQL's order around ${show(a)}: ${probeOrder.slice(Math.max(0, i - 3), i + 4).map((x) => show(x.name)).join(", ")}.`);
  }
}
// Sanity: PostgreSQL's COLLATE "C" is byte order.
const cBytes = compare(c, bytes);
lines.push("", `Check: PostgreSQL's \`COLLATE "C"\` order against byte order: ${cBytes.disagree.length} pairs in the other order.`);
console.log(lines.join("\n"));
