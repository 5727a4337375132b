// chat.js: an open-model load test of POST /api/chat with k6/x/chatwire.
//
// Requests arrive at a constant rate whatever the service does (k6's
// constant-arrival-rate executor), so a slow service shows in the latencies
// instead of slowing the load down. Every request creates a chat, and chats
// cost credits: the run sends at most RATE × DURATION requests.
//
//   BASE_URL=https://staging.example.com CHATWIRE_API_KEY=… \
//     ./k6 run -e RATE=2 -e DURATION=1m examples/chat.js
//
// Environment (k6 -e NAME=VALUE or the process environment):
//   BASE_URL          the service; requests go to BASE_URL/api/chat (required)
//   CHATWIRE_API_KEY  the key, sent as a bearer token (required; never printed)
//   RATE              requests started per second (default 2)
//   DURATION          how long to start them (default 30s)
//   MAX_VUS           most streams in flight (default 50)
//   TTFT_P95_MS       threshold on the 95th percentile time to first text (default 3000)
//   PROMPT            the request's content
import chatwire from 'k6/x/chatwire';
import { check } from 'k6';

const baseURL = __ENV.BASE_URL;
const key = __ENV.CHATWIRE_API_KEY;
if (!baseURL || !key) {
  throw new Error('set BASE_URL and CHATWIRE_API_KEY (k6 run -e BASE_URL=… or the environment)');
}
const rate = Number(__ENV.RATE || 2);
const maxVUs = Number(__ENV.MAX_VUS || 50);

export const options = {
  scenarios: {
    chats: {
      executor: 'constant-arrival-rate',
      rate: rate,
      timeUnit: '1s',
      duration: __ENV.DURATION || '30s',
      preAllocatedVUs: Math.min(maxVUs, Math.max(1, Math.ceil(rate * 2))),
      maxVUs: maxVUs,
    },
  },
  thresholds: {
    // Time to the first text a user sees.
    chatwire_ttft: [`p(95)<${Number(__ENV.TTFT_P95_MS || 3000)}`],
    // Streams that failed: an error status, a broken connection, a timeout,
    // a bad line or event, or an empty stream.
    chatwire_stream_failed: ['rate<0.01'],
    // Every line (v4) or event (the UI message stream of AI SDK 5-7) must
    // be valid: one bad line or event fails the run. The protocol is told
    // from each response.
    chatwire_bad_lines: ['count<1'],
    chatwire_bad_events: ['count<1'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'],
};

const prompt = __ENV.PROMPT || 'k6 load test: a one-page site for a bakery';

export default function () {
  const res = chatwire.post(`${baseURL}/api/chat`, { content: prompt }, {
    headers: { Authorization: `Bearer ${key}` },
    timeout: '120s',
    tags: { prompt: 'bakery' },
  });
  check(res, {
    'status is 200': (r) => r.status === 200,
    'stream read to its end': (r) => r.ok || r.canceled,
  });
  if (res.bad_line) {
    const b = res.bad_line;
    console.warn(`chat ${res.chat_id}: bad line ${b.line}:${b.col} (byte ${b.offset}): ${b.message}`);
  } else if (res.bad_event) {
    const b = res.bad_event;
    console.warn(`chat ${res.chat_id}: bad event ${b.event} at ${b.line}:${b.col} (byte ${b.offset}): ${b.message}`);
  } else if (!res.ok && !res.canceled) {
    console.warn(`${res.error_kind}: ${res.error}`);
  }
}
