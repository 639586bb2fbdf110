// The action's `run()`, as GitHub's local runner (`npx @github/local-action run . src/main.ts
// .env.example`) imports it: exported, never started at import. src/index.ts starts it.
export { run } from './action/main.ts'
