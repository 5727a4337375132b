// generate.mjs writes the testdata of uistream/sdk from the real ai
// releases of package.json (npm aliases ai-MAJOR.MINOR.PATCH), each run as
// its client runs it:
//
//   cd uistream/sdk/testdata/generator && npm ci && node generate.mjs
//
// ../schemas.json   every release's uiMessageChunkSchema, described (see
//                   describe below): the zod schema the client validates
//                   chunks with, taken from the client at work (capture.mjs)
// ../samples.json   chunk samples, built from those descriptions: every chunk
//                   type of every release, valid with all fields and with the
//                   required ones only, each field missing, each field and
//                   nested field of a wrong type, an unknown key, plus the
//                   hand-made cases of SPECIALS below
// ../verdicts.json  for each sample, what each release's client does with it
//                   under each app zod of ZODS: accepts it, or throws
//                   AI_TypeValidationError (zod's issues, normalised by
//                   normalise below) or AI_JSONParseError
//
// A sample is checked the way the client reads a chunk: the bytes
// `data: JSON\n\n` through DefaultChatTransport's processResponseStream
// (parseJsonEventStream with uiMessageChunkSchema, then the throw on a
// failed parse), the same path useChat takes. The app's zod is swapped per
// child process by zod-alias.mjs (ai takes zod as a peer dependency).
//
// Output is deterministic: no randomness, no clock, releases and samples in
// a fixed order. Node 20 (the package's engines); ai 7 asks for Node 22 and
// runs on 20 with a warning from npm.

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, '..');
const PKG = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));

// RELEASES are the ai releases of package.json, oldest first.
const RELEASES = Object.keys(PKG.dependencies)
  .filter(name => name.startsWith('ai-'))
  .map(name => name.slice(3))
  .sort(compareVersions);

// ZODS are the app zods the releases run against: the current zod (the
// default of uistream/sdk), the last zod before 4.4 (which accepts an
// absent key of a z.unknown() field) and the zod 3 line (its zod/v4).
const ZODS = [
  { name: 'current', package: 'zod' },
  { name: 'zod-4.3', package: 'zod-4.3' },
  { name: 'zod-3.25', package: 'zod-3.25' },
];

function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

// ---------------------------------------------------------------------------
// The child: loads each release under one zod, describes its schema or
// checks the samples.

async function readChunk(release, json) {
  const { DefaultChatTransport } = await import(`ai-${release}`);
  const transport = new DefaultChatTransport();
  const bytes = new TextEncoder().encode(`data: ${json}\n\n`);
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const reader = transport.processResponseStream(body).getReader();
  try {
    const { done } = await reader.read();
    if (done) throw new Error(`ai@${release} delivered no chunk for ${json}`);
    return null;
  } catch (error) {
    return verdictOf(error);
  }
}

// verdictOf is the thrown error as verdicts.json records it.
function verdictOf(error) {
  if (error?.name === 'AI_TypeValidationError') {
    const cause = error.cause;
    const issues = Array.isArray(cause) ? cause : cause?.issues;
    if (!Array.isArray(issues)) throw new Error(`AI_TypeValidationError without zod issues: ${error.message}`);
    return { error: error.name, issues: normalise(issues, []) };
  }
  if (error?.name === 'AI_JSONParseError') {
    return { error: error.name, message: String(error.cause?.message ?? error.cause) };
  }
  throw error;
}

