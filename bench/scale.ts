// Scale: a tenant with 10,000 deployments (300 contain the target name), an integration with
// 20,000 repositories, and 50 concurrent runs against one rate-limited emulator.
import { ControlPlaneClient } from '../src/control-plane/client.ts'
import { findDeploymentByName } from '../src/deploy/find-deployment.ts'
import { resolveRepository } from '../src/deploy/resolve-repository.ts'
import { startEmulator, type Emulator, type RateLimit } from '../src/emulator/server.ts'
import { clock, describeFailure, runBundle, type BundleResult } from './bundle.ts'
import { manyDeployments, manyRepositories } from './fixtures.ts'
import { dur, ms, summarize, spread, type Summary } from './stats.ts'

export const DEPLOYMENTS = 10_000
export const MATCHING = 300
export const TARGET = 'search-agent'
export const REPOSITORIES = 20_000

const inputsFor = (emu: Emulator, extra: Record<string, string>) => {
  const c = emu.credentials()
  return { 'api-key': c.apiKey, 'base-url': emu.url, 'integration-id': c.integrationId!, ...extra }
}

const clientFor = (emu: Emulator) =>
  new ControlPlaneClient({ baseUrl: emu.url, apiKey: emu.credentials().apiKey })

async function timed<T>(n: number, fn: () => Promise<T>): Promise<{ times: number[]; last: T }> {
  const times: number[] = []
  let last!: T
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    last = await fn()
    times.push(performance.now() - t)
  }
  return { times, last }
}

export interface LookupResult {
  label: string
  requests: number
  /** In-process: the client's own call, the emulator in the same process. */
  inProcess: Summary
  /** Through the bundle: wall time of a dry run, and its requests. */
  bundle: Summary
  bundleRequests: number
  answerBytes: number
}

async function bundleDryRuns(emu: Emulator, name: string, n: number): Promise<BundleResult[]> {
  const out: BundleResult[] = []
  for (let i = 0; i < n; i++) {
    const r = await runBundle({ inputs: inputsFor(emu, { name, 'dry-run': 'true' }) })
    if (r.code !== 0) throw new Error(`dry run failed: ${describeFailure(r)}`)
    out.push(r)
  }
  return out
}

/** Finding `TARGET` by exact name: the big tenant and, as the baseline, the demo fixture. */
export async function lookupScale(runs: number): Promise<LookupResult[]> {
  const results: LookupResult[] = []
  const cases = [
    { label: 'demo tenant (1 deployment)', fixture: undefined, name: 'support-bot-prod' },
    {
      label: `${DEPLOYMENTS.toLocaleString('en')} deployments, ${MATCHING} contain the name`,
      fixture: manyDeployments(DEPLOYMENTS, MATCHING, TARGET),
      name: TARGET
    }
  ]
  for (const c of cases) {
    const emu = await startEmulator({ port: 0, now: clock, fixture: c.fixture })
    try {
      const client = clientFor(emu)
      const found = await timed(runs, () => findDeploymentByName(client, c.name))
      if (found.last?.name !== c.name) throw new Error(`${c.name} not found`)
      const requests = client.requestCount / runs
      client.close()
      const bytes = await pageBytes(emu, c.name)
      emu.clearRequests()
      const dry = await bundleDryRuns(emu, c.name, Math.max(3, Math.round(runs / 3)))
      results.push({
        label: c.label,
        requests,
        inProcess: summarize(found.times),
        bundle: summarize(dry.map(r => r.exitedAt - r.startedAt)),
        bundleRequests: emu.requests().length / dry.length,
        answerBytes: bytes
      })
    } finally {
      await emu.close()
    }
  }
  return results
}

async function pageBytes(emu: Emulator, name: string): Promise<number> {
  let total = 0
  for (let offset = 0; ; offset += 100) {
    const url = `${emu.url}/v2/deployments?name_contains=${name}&limit=100&offset=${offset}`
    const res = await fetch(url, { headers: { 'X-Api-Key': emu.credentials().apiKey } })
    const text = await res.text()
    total += Buffer.byteLength(text)
    if ((JSON.parse(text) as { resources: unknown[] }).resources.length < 100) return total
  }
}

