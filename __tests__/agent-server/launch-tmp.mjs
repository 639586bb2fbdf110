import { startServer } from '@langchain/langgraph-api/server'
const [cwd, port] = process.argv.slice(2)
const { host } = await startServer({ port: Number(port), nWorkers: 2, host: '127.0.0.1', cwd, graphs: { echo: './graph.mjs:graph' } })
console.log('LISTENING', host)
