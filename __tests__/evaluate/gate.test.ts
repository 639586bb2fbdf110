import { afterAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { PUSH_MAIN } from '../../scripts/runner-env.ts'
import { parseEvaluation, type Evaluation } from '../../src/evaluate/file.ts'
import { judge } from '../../src/evaluate/verdict.ts'
import { langsmithFetch } from '../../src/evaluate/langsmith-fetch.ts'
import { renderComment } from '../../src/github/comment-body.ts'
import { run } from '../../src/run.ts'
import { cli, type CliIo } from '../../src/cli/main.ts'
import { emulatorInputs, fakePort } from '../builders/fake-port.ts'
import { expectRolledBackTo, heldIn, loadSeeded, seededDeployment } from '../builders/in-process.ts'
import { virtualEmulator } from '../builders/virtual-emulator.ts'
import {
  exampleId,
  langsmithCalls,
  langsmithFaults,
  langsmithUrl,
  numberedExamples,
  seedDataset
} from '../builders/langsmith.ts'
import { codehost, seed, TAG } from '../builders/promotion.ts'
import type { E2E } from '../e2e/harness.ts'

// The evaluation gate (`evaluate`): its file checked whole before any request, its scores and
// verdict, and deploys that run local examples on the emulator's agent servers (which echo a
// run's input unless scripted), in process through a fake port, on one virtual clock (the
// emulator's dataset evaluators write their feedback on it too). The official `langsmith` client
// makes every LangSmith call of the gate, against the emulator's LangSmith API.

const noFile = async () => ({ why: 'there is no such file' })
const parse = (text: string, examples?: string) =>
  parseEvaluation(text, 'evaluate.yaml', async () =>
    examples === undefined ? noFile() : { text: examples }
  )

describe('the evaluation file', () => {
  test('every problem at once, each with its line, naming the key', async () => {
    const wrong = [
      'dataset: support',
      'evaluators:',
      '  - { key: cites, type: contains, path: "messages[-1].content" }',
      '  - { key: speed, type: latency, value: soon }',
      '  - { key: cites, type: langsmith }',
      'thresholds:',
      '  nothing: { mean: 0.5 }'
    ]
    const r = await parse([...wrong, '  cites: { mean: 2 }'].join('\n'))
    expect('problems' in r && r.problems).toEqual([
      expect.stringMatching(/^line 8: thresholds\.cites\.mean .*1/)
    ])
    const r2 = await parse(wrong.join('\n'))
    expect('problems' in r2 && r2.problems).toEqual([
      "line 3: evaluators[0] (cites) needs `value` or `reference: <path>` (into the example's outputs), one of them",
      'line 4: evaluators[1] (speed) needs `value`: the longest a run may take, such as 30s',
      'line 5: evaluators[2].key "cites" is that of evaluators[0]; each needs its own',
      'line 7: thresholds.nothing names no evaluator (the keys are cites, speed)'
    ])
  })

  test('local examples: JSON Lines, each line checked; a langsmith evaluator or a baseline needs a dataset', async () => {
    const file = [
      'examples: cases.jsonl',
      'evaluators:',
      '  - { key: right, type: equals, path: answer, reference: answer }',
      '  - { key: judge, type: langsmith }',
      'baseline: { deployment: prod }'
    ].join('\n')
    const r = await parse(file, '{"inputs": {"q": 1}, "outputs": {"answer": 1}}\n')
    expect('problems' in r && r.problems).toEqual([
      "line 4: evaluators[1] (judge) is type langsmith, which needs a LangSmith `dataset`: its feedback comes from the dataset's evaluators",
      'line 5: baseline needs a LangSmith `dataset`: the baseline is an experiment of it'
    ])
    const lines = [
      '{"inputs": {"q": 1}, "outputs": {"answer": 1}}',
      'not json',
      '{"id": "1", "inputs": {"q": 2}}',
      '{"inputs": {"q": 3}}'
    ]
    const ok =
      'examples: cases.jsonl\nevaluators:\n  - { key: right, type: equals, path: answer, reference: answer }\n'
    const r2 = await parse(ok, lines.join('\n'))
    expect('problems' in r2 && r2.problems).toEqual([
      'examples (cases.jsonl), line 2 is not JSON',
      'examples (cases.jsonl), line 3 has the id "1" of line 1',
      'examples (cases.jsonl), line 4 has no `outputs`, which right read (reference)'
    ])
  })
})

/** An evaluation of examples `a`, `b`, `c`, one evaluator `k` held to a pass rate. */
async function evaluationOf(extra = ''): Promise<Evaluation> {
  const text = `examples: x.jsonl\nevaluators:\n  - { key: k, type: contains, value: ok }\nthresholds:\n  k: { pass-rate: 0.6 }\n${extra}`
  const lines = ['a', 'b', 'c'].map(id => JSON.stringify({ id, inputs: {} })).join('\n')
  const r = await parse(text, lines)
  if (!('evaluation' in r)) throw new Error(r.problems.join('\n'))
  return r.evaluation
}
const table = (rows: Record<string, Record<string, number>>) =>
  new Map(Object.entries(rows).map(([id, s]) => [id, new Map(Object.entries(s))]))

describe('the verdict', () => {
  test('thresholds on the pass rate; errors past max-errors and late feedback are inconclusive', async () => {
    const evaluation = await evaluationOf()
    const scores = table({ a: { k: 1 }, b: { k: 1 }, c: { k: 0 } })
    const passed = judge({ evaluation, scores, errors: [], late: [] })
    expect(passed.verdict).toBe('passed')
    expect(passed.scores.k).toEqual({
      mean: 0.6667,
      pass_rate: 0.6667,
      n: 3,
      threshold: { 'pass-rate': 0.6 },
      baseline: null
    })
    const low = judge({
      evaluation,
      scores: table({ a: { k: 1 }, b: { k: 0 }, c: { k: 0 } }),
      errors: [],
      late: []
    })
    expect(low).toMatchObject({ verdict: 'failed', reasons: ['k: pass rate 0.3333 < 0.6'] })
    const errored = judge({
      evaluation,
      scores,
      errors: [{ exampleId: 'c', error: '503' }],
      late: []
    })
    expect(errored).toMatchObject({
      verdict: 'inconclusive',
      reasons: ['1 example errored (max-errors 0): c (503)']
    })
    const late = judge({ evaluation, scores, errors: [], late: [{ key: 'k', missing: 2 }] })
    expect(late.verdict).toBe('inconclusive')
  })

  test('a baseline: the examples that score lower are named; none to compare with is inconclusive', async () => {
    const evaluation = await evaluationOf()
    const withBaseline = { ...evaluation, baseline: { deployment: 'prod', maxRegressions: 0 } }
    const scores = table({ a: { k: 1 }, b: { k: 0 }, c: { k: 1 } })
    const j = judge({
      evaluation: withBaseline,
      scores,
      errors: [],
      late: [],
      baseline: table({ a: { k: 1 }, b: { k: 1 }, c: { k: 1 } })
    })
    expect(j.verdict).toBe('failed')
    expect(j.regressions).toEqual([{ exampleId: 'b', keys: [{ key: 'k', score: 0, baseline: 1 }] }])
    expect(j.reasons).toEqual([
      '1 example regressed against the baseline (max-regressions 0): b (k 1 → 0)'
    ])
    expect(j.scores.k!.baseline).toBe(1)
    const none = judge({ evaluation: withBaseline, scores, errors: [], late: [], baseline: 'none' })
    expect(none.verdict).toBe('inconclusive')
  })
})

const REPO = 'https://github.com/acme/agent-server'
const MAIN_AT_PUSH = { [`${REPO}@main`]: PUSH_MAIN.sha! }

const made: string[] = []
afterAll(() => made.forEach(dir => rmSync(dir, { recursive: true, force: true })))

/** A workspace with graph `agent`, the evaluation file and its examples (removed after the file). */
function workspace(file: string, examples: readonly unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-eval-'))
  made.push(dir)
  writeFileSync(
    join(dir, 'langgraph.json'),
    JSON.stringify({ graphs: { agent: './src/agent.py:graph' } })
  )
  writeFileSync(join(dir, 'evaluate.yaml'), file)
  writeFileSync(join(dir, 'cases.jsonl'), examples.map(e => JSON.stringify(e)).join('\n'))
  return dir
}

const CITES = [
  'examples: cases.jsonl',
  'evaluators:',
  '  - { key: cites, type: contains, path: "messages[-1].content", value: "[source]" }',
  '  - { key: echoes, type: equals, path: "messages[0].content", reference: question }',
  'thresholds:',
  '  cites: { pass-rate: 0.9 }',
  '  echoes: { mean: 1 }'
].join('\n')
const ask = (id: string, content: string) => ({
  id,
  inputs: { messages: [{ content }] },
  outputs: { question: content }
})

async function deployIn(
  emu: Emulator,
  ws: string,
  over: Record<string, string> = {},
  onGroup?: (title: string) => void
) {
  const port = fakePort(
    emulatorInputs(emu, { 'poll-interval': '2s', evaluate: 'evaluate.yaml', ...over }),
    {
      event: {
        ref: 'main',
        expectedSha: PUSH_MAIN.sha!,
        repository: 'acme/agent-server',
        workspace: ws
      }
    }
  )
  const group = port.group
  port.group = (title, fn) => (onGroup?.(title), group(title, fn))
  const result = await run(port, { now: v.now, sleep: v.sleep })
  const errors = port.calls.filter(c => c.startsWith('error: '))
  return {
    code: result.exitCode,
    outputs: result.outputs,
    errors,
    log: port.calls.join('\n'),
    summary: port.summaries.join('\n')
  }
}

const v = virtualEmulator()
/** A test on the file's emulator (a fresh one per test). */
const withEmu = (title: string, body: (emu: Emulator) => Promise<void>) =>
  test(title, () => body(v.emu))
const runsOf = (emu: Emulator) => emu.agents.probes().filter(p => p.path === '/runs/wait')

describe('a deploy with evaluate, on local examples', () => {
  withEmu(
    'passing: DEPLOYED, each example run once on the new revision, the scores in the outputs',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      const ws = workspace(CITES, [ask('a', 'hi [source]'), ask('b', 'yes [source]')])
      const r = await deployIn(emu, ws)
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs.evaluation).toBe('passed')
      expect(JSON.parse(r.outputs['evaluation-scores']!)).toEqual({
        cites: { mean: 1, pass_rate: 1, n: 2, threshold: { 'pass-rate': 0.9 }, baseline: null },
        echoes: { mean: 1, pass_rate: 1, n: 2, threshold: { mean: 1 }, baseline: null }
      })
      expect(runsOf(emu)).toHaveLength(2)
      // Its own served-revision check came first, without health-check.
      expect(r.outputs['served-revision']).toBe('this')
    }
  )

  withEmu(
    'failing, with on-failure: rollback: exit 1, the threshold named, the revision before put back',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      const id = loadSeeded(emu, [seededDeployment(emu, 'agent-run')], MAIN_AT_PUSH)
      const good = heldIn(emu, 'agent-run').active_revision_id!
      const ws = workspace(CITES, [ask('a', 'hi [source]'), ask('b', 'no citation')])
      const r = await deployIn(emu, ws, { 'on-failure': 'rollback' })
      expect(id).toBeDefined()
      expect(r.code).toBe(1)
      expect(r.outputs.evaluation).toBe('failed')
      expect(r.errors[0]).toMatch(
        /^error: Evaluation failed: Revision \S+ of "agent-run" is DEPLOYED and its agent server answers, but it failed its evaluation: cites: pass rate 0\.5 < 0\.9\./
      )
      expectRolledBackTo(r, emu, good)
      expect(r.summary).toContain('| `cites` | 0.5 | 0.5 | 2 | pass rate ≥ 0.9 ❌ | – |')
    }
  )

  withEmu('examples that keep erroring: inconclusive, exit 1', async emu => {
    emu.configure({ repoCommits: MAIN_AT_PUSH })
    const ws = workspace(CITES, [ask('a', 'hi [source]')])
    emu.agents.scriptApp('*', { runs: { error: 'graph raised' } })
    const r = await deployIn(emu, ws)
    expect(r.code).toBe(1)
    expect(r.outputs.evaluation).toBe('inconclusive')
    expect(r.errors[0]).toMatch(
      /Evaluation inconclusive: .*1 example errored \(max-errors 0\): a \(the run raised/
    )
  })

  withEmu('a bad evaluation file: one error naming the input, exit 2, nothing sent', async emu => {
    const ws = workspace('examples: cases.jsonl\nevaluators: []\n', [])
    const r = await deployIn(emu, ws)
    expect(r.code).toBe(2)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/`evaluate` \(evaluate\.yaml\), line 2: evaluators /)
    expect(emu.requests()).toEqual([])
  })
})

