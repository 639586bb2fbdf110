// Bad inputs. Each one gives one clear `::error::` naming the input, exit 1, and not one
// request at the emulator (which base-url points at), in both log modes. Inputs of several
// megabytes cannot reach a child process (Linux caps one environment string at 128 KiB): those
// run in-process through the same entry point, `run(env)` of src/main.ts, with a fake env.
import { describe } from '@jest/globals'
import { randomUUID } from 'node:crypto'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { Emulator } from '../../emulator/server.ts'
import { run } from '../../src/main.ts'
import { leaks, type RunResult } from '../e2e/harness.ts'
import { ALIAS_BOMB } from '../builders.ts'
import {
  caseInputs,
  debugEnv,
  errorText,
  inBothLogModes,
  lane,
  MiB,
  peakRss,
  reliabilityCase,
  withEmulator,
  type Case
} from './support.ts'

const GROUP = GROUPS.badInputs

interface BadInput {
  /** The input the error must name. */
  input: string
  title: string
  /** Overrides of the valid inputs ('' unsets one); a function sees the emulator's URL. */
  set: (ctx: { url: string; port: string; key: string }) => Record<string, string>
  /** What the message must say about it. */
  says?: RegExp
  /** More secret values this case puts in the inputs (a password in base-url, say). */
  secrets?: string[]
  /** Rejected fast and with bounded memory: peak RSS measured. */
  measured?: boolean
}

const uuid = '123e4567-e89b-12d3-a456-426614174000'
const EXTERNAL = {
  source: 'external_docker',
  'integration-id': '',
  'image-uri': 'registry.example.com/agent@sha256:' + 'a'.repeat(64),
  'listener-id': uuid,
  'k8s-namespace': 'agents'
}

function deepYaml(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1'
}