// normalise reduces zod's issues to what a reader of the error needs and
// uistream/sdk reproduces. An invalid_union keeps, as branch, the normalised
// issues of the one option the value was meant for (none of its issues is at
// 'type' or, other than unrecognized_keys, at the union's root: the chunk's
// type selected it), or no branch where no option or several qualify; the
// errors of the other options are dropped. Each issue keeps code, path (made
// whole), message and the fields that say what was expected.
function normalise(issues, prefix) {
  const out = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const n = { code: issue.code, path };
    for (const key of ['expected', 'values', 'keys', 'origin', 'format', 'prefix', 'minimum', 'maximum', 'inclusive', 'note', 'discriminator', 'options']) {
      if (issue[key] !== undefined) n[key] = typeof issue[key] === 'bigint' ? Number(issue[key]) : issue[key];
    }
    n.message = issue.message;
    if (issue.code === 'invalid_union') {
      const meant = (issue.errors ?? []).filter(
        branch =>
          !branch.some(
            i => (i.path.length === 0 && i.code !== 'unrecognized_keys') || (i.path.length === 1 && i.path[0] === 'type'),
          ),
      );
      if (meant.length === 1) n.branch = normalise(meant[0], path);
    }
    out.push(n);
  }
  return out;
}

// describe writes a zod schema as plain JSON: strings for leaves ("string",
// "number", "boolean", "unknown", "null", "undefined", "transform"), arrays
// for the rest: ["literal", ...values], ["enum", ...values],
// ["string", ...checks], ["number", ...checks], ["optional", T],
// ["object", "strict"|"loose"|"strip", [[key, T], ...]], ["record", K, V],
// ["array", T], ["union", ...T], ["union:DISCRIMINATOR", ...T],
// ["custom", message], ["pipe", IN, OUT], ["ref", NAME] (a z.lazy, its
// schema in defs under NAME, named L1, L2... in the order met).
function describe(schema) {
  const defs = {};
  const lazies = new Map();
  function checks(def) {
    return (def.checks ?? []).map(c => {
      const d = c._zod.def;
      switch (d.check) {
        case 'string_format':
          return d.format === 'starts_with' ? `startsWith:${d.prefix}` : `format:${d.format}`;
        case 'number_format':
          return `format:${d.format}`;
        case 'greater_than':
          return `${d.inclusive ? '>=' : '>'}${d.value}`;
        case 'less_than':
          return `${d.inclusive ? '<=' : '<'}${d.value}`;
        default:
          return `check:${d.check}`;
      }
    });
  }
  function walk(s) {
    const def = s._zod.def;
    switch (def.type) {
      case 'string':
      case 'number': {
        const c = checks(def);
        return c.length ? [def.type, ...c] : def.type;
      }
      case 'boolean':
      case 'unknown':
      case 'null':
      case 'undefined':
      case 'transform':
        return def.type;
      case 'literal':
        return ['literal', ...def.values];
      case 'enum':
        return ['enum', ...Object.values(def.entries)];
      case 'optional':
        return ['optional', walk(def.innerType)];
      case 'object': {
        const catchall = def.catchall?._zod.def.type;
        const mode = catchall === 'never' ? 'strict' : catchall === 'unknown' ? 'loose' : catchall === undefined ? 'strip' : `catchall:${catchall}`;
        return ['object', mode, Object.entries(def.shape).map(([k, v]) => [k, walk(v)])];
      }
      case 'record':
        return ['record', walk(def.keyType), walk(def.valueType)];
      case 'array':
        return ['array', walk(def.element)];
      case 'union':
        return [def.discriminator ? `union:${def.discriminator}` : 'union', ...def.options.map(walk)];
      case 'custom': {
        const message = typeof def.error === 'function' ? def.error({}) : def.error;
        return ['custom', typeof message === 'string' ? message : message?.message ?? null];
      }
      case 'pipe':
        return ['pipe', walk(def.in), walk(def.out)];
      case 'lazy': {
        if (!lazies.has(s)) {
          const name = `L${lazies.size + 1}`;
          lazies.set(s, name);
          defs[name] = walk(def.getter());
        }
        return ['ref', lazies.get(s)];
      }
      default:
        throw new Error(`describe: zod type ${def.type} not handled`);
    }
  }
  const chunk = walk(schema);
  return { chunk, defs };
}

