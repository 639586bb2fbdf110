// Starts the real JS agent server (@langchain/langgraph-api, in memory) as its dev command does,
// without the CLI's file watcher: `node launch.mjs <state dir> <port> <graphs as JSON>`. Prints
// `LISTENING <host:port>` once it serves.
import { startServer } from '@langchain/langgraph-api/server'

const [cwd, port, graphs] = process.argv.slice(2)
const { host, cleanup } = await startServer({
  port: Number(port),
  nWorkers: 2,
  host: '127.0.0.1',
  cwd,
  graphs: JSON.parse(graphs)
})
process.stdout.write(`LISTENING ${host}\n`)
process.on('SIGTERM', () => {
  void Promise.resolve(cleanup())
    .catch(() => undefined)
    .finally(() => process.exit(0))
})
