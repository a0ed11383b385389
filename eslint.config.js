// neostandard (the style of Fastify's own projects) for every JavaScript, TypeScript and Svelte
// file of the repository, the web app in web/ included (Svelte components through
// eslint-plugin-svelte).
import globals from 'globals'
import neostandard, { plugins, resolveIgnoresFromGitignore } from 'neostandard'
import svelte from 'eslint-plugin-svelte'
import tseslint from 'typescript-eslint'
import svelteConfig from './web/svelte.config.js'

// drizzle-orm runs as its CommonJS build, loaded in src/db/orm.ts (which says why): an import of
// the package elsewhere would load its ES modules as a second copy. Types may come from it.
const DRIZZLE_ROOT = {
  regex: '^drizzle-orm(/|$)',
  allowTypeImports: true,
  message: 'Import drizzle-orm through #src/db/orm.js.'
}

export default [
  ...neostandard({
    ts: true,
    noJsx: true,
    ignores: [
      ...resolveIgnoresFromGitignore(),
      'coverage/**',
      'src/db/migrations/**',
      // The web app's generated and built files.
      'web/.svelte-kit/**',
      'web/build/**',
      'web/node_modules/**',
      'web/src/lib/api/schema.d.ts'
    ]
  }),
  {
    plugins: { '@stylistic': plugins['@stylistic'] },
    rules: {
      // `void promise` marks a promise deliberately not awaited (a signal handler, a worker's end).
      'no-void': ['error', { allowAsStatement: true }],
      // Fastify's projects stay near 100 columns. URLs and regular expressions (the log redaction's
      // patterns) read worse broken up.
      '@stylistic/max-len': [
        'error',
        {
          code: 100,
          tabWidth: 2,
          ignoreUrls: true,
          ignoreRegExpLiterals: true
        }
      ]
    }
  },
  {
    // The architecture, checked: other folders are imported through the package imports, and a
    // plugin's repository belongs to that plugin alone (shared data access is src/repositories/).
    files: ['src/**/*.ts', 'plugins/**/*.ts', 'schemas/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          {
            group: ['../*'],
            message: 'Import other folders through #src/..., #shared/..., #plugins/... or ' +
              '#schemas/....'
          },
          // `group` patterns are gitignore patterns, where a leading `#` starts a comment:
          // the package imports are matched by `regex`.
          {
            regex: '^#src/shared/',
            message: 'Import shared code through #shared/....'
          },
          {
            regex: '^#plugins/[^/]+/([^/]*-)?repository[^/]*$',
            message: "Another plugin's repository: move what both use to src/repositories/."
          },
          DRIZZLE_ROOT
        ]
      }]
    }
  },
  {
    // better-sqlite3's .get() drops the error of an autocommit RETURNING statement's commit: a
    // write on a full disk is answered and lost (src/db/returning.ts).
    // Not for the tests: a lost write in their own set-up fails them anyway.
    files: ['src/**/*.ts', 'plugins/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.property.name='get']" +
          "[callee.object.callee.property.name='returning']",
        message: 'A failed commit of .returning(…).get() is lost: use writtenRow() or ' +
          'returnedRow() of #src/db/returning.js.'
      }, {
        selector: "CallExpression[callee.property.name='get']" +
          "[callee.object.callee.property.name='prepare']" +
          '[callee.object.arguments.0.value=/\\breturning\\b/i]',
        message: 'A failed commit of a RETURNING statement read with .get() is lost: use .all().'
      }]
    }
  },
  {
    // Tests and benchmarks may set up data through a plugin's repository.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['../*'],
          message: 'Import other folders through #src/..., #shared/..., #plugins/... or ' +
            '#schemas/....'
        }, DRIZZLE_ROOT]
      }]
    }
  },
  {
    // Shared code runs on the server and in the browser (the web app imports it as $shared/...):
    // nothing of Node, Fastify or the server's folders. No TypeBox: a schema built at the top of a
    // module cannot be dropped by the bundler, and would bring its builder into the web app.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['../*', 'node:*', 'fastify', 'fastify-*', '@fastify/*', 'better-sqlite3',
            'drizzle-orm', 'drizzle-orm/*', '@sinclair/typebox', '@sinclair/typebox/*'],
          message: 'Shared code (server and web app): only shared code and plain libraries.'
        }, {
          regex: '^#(src|plugins|schemas)/',
          message: 'Shared code (server and web app): only shared code and plain libraries.'
        }]
      }]
    }
  },
  {
    // The web app reaches the server's code only through the $shared alias (src/shared).
    files: ['web/**/*.{js,ts,svelte}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '^(\\.\\./)+src/',
          message: 'Import the code shared with the server through $shared/....'
        }]
      }]
    }
  },
  ...svelte.configs.recommended,
  {
    // The web app runs in the browser.
    files: ['web/**/*.{js,ts,svelte}'],
    languageOptions: { globals: globals.browser }
  },
  {
    files: ['web/**/*.svelte', 'web/**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.svelte'],
        svelteConfig
      }
    }
  }
]
