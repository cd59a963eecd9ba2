// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import local from './eslint-rules/no-import-cycles.js';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'stream/promises',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

/** Import boundaries per folder: what may not be imported from there, and why. */
const noElectron = {
  name: 'electron',
  message: 'Only src/main/app and src/preload may import electron (keeps the rest testable).',
};
const noNode = [
  { group: ['node:*'], message: 'This folder runs in the browser too: no Node built-ins.' },
];
const noBareNode = NODE_BUILTINS.map((name) => ({
  name,
  message: 'This folder runs in the browser too: no Node built-ins.',
}));

// ---------------------------------------------------------------------------------------
// The renderer's layers (src/renderer/src): shell → screens → kit → components, queries,
// state → bridge. Outside its own folder a module imports through @renderer/… or @shared/…
// (the aliases of aliases.config.ts), so that the specifier says which layer it reaches.

const RENDERER = 'src/renderer/src';
const AREAS = readdirSync(`${import.meta.dirname}/${RENDERER}/screens`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const REACT_QUERY_HOOKS = {
  name: '@tanstack/react-query',
  importNames: [
    'useQuery',
    'useQueries',
    'useInfiniteQuery',
    'useSuspenseQuery',
    'useSuspenseQueries',
    'useSuspenseInfiniteQuery',
    'useMutation',
    'useQueryClient',
  ],
  message:
    'Data from main goes through queries/: its definitions and hooks (useServerQuery, useAppQuery, useMutationOf), so each query is defined once and keyed by the active server.',
};

/**
 * The renderer's no-restricted-imports: what every module may not import, and `forbid`,
 * the layers this folder may not reach (regular expressions over the specifier).
 * @param {{ forbid?: { regex: string, message: string }[], reactQuery?: boolean }} options
 */
function rendererImports({ forbid = [], reactQuery = false } = {}) {
  return [
    'error',
    {
      paths: [noElectron, ...noBareNode, ...(reactQuery ? [] : [REACT_QUERY_HOOKS])],
      patterns: [
        ...noNode,
        {
          regex: '^\\.\\./',
          message:
            'Outside its own folder, the renderer imports through @renderer/… or @shared/…: the specifier then says which layer it reaches, and lint can check it.',
        },
        ...forbid,
      ],
    },
  ];
}

const NO_SCREENS_OR_SHELL = {
  regex: '^@renderer/(screens|shell)(/|$)',
  message:
    'Only the shell and the screens use screens; the shell imports them all, so nothing below may import the shell or a screen.',
};

/** Per folder: the layers it may not import. */
const LAYERS = {
  components: [
    NO_SCREENS_OR_SHELL,
    {
      regex: '^@renderer/(kit|queries|bridge)(/|$)',
      message:
        'components/ holds small generic widgets: no data from main (queries/, bridge/) and no kit/.',
    },
  ],
  kit: [NO_SCREENS_OR_SHELL],
  state: [
    NO_SCREENS_OR_SHELL,
    {
      regex: '^@renderer/(kit|components|queries|bridge)(/|$)',
      message: 'state/ holds UI state only: no widgets and no data from main.',
    },
  ],
  queries: [
    NO_SCREENS_OR_SHELL,
    {
      regex: '^@renderer/(kit|components|state)(/|$)',
      message: 'queries/ reads and changes data through the bridge: it knows no UI.',
    },
  ],
  bridge: [
    {
      regex: '^@renderer/(?!bridge(/|$))',
      message: 'bridge/ is the typed client of the contract: it imports only src/shared.',
    },
  ],
};

// Main's floors (src/main), lowest first. A folder, or a module at the top of src/main,
// imports only from the floors below its own: nothing from its own floor but itself, and
// nothing from above. At the ground, modules that need nothing of main; then the Debusine
// client (api/), the settings that name servers and keep tokens, the domains, the results
// read from them, the notifications made of those, and what follows completions (watch/)
// or asks the user's key (signing/). Above every domain: the bridge (the caller and the
// contract's checks), the service (one module of handlers per namespace, given their
// caller by the bridge), the composition root that builds it, and the two hosts at the
// top (app/ for Electron, web/ for the browser), neither of which imports the other.

const MAIN = 'src/main';
/** @type {string[][]} */
export const MAIN_FLOORS = [
  ['bounded', 'json-file', 'small-file', 'static-files', 'streams', 'unhandled', 'version'],
  ['api'],
  ['settings'],
  ['archives', 'artifacts', 'enroll', 'identity', 'queue'],
  ['dput', 'logs'],
  ['results'],
  ['notify'],
  ['signing', 'watch'],
  ['bridge'],
  ['service'],
  ['composition-root'],
  ['app', 'web'],
];

const MAIN_PLACES = MAIN_FLOORS.flat();
const MAIN_FOLDERS = readdirSync(`${import.meta.dirname}/${MAIN}`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const MAIN_MODULES = readdirSync(`${import.meta.dirname}/${MAIN}`, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => entry.name.replace(/\.ts$/, ''));
const unplaced = [...MAIN_FOLDERS, ...MAIN_MODULES].filter((name) => !MAIN_PLACES.includes(name));
if (unplaced.length > 0) {
  throw new Error(`eslint.config.js: put ${unplaced.join(', ')} on one of MAIN_FLOORS`);
}

/**
 * What a module of `place` may not import: every place on its floor or above, but itself.
 * From a folder's module, main's places are reached with `../` (one or more); from a
 * module at the top of src/main, with `./`.
 */
function floorPatterns(place, fromTop) {
  const floor = MAIN_FLOORS.findIndex((names) => names.includes(place));
  const above = MAIN_FLOORS.slice(floor)
    .flat()
    .filter((name) => name !== place);
  const detour = {
    // A detour out of src/main and back in ('../../main/app') reaches the same modules.
    regex: '^(\\.\\./)+main(/|$)',
    message: `${place} is checked against the floors of main (MAIN_FLOORS in eslint.config.js) by its relative imports: main's modules reach each other by the shortest path, with no detour out of src/main.`,
  };
  if (above.length === 0) return [detour];
  return [
    detour,
    {
      regex: `^${fromTop ? '\\./' : '(\\.\\./)+'}(${above.join('|')})(\\.ts)?(/|$)`,
      message: `${place} stands on floor ${String(floor)} of main (MAIN_FLOORS in eslint.config.js): it imports only from the floors below it, nothing beside or above it.`,
    },
  ];
}

/** Per folder of main: the floor's patterns, and electron kept to the Electron host. */
const mainFloors = () =>
  MAIN_FOLDERS.map((folder) => ({
    files: [`${MAIN}/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...(folder === 'app' ? {} : { paths: [noElectron] }),
          patterns: floorPatterns(folder, false),
        },
      ],
    },
  }));

/** The modules at the top of src/main, each on its own floor. */
const mainTopModules = MAIN_PLACES.filter((name) => !MAIN_FOLDERS.includes(name)).map((name) => ({
  files: [`${MAIN}/${name}.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      { paths: [noElectron], patterns: floorPatterns(name, true) },
    ],
  },
}));

/** Raw IPC lives in its wrappers: app/ipc.ts (main.ts hands it ipcMain) and the preload. */
const noRawIpc = (name) => ({
  name: 'electron',
  importNames: [name],
  message: `${name} is used through its wrapper only (src/main/app/ipc.ts, src/preload/api.ts): every channel behind the sender check and the contract.`,
});

// artifacts/ is layered inside too. Its index.ts is the folder's front (the rest of main
// imports it, or a sub-folder's module directly). Below it, hashing/ hashes local files
// (for whoever asks), formats/ reads what artifacts are made of (artifact paths, tar, .deb,
// deb822 and the file lists of .dsc and .changes), local/ builds and checks local
// artifacts from the user's files, and transfer/ downloads and uploads them (an upload
// sends a local artifact). Each imports only the folders before it in that order, and
// none imports the front, which imports them all.

const ARTIFACTS = `${MAIN}/artifacts`;

/** A specifier that reaches one of `folders` of artifacts/ from one of its sub-folders. */
const artifactFolders = (folders) => `^(\\.\\./)+(artifacts/)?(${folders.join('|')})(/|$)`;

/** Per sub-folder of artifacts/: the sub-folders it may not import. */
const ARTIFACT_LAYERS = {
  hashing: [
    {
      regex: artifactFolders(['formats', 'local', 'transfer']),
      message:
        'artifacts/hashing/ hashes files for whoever asks: it imports no formats/, local/ or transfer/ (they use it).',
    },
  ],
  formats: [
    {
      regex: artifactFolders(['local', 'transfer']),
      message:
        'artifacts/formats/ reads what artifacts are made of, knowing nothing of local artifacts or transfers: it imports no local/ or transfer/ (they use it).',
    },
  ],
  local: [
    {
      regex: artifactFolders(['transfer']),
      message:
        'artifacts/local/ builds and checks local artifacts; transfer/ sends them, so it imports local/, not the other way round.',
    },
  ],
  transfer: [],
};

const noArtifactsFront = {
  regex: '^\\.\\.(/\\.\\./artifacts)?(/index)?/?$',
  message:
    "artifacts/index.ts is the folder's front for the rest of main and imports every sub-folder: a sub-folder imports the module it needs, not the front.",
};

const mainLayers = [
  ...mainFloors(),
  ...mainTopModules,
  // These replace the options of the rule above for artifacts' sub-folders, so they repeat them.
  ...Object.entries(ARTIFACT_LAYERS).map(([folder, forbid]) => ({
    files: [`${ARTIFACTS}/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [...floorPatterns('artifacts', false), noArtifactsFront, ...forbid],
        },
      ],
    },
  })),
  {
    files: [`${MAIN}/app/**/*.ts`],
    ignores: [`${MAIN}/app/main.ts`, `${MAIN}/app/ipc.ts`],
    // This replaces the options of app/'s floor rule, so it repeats its patterns.
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noRawIpc('ipcMain')], patterns: floorPatterns('app', false) },
      ],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    ignores: ['src/preload/index.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noRawIpc('ipcRenderer')] }] },
  },
];

const rendererLayers = [
  ...Object.entries(LAYERS).map(([folder, forbid]) => ({
    files: [`${RENDERER}/${folder}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': rendererImports({ forbid, reactQuery: folder === 'queries' }),
    },
  })),
  ...AREAS.map((area) => ({
    files: [`${RENDERER}/screens/${area}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': rendererImports({
        forbid: [
          {
            regex: `^@renderer/(shell(/|$)|screens/(?!${area}(/|$)))`,
            message:
              'A screen imports no other screen (move what two areas share to kit/ or components/), nor the shell (which imports the screens).',
          },
        ],
      }),
    },
  })),
];

/** Code that ships nowhere: tests, benchmarks and build configuration. */
const TESTS_AND_TOOLS = ['test/**/*.{ts,tsx}', 'bench/**/*.ts', '*.config.ts'];

// Every block that sets no-restricted-syntax replaces the others' selectors for its files,
// so each lists this one too.
const NO_ENUM = {
  selector: 'TSEnumDeclaration',
  message: 'Use a union of string literals, not an enum.',
};
// Each spread argument is a slot on the call stack: an array read from a server or a file
// (200,000 lines of a .changes) overflows it, with "Maximum call stack size exceeded".
const NO_SPREAD_ARGUMENTS = {
  selector: [
    'CallExpression[callee.property.name=/^(push|unshift|assign)$/] > SpreadElement',
    "CallExpression[callee.object.name='Math'] > SpreadElement",
  ].join(', '),
  message:
    'Do not spread an array into push, unshift, Object.assign or Math: its length may be unbounded and each element takes a stack slot. Use a for…of loop.',
};

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'bench/results/**',
      'scripts/**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Both ask the type checker, at every assignment, whether its source is an instance
      // of its target's class or enum: a fifth of the whole lint's time, which must stay
      // short enough to run before every commit. The code declares no enum (NO_ENUM refuses
      // one), and a plain object standing for a class instance is the compiler's to refuse
      // wherever the class has #private fields, as main's stores and services do.
      '@typescript-eslint/no-unsafe-enum-assignment': 'off',
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      // `npm run deprecated` refuses the use of a deprecated declaration instead
      // (scripts/deprecated.mjs): TypeScript notes each one while it checks a file anyway,
      // where this rule asked the checker again for every identifier, call and JSX attribute.
      '@typescript-eslint/no-deprecated': 'off',
      'no-restricted-syntax': ['error', NO_ENUM, NO_SPREAD_ARGUMENTS],
    },
  },
  {
    files: ['eslint.config.js', 'eslint-rules/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['eslint-rules/**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/main/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', '*.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...noBareNode,
            { name: 'react', message: 'src/shared is plain TypeScript.' },
          ],
          patterns: noNode,
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, local },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': rendererImports(),
      // The aliases of aliases.config.ts, so that the rule follows imports through them.
      'local/no-import-cycles': [
        'error',
        { aliases: { '@renderer': RENDERER, '@shared': 'src/shared' } },
      ],
    },
  },
  ...rendererLayers,
  {
    // Main's events enter the renderer in one layer: queries/events.ts writes what they say
    // into the cache, and hands the window's own reactions out through useMainEvent.
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['src/renderer/src/queries/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_ENUM,
        NO_SPREAD_ARGUMENTS,
        {
          selector: "CallExpression[callee.property.name='on'][arguments.0.type='Literal']",
          message:
            "Main's events are listened to in queries/ only: their data through queries/events.ts into the cache, a reaction of the window through useMainEvent.",
        },
      ],
    },
  },
  {
    // Which host the app runs in is the bridge's business: the rest of the renderer asks
    // what the host can do (app.info's capabilities), or makes a request that each host
    // answers its own way (the page answers some itself: bridge/web-host-api.ts).
    files: [`${RENDERER}/**/*.{ts,tsx}`],
    ignores: [`${RENDERER}/bridge/**`],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'transport',
          message:
            "The renderer does not ask which host it runs in: read what the host can do in app.info's capabilities (useCapabilities), or make a request each host answers its own way.",
        },
        {
          object: 'window',
          property: 'debusine',
          message:
            "Only bridge/ reaches window.debusine (Electron's preload): elsewhere its presence would tell which host the app runs in. Use useBridge().",
        },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/app/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  ...mainLayers,
  {
    files: ['src/main/**/*.ts', 'src/preload/**/*.ts'],
    plugins: { local },
    rules: { 'local/no-import-cycles': ['error', { aliases: {} }] },
  },
  {
    // An undici body dropped with no 'error' listener ends the process (src/main/streams.ts):
    // requests go through the three places that own the answer's body from its first moment.
    files: ['src/main/**/*.ts'],
    ignores: [
      'src/main/api/http.ts',
      'src/main/artifacts/transfer/fetch-body.ts',
      'src/main/artifacts/transfer/upload-file.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_ENUM,
        NO_SPREAD_ARGUMENTS,
        {
          selector: "CallExpression[callee.object.property.name='dispatcher']",
          message:
            'Send requests with HttpTransport.send or fetchBody, which own the body (streams.ts), not through the dispatcher.',
        },
      ],
    },
  },
  // Tests, benchmarks and build configuration are linted without the rules that follow
  // types through every expression, save for the one mistake a test makes silently and the
  // compiler lets through: a promise nobody awaits (a Playwright step, a helper, a request
  // that then runs after the test has passed). The others asked the type checker again
  // about code that `npm run typecheck` checks already and that ships nowhere: they took a
  // third of the lint's time, which must stay short enough to run before every commit.
  {
    files: TESTS_AND_TOOLS,
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: TESTS_AND_TOOLS,
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Their arrays are the tests' own: the stack's bound is for what the app reads.
      'no-restricted-syntax': ['error', NO_ENUM],
    },
  },
);