const BAD_INPUTS: BadInput[] = [
  // Header injection: CR/LF would start a new header line in the request.
  {
    input: 'api-key',
    title: 'CR/LF in api-key',
    set: () => ({ 'api-key': 'lsv2_pt_abc\r\nX-Injected: 1' }),
    says: /HTTP header/
  },
  {
    input: 'api-key',
    title: 'LF in api-key',
    set: () => ({ 'api-key': 'lsv2_pt_abc\nX-Injected: 1' }),
    says: /HTTP header/
  },
  { input: 'api-key', title: 'space in api-key', set: () => ({ 'api-key': 'lsv2 pt abc' }) },
  { input: 'api-key', title: 'non-ASCII api-key', set: () => ({ 'api-key': 'lsv2_pt_ключ' }) },
  { input: 'api-key', title: 'empty api-key', set: () => ({ 'api-key': '' }), says: /required/ },
  {
    input: 'tenant-id',
    title: 'CR/LF in tenant-id',
    set: () => ({ 'tenant-id': `${uuid}\r\nX-Injected: 1` })
  },
  {
    input: 'tenant-id',
    title: 'tenant-id not a uuid',
    set: () => ({ 'tenant-id': 'workspace-1' }),
    says: /uuid/
  },
  {
    input: 'tenant-id',
    title: 'tenant-id uuid with a tail',
    set: () => ({ 'tenant-id': `${uuid}0` }),
    says: /uuid/
  },
  { input: 'name', title: 'CR/LF in name', set: () => ({ name: 'agent\r\nX-Injected: 1' }) },
  { input: 'name', title: 'name with capitals and underscore', set: () => ({ name: 'My_Agent' }) },
  { input: 'name', title: 'name starting with a digit', set: () => ({ name: '1agent' }) },
  {
    input: 'name',
    title: 'name of 64 characters',
    set: () => ({ name: 'a'.repeat(64) }),
    says: /63/
  },
  { input: 'name', title: 'the api key pasted into name', set: ({ key }) => ({ name: key }) },
  // base-url: where the key goes.
  {
    input: 'base-url',
    title: 'base-url with credentials',
    set: () => ({ 'base-url': 'https://deployer:hunter2-pw-77@api.example.com' }),
    says: /credentials/,
    secrets: ['hunter2-pw-77']
  },
  {
    input: 'base-url',
    title: 'base-url with credentials, to the emulator itself',
    set: ({ port }) => ({ 'base-url': `http://deployer:pw-to-emulator-88@127.0.0.1:${port}` }),
    says: /credentials/,
    secrets: ['pw-to-emulator-88']
  },
  {
    input: 'base-url',
    title: 'base-url file:',
    set: () => ({ 'base-url': 'file:///etc/passwd' }),
    says: /https/
  },
  {
    input: 'base-url',
    title: 'base-url ftp:',
    set: () => ({ 'base-url': 'ftp://api.example.com' }),
    says: /https/
  },
  {
    input: 'base-url',
    title: 'base-url javascript:',
    set: () => ({ 'base-url': 'javascript:alert(1)' })
  },
  {
    input: 'base-url',
    title: 'plain http to a public host',
    set: () => ({ 'base-url': 'http://api.host.langchain.com' }),
    says: /https/
  },
  {
    input: 'base-url',
    title: 'plain http to a host that only looks loopback',
    set: () => ({ 'base-url': 'http://127.0.0.1.nip.io:4010' }),
    says: /https/
  },
  {
    input: 'base-url',
    title: 'plain http to localhost.<domain>',
    set: () => ({ 'base-url': 'http://localhost.evil.example' }),
    says: /https/
  },
  {
    input: 'base-url',
    title: 'base-url with a query',
    set: () => ({ 'base-url': 'https://api.example.com/?tenant=x' }),
    says: /query/
  },
  {
    input: 'base-url',
    title: 'CR/LF in base-url',
    set: ({ url }) => ({ 'base-url': `${url}\r\nX-Injected: 1` })
  },
  {
    input: 'base-url',
    title: 'base-url not a URL',
    set: () => ({ 'base-url': 'api.host.langchain.com' }),
    says: /absolute URL/
  },
  // Ids.
  {
    input: 'deployment-id',
    title: 'deployment-id not a uuid',
    set: () => ({ 'deployment-id': '42' }),
    says: /uuid/
  },
  {
    input: 'integration-id',
    title: 'integration-id not a uuid',
    set: () => ({ 'integration-id': 'gh-1' }),
    says: /uuid/
  },
  {
    input: 'listener-id',
    title: 'listener-id not a uuid',
    set: () => ({ ...EXTERNAL, 'listener-id': 'l-1' }),
    says: /uuid/
  },
  // Durations.
  {
    input: 'timeout',
    title: 'timeout in words',
    set: () => ({ timeout: '10 minutes' }),
    says: /duration/
  },
  {
    input: 'timeout',
    title: 'timeout zero',
    set: () => ({ timeout: '0' }),
    says: /longer than zero/
  },
  { input: 'timeout', title: 'timeout over 6h', set: () => ({ timeout: '7h' }), says: /at most/ },
  { input: 'timeout', title: 'negative timeout', set: () => ({ timeout: '-5s' }) },
  { input: 'timeout', title: 'timeout with an unknown unit', set: () => ({ timeout: '15x' }) },
  { input: 'poll-interval', title: 'poll-interval zero', set: () => ({ 'poll-interval': '0s' }) },
  {
    input: 'poll-interval',
    title: 'poll-interval longer than timeout',
    set: () => ({ timeout: '1m', 'poll-interval': '2m' })
  },
  // resource-spec.
  {
    input: 'resource-spec',
    title: 'malformed YAML resource-spec',
    set: () => ({ 'resource-spec': 'min_scale: [' }),
    says: /not valid YAML/
  },
  {
    input: 'resource-spec',
    title: 'malformed JSON resource-spec',
    set: () => ({ 'resource-spec': '{"min_scale": 1,' })
  },
  {
    input: 'resource-spec',
    title: 'resource-spec a list',
    set: () => ({ 'resource-spec': '[1, 2]' }),
    says: /object/
  },
  {
    input: 'resource-spec',
    title: 'resource-spec a number',
    set: () => ({ 'resource-spec': '42' }),
    says: /object/
  },
  {
    input: 'resource-spec',
    title: 'resource-spec with an unknown key',
    set: () => ({ 'resource-spec': 'minscale: 1' }),
    says: /unknown keys/
  },
  {
    input: 'resource-spec',
    title: 'YAML alias bomb',
    set: () => ({ 'resource-spec': ALIAS_BOMB }),
    says: /aliases/,
    measured: true
  },
  {
    input: 'resource-spec',
    title: 'JSON nested 60 000 deep',
    set: () => ({ 'resource-spec': '['.repeat(60_000) + ']'.repeat(60_000) }),
    says: /nested too deeply/,
    measured: true
  },
  {
    input: 'resource-spec',
    title: 'JSON objects nested 20 000 deep',
    set: () => ({ 'resource-spec': '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) }),
    says: /nested too deeply/,
    measured: true
  },
  {
    input: 'resource-spec',
    title: 'YAML mappings nested 400 deep',
    set: () => ({ 'resource-spec': deepYaml(400) }),
    says: /nested too deeply/,
    measured: true
  },
  // Secrets.
  {
    input: 'secrets',
    title: 'reserved secret name PORT',
    set: () => ({ secrets: 'PORT=8080' }),
    says: /reserved/
  },
  {
    input: 'secrets',
    title: 'reserved secret name DATABASE_URI',
    set: () => ({ secrets: 'DATABASE_URI=postgres://u:dbpass-991@db/x' }),
    says: /reserved/,
    secrets: ['postgres://u:dbpass-991@db/x']
  },
  {
    input: 'secrets',
    title: 'LANGSMITH_API_KEY, reserved on hosted deployments',
    set: () => ({ secrets: 'LANGSMITH_API_KEY=lsv2_sk_reserved_value_42' }),
    says: /reserved/,
    secrets: ['lsv2_sk_reserved_value_42']
  },
  {
    input: 'secrets',
    title: 'secret name starting with a digit',
    set: () => ({ secrets: '1BAD=value-one-1' }),
    secrets: ['value-one-1']
  },
  {
    input: 'secrets',
    title: 'secret name with a hyphen',
    set: () => ({ secrets: 'BAD-NAME=value-two-2' }),
    secrets: ['value-two-2']
  },
  {
    input: 'secrets',
    title: 'duplicate secret names',
    set: () => ({ secrets: 'A_KEY=first-value-1\nA_KEY=second-value-2' }),
    says: /more than once/,
    secrets: ['first-value-1', 'second-value-2']
  },
  {
    input: 'secrets',
    title: 'duplicate secret names in JSON',
    set: () => ({ secrets: '{"A_KEY": "first-json-1", "A_KEY": "second-json-2"}' }),
    says: /more than once/,
    secrets: ['first-json-1', 'second-json-2']
  },
  {
    input: 'secrets',
    title: 'malformed JSON secrets holding a value',
    set: () => ({ secrets: '{"OPENAI_API_KEY": "sk-live-malformed-0042",' }),
    says: /not valid JSON/,
    secrets: ['sk-live-malformed-0042']
  },
  {
    input: 'secrets',
    title: 'a bare value instead of NAME=VALUE',
    set: () => ({ secrets: 'sk-live-bare-value-0043' }),
    secrets: ['sk-live-bare-value-0043']
  },
  {
    input: 'secrets',
    title: 'empty secret value',
    set: () => ({ secrets: 'EMPTY_ONE=' }),
    says: /empty/
  },
  // A source that does not match the other inputs.
  { input: 'source', title: 'unknown source', set: () => ({ source: 'gitlab' }) },
  {
    input: 'integration-id',
    title: 'source external_docker with a codehost integration-id',
    set: () => ({ ...EXTERNAL, 'integration-id': uuid }),
    says: /applies only to/
  },
  {
    input: 'image-uri',
    title: 'source internal_docker without image-uri',
    set: () => ({ source: 'internal_docker', 'integration-id': '' }),
    says: /required/
  },
  {
    input: 'k8s-namespace',
    title: 'source codehost with k8s-namespace',
    set: () => ({ 'k8s-namespace': 'agents' }),
    says: /applies only to/
  },
  {
    input: 'secret-references',
    title: 'source codehost with secret-references',
    set: () => ({ 'secret-references': '- {name: X_REF, secret_name: s, secret_key: k}' })
  },
  {
    input: 'build-on-push',
    title: 'build-on-push with a tag ref',
    set: () => ({ 'build-on-push': 'true', ref: 'refs/tags/v1.0.0' })
  },
  // Flags and the rest.
  { input: 'create', title: 'create: yes', set: () => ({ create: 'yes' }) },
  { input: 'wait', title: 'wait: 1', set: () => ({ wait: '1' }) },
  {
    input: 'repository',
    title: 'repository owner/name/extra',
    set: () => ({ repository: 'a/b/c' })
  },
  {
    input: 'custom-url',
    title: 'custom-url javascript:',
    set: () => ({ 'custom-url': 'javascript:alert(1)' })
  },
  {
    input: 'install-command',
    title: 'install-command of 100 KiB (the largest an env string may be is 128 KiB)',
    set: () => ({ 'install-command': 'x'.repeat(100 * 1024) }),
    says: /at most 64 KiB/
  }
]

/** Valid inputs for a new deployment, with the case's key, secrets and github-token. */
function validInputs(c: Case, emu: Emulator, ...alsoSecret: string[]): Record<string, string> {
  return {
    ...caseInputs(c, emu, ...alsoSecret),
    'integration-id': emu.credentials().integrationId!,
    name: 'valid-name'
  }
}

/** Peak RSS allowed for a run rejected at validation (a bare run of the bundle is ~60 MiB). */
const RSS_LIMIT = 150 * MiB

async function badInputCase(c: Case, b: BadInput, debug: boolean): Promise<void> {
  await withEmulator({}, async emu => {
    const ctx = { url: emu.url, port: String(emu.port), key: emu.credentials().apiKey }
    const inputs: Record<string, string> = {
      ...validInputs(c, emu, ...(b.secrets ?? [])),
      ...b.set(ctx)
    }
    const probe = `probe-${randomUUID()}`
    const env = { RELIABILITY_PROBE: probe, ...debugEnv(debug) }
    const { result: r, peakBytes } = b.measured
      ? await peakRss(probe, () => c.run({ inputs, env }))
      : { result: await c.run({ inputs, env }), peakBytes: 0 }
    expectRejected(c, r, b)
    c.check(emu.requests().length === 0, `${emu.requests().length} requests reached the emulator`)
    if (b.measured) {
      c.note(`peak RSS ${(peakBytes / MiB).toFixed(0)} MiB, ${r.ms} ms`)
      c.check(peakBytes > 0, 'the memory of the run could not be read')
      c.check(peakBytes < RSS_LIMIT, `peak RSS ${(peakBytes / MiB).toFixed(0)} MiB`)
      c.check(r.ms < 5000, `took ${r.ms} ms to reject`)
    }
  })
}

function expectRejected(
  c: Case,
  r: Pick<RunResult, 'code' | 'errors' | 'stdout'>,
  b: { input: string; says?: RegExp }
) {
  c.check(r.code === 1, `exit ${r.code}, expected 1`)
  c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
  const text = errorText(r as RunResult)
  c.check(
    text.includes(`- ${b.input}:`),
    `the error does not name ${b.input}: ${text.slice(0, 300)}`
  )
  if (b.says) c.check(b.says.test(text), `the error does not say ${b.says}: ${text.slice(0, 300)}`)
}

interface HugeInput {
  input: string
  title: string
  value: (mib: number) => string
  mib: number
}

const HUGE: HugeInput[] = [
  {
    input: 'secrets',
    title: 'secrets of 5 MiB (in-process)',
    mib: 5,
    value: n => `BIG_ONE=${'s'.repeat(n * MiB)}`
  },
  {
    input: 'resource-spec',
    title: 'resource-spec of 4 MiB (in-process)',
    mib: 4,
    value: n => `labels:\n${'  k: v\n'.repeat((n * MiB) / 7)}`
  },
  {
    input: 'api-key',
    title: 'api-key of 3 MiB (in-process)',
    mib: 3,
    value: n => 'k'.repeat(n * MiB)
  },
  { input: 'name', title: 'name of 2 MiB (in-process)', mib: 2, value: n => 'a'.repeat(n * MiB) },
  {
    input: 'base-url',
    title: 'base-url of 2 MiB (in-process)',
    mib: 2,
    value: n => `https://${'h'.repeat(n * MiB)}.example.com`
  },
  {
    input: 'install-command',
    title: 'install-command of 8 MiB (in-process)',
    mib: 8,
    value: n => 'x'.repeat(n * MiB)
  }
]

/**
 * The entry point in-process: `run(env)` reads the inputs from `env` exactly as from the
 * runner's environment. Its stdout is captured; the emulator counts requests as for the others.
 */
async function hugeInputCase(c: Case, b: HugeInput): Promise<void> {
  await withEmulator({}, async emu => {
    const inputs: Record<string, string> = {
      ...validInputs(c, emu),
      [b.input]: b.value(b.mib)
    }
    const env: Record<string, string> = {}
    for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v
    const { stdout, code, ms, heapGrowth } = await inProcess(env)
    const r = {
      code,
      stdout,
      stderr: '',
      errors: stdout.split('\n').filter(l => l.startsWith('::error')),
      outputs: {},
      summary: '',
      ms,
      exitAfterSignalMs: undefined
    }
    expectRejected(c, r, b)
    c.check(emu.requests().length === 0, `${emu.requests().length} requests reached the emulator`)
    c.check(ms < 3000, `took ${ms} ms to reject`)
    c.note(
      `${ms} ms, heap ${heapGrowth >= 0 ? '+' : '−'}${(Math.abs(heapGrowth) / MiB).toFixed(0)} MiB`
    )
    c.longestMs = Math.max(c.longestMs, ms)
    const found = leaks(r, c.secrets)
    c.leaked += found.length
    for (const where of found.slice(0, 3)) c.problems.push(`secret leaked: ${where}`)
  })
}

async function inProcess(env: Record<string, string>) {
  let stdout = ''
  const write = process.stdout.write
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    const done = rest.find(x => typeof x === 'function') as (() => void) | undefined
    done?.()
    return true
  }) as typeof process.stdout.write
  const heapBefore = process.memoryUsage().heapUsed
  const started = Date.now()
  const previous = process.exitCode
  // The runner's variables for this run only: the action's door reads process.env, as on a runner.
  const saved = Object.fromEntries(Object.keys(env).map(k => [k, process.env[k]]))
  Object.assign(process.env, env)
  let code: number
  try {
    await run()
    code = Number(process.exitCode ?? 0)
  } finally {
    process.stdout.write = write
    process.exitCode = previous
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
  return {
    stdout,
    code,
    ms: Date.now() - started,
    heapGrowth: process.memoryUsage().heapUsed - heapBefore
  }
}

describe(GROUP, () => {
  const six = lane(6)
  // The measured ones one at a time, after the others: the peak memory of each process is read
  // from /proc while it runs, and its time to reject is checked.
  for (const b of BAD_INPUTS)
    inBothLogModes(
      GROUP,
      `${b.title}: rejected, naming ${b.input}`,
      (c, d) => badInputCase(c, b, d),
      b.measured ? { serial: true } : { lane: six }
    )
  // In-process, after the others: the entry point writes to this process's stdout and exit code.
  for (const b of HUGE)
    reliabilityCase(GROUP, `${b.title}: rejected, naming ${b.input}`, c => hugeInputCase(c, b), {
      serial: true
    })
})
