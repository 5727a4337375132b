// generate.mjs writes corpus/ui/: UI message streams written by the real
// servers of ai 5, 6 and 7, hand-made edge streams, and what every
// installed client release reads from each, all from the real npm
// packages installed side by side (package.json: one alias per release).
//
//   cd corpus/ui/generator && npm ci && node generate.mjs
//
// streams/MAJOR/NAME.sse            a body the newest MAJOR server wrote
// streams/MAJOR/NAME.headers.json   its response headers
// streams/MAJOR/NAME.message.json   for a continuation: the message the client holds
// edge/NAME.sse (+ .message.json)   hand-made streams, one behaviour each
// expected/PATH/RELEASE.jsonl       what client RELEASE (and every release MANIFEST.json
//                                   maps to it) reads from PATH.sse
// MANIFEST.json, OUTCOMES.md        every stream and every release's outcome
//
// Output is deterministic: fixed ids (counters), no clocks, no timers.
// Two runs give byte-identical trees.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { edgeCases } from './edge.mjs';
import { readBody } from './read.mjs';
import { serverCases } from './servers.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const OUTPUTS = ['streams', 'edge', 'expected', 'MANIFEST.json', 'OUTCOMES.md'];

// A file whose messages add up to more than HASH_FILE_BYTES keeps only
// their SHA-256 on each line; a final message longer than
// HASH_MESSAGE_BYTES is kept as its SHA-256 too.
const HASH_FILE_BYTES = 256 * 1024;
const HASH_MESSAGE_BYTES = 64 * 1024;

const pkg = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));

function checkNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20 && process.env.CORPUS_ANY_NODE !== '1') {
    throw new Error(`node ${process.versions.node}: the expected files quote V8's JSON.parse messages of Node 20; set CORPUS_ANY_NODE=1 to run anyway and review the diff`);
  }
}

