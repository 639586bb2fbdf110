// The options of the emulator's command (`control-plane-emulator`, or `npm run emulator` in a clone): one table gives the parser its options and `--help` its text.
import { statSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { DIALECTS, type Dialect } from '../src/control-plane/dialect.ts'
import type { LogsApi } from './state/context.ts'
import { allowedHostnames } from './routes/host-check.ts'
import { basePathProblem } from './http/io.ts'
import { isSpeed, MAX_SPEED } from './state/lifecycle.ts'

const LOGS_APIS: readonly LogsApi[] = ['v2', 'v1', 'both']

interface Option {
  name: string
  /** Placeholder of the value in the usage text; absent for a flag. */
  value?: string
  default?: string
  short?: string
  description: string
}

export const OPTIONS: readonly Option[] = [
  {
    name: 'port',
    value: 'N',
    default: '4010',
    description: 'port to listen on; 0 picks a free one'
  },
  { name: 'host', value: 'H', default: '127.0.0.1', description: 'interface to listen on' },
  {
    name: 'allow-host',
    value: 'NAMES',
    description:
      'Host header names to answer besides localhost, 127.0.0.0/8, [::1] and --host (comma-separated); others get 421 (DNS rebinding)'
  },
  {
    name: 'fixture',
    value: 'FILE',
    description:
      'JSON fixture with tenants, integrations, listeners, deployments (default: the built-in demo fixture, fixtures/demo.json)'
  },
  {
    name: 'speed',
    value: 'X',
    description: `lifecycle speed factor, 10 = ten times faster, up to ${MAX_SPEED} (default: 1)`
  },
  {
    name: 'base-path',
    value: 'P',
    description: 'serve the API under a path, as a self-hosted installation does (e.g. /api-host)'
  },
  {
    name: 'dialect',
    value: 'D',
    default: 'interface',
    description:
      'wire names: interface, or langsmith (the production service: github, langgraph_config_path)'
  },
  {
    name: 'logs-api',
    value: 'V',
    default: 'both',
    description:
      'log paths: both (the v2 GET and the v1 POSTs the LangGraph CLI uses), v2 (the v1 POSTs answer 404) or v1 (an older installation: the v2 path answers 404)'
  },
  {
    name: 'repo',
    value: 'DIR',
    description:
      'a local clone: a codehost build reports the commit its ref names there (default: a stable commit per repository and ref)'
  },
  {
    name: 'pid-file',
    value: 'FILE',
    description:
      'write the process id there once serving (removed on exit): kill "$(cat FILE)" stops it'
  },
  { name: 'help', short: 'h', description: 'print this help and exit' },
  {
    name: 'version',
    description: 'print the version (of the control-plane-deploy package) and exit'
  }
]

export function usage(): string {
  const rows = OPTIONS.map(o => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.value ? ` ${o.value}` : ''}`
    const dflt = o.default === undefined ? '' : ` (default: ${o.default})`
    return `  ${flag.padEnd(22)} ${o.description}${dflt}`
  })
  return [
    'Usage: control-plane-emulator [options]',
    '       npm run emulator -- [options]     (from a clone of the repository)',
    '',
    'Serves a local, in-memory Deployment Control Plane API and prints four lines: url, api-key,',
    "tenant-id and integration-id of the fixture's first tenant. Stops on Ctrl-C or SIGTERM (and",
    'when npm, having started it, stops: `npm run emulator &` then `kill $!` works).',
    'Admin routes under <url>/_emulator/; the manual:',
    '  https://github.com/control-plane-deploy/control-plane-deploy/blob/main/docs/emulator.md',
    '',
    "Beyond the interface it serves what the production service's real clients send: POST",
    '.../revisions (Terraform), push-token and upload-url (the tarball is PUT to <url>/_uploads/...),',
    'the v1 log POSTs and POST /v1/projects/<id>/deploy_logs (LangGraph CLI; lines carry stable ids),',
    "display_name, deployment types dev_zero and dev_free_zero; today's types serverless (a create's",
    'default) and dedicated, PATCH .../resource-tiers (sizes), and Serverless servers that sleep.',
    'Point real clients at it with --dialect langsmith:',
    '  LangGraph CLI: LANGGRAPH_HOST_URL=<url> LANGSMITH_API_KEY=<api-key> LANGSMITH_TENANT_ID=<tenant-id>',
    '  Terraform:     LANGSMITH_CONTROL_PLANE_URL=<url>, provider api_key and workspace_id',
    '',
    'Options:',
    ...rows,
    ''
  ].join('\n')
}

export type CliArgs =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string }
  | {
      kind: 'run'
      port: number
      host: string
      fixture: string | undefined
      speed: number | undefined
      basePath: string | undefined
      allowedHosts: string[]
      pidFile: string | undefined
      dialect: Dialect
      logsApi: LogsApi
      repoDir: string | undefined
    }

export function parseCli(argv: string[]): CliArgs {
  let values: Record<string, string | boolean | undefined>
  try {
    const options = Object.fromEntries(
      OPTIONS.map(o => [
        o.name,
        {
          type: o.value ? ('string' as const) : ('boolean' as const),
          ...(o.short ? { short: o.short } : {}),
          ...(o.default !== undefined ? { default: o.default } : {})
        }
      ])
    )
    values = parseArgs({ args: argv, options, strict: true }).values
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) }
  }
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }
  const text = (name: string) => values[name] as string | undefined
  const port = Number(text('port'))
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return { kind: 'error', message: `invalid --port ${text('port')}` }
  }
  const speed = text('speed') === undefined ? undefined : Number(text('speed'))
  if (speed !== undefined && !isSpeed(speed)) {
    return {
      kind: 'error',
      message: `invalid --speed ${text('speed')}: give a finite number greater than 0, at most ${MAX_SPEED}`
    }
  }
  const basePath = text('base-path')
  const pathProblem = basePath === undefined ? null : basePathProblem(basePath)
  if (pathProblem)
    return { kind: 'error', message: `invalid --base-path ${basePath}: ${pathProblem}` }
  const allowedHosts = (text('allow-host') ?? '').split(',').filter(Boolean)
  try {
    allowedHostnames(allowedHosts)
  } catch (error) {
    return { kind: 'error', message: `invalid --allow-host: ${(error as Error).message}` }
  }
  const dialect = text('dialect') as Dialect
  if (!DIALECTS.includes(dialect)) {
    return { kind: 'error', message: `invalid --dialect ${dialect}: use ${DIALECTS.join(' or ')}` }
  }
  const logsApi = text('logs-api') as LogsApi
  if (!LOGS_APIS.includes(logsApi)) {
    return { kind: 'error', message: `invalid --logs-api ${logsApi}: use v2, v1 or both` }
  }
  const repoDir = text('repo')
  if (repoDir !== undefined && !isDirectory(repoDir))
    return { kind: 'error', message: `invalid --repo ${repoDir}: not a directory` }
  return {
    kind: 'run',
    repoDir,
    dialect,
    logsApi,
    port,
    host: text('host')!,
    fixture: text('fixture'),
    speed,
    basePath,
    allowedHosts,
    pidFile: text('pid-file')
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