/** Resolving acme/agent-server (listed last) among the integration's repositories. */
export async function repositoryScale(runs: number): Promise<LookupResult[]> {
  const results: LookupResult[] = []
  const cases = [
    { label: 'demo integration (3 repositories)', fixture: undefined },
    {
      label: `${REPOSITORIES.toLocaleString('en')} repositories`,
      fixture: manyRepositories(REPOSITORIES)
    }
  ]
  for (const c of cases) {
    const emu = await startEmulator({ port: 0, now: clock, fixture: c.fixture })
    try {
      const client = clientFor(emu)
      const integration = emu.credentials().integrationId!
      const found = await timed(runs, () =>
        resolveRepository(client, integration, 'acme/agent-server')
      )
      if (found.last.name !== 'agent-server') throw new Error('agent-server not resolved')
      const requests = client.requestCount / runs
      client.close()
      const res = await fetch(`${emu.url}/v1/integrations/forge/codehost/${integration}/repos`, {
        headers: { 'X-Api-Key': emu.credentials().apiKey }
      })
      const bytes = Buffer.byteLength(await res.text())
      emu.clearRequests()
      // A new name: the dry run resolves the repository to plan the create.
      const dry = await bundleDryRuns(emu, 'new-agent', Math.max(3, Math.round(runs / 3)))
      results.push({
        label: c.label,
        requests,
        inProcess: summarize(found.times),
        bundle: summarize(dry.map(r => r.exitedAt - r.startedAt)),
        bundleRequests: emu.requests().length / dry.length,
        answerBytes: bytes
      })
    } finally {
      await emu.close()
    }
  }
  return results
}

export const lookupRows = (rs: LookupResult[]) =>
  rs.map(r => [
    r.label,
    r.requests,
    `${(r.answerBytes / 1024).toFixed(0)} KiB`,
    spread(r.inProcess, v => ms(v, 1)),
    spread(r.bundle, v => ms(v, 0)),
    r.bundleRequests
  ])

export const LOOKUP_HEADERS = [
  'Case',
  'Requests',
  'Answer bytes (all pages)',
  'In-process median (p10 – p90)',
  'Dry run through the bundle, wall (p10 – p90)',
  'Dry-run requests'
]

// ---------------------------------------------------------------------------------------------
// 50 concurrent runs

/** The 5 s timeline of the polling section: QUEUED 1 s, BUILDING 2.5 s, DEPLOYING 1.5 s. */
export const LIFECYCLE = {
  CREATING: 0,
  QUEUED: 1000,
  AWAITING_BUILD: 0,
  BUILDING: 2500,
  AWAITING_DEPLOY: 0,
  DEPLOYING: 1500
}
export const LIFECYCLE_MS = 5000
/** A concurrent run still going after this is killed and counted as failed. */
const BUNDLE_TIMEOUT_MS = 300_000

export interface ConcurrencyResult {
  label: string
  runs: number
  deployed: number
  failures: string[]
  wallMs: number
  /** Total API requests, and those answered 429. */
  requests: number
  throttled: number
  perRun: Summary
  /** Detection delay per run (first poll at/after DEPLOYED minus DEPLOYED), deployed runs only. */
  delay: Summary | undefined
  /** The ideal: one deploy's lifecycle. */
  idealMs: number
  /** The requests that were admitted, at the rate limit: no schedule of them could be shorter. */
  limitFloorMs: number | undefined
  /** When each run's first request arrived, ms after the first spawn. */
  arrivals: number[]
}

interface RunRecord {
  name: string
  deployed: boolean
  failure: string | undefined
}

