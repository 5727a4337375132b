// rand.mjs is the seeded randomness of the scripts that write streams with
// the real AI SDK: corpus/generator/generate.mjs and
// bench/sdk/short-streams.mjs. A Rand is seeded with the FNV-1a hash of a
// name (a case's, a stream's), so reruns are byte-identical.

// mulberry32 is a small 32-bit PRNG; it returns floats in [0, 1).
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// fnv1a hashes a case name into its PRNG seed.
export function fnv1a(s) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(s, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class Rand {
  constructor(name) {
    this.next = mulberry32(fnv1a(name));
  }
  int(lo, hi) { // inclusive
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(xs) {
    return xs[Math.floor(this.next() * xs.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  id(prefix, n = 16) {
    const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let s = '';
    for (let i = 0; i < n; i++) s += abc[Math.floor(this.next() * abc.length)];
    return `${prefix}${s}`;
  }
}