describe('a promotion with evaluate, on local examples', () => {
  const writes = (emu: Emulator) =>
    emu.requests().filter(q => q.method === 'POST' || q.method === 'PATCH')
  const pipeline = (emu: Emulator) => {
    const t = { emu, integration: emu.credentials().integrationId! } as unknown as E2E
    seed(t, [codehost(t, 'staging', {}), codehost(t, 'production', {}, TAG)])
    const named = (n: string) =>
      emu
        .state()
        .tenants.flatMap(x => x.deployments)
        .find(d => d.name === n)!
    return { staging: named('staging'), production: named('production') }
  }
  const PROMOTE = { name: 'production', 'promote-from': 'staging' }

  withEmu('the source evaluated before any write; then the target, after its write', async emu => {
    const { staging } = pipeline(emu)
    const ws = workspace(CITES, [ask('a', 'hi [source]')])
    const before = writes(emu).length
    let writesThen: number | undefined
    const r = await deployIn(emu, ws, PROMOTE, title => {
      if (title.startsWith("Evaluation of the promotion's source")) writesThen = writes(emu).length
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    // One run on the source (the evidence, before any write), one on the target (its gate).
    expect(runsOf(emu).map(p => p.deployment_id)).toEqual([
      staging.id,
      expect.not.stringMatching(staging.id)
    ])
    expect(writesThen).toBe(before)
    expect(r.log).toContain(
      `Verified revision ${staging.revisions.at(-1)!.id} of "staging" on its agent server: healthy, serves its active revision, its evaluation.`
    )
    expect(r.outputs.evaluation).toBe('passed')
  })

  withEmu(
    'a source that fails its evaluation: the promotion refused, nothing written',
    async emu => {
      const { staging } = pipeline(emu)
      const ws = workspace(CITES, [ask('a', 'no citation')])
      const before = writes(emu).length
      const r = await deployIn(emu, ws, PROMOTE)
      expect({ code: r.code, errors: r.errors.length, writes: writes(emu).length }).toEqual({
        code: 1,
        errors: 1,
        writes: before
      })
      expect(r.errors[0]).toContain(
        `Promotion refused: revision ${staging.revisions.at(-1)!.id} of "staging"`
      )
      expect(r.errors[0]).toContain(
        'did not pass its evaluation (failed): cites: pass rate 0 < 0.9'
      )
      expect(r.outputs['promoted-from-revision-id']).toBe('')
    }
  )
})

/** An evaluation of dataset `support`: the echo checked here, `judge` from the dataset's rules. */
const DATASET = (extra = '') =>
  [
    'dataset: support',
    'concurrency: 1',
    'evaluators:',
    '  - { key: echoes, type: equals, path: "messages[-1].content", reference: "messages[-1].content" }',
    '  - { key: judge, type: langsmith }',
    'thresholds:',
    '  echoes: { mean: 0.6 }',
    '  judge: { mean: 0.5 }',
    extra
  ].join('\n')
const JUDGE = { key: 'judge', type: 'score' as const, score: 1, delayMs: 30_000 }

/** The dataset `support` of `n` numbered examples, judged by JUDGE. */
const seedSupport = (emu: Emulator, n: number) =>
  seedDataset(emu.url, { name: 'support', examples: numberedExamples(n), evaluators: [JUDGE] })

async function deployDataset(
  emu: Emulator,
  name: string,
  file: string,
  over: Record<string, string> = {}
) {
  return deployIn(emu, workspace(file, []), {
    name,
    'langsmith-api-url': langsmithUrl(emu.url),
    timeout: '5m',
    ...over
  })
}

describe('a deploy with evaluate, on a LangSmith dataset', () => {
  withEmu(
    'passing: an experiment of the dataset for the revision, a run per example, the scores as feedback; the judge waited for',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      const ds = await seedSupport(emu, 3)
      const r = await deployDataset(emu, 'agent-run', DATASET())
      expect(r.errors).toEqual([])
      expect(r.outputs.evaluation).toBe('passed')
      const calls = await langsmithCalls(emu.url)
      expect(calls.experiments).toHaveLength(1)
      const e = calls.experiments[0]!
      expect(e.metadata).toMatchObject({
        deployment_id: r.outputs['deployment-id'],
        revision_id: r.outputs['revision-id'],
        commit: PUSH_MAIN.sha,
        evaluation_digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        verdict: 'passed'
      })
      expect(e.name).toContain(`agent-run ${r.outputs['revision-id']!.slice(0, 8)}`)
      expect(calls.runs.map(x => x.reference_example_id).sort()).toEqual(
        ds.example_ids.slice().sort()
      )
      const keys = calls.feedback.map(f => f.key).sort()
      expect(keys).toEqual(['echoes', 'echoes', 'echoes', 'judge', 'judge', 'judge'])
      expect(r.outputs['evaluation-url']).toBe(
        `${emu.url}/o/${ds.tenant_id}/datasets/${ds.id}/compare?selectedSessions=${e.id}`
      )
      expect(JSON.parse(r.outputs['evaluation-scores']!).judge).toEqual({
        mean: 1,
        pass_rate: 1,
        n: 3,
        threshold: { mean: 0.5 },
        baseline: null
      })
    }
  )

  withEmu(
    'a secret value the agent echoes is scored as answered, and masked in the run LangSmith records',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      const secret = 'sk-eval-0123456789abcdef'
      const messages = [{ role: 'user', content: `token ${secret}` }]
      await seedDataset(emu.url, {
        name: 'support',
        examples: [{ inputs: { messages }, outputs: { messages } }],
        evaluators: [JUDGE]
      })
      const r = await deployDataset(emu, 'agent-run', DATASET(), { secrets: `TOKEN=${secret}` })
      expect(r.outputs.evaluation).toBe('passed')
      const calls = await langsmithCalls(emu.url)
      expect(JSON.stringify(calls.runs.map(x => x.outputs))).not.toContain(secret)
      expect(JSON.stringify(calls.runs[0]!.outputs)).toContain('token ***')
    }
  )

  withEmu('a dataset LangSmith does not have: inconclusive, said, nothing run', async emu => {
    emu.configure({ repoCommits: MAIN_AT_PUSH })
    const r = await deployDataset(emu, 'agent-run', DATASET())
    expect(r.code).toBe(1)
    expect(r.outputs.evaluation).toBe('inconclusive')
    expect(r.errors[0]).toMatch(
      /its evaluation was inconclusive: LangSmith could not be read or written \(Dataset\[id=undefined, name=support\] not found\)/
    )
    expect(runsOf(emu)).toEqual([])
  })

  withEmu(
    'feedback that never comes: inconclusive within the timeout, the verdict recorded',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      await seedDataset(emu.url, {
        name: 'support',
        examples: numberedExamples(2),
        evaluators: [{ ...JUDGE, delayMs: 'never' }]
      })
      const r = await deployDataset(emu, 'agent-run', DATASET())
      expect(r.code).toBe(1)
      expect(r.outputs.evaluation).toBe('inconclusive')
      expect(r.errors[0]).toContain('the feedback judge did not come in time for 2 examples')
      expect((await langsmithCalls(emu.url)).experiments[0]!.metadata).toMatchObject({
        verdict: 'inconclusive'
      })
    }
  )

  withEmu(
    'a regression against the baseline deployment fails, naming the example; none recorded is inconclusive',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      await seedSupport(emu, 3)
      const baseline = DATASET('baseline: { deployment: agent-prod }')
      const none = await deployDataset(emu, 'agent-staging', baseline)
      expect(none.outputs.evaluation).toBe('inconclusive')
      expect(none.errors[0]).toContain(
        'no passing experiment of deployment "agent-prod" on this dataset'
      )
      expect((await deployDataset(emu, 'agent-prod', DATASET())).outputs.evaluation).toBe('passed')
      // Example 1 now answers something else: its echo scores 0, where the baseline's scored 1.
      const echo = (i: number) => ({ messages: [{ role: 'user', content: `question ${i}` }] })
      emu.agents.scriptApp('*', {
        runs: { outputs: [echo(0), { messages: [{ content: 'wrong' }] }, echo(2)] }
      })
      const r = await deployDataset(emu, 'agent-staging', baseline)
      expect(r.code).toBe(1)
      expect(r.outputs.evaluation).toBe('failed')
      expect(r.errors[0]).toContain(
        `1 example regressed against the baseline (max-regressions 0): ${exampleId(1)} (echoes 1 → 0)`
      )
      expect(JSON.parse(r.outputs['evaluation-scores']!).echoes).toMatchObject({
        mean: 0.6667,
        baseline: 1
      })
      expect(r.summary).toContain(`| \`${exampleId(1)}\` | \`echoes\` | 1 | 0 |`)
    }
  )

  withEmu(
    'LangSmith answering 429 with Retry-After: retried after it on the run’s clock, said, and the gate passes',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      await seedSupport(emu, 2)
      await langsmithFaults(emu.url, [
        { method: 'POST', path: '/runs', status: 429, retryAfter: 7, times: 2 }
      ])
      const started = v.now()
      const r = await deployDataset(emu, 'agent-run', DATASET())
      expect(r.errors).toEqual([])
      expect(r.outputs.evaluation).toBe('passed')
      const runs = (await langsmithCalls(emu.url)).calls.filter(
        c => c.method === 'POST' && c.path.endsWith('/runs')
      )
      // The first run's write answered 429 twice, then taken; the second's at once.
      expect(runs.map(c => (c.status < 300 ? 'written' : c.status))).toEqual([
        429,
        429,
        'written',
        'written'
      ])
      const retries = r.log.match(
        /LangSmith POST \S+\/runs: HTTP 429; retry \d in (\d+) ms \(Retry-After\)/g
      )
      expect(retries).toHaveLength(2)
      for (const line of retries!)
        expect(Number(/in (\d+) ms/.exec(line)![1])).toBeGreaterThanOrEqual(7000)
      // Waited on the run's clock (virtual here): no real pause of 14 s.
      expect(v.now() - started).toBeGreaterThanOrEqual(14_000)
    }
  )

  withEmu(
    'a promotion takes the source revision’s recorded passing experiment: the source is not run again',
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      await seedSupport(emu, 2)
      const staging = await deployDataset(emu, 'agent-staging', DATASET())
      expect(staging.outputs.evaluation).toBe('passed')
      const runsBefore = runsOf(emu).length
      const r = await deployDataset(emu, 'agent-prod', DATASET(), {
        'promote-from': 'agent-staging'
      })
      expect(r.errors).toEqual([])
      expect(r.log).toContain(
        `Evidence: experiment "agent-staging ${staging.outputs['revision-id']!.slice(0, 8)}`
      )
      // Only the target's gate ran examples: two more runs, none on the source.
      expect(
        runsOf(emu)
          .slice(runsBefore)
          .map(p => p.deployment_id)
      ).toEqual([r.outputs['deployment-id'], r.outputs['deployment-id']])
      expect(r.outputs.evaluation).toBe('passed')
    }
  )
})

