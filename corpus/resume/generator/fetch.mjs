// fetch.mjs is the fetch the clients are given: it answers each request
// with the scenario's next response, as recorded, and records the
// requests.
//
// A body comes in pieces, one per SSE event or v4 line (pieces in
// streams.mjs), as a server that flushes each part sends it; the client
// reads each piece to the end of its processing before the next comes (the
// event loop is left to run until nothing is pending). How the body ends
// is the response's end:
//
//   eof      the body ends cleanly after its bytes
//   cut      the connection breaks after them: the body errors with
//            TypeError("network error"), as Chromium reports a dropped
//            connection (the chat's disconnect test looks for "network")
//   open     the connection stays open and no more bytes come
//   refused  no response at all: fetch rejects with TypeError("fetch
//            failed"), as Node's fetch does when it cannot connect
//
// A request beyond the scenario's responses is left unanswered (the
// promise never settles): the client waits there, and the scenario says
// which request it waits for.

import { setImmediate as tick } from 'node:timers/promises';

import { pieces } from './streams.mjs';

// settle lets every pending promise job and stream step run: the clients
// await promises only (no timers), so a few turns of the event loop leave
// nothing pending.
export async function settle() {
  for (let i = 0; i < 5; i++) await tick();
}

// mockFetch returns {fetch, requests, waiting}. responses are
// [{status, headers, body (Buffer), end}]; framing is 'sse' or 'v4'.
// waiting is a promise that resolves when the client waits on a request
// or a body that gets no more answer; state.waiting tells whether it has.
export function mockFetch(responses, framing) {
  const requests = [];
  const state = { waiting: null };
  let wake;
  const waiting = new Promise((r) => (wake = r));
  const block = (what) => {
    state.waiting = what;
    wake();
    return new Promise(() => {});
  };

  async function fetch(input, init = {}) {
    const method = init.method ?? 'GET';
    const url = String(input);
    requests.push({ method, url });
    const r = responses[requests.length - 1];
    if (r === undefined) return block({ request: { method, url } });
    if (r.end === 'refused') throw new TypeError('fetch failed');
    const headers = new Headers(r.headers ?? {});
    if ([101, 204, 205, 304].includes(r.status)) {
      if (r.body.length > 0) throw new Error(`a ${r.status} response has no body`);
      return new Response(null, { status: r.status, headers });
    }
    const ps = pieces(r.body, framing);
    let i = 0;
    const body = new ReadableStream(
      {
        async pull(controller) {
          if (i < ps.length) {
            controller.enqueue(new Uint8Array(ps[i++]));
            return;
          }
          switch (r.end) {
            case 'eof':
              controller.close();
              return;
            case 'cut':
              await settle();
              controller.error(new TypeError('network error'));
              return;
            case 'open':
              return block({ open: { method, url } });
            default:
              throw new Error(`unknown end ${r.end}`);
          }
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: r.status, headers });
  }

  return { fetch, requests, waiting, state };
}
