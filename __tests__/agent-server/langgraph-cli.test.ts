// The real JS LangGraph CLI (@langchain/langgraph-cli, `langgraphjs deploy --remote`) against the
// emulator on loopback, as the service's own client: it creates, uploads, patches and waits until
// DEPLOYED. Then our CLI uploads the same project, and the emulator must build it the same way:
// the same graphs, the same unpacked files. Run with `npm run test:agent-server` (.ci/run runs it).
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/server.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const NODE24 = join(ROOT, 'node_modules/node/bin/node')
const LANGGRAPH_CLI = join(ROOT, 'node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs')
const OUR_CLI = join(ROOT, 'src/cli/index.ts')
/** A failure's bound, not a speed bound: either CLI ends well before it on any machine. */
const RUN_BOUND_MS = 100_000

interface Run {
  code: number | null
  output: string
}

let emu: Emulator
let temp: string

beforeAll(async () => {
  emu = await startEmulator({ host: '127.0.0.1', port: 0, dialect: 'langsmith', speed: 4 })
  temp = await mkdtemp(join(tmpdir(), 'langgraph-cli-'))
})
afterAll(async () => {
  await emu?.close()
  if (temp) await rm(temp, { recursive: true, force: true })
})

/** Runs a CLI on Node 24 with only the variables given (and PATH, HOME); killed at the bound. */
function runCli(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(NODE24, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: temp, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_BOUND_MS)
    child.on('error', fail)
    child.on('close', code => {
      clearTimeout(timer)
      done({ code, output })
    })
  })
}

interface Built {
  run: Run
  graphs: string[]
  files: string[]
}

/** `langgraphjs deploy --remote` of `config` (relative to `cwd`), as its docs run it: no prompts,
 *  its own wait until a terminal status, no analytics (nothing leaves the loopback). */
async function theirDeploy(name: string, cwd: string, config: string): Promise<Built> {
  const { apiKey, tenantId } = emu.credentials()
  const args = ['deploy', '--remote', '--no-input', '--name', name, '--host-url', emu.url]
  const run = await runCli(
    [LANGGRAPH_CLI, ...args, '--config', config],
    { LANGSMITH_API_KEY: apiKey, LANGSMITH_TENANT_ID: tenantId, LANGGRAPH_CLI_NO_ANALYTICS: '1' },
    cwd
  )
  return { run, ...built(name) }
}

/** Our CLI's upload deploy of `config` from the working directory `cwd`, as in a CI job. */
async function ourDeploy(name: string, cwd: string, config: string): Promise<Built> {
  const { apiKey, tenantId } = emu.credentials()
  const run = await runCli(
    [OUR_CLI, 'deploy'],
    {
      CONTROL_PLANE_API_KEY: apiKey,
      CONTROL_PLANE_TENANT_ID: tenantId,
      CONTROL_PLANE_BASE_URL: emu.url,
      CONTROL_PLANE_API_DIALECT: 'langsmith',
      CONTROL_PLANE_SOURCE: 'internal_source',
      CONTROL_PLANE_GRAPH_CONFIG_PATH: config,
      CONTROL_PLANE_NAME: name,
      CONTROL_PLANE_DEPLOYMENT_TYPE: 'dev',
      CONTROL_PLANE_POLL_INTERVAL: '1s'
    },
    cwd
  )
  return { run, ...built(name) }
}

/** What the emulator built for the deployment: its last revision DEPLOYED from an upload. */
function built(name: string): Omit<Built, 'run'> {
  const d = emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(x => x.name === name)
  const rev = d?.revisions.at(-1)
  expect({ source: d?.source, status: rev?.status }).toEqual({
    source: 'internal_source',
    status: 'DEPLOYED'
  })
  return { graphs: rev!.graphs, files: rev!.source_files ?? [] }
}

async function project(fixture: string): Promise<string> {
  const dir = join(temp, fixture)
  await cp(join(ROOT, 'fixtures/upload', fixture), dir, { recursive: true })
  return dir
}

const graphsOf = async (config: string) =>
  Object.keys(
    (JSON.parse(await readFile(config, 'utf8')) as { graphs: Record<string, string> }).graphs
  )

it(
  '`langgraphjs deploy --remote` deploys a project; our upload of it builds the same',
  async () => {
    const dir = await project('ignores')
    const theirs = await theirDeploy('lg-cli-remote', dir, 'langgraph.json')
    expect({ code: theirs.run.code, output: theirs.run.output }).toEqual({
      code: 0,
      output: expect.stringContaining('Deployment successful!')
    })
    expect(theirs.graphs).toEqual(await graphsOf(join(dir, 'langgraph.json')))
    // The ignore files were honoured: what they leave out is not there.
    expect(theirs.files).toContain('langgraph.json')
    expect(theirs.files).not.toContain('app.log')
    expect(theirs.files).not.toContain('.venv/lib.txt')

    const ours = await ourDeploy('ours-upload', dir, 'langgraph.json')
    expect({ code: ours.run.code, output: ours.run.output }).toEqual({
      code: 0,
      output: expect.any(String)
    })
    expect(ours.graphs).toEqual(theirs.graphs)
    // Theirs less our deliberate departures (docs/upload.md): .env carries credentials by its
    // name, and nested/.gitignore's `*.py` leaves nested/mod.py out.
    expect(theirs.files).toEqual(expect.arrayContaining(['.env', 'nested/mod.py']))
    expect(ours.files).toEqual(theirs.files.filter(f => f !== '.env' && f !== 'nested/mod.py'))
  },
  2 * RUN_BOUND_MS + 10_000
)

it(
  'a monorepo: the same graphs; ours also carries the local dependency outside the config folder',
  async () => {
    const dir = await project('monorepo')
    const config = 'apps/agent/langgraph.json'
    const theirs = await theirDeploy('lg-cli-mono', dir, config)
    expect(theirs.run.code).toBe(0)
    expect(theirs.graphs).toEqual(await graphsOf(join(dir, config)))
    const ours = await ourDeploy('ours-mono', dir, config)
    expect(ours.run.code).toBe(0)
    expect(ours.graphs).toEqual(theirs.graphs)
    // The JS CLI archives the config's folder alone (its remote build ignores local dependencies
    // outside it); ours is rooted at the common ancestor, as the Python CLI's is.
    const under = (prefix: string) =>
      ours.files.filter(f => f.startsWith(prefix)).map(f => f.slice(prefix.length))
    expect(under('apps/agent/')).toEqual(theirs.files)
    expect(under('libs/shared/')).toContain('pyproject.toml')
    expect(ours.files.filter(f => !/^(apps\/agent|libs\/shared)\//.test(f))).toEqual([])
  },
  2 * RUN_BOUND_MS + 10_000
)