async function child(phase, zod) {
  const out = {};
  if (phase === 'describe') {
    for (const release of RELEASES) {
      globalThis.__capturedSchema = undefined;
      const verdict = await readChunk(release, '{"type":"start"}');
      if (verdict !== null) throw new Error(`ai@${release} rejects {"type":"start"}`);
      if (!globalThis.__capturedSchema) throw new Error(`ai@${release}: the chunk schema was not captured`);
      out[release] = describe(globalThis.__capturedSchema);
    }
  } else {
    const samples = JSON.parse(readFileSync(join(OUT, 'samples.json'), 'utf8'));
    for (const release of RELEASES) {
      const verdicts = [];
      for (const sample of samples) verdicts.push(await readChunk(release, sample.json));
      out[release] = verdicts;
    }
  }
  process.stdout.write(JSON.stringify({ zod, out }));
}

// ---------------------------------------------------------------------------
// The samples.

// JSON_VALUE is a value of every JSON kind, valid for jsonValueSchema.
const JSON_VALUE = '{"n":-1.5e3,"s":"x","b":false,"z":null,"a":[0,{"d":[]}]}';

function isJSONValueUnion(node) {
  return Array.isArray(node) && node[0] === 'union' && node.includes('null') && node.some(o => Array.isArray(o) && o[0] === 'record');
}

