// capture.mjs is zod/v4 as @ai-sdk/provider-utils and the ai packages see it
// under zod-alias.mjs: everything re-exported, with two wrappers that keep
// the client's uiMessageChunkSchema, as the client runs it, in
// globalThis.__capturedSchema:
//
//   - safeParseAsync keeps the schema it validates with (provider-utils
//     validates the lazy schemas of ai 5.0.62 and later through it);
//   - z.union keeps each union whose options include the 'text-start'
//     chunk (ai 5.0.0-5.0.61 build the schema eagerly with z.union and hand
//     it to provider-utils as a Standard Schema).
//
// Nothing else changes: the wrapped calls return what zod returns.

import * as real from 'zod/v4';

export * from 'zod/v4';

export async function safeParseAsync(schema, value, params) {
  globalThis.__capturedSchema = schema;
  return real.safeParseAsync(schema, value, params);
}

function isChunkUnion(options) {
  return Array.isArray(options) && options.some(o => {
    const type = o?._zod?.def?.shape?.type;
    return type?._zod?.def?.type === 'literal' && type._zod.def.values.includes('text-start');
  });
}

export const z = {
  ...real.z,
  union(options, params) {
    const schema = real.z.union(options, params);
    if (isChunkUnion(options)) globalThis.__capturedSchema = schema;
    return schema;
  },
};
