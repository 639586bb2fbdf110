// Evidence before any write: a promotion's source is examined on its own agent server by this
// run's checks and gate (after-deployed.ts). `DEPLOYED` is not evidence: a staging revision whose
// checks failed stays DEPLOYED without rollback. A check failed or not made refuses the promotion.
import { sanitizeServerText } from '../../../inert.ts'
import { graphsSkippedBecause } from '../../../health/built-workspace.ts'
import { DEFAULT_HEALTH_PATH } from '../../../inputs/health.ts'
import type { DeployOptions } from '../options.ts'
import type { FlowDeps } from '../deps.ts'
import { stop, stopped, type Ending } from '../../../interface/ending.ts'
import { seen } from '../facts.ts'
import type { Evidence, Journal } from '../../../interface/journal.ts'
import { builtFrom, examineServer, healthSettings, type Examined } from './after-deployed.ts'
import type { PromotedMaterial } from './material.ts'

/** What examined the source, and the ending when it may not be promoted (refused, cancelled). */
export interface Examination {
  evidence?: Evidence
  ending?: Ending
}

/** Examines the source's active revision; `verify-source: false` examines nothing, and says so. */
export async function verifySource(
  o: DeployOptions,
  journal: Journal,
  deps: FlowDeps,
  m: PromotedMaterial
): Promise<Examination> {
  const { deployment: d, revision } = m.source
  if (!o.verifySource) {
    // A dry run promotes nothing: it says what a real run would do.
    const [done, is] = o.dryRun ? ['planned its promotion', 'would be'] : ['promoted it', 'is']
    deps.log.warning(
      `${deps.say.set('verify-source', false)}: nothing verified revision ${revision.id} of "${d.name}" before this run ${done}; it ${is} promoted on its DEPLOYED status alone.`,
      o.dryRun ? 'Would be promoted without evidence' : 'Promoted without evidence'
    )
    return { evidence: { kind: 'skipped' } }
  }
  const title = `Verify the promotion's source "${d.name}" revision ${revision.id}`
  const examined = await deps.log.group(title, () => examineSource(o, deps, m))
  if (stopped(examined)) {
    const check = 'the health check'
    const ending = refuse(m, journal, deps, check, examined.failure.message)
    return { evidence: { kind: 'refused', check }, ending }
  }
  if (examined.gate.health === 'cancelled' || examined.cut === 'cancelled') {
    const message = `Cancelled while the promotion's source "${d.name}" was being verified; nothing was written.`
    return { ending: { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } } }
  }
  const missing = shortfall(examined)
  if (missing) {
    const ending = refuse(m, journal, deps, missing.check, missing.what)
    return { evidence: { kind: 'refused', check: missing.check }, ending }
  }
  const checks = passed(examined)
  const judged = deps.evaluation && (await evaluationEvidence(o, deps, m, source(m, deps)))
  if (judged && stopped(judged))
    return { evidence: { kind: 'refused', check: 'its evaluation' }, ending: judged }
  if (judged) checks.push(judged.check)
  deps.log.info(
    `Verified revision ${revision.id} of "${d.name}" on its agent server: ${checks.join(', ')}.`
  )
  return { evidence: { kind: 'verified', checks } }
}

/** The gate and the checks against the source's URL, as this run would run them on the target. */
async function examineSource(o: DeployOptions, deps: FlowDeps, m: PromotedMaterial) {
  const { deployment: d, revision } = m.source
  // The source's URL, said as it is used here: a problem with it is the gate's to say.
  const source = seen(d, deps.log, { urlRefused: true })
  const own = m.of.kind === 'named' ? m.of.graphConfigPath : m.of.configPath
  const checked = { ...o, graphConfigPath: own }
  const built = {
    ...(m.of.kind === 'upload' ? { source: m.of.upload.facts } : {}),
    repoCommitSha: revision.source_revision_config?.repo_commit_sha ?? undefined
  }
  const skipped = await graphsSkippedBecause(builtFrom(o, m.of), built, deps.workspace ?? '.')
  // Without health-check the served-revision check runs anyway, on the default health route.
  const path = o.healthCheck || DEFAULT_HEALTH_PATH
  const settings = healthSettings(checked, path, source, deps, { waitedMs: 0 })
  // Without health-check, one healthy probe and the revision served suffice: no window to hold.
  if (!o.healthCheck) settings.windowMs = 0
  return examineServer(checked, deps, {
    settings,
    expected: { deploymentId: d.id, revisionId: revision.id, drains: false, whose: 'its active' },
    ...(skipped === undefined ? {} : { graphsSkipped: skipped }),
    urlProblem: source.urlProblem,
    checksTitle: `Checks of "${d.name}" revision ${revision.id}`
  })
}

