// harness.mjs holds what the SDK timing scripts share: their command line,
// feeding bytes to the SDK as a response body would arrive, and the
// configuration lines that `go test -bench` prints first, so that benchstat
// reads their output.

import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GOARCH = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

// chunkedStream returns a ReadableStream that delivers data in views of
// chunk bytes, as a network body arrives.
export function chunkedStream(data, chunk) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= data.length) {
        controller.close();
        return;
      }
      const end = Math.min(at + chunk, data.length);
      controller.enqueue(data.subarray(at, end));
      at = end;
    },
  });
}

// sdkVersion returns the installed @ai-sdk/ui-utils as name@version.
export function sdkVersion() {
  const here = dirname(fileURLToPath(import.meta.url));
  const pkg = JSON.parse(readFileSync(join(here, 'node_modules', '@ai-sdk', 'ui-utils', 'package.json'), 'utf8'));
  return `@ai-sdk/ui-utils@${pkg.version}`;
}

// printConfig prints the configuration lines: goos, goarch, the extra
// lines given (such as pkg), cpu, node and sdk (@ai-sdk/ui-utils).
export function printConfig(...extra) {
  printConfigOf(sdkVersion(), ...extra);
}

// printConfigOf is printConfig with the sdk line's package given, such as
// ai@7.0.173.
export function printConfigOf(sdk, ...extra) {
  console.log(`goos: ${process.platform}`);
  console.log(`goarch: ${GOARCH[process.arch] ?? process.arch}`);
  for (const line of extra) console.log(line);
  console.log(`cpu: ${cpus()[0]?.model ?? 'unknown'}`);
  console.log(`node: ${process.version}`);
  console.log(`sdk: ${sdk}`);
}

// parseArgs reads a script's command line: one FILE and the integer flags
// named in defaults (each ≥ 1, as -name N, -name=N or with two dashes; a
// default of undefined makes the flag required). -h prints usage and exits
// 0; anything wrong prints the script's name, the problem and usage, and
// exits 2. It returns { file, ...flags }.
export function parseArgs(argv, script, usage, defaults) {
  const fail = (msg) => {
    console.error(`${script}: ${msg}\n${usage}`);
    process.exit(2);
  };
  const out = { ...defaults };
  const flag = new RegExp(`^--?(${Object.keys(defaults).join('|')})(?:=(.*))?$`);
  let file;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '-help' || arg === '--help') {
      console.log(usage);
      process.exit(0);
    }
    const m = flag.exec(arg);
    if (m) {
      const v = m[2] !== undefined ? m[2] : argv[++i];
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) fail(`bad -${m[1]} ${JSON.stringify(v)}`);
      out[m[1]] = n;
    } else if (arg.startsWith('-')) {
      fail(`unknown flag ${arg}`);
    } else if (file === undefined) {
      file = arg;
    } else {
      fail(`more than one FILE: ${arg}`);
    }
  }
  if (file === undefined) fail('missing FILE');
  for (const [name, v] of Object.entries(out)) {
    if (v === undefined) fail(`missing -${name}`);
  }
  return { file, ...out };
}
