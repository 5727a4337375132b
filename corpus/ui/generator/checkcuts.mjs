// checkcuts.mjs re-reads every stream of corpus/ui cut after each event,
// with the given releases (all installed ones by default), and checks that
// the reading of the cut ends where the expected file says the reading of
// the whole stream stood after that event: the same message, and a throw
// exactly where the expected file has one. It is the check that the
// per-event lines are what a client shows when the body ends there.
//
//   node checkcuts.mjs [RELEASE...]

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

import { readBody } from './read.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'MANIFEST.json'), 'utf8'));
const wanted = process.argv.slice(2);
const releases = manifest.releases.map((r) => r.version).filter((v) => wanted.length === 0 || wanted.includes(v));
const sha256 = (s) => createHash('sha256').update(s).digest('hex');

let cuts = 0;
let bad = 0;
const started = Date.now();
for (const v of releases) {
  const sdk = await import(`ai-${v}`);
  for (const [file, s] of Object.entries(manifest.streams)) {
    const path = file.replace(/\.sse$/, '');
    const bytes = readFileSync(join(ROOT, file));
    const message = s.message === null ? undefined : JSON.parse(readFileSync(join(ROOT, s.message), 'utf8'));
    const lines = readFileSync(join(ROOT, 'expected', path, `${s.readings[v]}.jsonl`), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    lines.pop();
    // Every cut of a stream of up to 60 events; of a longer one, every
    // 25th and the last five (each cut is a reading from the start).
    const picked = lines.length <= 60 ? lines : lines.filter((_, k) => k % 25 === 0 || k >= lines.length - 5);
    for (const at of picked) {
      const got = await readBody(sdk, bytes.subarray(0, at.end), message);
      cuts++;
      // A body that ends in \r leaves that \r unread (it could be the
      // first half of \r\n), so an event whose blank line ends in a lone
      // \r is not dispatched when the body ends there: the cut reads as
      // the stream cut after the event before.
      const k = lines.indexOf(at) - (bytes[at.end - 1] === 13 ? 1 : 0);
      const want = k >= 0 ? lines[k] : { message: null };
      const gotMessage = got.last === null ? null : got.last;
      const wantHash = want.message_sha256 ?? (want.message === null ? null : sha256(JSON.stringify(want.message)));
      const gotHash = gotMessage === null ? null : sha256(gotMessage);
      const wantThrows = want.throws !== undefined || want.parse_error !== undefined;
      const gotThrows = got.outcome.result === 'throws';
      if (wantHash !== gotHash || wantThrows !== gotThrows || got.lines.length !== k + 1) {
        bad++;
        console.log(`${v} ${path} cut after event ${at.event} (byte ${at.end}): got ${got.lines.length} chunks, throws ${gotThrows}; want throws ${wantThrows}, message ${wantHash === gotHash ? 'same' : 'differs'}`);
      }
    }
  }
}
console.log(`${cuts} cuts, ${bad} differ, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = bad === 0 ? 0 : 1;
