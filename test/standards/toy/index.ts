// A toy standard, to prove the seam (docs/house.md, "Adding a standard"): one folder and one
// registry line, and the runner, the CLI and the profile loader accept it without any other
// change. Its API is one operation (GET /greeting), its one rule TOY-01, its bank has no
// authorisation server (a profile without an auth block), and it brings its own features and steps.
import { fileURLToPath } from 'node:url';
import type { StandardModule } from '../../../src/standards/standard.ts';

export const toy: StandardModule<'toy'> = {
  name: 'toy',
  catalogue: {
    getGreeting: {
      api: 'ais', method: 'GET', path: '/greeting', ids: [], body: false, token: 'none', variants: ['A', 'B'],
      responses: { 200: 'Greeting' }, words: 'reading the greeting (obtpp does not speak it at the terminal)',
    },
  },
  versions: [],
  words: { wire: 'Toy API 1.0', client: 'Toy API (toy)' },
  judged: { name: 'Toy API', version: '1.0' },
  features: fileURLToPath(new URL('./features', import.meta.url)),
  stepDefinitions: [fileURLToPath(new URL('./steps.ts', import.meta.url))],
  profile: {
    words: "'toy' (a toy standard of the tests)",
    // Its own field, right after dialect.
    schema: { dialect: { greeting: { type: 'string', minLength: 1, description: 'toy only: what the bank says.' } } },
    ownFields: ['greeting'],
    withoutAuth: { words: 'a toy bank', problems: () => [] },
    complete: (p) => ({ ...(p.greeting ? { greeting: p.greeting } : {}) }) as never,
  },
};
