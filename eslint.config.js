// Lint rules: type-checked TypeScript rules, plus the layer boundaries of the architecture:
// a folder of src/ may import only from the layers listed before it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';

const layers = [
  'core',
  'config',
  'plugin-api',
  'engine',
  'plugins',
  'stores',
  'observability',
  'workers',
  'executions',
  'events',
  'auth',
  'services',
  'http',
  'mcp',
];

/** Each layer may not import the layers after it (mcp and http are siblings). */
const boundaryRules = layers.map((layer, index) => {
  const forbidden = layers
    .slice(index + 1)
    .filter((later) => !(layer === 'http' && later === 'mcp'));
  if (layer === 'mcp') forbidden.push('http');
  return {
    files: [`src/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbidden.map((name) => ({
            group: [`**/${name}/**`, `**/${name}`, `../${name}/*`],
            message: `The ${layer} layer may not import from ${name} (see docs/architecture.md).`,
          })),
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'bench/results/**',
      'web/dist/**',
      '.tmp/**',
      // Generated from the API description (npm run docs).
      'src/client/api-types.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unnecessary-condition': [
        'error',
        { allowConstantLoopConditions: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read JSON answers field by field; typing every answer would hide the assertions.
    files: ['test/**/*.ts', '**/*.test.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    // Plain JavaScript anywhere (plugins under test/fixtures too) is parsed without a project.
    languageOptions: {
      parserOptions: { projectService: false },
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  ...boundaryRules,
  {
    // The typed client imports nothing of the server, and the command-line client only the
    // typed client: both talk to a server over HTTP, as any client does (docs/api.md).
    files: ['src/client/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(\.\./)+(?!client/index\.js$)[\w-]+/`,
              message:
                'The clients reach the server only over HTTP: import ../client/index.js, node built-ins and npm packages.',
            },
          ],
        },
      ],
    },
  },
  {
    // Built-in plugins are written as any plugin is (docs/writing-a-plugin.md): against the
    // plugin API, node built-ins and npm packages, never the rest of the server. Files in the
    // plugin's own folder are its own; its tests may use the plugins layer's test support.
    files: ['src/plugins/builtin/**/*.ts'],
    ignores: ['src/plugins/builtin/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Any path out of the plugin's folder but the plugin API's.
              regex: String.raw`^\.\.(?!/\.\./\.\./plugin-api/index\.js$)(/|$)`,
              message:
                'A built-in plugin imports only the plugin API (../../../plugin-api/index.js), node built-ins and npm packages.',
            },
          ],
        },
      ],
    },
  },
  {
    // The web UI: React's rules of hooks and the rules its compiler checks. It talks to the
    // REST API only, through the typed client: it never imports the server's code.
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    plugins: reactHooks.configs.flat['recommended-latest'].plugins,
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../../src/*',
                '../../../src/*',
                '../../../../src/*',
                '!../../src/client',
                '!../../src/client/index.js',
              ],
              message:
                'The web UI talks to the REST API only, through ../../src/client/index.js (see docs/ui.md).',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