function analyse(
  emu: Emulator,
  label: string,
  records: RunRecord[],
  t0: number,
  wallMs: number,
  limit: RateLimit | null
): ConcurrencyResult {
  const log = emu.requests()
  if (log.length >= 10_000) throw new Error('the request log is full: counts would be wrong')
  const deployments = emu.state().tenants.flatMap(t => t.deployments)
  const byName = new Map(deployments.map(d => [d.name, d]))
  const perRun: number[] = []
  const delays: number[] = []
  const arrivals: number[] = []
  for (const r of records) {
    const d = byName.get(r.name)
    const mine = log.filter(
      q =>
        q.query.name_contains === r.name ||
        (q.method === 'POST' && (q.body as { name?: string } | null)?.name === r.name) ||
        (d !== undefined && q.path.includes(d.id))
    )
    perRun.push(mine.length)
    if (mine[0]) arrivals.push(Date.parse(mine[0].time) - t0)
    if (!d || !r.deployed) continue
    const rev = d.revisions[d.revisions.length - 1]!
    const deployedAt = Date.parse(rev.created_at) + LIFECYCLE_MS
    const seen = mine.find(
      q =>
        q.method === 'GET' &&
        q.path.endsWith(`/revisions/${rev.id}`) &&
        q.status === 200 &&
        Date.parse(q.time) >= deployedAt
    )
    if (seen) delays.push(Date.parse(seen.time) - deployedAt)
  }
  const requests = log.length
  const rps = limit?.rps
  return {
    label,
    runs: records.length,
    deployed: records.filter(r => r.deployed).length,
    failures: [...new Set(records.flatMap(r => (r.failure ? [r.failure] : [])))],
    wallMs,
    requests,
    throttled: log.filter(q => q.status === 429).length,
    perRun: summarize(perRun),
    delay: delays.length ? summarize(delays) : undefined,
    idealMs: LIFECYCLE_MS,
    limitFloorMs: rps
      ? ((requests - log.filter(q => q.status === 429).length) / rps) * 1000
      : undefined,
    arrivals: arrivals.sort((a, b) => a - b)
  }
}

/** N copies of the bundle at once, each deploying its own deployment, one API key. */
export async function concurrentBundles(
  n: number,
  limit: RateLimit | null
): Promise<ConcurrencyResult> {
  const emu = await startEmulator({
    port: 0,
    now: clock,
    rateLimit: limit,
    stageDurationsMs: LIFECYCLE
  })
  try {
    const names = Array.from({ length: n }, (_, i) => `matrix-${i}`)
    const t0 = clock()
    const results = await Promise.all(
      names.map(name =>
        runBundle({ inputs: inputsFor(emu, { name }), timeoutMs: BUNDLE_TIMEOUT_MS })
      )
    )
    const wall = Math.max(...results.map(r => r.exitedAt)) - t0
    const records = results.map((r, i) => ({
      name: names[i]!,
      deployed: r.code === 0 && r.outputs['revision-status'] === 'DEPLOYED',
      failure: r.code === 0 ? undefined : failureTitle(r)
    }))
    const label = limit
      ? `bundle, ${limit.rps} req/s per key, Retry-After ${limit.retryAfter} s`
      : 'bundle, no rate limit'
    return analyse(emu, label, records, t0, wall, limit)
  } finally {
    await emu.close()
  }
}

function failureTitle(r: BundleResult): string {
  if (r.code === null) return `killed by the bench after ${BUNDLE_TIMEOUT_MS / 1000} s`
  const line = r.stdout.split('\n').find(l => l.startsWith('::error')) ?? ''
  return /title=([^,:]*)/.exec(line)?.[1]?.replace(/%3A/g, ':') ?? `exit ${r.code}`
}

export const CONCURRENCY_HEADERS = [
  'Setup',
  'DEPLOYED',
  'Wall',
  'Ideal',
  'Wall / ideal',
  'Admitted requests at the limit',
  'Requests',
  '429s',
  'Requests per run (median, max)',
  'Detection delay median (max)',
  'Failures'
]

export const concurrencyRows = (rs: ConcurrencyResult[]) =>
  rs.map(r => [
    r.label,
    `${r.deployed}/${r.runs}`,
    dur(r.wallMs),
    dur(r.idealMs),
    (r.wallMs / r.idealMs).toFixed(2),
    r.limitFloorMs === undefined ? '–' : dur(r.limitFloorMs),
    r.requests,
    r.throttled,
    `${r.perRun.median}, ${r.perRun.max}`,
    r.delay ? `${dur(r.delay.median)} (${dur(r.delay.max)})` : '–',
    r.failures.join('; ') || '–'
  ])
