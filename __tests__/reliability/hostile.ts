// A hostile or broken server. Redirects to another origin (the key stays home, no write
// follows), a body of hundreds of megabytes (cut at the cap, memory bounded), a body that trickles
// (the deadline holds), server text carrying workflow commands or terminal escapes (neutralised
// before it is logged), and a 422 that echoes the secrets back (redacted). Declared by
// hostile.test.ts; the trickled list (each attempt waits out the request timeout) by
// stalled-server.test.ts.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { Emulator, FaultSpec } from '../../emulator/server.ts'
import type { RunResult } from '../e2e/harness.ts'
import {
  debugEnv,
  errorText,
  existingDeployment,
  inBothLogModes,
  isWrite,
  lane,
  MiB,
  peakRss,
  REVISIONS,
  targetInputs,
  withEmulator,
  type Case,
  type Target
} from './support.ts'

const GROUP = GROUPS.hostile

// ---------------------------------------------------------------------------------------------
// Redirects

interface Attacker {
  origin: string
  requests: IncomingMessage[]
  close(): Promise<void>
}

/** A server on another origin that records whatever reaches it. */
async function attacker(): Promise<Attacker> {
  const requests: IncomingMessage[] = []
  const server = createServer((req, res) => {
    requests.push(req)
    req.resume()
    res.end('{}')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

const REDIRECTS: Array<{
  op: string
  method: string
  path: string
  status: number
  target: 'new' | 'existing'
}> = [
  { op: 'list', method: 'GET', path: '/v2/deployments', status: 302, target: 'new' },
  {
    op: 'forge repos',
    method: 'GET',
    path: '/v1/integrations/forge/codehost/*/repos',
    status: 301,
    target: 'new'
  },
  { op: 'create', method: 'POST', path: '/v2/deployments', status: 307, target: 'new' },
  { op: 'patch', method: 'PATCH', path: '/v2/deployments/*', status: 308, target: 'existing' },
  { op: 'get revision', method: 'GET', path: REVISIONS, status: 302, target: 'new' }
]

async function redirectCase(c: Case, r: (typeof REDIRECTS)[number], debug: boolean) {
  const evil = await attacker()
  try {
    await withEmulator({}, async emu => {
      const st = targetInputs(c, emu, r.target, 'hostile', { timeout: '30s' })
      emu.setFaults({
        kind: 'redirect',
        status: r.status,
        location: `${evil.origin}/steal?from=${encodeURIComponent(r.path)}`,
        method: r.method,
        path: r.path
      } as FaultSpec)
      const run = await c.run({ inputs: st.inputs, env: debugEnv(debug) })
      c.check(
        evil.requests.length === 0,
        `${evil.requests.length} requests reached the other origin`
      )
      c.check(run.code === 1, `exit ${run.code}, expected 1`)
      const text = errorText(run)
      c.check(
        /refused a redirect/.test(text) && text.includes(evil.origin),
        `error: ${text.slice(0, 300)}`
      )
      const log = emu.requests()
      const first = log.findIndex(q => q.fault === 'redirect')
      c.check(first >= 0, 'no redirect was answered: the case proves nothing')
      const writesAfter = log.slice(first + 1).filter(isWrite)
      c.check(writesAfter.length === 0, `${writesAfter.length} writes followed the redirect`)
      const wrote = r.op === 'get revision'
      c.tally(
        emu,
        st.name,
        { deployments: r.target === 'existing' || wrote ? 1 : 0, revisions: wrote ? 1 : 0 },
        st.before
      )
      expectLogSafe(c, run)
    })
  } finally {
    await evil.close()
  }
}

// ---------------------------------------------------------------------------------------------
// A body of hundreds of megabytes

const HUGE = [
  {
    title: '300 MiB chunked answer to list',
    spec: { kind: 'huge-body', method: 'GET', path: '/v2/deployments' },
    target: 'new' as const
  },
  {
    title: '300 MiB answer with Content-Length to get deployment',
    spec: { kind: 'huge-body', contentLength: true, method: 'GET', path: '/v2/deployments/*' },
    target: 'id' as const
  },
  {
    title: '300 MiB chunked answer to every poll',
    spec: { kind: 'huge-body', method: 'GET', path: REVISIONS },
    target: 'new' as const
  }
]

/** The body cap of the action is 32 MiB: what it holds at most, plus Node and the bundle. */
const RSS_LIMIT = 256 * MiB

async function hugeBodyCase(c: Case, h: (typeof HUGE)[number], debug: boolean) {
  await withEmulator({}, async emu => {
    const st = targetInputs(c, emu, h.target, 'hostile', { timeout: '40s' })
    emu.setFaults(h.spec as FaultSpec)
    const probe = `probe-${randomUUID()}`
    const { result: run, peakBytes } = await peakRss(probe, () =>
      c.run({ inputs: st.inputs, env: { ...debugEnv(debug), RELIABILITY_PROBE: probe } })
    )
    c.note(`peak RSS ${(peakBytes / MiB).toFixed(0)} MiB, ${run.ms} ms`)
    c.check(peakBytes > 0 && peakBytes < RSS_LIMIT, `peak RSS ${(peakBytes / MiB).toFixed(0)} MiB`)
    c.check(run.code === 1, `exit ${run.code}, expected 1`)
    const text = errorText(run)
    c.check(/larger than 32 MiB and was cut off/.test(text), `error: ${text.slice(0, 300)}`)
    c.check(run.ms < 60_000, `took ${run.ms} ms`)
    const wrote = h.spec.path === REVISIONS
    c.tally(
      emu,
      st.name,
      { deployments: h.target === 'id' || wrote ? 1 : 0, revisions: wrote ? 1 : 0 },
      st.before
    )
    expectLogSafe(c, run)
  })
}

// ---------------------------------------------------------------------------------------------
// A body that trickles in

async function trickleCase(c: Case, debug: boolean) {
  await withEmulator({}, async emu => {
    const st = targetInputs(c, emu, 'new', 'hostile', { timeout: '8s' })
    emu.setFaults({
      kind: 'trickle',
      chunkBytes: 1,
      intervalMs: 300,
      method: 'GET',
      path: REVISIONS
    })
    const run = await c.run({ inputs: st.inputs, env: debugEnv(debug) })
    const ended = Date.now()
    c.check(run.code === 1, `exit ${run.code}, expected 1`)
    c.check(
      /title=Deploy timed out::/.test(errorText(run)),
      `error: ${errorText(run).slice(0, 300)}`
    )
    // From the wait's first poll (start-up, lookup and create are the machine's speed): the first
    // read's 10 s (FIRST_READ_MS, longer than this 8 s timeout) + 2 s for the poll at the deadline,
    // and some seconds to exit.
    const firstPoll = emu
      .requests()
      .find(q => q.method === 'GET' && /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+$/.test(q.path))
    const waited = firstPoll ? ended - Date.parse(firstPoll.time) : NaN
    c.check(
      waited < 10_000 + 10_000,
      `ended ${waited} ms after its first poll: the deadline did not hold`
    )
    c.tally(emu, st.name, { deployments: 1, revisions: 1 })
    expectLogSafe(c, run)
  })
}

/** Before the wait the request timeout (30 s) holds each of the 5 attempts: slow, but idle. */
export function trickledListCases(): void {
  inBothLogModes(
    GROUP,
    'answer to list trickled 1 byte per 1.5 s, request timeout holds',
    (c, debug) =>
      withEmulator({}, async emu => {
        const st = targetInputs(c, emu, 'new', 'hostile')
        emu.setFaults({
          kind: 'trickle',
          chunkBytes: 1,
          intervalMs: 1500,
          method: 'GET',
          path: '/v2/deployments'
        })
        const run = await c.run({ inputs: st.inputs, env: debugEnv(debug), timeoutMs: 240_000 })
        c.check(run.code === 1, `exit ${run.code}, expected 1`)
        c.check(
          /list deployments/.test(errorText(run)) &&
            /no complete answer within [\d.]+ s/.test(errorText(run)),
          `error: ${errorText(run).slice(0, 300)}`
        )
        c.check(run.ms < 5 * 30_000 + 20_000, `took ${run.ms} ms`)
        c.tally(emu, st.name, { deployments: 0, revisions: 0 })
        expectLogSafe(c, run)
      })
  )
}

// ---------------------------------------------------------------------------------------------
// Server text that carries workflow commands and terminal escapes

const ESC = '\u001b'
/** Lines a runner would obey if one of them started a line of the log. */
const INJECTED = (tag: string) =>
  [
    `bad request ${tag}`,
    `::set-output name=deployment-id::${tag}`,
    `::add-mask::${tag}`,
    `::stop-commands::${tag}`,
    `::error file=x.ts::${tag}`,
    `::save-state name=x::${tag}`,
    `${ESC}[2J${ESC}[31m${tag}-red${ESC}[0m ${ESC}]0;title-${tag}\u0007 \u009b31m`
  ].join('\n')

const COMMANDS_OK = /^::(add-mask|group|endgroup|debug|error|warning|notice)(::| )/

/**
 * The log obeys only the action's own commands: no line starts with a command it did not mean,
 * `::add-mask::` only for the case's own values, no terminal escape anywhere, one `::error`.
 */
function expectLogSafe(c: Case, r: RunResult, tag?: string) {
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith('::')) continue
    c.check(COMMANDS_OK.test(line), `a workflow command reached the log: ${line.slice(0, 120)}`)
    if (tag && line.startsWith('::add-mask::'))
      c.check(
        !line.includes(tag),
        `the server's ::add-mask:: reached the log: ${line.slice(0, 120)}`
      )
  }
  const all = r.stdout + r.stderr + r.summary + Object.values(r.outputs).join('\n')
  c.check(
    !/[\u001b\u0007\u009b]/.test(all),
    'a terminal escape code reached the log, summary or outputs'
  )
  c.check(r.errors.length <= 1, `${r.errors.length} ::error lines`)
  if (tag) c.check(r.outputs['deployment-id'] !== tag, 'the server set the deployment-id output')
}

const COMMAND_CASES: Array<{
  title: string
  fault: (tag: string, emu: Emulator) => FaultSpec
  target: Target
  fails: boolean
}> = [
  {
    title: '400 detail on create',
    fault: tag => ({
      kind: 'detail',
      status: 400,
      detail: INJECTED(tag),
      method: 'POST',
      path: '/v2/deployments'
    }),
    target: 'new',
    fails: true
  },
  {
    title: '403 detail on list',
    fault: tag => ({
      kind: 'detail',
      status: 403,
      detail: INJECTED(tag),
      method: 'GET',
      path: '/v2/deployments'
    }),
    target: 'new',
    fails: true
  },
  {
    title: '500 detail on every poll',
    fault: tag => ({
      kind: 'detail',
      status: 500,
      detail: INJECTED(tag),
      method: 'GET',
      path: REVISIONS
    }),
    target: 'new',
    fails: true
  },
  {
    title: 'non-JSON 200 body on get deployment',
    fault: tag => ({
      kind: 'non-json',
      body: `\n${INJECTED(tag)}`,
      method: 'GET',
      path: '/v2/deployments/*'
    }),
    target: 'id',
    fails: true
  },
  {
    title: 'deployment status field on list',
    fault: (tag, emu) => {
      const { revisions: _, ...d } = existingDeployment(emu)
      return {
        kind: 'bad-schema',
        method: 'GET',
        path: '/v2/deployments',
        body: { resources: [{ ...d, status: `READY\n${INJECTED(tag)}` }], offset: 1 }
      }
    },
    target: 'existing',
    fails: false
  },
  {
    title: 'revision status field on every poll',
    fault: tag => ({
      kind: 'bad-schema',
      method: 'GET',
      path: REVISIONS,
      body: {
        id: randomUUID(),
        status: `BUILDING\r\n${INJECTED(tag)}`,
        created_at: null,
        updated_at: null,
        source: 'codehost',
        source_revision_config: { repo_commit_sha: `${ESC}[31mdeadbeef${ESC}[0m` }
      }
    }),
    target: 'new',
    fails: true
  }
]

async function commandCase(c: Case, k: (typeof COMMAND_CASES)[number], debug: boolean) {
  await withEmulator({}, async emu => {
    const st = targetInputs(c, emu, k.target, 'hostile', { timeout: '8s' })
    const tag = `PWNED${randomUUID().slice(0, 8)}`
    emu.setFaults(k.fault(tag, emu))
    const run = await c.run({ inputs: st.inputs, env: debugEnv(debug) })
    c.check(
      emu.requests().some(q => q.fault !== null),
      'the fault was never applied'
    )
    expectLogSafe(c, run, tag)
    if (k.fails)
      c.check(
        run.code === 1 && run.errors.length === 1,
        `exit ${run.code}, ${run.errors.length} errors`
      )
    else c.check(run.code === 0, `exit ${run.code}: ${errorText(run).slice(0, 300)}`)
  })
}

// ---------------------------------------------------------------------------------------------
// A 422 that echoes the request (and its secret values) back

async function echoCase(c: Case, op: 'create' | 'patch', debug: boolean) {
  await withEmulator({}, async emu => {
    const st = targetInputs(c, emu, op === 'create' ? 'new' : 'existing', 'hostile')
    emu.setFaults({
      kind: 'echo-input-422',
      method: op === 'create' ? 'POST' : 'PATCH',
      path: op === 'create' ? '/v2/deployments' : '/v2/deployments/*'
    })
    const run = await c.run({ inputs: st.inputs, env: debugEnv(debug) })
    c.check(run.code === 1, `exit ${run.code}, expected 1`)
    const text = errorText(run)
    c.check(
      /HTTP 422/.test(text) && /secrets\.\d+\.value/.test(text),
      `error: ${text.slice(0, 300)}`
    )
    const echoed = emu.requests().find(q => q.status === 422)
    c.check(echoed !== undefined, 'no 422 was answered')
    c.tally(emu, st.name, { deployments: op === 'create' ? 0 : 1, revisions: 0 }, st.before)
    expectLogSafe(c, run)
  })
}

/** Declares the cases of the group (but the trickled list): each in both log modes. */
export function hostileCases(): void {
  const six = lane(6)
  // One at a time: each streams hundreds of megabytes and its memory is read while it runs.
  const one = lane(1)
  for (const r of REDIRECTS)
    inBothLogModes(
      GROUP,
      `${r.status} to another origin on ${r.op}: refused, the key stays home`,
      (c, d) => redirectCase(c, r, d),
      { lane: six }
    )
  inBothLogModes(GROUP, 'poll answer trickled, timeout 8s holds', trickleCase, { lane: six })
  for (const k of COMMAND_CASES)
    inBothLogModes(
      GROUP,
      `workflow commands and escapes in ${k.title} never reach the log`,
      (c, d) => commandCase(c, k, d),
      { lane: six }
    )
  for (const op of ['create', 'patch'] as const)
    inBothLogModes(
      GROUP,
      `422 echoing the secrets on ${op}: fields named, nothing echoed`,
      (c, d) => echoCase(c, op, d),
      { lane: six }
    )
  for (const h of HUGE)
    inBothLogModes(GROUP, `${h.title}: cut at 32 MiB`, (c, d) => hugeBodyCase(c, h, d), {
      lane: one
    })
}