function object(fields) {
  return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

// valid returns a JSON text valid for node, or undefined where the key
// should be absent (z.undefined()).
function valid(node, defs, depth = 0) {
  if (typeof node === 'string') {
    switch (node) {
      case 'string':
        return '"s"';
      case 'number':
        return '7';
      case 'boolean':
        return 'true';
      case 'unknown':
        return '{"u":[1,"x",null]}';
      case 'null':
        return 'null';
      case 'undefined':
        return undefined;
      default:
        throw new Error(`valid: ${node}`);
    }
  }
  const [kind, ...rest] = node;
  switch (kind) {
    case 'string': {
      const p = rest.find(c => c.startsWith('startsWith:'));
      return JSON.stringify(p ? `${p.slice(11)}s` : 's');
    }
    case 'number':
      return '7';
    case 'literal':
    case 'enum':
      return JSON.stringify(rest[0]);
    case 'optional':
      return valid(rest[0], defs, depth);
    case 'object':
      return object(rest[1].map(([k, v]) => [k, valid(v, defs, depth + 1)]).filter(([, v]) => v !== undefined));
    case 'record':
      return `{"k":${valid(rest[1], defs, depth + 1)}}`;
    case 'array':
      return `[${valid(rest[0], defs, depth + 1)}]`;
    case 'ref':
      return valid(defs[rest[0]], defs, depth);
    case 'custom':
      return '"data-s"';
    case 'pipe':
      return valid(rest[0], defs, depth);
    default:
      if (kind.startsWith('union')) return isJSONValueUnion(node) ? JSON_VALUE : valid(rest[0], defs, depth + 1);
      throw new Error(`valid: ${kind}`);
  }
}

// required reports whether an object's field must be present (as the
// description says; the verdicts tell what each zod does with z.unknown()).
function required(node) {
  return !(Array.isArray(node) && node[0] === 'optional') && node !== 'undefined';
}

// explored holds the nested nodes (JSON) whose every wrong value has been
// sampled once: met again, inside another chunk type, they get only their
// first wrong value, so the samples stay few and still cover every field.
const explored = new Set();

// wrong returns [label, JSON text] pairs of values node must reject (or, for
// an unknown key of a loose object, accept: the verdicts say which).
function wrong(node, defs, depth = 0) {
  const all = wrongAll(node, defs, depth);
  if (depth === 0 || typeof node === 'string' || !['object', 'record', 'array', 'ref'].includes(node[0]) && !node[0].startsWith('union')) {
    return all;
  }
  const key = JSON.stringify(node);
  if (explored.has(key)) return all.slice(0, 1);
  explored.add(key);
  return all;
}

function wrongAll(node, defs, depth) {
  if (depth > 4) return [];
  if (typeof node === 'string') {
    switch (node) {
      case 'string':
        return [['a number', '42'], ['null', 'null']];
      case 'number':
        return [['a string', '"7"'], ['1e400 (Infinity)', '1e400']];
      case 'boolean':
        return [['a string', '"true"'], ['null', 'null']];
      case 'null':
        return [['a string', '"x"']];
      case 'unknown':
      case 'undefined':
      case 'transform':
        return [];
      default:
        throw new Error(`wrong: ${node}`);
    }
  }
  const [kind, ...rest] = node;
  switch (kind) {
    case 'string': {
      const out = [['a number', '42']];
      const p = rest.find(c => c.startsWith('startsWith:'));
      if (p) out.push(['without its prefix', '"zz"']);
      return out;
    }
    case 'number': {
      const out = [['a string', '"7"'], ['1e400 (Infinity)', '1e400']];
      if (rest.includes('format:safeint')) out.push(['a fraction', '1.5'], ['2^53', '9007199254740992'], ['1e2', '1e2'], ['2^53-1', '9007199254740991']);
      if (rest.includes('>=0')) out.push(['negative', '-1'], ['-0', '-0']);
      return out;
    }
    case 'literal':
      return [['another value', '"zz-other"']];
    case 'enum':
      return [['a value outside the enum', '"zz-other"'], ['upper case', JSON.stringify(String(rest[0]).toUpperCase())], ['a number', '1']];
    case 'optional':
      return wrong(rest[0], defs, depth);
    case 'object': {
      const [mode, fields] = rest;
      const full = fields.map(([k, v]) => [k, valid(v, defs, depth + 1)]).filter(([, v]) => v !== undefined);
      const out = [['a string', '"x"'], ['an array', '[]']];
      for (const [k, v] of fields) {
        if (k === 'type' && depth === 0) continue;
        if (required(v)) out.push([`${k} missing`, object(full.filter(([key]) => key !== k))]);
        for (const [label, text] of wrong(v, defs, depth + 1)) {
          out.push([`${k}: ${label}`, object(full.map(([key, val]) => [key, key === k ? text : val]))]);
        }
      }
      out.push([`an unknown key (${mode})`, object([...full, ['zzExtra', '1']])]);
      return out;
    }
    case 'record': {
      const out = [['an array', '[]'], ['a string', '"x"']];
      for (const [label, text] of wrong(rest[1], defs, depth + 1)) out.push([`a value ${label}`, `{"k":${text}}`]);
      return out;
    }
    case 'array': {
      const out = [['an object', '{}']];
      for (const [label, text] of wrong(rest[0], defs, depth + 1)) out.push([`an element ${label}`, `[${text}]`]);
      return out;
    }
    case 'ref':
      return wrong(defs[rest[0]], defs, depth);
    case 'custom':
      return [['without the data- prefix', '"zz"']];
    case 'pipe':
      return wrong(rest[0], defs, depth);
    default:
      if (kind.startsWith('union')) {
        if (isJSONValueUnion(node)) return [['1e400 (Infinity)', '1e400'], ['1e400 nested', '{"a":[1e400]}']];
        const options = rest;
        if (!options.every(o => Array.isArray(o) && o[0] === 'object')) {
          return [['a string', '"x"']];
        }
        const discriminator = kind.includes(':') ? kind.slice(6) : 'type';
        const out = [];
        for (const option of options) {
          const tag = option[2].find(([k]) => k === discriminator);
          const name = tag && Array.isArray(tag[1]) && tag[1][0] === 'literal' ? tag[1][1] : '?';
          for (const [label, text] of wrong(option, defs, depth)) out.push([`${name} ${label}`, text]);
        }
        const first = options[0][2].map(([k, v]) => [k, valid(v, defs, depth + 1)]).filter(([, v]) => v !== undefined);
        out.push([`${discriminator} unknown`, object(first.map(([k, v]) => [k, k === discriminator ? '"zz-other"' : v]))]);
        out.push([`${discriminator} missing`, object(first.filter(([k]) => k !== discriminator))]);
        return out;
      }
      throw new Error(`wrong: ${kind}`);
  }
}

// SPECIALS are the hand-made samples: cases a description cannot yield.
const SPECIALS = [
  // finish reasons: every value any release knows, and some none knows
  ...['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other', 'unknown', 'interrupted', 'STOP', '', 'cancelled'].map(r => [
    `finish: finishReason ${JSON.stringify(r)}`,
    `{"type":"finish","finishReason":${JSON.stringify(r)}}`,
  ]),
  ['finish: finishReason null', '{"type":"finish","finishReason":null}'],
  ['finish: finishReason and messageMetadata', '{"type":"finish","finishReason":"stop","messageMetadata":{"totalTokens":3}}'],
  ['finish: the v6 server', '{"type":"finish","finishReason":"stop"}'],
  // chunk types no release knows, and not-a-chunk values
  ['type unknown', '{"type":"bogus"}'],
  ['type empty', '{"type":""}'],
  ['type with an underscore', '{"type":"text_delta","id":"t","delta":"x"}'],
  ['type upper case', '{"type":"TEXT-DELTA","id":"t","delta":"x"}'],
  ['type a number', '{"type":1}'],
  ['type null', '{"type":null}'],
  ['type missing', '{"id":"t","delta":"x"}'],
  ['empty object', '{}'],
  ['an array', '[]'],
  ['a string', '"text-start"'],
  ['a number', '1'],
  ['null', 'null'],
  ['true', 'true'],
  // data parts: the type test is startsWith('data-')
  ['data: type "data-"', '{"type":"data-","data":1}'],
  ['data: type "data"', '{"type":"data","data":1}'],
  ['data: type "Data-x"', '{"type":"Data-x","data":1}'],
  ['data: type escaped', '{"type":"data\\u002dweather","data":{"t":1}}'],
  ['data: data null', '{"type":"data-x","data":null}'],
  ['data: data 1e400', '{"type":"data-x","data":1e400}'],
  ['data: transient', '{"type":"data-x","id":"d1","data":{"a":1},"transient":true}'],
  ['data: id number', '{"type":"data-x","id":1,"data":{}}'],
  // the keys as JSON.parse reads them: escapes, duplicates (the last wins)
  ['escaped type', '{"type":"text\\u002ddelta","id":"t","delta":"x"}'],
  ['escaped key', '{"type":"text-delta","\\u0069d":"t","delta":"x"}'],
  ['duplicate key, last valid', '{"type":"text-delta","id":1,"id":"t","delta":"x"}'],
  ['duplicate key, last invalid', '{"type":"text-delta","id":"t","id":1,"delta":"x"}'],
  ['duplicate type, last known', '{"type":"bogus","type":"text-start","id":"t"}'],
  ['duplicate type, last unknown', '{"type":"text-start","id":"t","type":"bogus"}'],
  ['duplicate record key, last valid', '{"type":"text-start","id":"t","providerMetadata":{"p":{"k":1e400},"p":{"k":1}}}'],
  ['duplicate record key, last invalid', '{"type":"text-start","id":"t","providerMetadata":{"p":{"k":1},"p":{"k":1e400}}}'],
  ['whitespace', ' { "type" : "text-start" , "id" : "t" } '],
  // numbers at the edge of a double: JSON.parse makes Infinity of the second
  ['providerMetadata: largest double', '{"type":"text-start","id":"t","providerMetadata":{"p":{"k":1.7976931348623157e308}}}'],
  ['providerMetadata: past the largest double', '{"type":"text-start","id":"t","providerMetadata":{"p":{"k":1.7976931348623159e308}}}'],
  ['providerMetadata: -1e400', '{"type":"text-start","id":"t","providerMetadata":{"p":{"k":-1e400}}}'],
  ['providerMetadata: 1e-400', '{"type":"text-start","id":"t","providerMetadata":{"p":{"k":1e-400}}}'],
  ['providerMetadata: long mantissa', `{"type":"text-start","id":"t","providerMetadata":{"p":{"k":${'9'.repeat(320)}}}}`],
  ['providerMetadata: long fraction', `{"type":"text-start","id":"t","providerMetadata":{"p":{"k":0.${'0'.repeat(400)}1e400}}}`],
  ['providerMetadata: empty', '{"type":"text-start","id":"t","providerMetadata":{}}'],
  ['providerMetadata: empty inner', '{"type":"text-start","id":"t","providerMetadata":{"p":{}}}'],
  ['providerMetadata: integer keys', '{"type":"text-start","id":"t","providerMetadata":{"b":1,"2":{"k":1e400},"1":"x"}}'],
  ['providerMetadata: every error', '{"type":"text-start","id":"t","providerMetadata":{"a":1,"b":[],"c":{"k":1e400,"l":{"m":[1e400]}},"d":null}}'],
  // several issues in one chunk, in zod's order
  ['several issues', '{"type":"tool-input-available","toolCallId":1,"toolName":null,"providerExecuted":"yes","dynamic":0,"zzA":1,"zzB":2}'],
  ['several issues, other order', '{"zzB":2,"dynamic":0,"type":"tool-input-available","zzA":1,"toolName":null,"toolCallId":1}'],
  // the secure JSON parse of provider-utils (AI_JSONParseError)
  ['__proto__ key', '{"type":"data-x","data":{"__proto__":{"a":1}}}'],
  ['__proto__ key, top level', '{"type":"data-x","data":1,"__proto__":1}'],
  ['__proto__ key, escaped', '{"type":"data-x","data":{"\\u005f_proto__":{"a":1}}}'],
  ['__proto__ in a string', '{"type":"text-delta","id":"t","delta":"\\"__proto__\\": 1"}'],
  ['constructor null', '{"type":"data-x","data":{"constructor":null}}'],
  ['constructor string', '{"type":"data-x","data":{"constructor":"x"}}'],
  ['constructor with prototype', '{"type":"data-x","data":{"constructor":{"prototype":{}}}}'],
  ['constructor with prototype, escaped', '{"type":"data-x","data":{"constructo\\u0072":{"prototype":1}}}'],
  ['constructor null, escaped', '{"type":"data-x","data":{"\\u0063onstructor":null}}'],
  ['constructor null in an array', '{"type":"data-x","data":[{"constructor":null}]}'],
  ['__proto__ key and a constructor key', '{"type":"data-x","data":{"constructor":1,"o":{"\\u005f_proto__":1}}}'],
  // strings JSON.parse reads into odd text
  ['lone surrogate', '{"type":"text-delta","id":"t","delta":"\\ud800"}'],
  ['NUL escape', '{"type":"text-delta","id":"\\u0000","delta":"x"}'],
  ['non-ASCII', '{"type":"text-delta","id":"t","delta":"héllo ✓ 😀"}'],
];

function buildSamples(descriptions) {
  explored.clear();
  const samples = [];
  const seen = new Set();
  const add = (name, json) => {
    if (seen.has(json)) return;
    seen.add(json);
    samples.push({ name, json });
  };
  const branches = new Map(); // JSON of a branch -> [branch, defs]
  for (const release of RELEASES) {
    const { chunk, defs } = descriptions[release];
    for (const branch of chunk.slice(1)) {
      const key = JSON.stringify(branch);
      if (!branches.has(key)) branches.set(key, [branch, defs]);
    }
  }
  for (const [branch, defs] of branches.values()) {
    const typeNode = branch[2].find(([k]) => k === 'type')[1];
    const type = typeNode[0] === 'literal' ? typeNode[1] : 'data-s';
    add(`${type}: every field`, valid(branch, defs));
    add(`${type}: required fields`, object(branch[2].filter(([, v]) => required(v)).map(([k, v]) => [k, valid(v, defs, 1)]).filter(([, v]) => v !== undefined)));
    for (const [label, text] of wrong(branch, defs)) add(`${type}: ${label}`, text);
  }
  for (const [name, json] of SPECIALS) add(name, json);
  return samples;
}

// ---------------------------------------------------------------------------
// The parent.

// runChild runs phase under zod in a child process and returns its output.
function runChild(phase, zod) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', './register.mjs', 'generate.mjs', '--child', phase, zod.name], {
      cwd: HERE,
      env: { ...process.env, ZOD_PACKAGE: zod.package },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', d => out.push(d));
    child.stderr.on('data', d => err.push(d));
    child.on('error', reject);
    child.on('close', code => {
      if (code !== 0) reject(new Error(`child ${phase} ${zod.name} failed:\n${Buffer.concat(err)}`));
      else resolve(JSON.parse(Buffer.concat(out).toString('utf8')).out);
    });
  });
}

