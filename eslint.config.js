import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        setImmediate: 'readonly',
        TextDecoder: 'readonly'
      }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }
      ],
      'no-control-regex': 'off'
    }
  },
  {
    // Only the entry layer talks to the runner (workflow commands, outputs, the summary).
    files: ['src/**/*.ts'],
    ignores: ['src/main.ts', 'src/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@actions/core',
              message:
                'Only src/main.ts and src/index.ts talk to the runner: take a log port or return a value instead.'
            }
          ],
          patterns: [
            {
              regex: '(^|/)runner(\\.ts)?$',
              message:
                'src/runner.ts is the runner protocol of the entry layer: only src/main.ts and src/index.ts import it; take a log port or return a value instead.'
            }
          ]
        }
      ]
    }
  }
)