// semverCompare orders "5.0.10" after "5.0.9".
function semverCompare(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

// installed finds the package.json of name as node resolves it from dir.
function installed(name, fromDir) {
  for (let d = fromDir; d.startsWith(HERE); d = dirname(d)) {
    const p = join(d, 'node_modules', name, 'package.json');
    if (existsSync(p)) return { dir: dirname(p), version: JSON.parse(readFileSync(p, 'utf8')).version };
  }
  throw new Error(`${name} is not installed for ${fromDir}`);
}

// releases lists the installed ai releases with the versions they resolve
// their parser and zod to.
function releases() {
  const zod = installed('zod', HERE).version;
  if (zod !== pkg.dependencies.zod) throw new Error(`zod ${zod} installed, package.json asks ${pkg.dependencies.zod}: run npm ci`);
  const out = [];
  for (const [alias, spec] of Object.entries(pkg.dependencies)) {
    if (!alias.startsWith('ai-')) continue;
    const version = alias.slice(3);
    const ai = installed(alias, HERE);
    if (ai.version !== version || spec !== `npm:ai@${version}`) throw new Error(`${alias} is ai@${ai.version} (${spec}): run npm ci`);
    const pu = installed('@ai-sdk/provider-utils', ai.dir);
    const esp = installed('eventsource-parser', pu.dir);
    const z = installed('zod', ai.dir);
    if (z.version !== zod) throw new Error(`${alias} resolves zod ${z.version}, not ${zod}`);
    out.push({ version, alias, providerUtils: pu.version, eventsourceParser: esp.version, zod: z.version });
  }
  out.sort((a, b) => semverCompare(a.version, b.version));
  return out;
}

const sha256 = (b) => createHash('sha256').update(b).digest('hex');

function write(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

// expectedFile turns a reading into the lines of its .jsonl file.
function expectedFile(reading) {
  const { lines, outcome, events, unterminated, last } = reading;
  const total = lines.reduce((n, l) => n + (l.message === null ? 4 : l.message.length), 0);
  const hashed = total > HASH_FILE_BYTES;
  const msg = (m, full) => {
    if (m === null) return '"message":null';
    if (full && m.length <= HASH_MESSAGE_BYTES) return `"message":${m}`;
    return `"message_sha256":"${sha256(m)}"`;
  };
  const out = [];
  for (const l of lines) {
    let s = `{"event":${l.event},"end":${l.end},`;
    s += l.chunk !== undefined ? `"chunk":${l.chunk},` : `"parse_error":${JSON.stringify(l.parse_error)},`;
    s += `"writes":${l.yields},${msg(l.message, !hashed)}`;
    if (l.on_error !== undefined) s += `,"on_error":${JSON.stringify(l.on_error)}`;
    // A parse error always ends the reading; the line says so once.
    if (l.throws !== undefined && l.parse_error === undefined) s += `,"throws":${JSON.stringify(l.throws)}`;
    out.push(s + '}');
  }
  let end = `{"outcome":"${outcome.result}"`;
  if (outcome.result === 'throws') end += `,"event":${outcome.event},"line":${outcome.line},"error":${JSON.stringify(outcome.error.name)}`;
  end += `,"events":${events.length},"chunks":${lines.length},"unterminated":${JSON.stringify(unterminated)},"hashed":${hashed},${msg(last, true)}}`;
  out.push(end);
  return out.join('\n') + '\n';
}

async function main() {
  checkNode();
  const started = Date.now();
  const rels = releases();
  const newest = {};
  for (const r of rels) newest[r.version.split('.')[0]] = r.version;
  const sdks = new Map();
  for (const r of rels) {
    // Only the servers need ai/test (the mock models); some releases'
    // test entry imports msw, which is not installed.
    const server = newest[r.version.split('.')[0]] === r.version;
    sdks.set(r.version, { sdk: await import(r.alias), test: server ? await import(`${r.alias}/test`) : undefined });
  }

  for (const o of OUTPUTS) rmSync(join(ROOT, o), { recursive: true, force: true });

  // Server-written streams.
  const streams = []; // {path, description, producedBy, origin, bytes, message}
  for (const major of Object.keys(newest).map(Number)) {
    const release = newest[major];
    const { sdk, test } = sdks.get(release);
    const byName = new Map();
    for (const c of serverCases(major)) {
      let message;
      if (c.continues !== undefined) {
        const prior = byName.get(c.continues);
        const held = await readBody(sdk, prior.bytes, prior.message);
        if (held.outcome.result !== 'ok') throw new Error(`${c.name}: ${c.continues} does not read cleanly`);
        message = JSON.parse(JSON.stringify(c.change(JSON.parse(held.last))));
      }
      const run = async () => {
        const res = await c.response({ sdk, test, major }, message);
        return { bytes: Buffer.from(await res.arrayBuffer()), headers: Object.fromEntries(res.headers), status: res.status };
      };
      const a = await run();
      const b = await run();
      if (!a.bytes.equals(b.bytes)) throw new Error(`streams/${major}/${c.name}: two runs wrote different bytes`);
      if (a.status !== 200) throw new Error(`streams/${major}/${c.name}: status ${a.status}`);
      const path = `streams/${major}/${c.name}`;
      const s = { path, description: c.description, producedBy: `ai@${release} ${c.producedBy}`, bytes: a.bytes, message, headers: a.headers };
      byName.set(c.name, s);
      streams.push(s);
      write(join(ROOT, `${path}.sse`), a.bytes);
      write(join(ROOT, `${path}.headers.json`), JSON.stringify(a.headers, null, 2) + '\n');
      if (message !== undefined) write(join(ROOT, `${path}.message.json`), JSON.stringify(message) + '\n');
    }
  }

  // Hand-made streams.
  for (const c of edgeCases()) {
    const path = `edge/${c.name}`;
    streams.push({ path, description: c.description, producedBy: 'hand-made', bytes: c.bytes, message: c.message });
    write(join(ROOT, `${path}.sse`), c.bytes);
    if (c.message !== undefined) write(join(ROOT, `${path}.message.json`), JSON.stringify(c.message) + '\n');
  }
  const paths = new Set();
  for (const s of streams) {
    if (paths.has(s.path)) throw new Error(`two streams at ${s.path}`);
    paths.add(s.path);
  }

  // Every release reads every stream. A reading is written once, under
  // the oldest release that gives it; readings says which file each
  // release's reading is.
  //
  // Where a release reports an error chunk through onError and reads on,
  // it reads the stream a second time with terminateOnError, which stops
  // at that chunk as useChat does (its onError throws): terminate_readings
  // names that reading's file (RELEASE-terminate, or a file another
  // reading shares). Elsewhere terminateOnError reads alike: it changes
  // only what the reader does after onError, and the one error a reading
  // without an error chunk reports is the one that ends it anyway
  // (CORPUS_CHECK_TERMINATE=1 reads every stream twice to confirm it).
  const checkTerminate = process.env.CORPUS_CHECK_TERMINATE === '1';
  for (const s of streams) {
    s.outcomes = {};
    s.readings = {};
    s.terminateOutcomes = {};
    s.terminateReadings = {};
    s.files = new Map(); // file content -> the name it is written under
  }
  const keep = (s, reading, name) => {
    const file = expectedFile(reading);
    if (!s.files.has(file)) {
      s.files.set(file, name);
      write(join(ROOT, 'expected', s.path, `${name}.jsonl`), file);
    }
    return { file, name: s.files.get(file) };
  };
  for (const r of rels) {
    const { sdk } = sdks.get(r.version);
    for (const s of streams) {
      const reading = await readBody(sdk, s.bytes, s.message);
      const kept = keep(s, reading, r.version);
      s.readings[r.version] = kept.name;
      s.events = reading.events.length;
      s.unterminated = reading.unterminated !== null;
      s.outcomes[r.version] = outcomeRecord(reading.outcome);
      const errorChunk = reading.lines.some((l) => l.on_error !== undefined);
      if (errorChunk || checkTerminate) {
        const stopped = await readBody(sdk, s.bytes, s.message, { terminateOnError: true });
        const file = expectedFile(stopped);
        if (!errorChunk && file !== kept.file) throw new Error(`${s.path}: ai@${r.version} reads it otherwise with terminateOnError, with no error chunk`);
        if (errorChunk) {
          if (file === kept.file) throw new Error(`${s.path}: ai@${r.version} reads on past an error chunk with terminateOnError`);
          s.terminateReadings[r.version] = keep(s, stopped, `${r.version}-terminate`).name;
          s.terminateOutcomes[r.version] = outcomeRecord(stopped.outcome);
        }
      }
    }
    process.stderr.write(`read ${streams.length} streams with ai@${r.version}\n`);
  }

  // MANIFEST.json.
  const manifest = {
    generator: 'corpus/ui/generator/generate.mjs',
    regenerate: 'cd corpus/ui/generator && npm ci && node generate.mjs',
    node: process.versions.node.split('.')[0],
    zod: rels[0].zod,
    releases: rels.map((r) => ({ version: r.version, provider_utils: r.providerUtils, eventsource_parser: r.eventsourceParser })),
    servers: Object.fromEntries(Object.entries(newest).map(([m, v]) => [m, v])),
    streams: Object.fromEntries(
      streams
        .slice()
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .map((s) => [
          `${s.path}.sse`,
          {
            description: s.description,
            produced_by: s.producedBy,
            bytes: s.bytes.length,
            sha256: sha256(s.bytes),
            events: s.events,
            unterminated: s.unterminated,
            message: s.message === undefined ? null : `${s.path}.message.json`,
            readings: s.readings,
            outcomes: s.outcomes,
            terminate_readings: Object.keys(s.terminateReadings).length > 0 ? s.terminateReadings : undefined,
            terminate_outcomes: Object.keys(s.terminateOutcomes).length > 0 ? s.terminateOutcomes : undefined,
          },
        ]),
    ),
  };
  write(join(ROOT, 'MANIFEST.json'), JSON.stringify(manifest, null, 1) + '\n');
  write(join(ROOT, 'OUTCOMES.md'), outcomesTable(streams, rels));
  process.stderr.write(`wrote ${streams.length} streams x ${rels.length} releases in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// outcomeRecord is the manifest's record of a reading's outcome.
function outcomeRecord(o) {
  return o.result === 'throws'
    ? { result: 'throws', event: o.event, error: o.error.name, summary: summary(o.error.message) }
    : { result: o.result };
}

// summary is the first line of an error message, cut to 160 characters.
function summary(message) {
  const first = message.split('\n')[0];
  return first.length > 160 ? `${first.slice(0, 157)}...` : first;
}

// outcomesTable writes a Markdown table: a row per stream whose outcome is
// not the same for every release, a column per release.
function outcomesTable(streams, rels) {
  const head = ['stream', ...rels.map((r) => r.version)];
  const rows = [];
  const same = [];
  for (const s of streams.slice().sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const cells = rels.map((r) => cell(s.outcomes[r.version]));
    if (cells.every((c) => c === cells[0])) same.push(`${s.path} (${cells[0]})`);
    else rows.push([s.path, ...cells]);
  }
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const table = (body) => [line(head), line(head.map(() => '---')), ...body.map(line)];
  const stopped = [];
  for (const s of streams.slice().sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (Object.keys(s.terminateOutcomes).length === 0) continue;
    stopped.push([s.path, ...rels.map((r) => cell(s.terminateOutcomes[r.version] ?? s.outcomes[r.version]))]);
  }
  return [
    '# Outcomes per release',
    '',
    'Generated by generator/generate.mjs. A cell is `ok`, `ok+err` (read to the end, an error chunk',
    'reported through onError) or `ErrorName@event` (the reading throws at that SSE event, counted',
    'from 0 over every event the parser dispatches, [DONE] included). Streams every release reads',
    'alike are listed after the table.',
    '',
    ...table(rows),
    '',
    '## The same for every release',
    '',
    ...same.map((s) => `- ${s}`),
    '',
    '## With terminateOnError, as useChat reads',
    '',
    'The streams with an error chunk, read again with readUIMessageStream\'s terminateOnError, which',
    'stops at the first error chunk as useChat does (`Error@event`: the chunk\'s errorText thrown).',
    '',
    ...table(stopped),
    '',
  ].join('\n');
}

// cell is an outcome as a cell of OUTCOMES.md.
function cell(o) {
  if (o.result === 'ok') return 'ok';
  if (o.result === 'ok-after-error-chunk') return 'ok+err';
  return `${o.error.replace(/^AI_/, '')}@${o.event}`;
}

await main();