function zodVersion(pkg) {
  return JSON.parse(readFileSync(join(HERE, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

// lines writes an array as JSON, one element a line, for reviewable diffs.
function lines(array) {
  return `[\n${array.map(x => JSON.stringify(x)).join(',\n')}\n]\n`;
}

async function parent() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20 && !process.env.UISDK_ANY_NODE) {
    throw new Error(`Node ${process.versions.node}: use Node 20 (or set UISDK_ANY_NODE=1 and review the diff)`);
  }
  const zods = ZODS.map(z => ({ ...z, version: zodVersion(z.package) }));
  const descriptions = {};
  const described = await Promise.all(zods.map(zod => runChild('describe', zod)));
  zods.forEach((zod, i) => (descriptions[zod.name] = described[i]));
  const schemas = RELEASES.map(release => {
    const entry = { release, ...descriptions.current[release] };
    for (const zod of zods.slice(1)) {
      if (JSON.stringify(descriptions[zod.name][release]) !== JSON.stringify(descriptions.current[release])) {
        entry[`differs_under_${zod.name}`] = descriptions[zod.name][release];
      }
    }
    return entry;
  });
  writeFileSync(join(OUT, 'schemas.json'), lines(schemas));

  const samples = buildSamples(descriptions.current);
  writeFileSync(join(OUT, 'samples.json'), lines(samples));

  const verdicts = {};
  const checked = await Promise.all(zods.map(zod => runChild('check', zod)));
  zods.forEach((zod, i) => (verdicts[zod.name] = checked[i]));
  const out = samples.map((sample, i) => {
    const entry = { name: sample.name };
    for (const zod of zods) {
      // releases in order, grouped where consecutive ones agree
      const groups = [];
      for (const release of RELEASES) {
        const v = verdicts[zod.name][release][i];
        const last = groups[groups.length - 1];
        if (last && JSON.stringify(last.verdict) === JSON.stringify(v)) last.releases.push(release);
        else groups.push({ releases: [release], verdict: v });
      }
      // the same verdicts as an earlier zod's: its name instead
      const same = zods.find(z => z !== zod && entry[z.name] !== undefined && JSON.stringify(entry[z.name]) === JSON.stringify(groups));
      entry[zod.name] = same ? same.name : groups;
    }
    return entry;
  });
  const header = {
    generator: 'uistream/sdk/testdata/generator/generate.mjs',
    node: process.versions.node.split('.')[0],
    zod: Object.fromEntries(zods.map(z => [z.name, z.version])),
    releases: RELEASES,
  };
  writeFileSync(join(OUT, 'verdicts.json'), `{"header":${JSON.stringify(header)},\n"samples":${lines(out)}}\n`);
  console.log(`${RELEASES.length} releases, ${samples.length} samples, zods ${zods.map(z => `${z.name}=${z.version}`).join(' ')}`);
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4]);
} else {
  await parent();
}