/** The first check that did not pass, or could not be made; undefined when all passed. */
function shortfall(x: Examined): { check: string; what: string } | undefined {
  const g = x.gate
  if (g.health === 'timeout')
    return { check: 'the health check', what: `${g.reason ?? 'it'} when the timeout came` }
  if (g.health === 'unhealthy')
    return { check: 'the health check', what: `unhealthy: ${g.reason ?? 'a probe failed'}` }
  if (g.health === 'unavailable')
    return {
      check: 'the health check',
      what: 'every probe answered 404 (the health routes are turned off), so it could not be made'
    }
  if (x.failure?.title === 'New revision not served')
    return { check: 'the served-revision check', what: x.failure.what }
  if (x.served?.verdict === 'unknown')
    return { check: 'the served-revision check', what: sanitizeServerText(x.served.notice) }
  if (x.cut === 'timeout')
    return { check: 'its checks', what: 'the timeout came before they were done' }
  if (x.failure) return { check: checkOf(x.failure.title), what: x.failure.what }
  if (x.verified.graphs?.verdict === 'inconclusive')
    return { check: 'the graphs check', what: 'the graphs could not be listed' }
  if (x.verified.smoke === 'inconclusive')
    return { check: 'the smoke cases', what: 'they could not run (inconclusive)' }
  return undefined
}

const checkOf = (title: string) =>
  title === 'Smoke test failed' ? 'the smoke cases' : 'the graphs check'

/** The checks the source passed, in the words of the log and the summary. */
function passed(x: Examined): string[] {
  const out = ['healthy', 'serves its active revision']
  const g = x.verified.graphs
  if (g) out.push(`graphs ${g.checked.join(', ')} served`)
  const cases = x.verified.cases?.length
  if (cases) out.push(`${cases} smoke ${cases === 1 ? 'case' : 'cases'} passed`)
  return out
}

/** One error naming the source, its revision and the check; nothing was written. */
function refuse(
  m: PromotedMaterial,
  journal: Journal,
  deps: FlowDeps,
  check: string,
  what: string
): Ending {
  const { deployment: d, revision } = m.source
  const target = journal.name ?? journal.deploymentId ?? 'the target'
  return stop(
    `Promotion refused: revision ${revision.id} of "${d.name}" (${d.id}, ${deps.say('promote-from')}) did not pass ${check} on its agent server: ${what.replace(/[.\s]+$/, '')}. Nothing was written to ${target}.`,
    `Promote a revision that passes this run's checks: fix "${d.name}" and deploy it again, then promote. ${deps.say.set('verify-source', false)} promotes without this evidence.`,
    'Promotion refused'
  )
}

/** The source's address and what it was built from, for its evaluation. */
function source(m: PromotedMaterial, deps: FlowDeps) {
  const { deployment: d, revision } = m.source
  const facts = seen(d, deps.log, { urlRefused: true })
  return {
    deploymentId: d.id,
    name: d.name,
    url: facts.url,
    revisionId: revision.id,
    commit: revision.source_revision_config?.repo_commit_sha ?? undefined,
    sourceDigest: m.of.kind === 'upload' ? m.of.upload.facts.digest : undefined
  }
}

/** With `evaluate`: the source's passing experiment, or its evaluation now (loaded only then). */
async function evaluationEvidence(
  o: DeployOptions,
  deps: FlowDeps,
  m: PromotedMaterial,
  s: ReturnType<typeof source>
) {
  const { evaluateSource } = await import('./evaluation.ts')
  const own = m.of.kind === 'named' ? m.of.graphConfigPath : m.of.configPath
  return evaluateSource({ o: { ...o, graphConfigPath: own }, deps }, s)
}
