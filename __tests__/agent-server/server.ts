// The real JS agent server for this suite: started on a free loopback port with the fixture's
// graphs, its state in a temporary directory, stopped (by its own process id) after the suite.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
export const FIXTURE = join(HERE, 'fixture')

export interface RealServer {
  url: string
  stop: () => Promise<void>
  /** What it printed, for a failure's message. */
  output: () => string
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(ok => server.listen(0, '127.0.0.1', ok))
  const port = (server.address() as { port: number }).port
  await new Promise(ok => server.close(ok))
  return port
}

/** The fixture config's graphs with absolute paths (the server's state lives elsewhere). */
async function graphs(): Promise<Record<string, string>> {
  const config = JSON.parse(await readFile(join(FIXTURE, 'langgraph.json'), 'utf8')) as {
    graphs: Record<string, string>
  }
  return Object.fromEntries(
    Object.entries(config.graphs).map(([id, spec]) => [id, resolve(FIXTURE, spec)])
  )
}

/** Starts the server and resolves once it serves (or rejects with what it printed). */
export async function startRealServer(startTimeoutMs = 90_000): Promise<RealServer> {
  const state = await mkdtemp(join(tmpdir(), 'agent-server-'))
  const port = await freePort()
  // Only what node needs: no LangSmith variables, so no tracing and no request leaves the machine.
  const env = { PATH: process.env.PATH ?? '', HOME: state, NODE_ENV: 'test', LOG_LEVEL: 'warn' }
  const child = spawn(
    process.execPath,
    [join(HERE, 'launch.mjs'), state, String(port), JSON.stringify(await graphs())],
    { cwd: FIXTURE, env, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let output = ''
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no start in ${startTimeoutMs} ms:\n${output}`)),
      startTimeoutMs
    )
    child.stdout!.on('data', () => {
      if (output.includes('LISTENING')) {
        clearTimeout(timer)
        ok()
      }
    })
    child.on('exit', code => {
      clearTimeout(timer)
      fail(new Error(`the agent server exited (${code}):\n${output}`))
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      await stopChild(child)
      await rm(state, { recursive: true, force: true })
    }
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise(ok => child.once('exit', ok))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
