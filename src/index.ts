// The bundle's entry (action.yml runs dist/index.js): one run of the action.
import { run } from './action/main.ts'

await run()
