// generate.mjs writes corpus/resume/: scenarios of a chat stream cut and
// resumed, and what each real client release's chat holds after each, all
// from the real npm packages installed side by side (package.json: one
// alias per release).
//
//   cd corpus/resume/generator && npm ci && node generate.mjs
//
// scenarios/NAME.json   a scenario: the contract, the chat id, the messages
//                       the chat holds at the start, the steps (send,
//                       resume), and the responses the mock fetch serves,
//                       in order: status, headers, body (text, or
//                       body_base64 where it is not UTF-8) and how the body
//                       ends (eof, cut, open, refused: fetch.mjs)
// expected/NAME.json    what each client made of it: the requests it sent,
//                       the request or body it waits on, its status, its
//                       error (name, message) and its messages, one record
//                       per group of releases that ended alike
//
// Output is deterministic: fixed ids (counters), no clocks, no timers.
// Two runs give byte-identical trees.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { runAISDK, runV4, runWorkflow, semver } from './clients.mjs';
import { scenarios } from './scenarios.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const require = createRequire(import.meta.url);

function checkNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20 && process.env.CORPUS_ANY_NODE !== '1') {
    throw new Error(`node ${process.versions.node}: the expected files quote Node 20's fetch and JSON.parse messages; set CORPUS_ANY_NODE=1 to run anyway and review the diff`);
  }
}

// aiReleases lists the ai 5, 6 and 7 releases package.json installs.
function aiReleases() {
  const pkg = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));
  return Object.keys(pkg.dependencies)
    .filter((k) => /^ai-[567]\./.test(k))
    .map((k) => k.slice('ai-'.length))
    .sort(semver);
}

// version reads the installed version of a package (an alias or a name).
function version(name) {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

// REACT lists the @ai-sdk/react releases installed (package.json) whose
// own Chat class the cross-check runs: each pins one ai release.
const REACT = ['react-2.0.0', 'react-2.0.280', 'react-3.0.0', 'react-3.0.307', 'react-4.0.64', 'react-4.0.141', 'react-4.0.177'];

// DIRECT lists the releases run a second time with the app's own Chat
// (useChat({chat}): the chat has the transport itself, not useChat's
// wrapper), recorded as RELEASE+chat: the ai 6 releases whose transport
// says a resume is a replay, which @ai-sdk/react 3 does not forward.
const DIRECT = ['6.0.304', '6.0.326'];

// crossCheck runs every ai-sdk scenario with @ai-sdk/react's own Chat
// class (ReactChatState, the snapshot of its release) over the ai release
// it pins, and requires the same record as the Chat clients.mjs builds
// on that release's AbstractChat: the expected files' chat is useChat's.
async function crossCheck(list, records) {
  let n = 0;
  for (const name of REACT) {
    const { Chat } = await import(name);
    const req = createRequire(require.resolve(name));
    const sdk = await import(pathToFileURL(req.resolve('ai')).href);
    const release = JSON.parse(readFileSync(req.resolve('ai/package.json'), 'utf8')).version;
    for (const s of list) {
      const want = records.get(`${s.name} ${release}`);
      if (want === undefined) throw new Error(`${name}: ai@${release} is not installed as ai-${release}`);
      const got = await runAISDK(sdk, release, s, 'usechat', Chat);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        throw new Error(`${s.name}: @ai-sdk/react ${name.slice('react-'.length)}'s Chat (ai@${release}) ends otherwise than AbstractChat with useChat's state:\n${JSON.stringify(got)}\n${JSON.stringify(want)}`);
      }
      n++;
    }
  }
  return n;
}

// scenarioFile is the scenario as its file keeps it: each body as text
// where it is valid UTF-8, else as base64.
function scenarioFile(s) {
  const { responses, ...rest } = s;
  return {
    ...rest,
    responses: responses.map(({ body, ...r }) => {
      const text = body.toString('utf8');
      return Buffer.from(text, 'utf8').equals(body) ? { ...r, body: text } : { ...r, body_base64: body.toString('base64') };
    }),
  };
}

// group folds runs whose records are equal into one record with the list
// of their releases, in the order of the first run of each.
function group(runs) {
  const out = [];
  const byKey = new Map();
  for (const { release, record } of runs) {
    const key = JSON.stringify(record);
    let g = byKey.get(key);
    if (g === undefined) {
      g = { releases: [], ...record };
      byKey.set(key, g);
      out.push(g);
    }
    g.releases.push(release);
  }
  return out;
}

function write(path, value) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 1) + '\n');
}

async function main() {
  checkNode();
  for (const d of ['scenarios', 'expected']) rmSync(join(ROOT, d), { recursive: true, force: true });
  const releases = aiReleases();
  const sdks = new Map();
  for (const r of releases) sdks.set(r, await import(`ai-${r}`));
  const workflow = await import('@ai-sdk/workflow/client');
  const uiUtils = await import('@ai-sdk/ui-utils');
  const names = new Set();
  const records = new Map();
  const aiSDK = [];
  for (const s of scenarios()) {
    if (names.has(s.name)) throw new Error(`two scenarios named ${s.name}`);
    names.add(s.name);
    const runs = [];
    switch (s.contract) {
      case 'ai-sdk':
        aiSDK.push(s);
        for (const r of releases) {
          const record = await runAISDK(sdks.get(r), r, s, 'usechat');
          records.set(`${s.name} ${r}`, record);
          runs.push({ release: r, record });
        }
        for (const r of DIRECT) runs.push({ release: `${r}+chat`, record: await runAISDK(sdks.get(r), r, s, 'chat') });
        break;
      case 'workflow':
        runs.push({ release: `workflow@${version('@ai-sdk/workflow')}+ai@7.0.173`, record: await runWorkflow(workflow, sdks.get('7.0.173'), s) });
        break;
      case 'ai-sdk-4':
        runs.push({ release: `ai@${version('ai-4.3.19')}+ui-utils@${version('@ai-sdk/ui-utils')}`, record: await runV4(uiUtils, s) });
        break;
      default:
        throw new Error(`${s.name}: unknown contract ${s.contract}`);
    }
    write(join(ROOT, 'scenarios', `${s.name}.json`), scenarioFile(s));
    write(join(ROOT, 'expected', `${s.name}.json`), { scenario: s.name, outcomes: group(runs) });
  }
  const checked = await crossCheck(aiSDK, records);
  process.stdout.write(`corpus/resume: ${names.size} scenarios, ${releases.length} ai releases; @ai-sdk/react's own Chat agreed in ${checked} runs\n`);
}

await main();
