// register.mjs installs zod-alias.mjs; generate.mjs starts its child
// processes with `node --import ./register.mjs`.
import { register } from 'node:module';

register('./zod-alias.mjs', import.meta.url);