describe('the CLI door', () => {
  /** `control-plane-deploy deploy --evaluate evaluate.yaml ...` in `ws`, on the file's emulator. */
  async function cliDeploy(ws: string, flags: string[]) {
    const out = { stdout: '', stderr: '' }
    const io: CliIo = {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t), isTTY: false },
      now: v.now,
      cwd: ws,
      onSignal: () => () => {},
      exit: () => {}
    }
    const c = v.emu.credentials()
    const env = {
      CONTROL_PLANE_API_KEY: c.apiKey,
      CONTROL_PLANE_TENANT_ID: c.tenantId,
      CONTROL_PLANE_BASE_URL: v.emu.url,
      CONTROL_PLANE_INTEGRATION_ID: c.integrationId!
    }
    const argv = [
      'deploy',
      '--name',
      'cli-eval',
      '--repository',
      'acme/agent-server',
      '--ref',
      'main',
      '--evaluate',
      'evaluate.yaml',
      ...flags
    ]
    const code = await cli(argv, env, io, port => run(port, { now: v.now, sleep: v.sleep }))
    return { code, ...out }
  }

  withEmu(
    '--evaluate with a dataset: exit 0, the verdict and the experiment on stdout',
    async emu => {
      await seedSupport(emu, 2)
      const r = await cliDeploy(workspace(DATASET(), []), [
        '--langsmith-api-url',
        langsmithUrl(emu.url)
      ])
      expect(r.stderr).not.toMatch(/error/i)
      expect(r.code).toBe(0)
      expect(r.stdout).toMatch(/^evaluation=passed$/m)
      expect(r.stdout).toMatch(
        /^evaluation-url=http:\/\/127\.0\.0\.1:\d+\/o\/\S+\/datasets\/\S+\/compare\?selectedSessions=\S+$/m
      )
    }
  )

  withEmu(
    'a dataset without --langsmith-api-url off the hosted service, or a bad file: exit 2, every problem at once, nothing sent',
    async emu => {
      const r = await cliDeploy(workspace(DATASET(), []), [
        '--langsmith-api-url',
        'http://langsmith.example.com'
      ])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(
        '`--langsmith-api-url` is refused: plain http is refused for langsmith.example.com'
      )
      const unset = await cliDeploy(workspace(DATASET(), []), [])
      expect(unset.code).toBe(2)
      expect(unset.stderr).toContain(
        '`--langsmith-api-url` must be set: `CONTROL_PLANE_BASE_URL` is not the hosted service'
      )
      const bad = await cliDeploy(
        workspace('dataset: support\nevaluators:\n  - { key: k, type: nearly }\n', []),
        []
      )
      expect(bad.code).toBe(2)
      expect(bad.stderr).toMatch(
        /`--evaluate` \(evaluate\.yaml\), line 3: evaluators\[0\]\.type must be one of equals, contains, matches, latency, langsmith/
      )
      expect(emu.requests()).toEqual([])
      expect((await langsmithCalls(emu.url)).calls).toEqual([])
    }
  )
})

