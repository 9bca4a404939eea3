// @ts-check
// ESLint: typescript-eslint's recommended rules (no type information, so it stays fast) and the
// direction of imports from DESIGN.md: protocol <- actors <- machines <- server, the runtime names
// no system, and a system folder never imports another system's folder.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every system's folder name (DESIGN.md's table), including systems that have no folder yet. */
export const systems = ['nutrition', 'trainer', 'tiers', 'coscientist', 'org'];

/** The runtime's own files in each layer: they serve every system and may name none. */
const runtimeFiles = {
  protocol: ['protocol/runtime/**'],
  actors: ['actors/runtime/**', 'actors/models/**'],
  machines: ['machines/runtime/**', 'machines/registry.ts'],
  server: ['server/*.{ts,js}', 'server/run-host/**', 'server/viz/**', 'server/a2a/**'],
};

/** What each layer may not import: imports flow protocol <- actors <- machines <- server. */
const layerRestrictions = {
  protocol: [
    {
      group: ['**/actors/**', '**/machines/**', '**/server/**'],
      message:
        'protocol/ may not import actors/, machines/ or server/ (imports flow protocol <- actors <- machines <- server): move the shared piece down into protocol/.',
    },
  ],
  actors: [
    {
      group: ['**/machines/**', '**/server/**'],
      message:
        'actors/ may not import machines/ or server/ (imports flow protocol <- actors <- machines <- server): move the shared piece down to protocol/ or actors/, or pass it in from the caller.',
    },
  ],
  machines: [
    {
      group: ['**/server/**'],
      message:
        'machines/ may not import server/ (imports flow protocol <- actors <- machines <- server): move the shared piece down to protocol/ or actors/, or pass it in from the caller.',
    },
  ],
  server: [],
};

const runtimeRestriction = {
  group: systems.map((system) => `**/${system}/**`),
  message: `The runtime (protocol/runtime, actors/runtime, actors/models, machines/runtime, machines/registry.ts, the server core) may not import a system folder (${systems.join(', ')}): move the shared piece into a runtime folder, or let the system hand it over through its system module.`,
};

/** @param {string} system */
const otherSystemsRestrictions = (system) =>
  systems
    .filter((other) => other !== system)
    .map((other) => ({
      group: [`**/${other}/**`],
      message: `The ${system} system may not import the ${other} system's folder: move the shared piece into a runtime folder (protocol/runtime, actors/runtime, actors/models, machines/runtime).`,
    }));

/**
 * One config block per kind of file. A later block replaces an earlier block's options for the same
 * rule, so each block lists every restriction that applies to its files. tests/ and bench/ match none.
 */
const importBoundaries = Object.entries(layerRestrictions).flatMap(([layer, restrictions]) => [
  {
    name: `boundaries/${layer}`,
    files: [`${layer}/**`],
    rules: { 'no-restricted-imports': ['error', { patterns: restrictions }] },
  },
  {
    name: `boundaries/${layer}/runtime`,
    files: runtimeFiles[/** @type {keyof typeof runtimeFiles} */ (layer)],
    rules: { 'no-restricted-imports': ['error', { patterns: [...restrictions, runtimeRestriction] }] },
  },
  ...systems.map((system) => ({
    name: `boundaries/${layer}/${system}`,
    files: [`${layer}/${system}/**`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...restrictions, ...otherSystemsRestrictions(system)] }],
    },
  })),
]);

export default defineConfig(
  {
    name: 'ignores',
    ignores: [
      'data/**',
      'coverage/**',
      'test-results/**',
      'docs/machines/**',
      'bench/results.json',
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'project',
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Boundaries (HTTP bodies, model output, SDK payloads) are typed by zod schemas; an `any`
      // elsewhere is reviewed, not banned.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // A `let` that a closure reads before its one assignment (an actor's own ref) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    name: 'browser assets',
    files: ['server/viz/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  importBoundaries,
);