describe('the LangSmith fetch', () => {
  test('to the LangSmith API’s origin only, a redirect an answer never followed', async () => {
    const { createServer } = await import('node:http')
    const seen: string[] = []
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['x-api-key'] ?? ''}`)
      res.writeHead(302, { location: 'https://elsewhere.example/steal' }).end()
    })
    await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
    try {
      const { port } = server.address() as { port: number }
      const fetch = langsmithFetch({ apiUrl: `http://127.0.0.1:${port}/api` })
      const answer = await fetch(`http://127.0.0.1:${port}/api/datasets`, {
        headers: { 'x-api-key': 'k' }
      })
      expect(answer.status).toBe(302)
      await expect(
        fetch('https://elsewhere.example/api/datasets', { headers: { 'x-api-key': 'k' } })
      ).rejects.toThrow(
        /refused unsent: only http:\/\/127\.0\.0\.1:\d+ \(langsmith-api-url\) gets the key/
      )
      expect(seen).toEqual(['GET /api/datasets k'])
    } finally {
      server.close()
    }
  })
})

describe('the pull request comment', () => {
  test('the score table, each threshold, the baseline delta and the regressed examples', async () => {
    const evaluation = await evaluationOf()
    const withBaseline = { ...evaluation, baseline: { deployment: 'prod', maxRegressions: 0 } }
    const j = judge({
      evaluation: withBaseline,
      scores: table({ a: { k: 1 }, b: { k: 0 }, c: { k: 1 } }),
      errors: [],
      late: [],
      baseline: table({ a: { k: 1 }, b: { k: 1 }, c: { k: 1 } })
    })
    const facts = { ...j, examples: 3, errors: 0 }
    const body = renderComment({
      name: 'agent',
      outcome: 'evaluation-failed',
      revisionId: 'r-1',
      evaluation: facts
    })
    expect(body).toContain('### `agent`: ❌ Evaluation failed')
    expect(body).toContain('| `k` | 0.6667 | 0.6667 | 3 | pass rate ≥ 0.6 | 1 (-0.3333) |')
    expect(body).toContain('| `b` | `k` | 1 | 0 |')
  })
})
