// The facts a read of the deployment tells, and a write cut off by a cancel: what the steps return
// for their flow to record in the journal (src/interface/journal.ts). The flows alone write it.
import { deploymentStatusWord } from '../../report/status-words.ts'
import type { Deployment } from '../../control-plane/schema.ts'
import { kindOf, sizeOfTier } from '../../control-plane/vocabulary.ts'
import type { DeployOptions } from './options.ts'
import type { Journal, Learned, Writing } from '../../interface/journal.ts'
import type { FlowDeps } from './deps.ts'
import type { FlowLog } from '../../log.ts'

/** A run's journal before its first step, as its flow holds it: what the inputs name. */
export function newJournal(o: Pick<DeployOptions, 'name' | 'target'>): Learned {
  return {
    name: o.name,
    deploymentId: o.target.kind === 'id' ? o.target.deploymentId : undefined,
    created: false,
    timeline: []
  }
}

/** A flow records what a step returned (or what a thrown error carries). */
export function record(journal: Learned, learned: Learned | undefined): void {
  Object.assign(journal, learned)
}

const LEARNED = Symbol('learned')

/** The error, carrying what the step learned before it was thrown (later facts win). */
export function told(err: unknown, learned: Learned): unknown {
  if (typeof err !== 'object' || err === null) return err
  const e = err as { [LEARNED]?: Learned }
  e[LEARNED] = { ...learned, ...e[LEARNED] }
  return err
}

/** What a thrown error carries of what its steps learned. */
export function toldBy(err: unknown): Learned | undefined {
  return typeof err === 'object' && err !== null
    ? (err as { [LEARNED]?: Learned })[LEARNED]
    : undefined
}

/** What a read of the deployment tells; a URL not used is said once (`urlRefused`: said before). */
export function seen(
  d: Deployment,
  log: Pick<FlowLog, 'warning'>,
  known: Pick<Journal, 'urlRefused'>
): Learned {
  const facts: Learned = {
    deploymentId: d.id,
    name: d.name,
    tenantId: d.tenant_id,
    deploymentStatus: deploymentStatusWord(d.status),
    deploymentType: kindOf(d.source_config.deployment_type),
    tier: d.deployment_tier ?? undefined,
    size: sizeOfTier(d.deployment_tier),
    urlProblem: undefined
  }
  // The service's newer top-level `url` where it gives one; else the custom_url, as before.
  const url = d.url || d.source_config.custom_url
  const field = d.url ? 'url' : 'custom_url'
  if (!url) return facts
  if (isWellFormedUrl(url)) return { ...facts, url: outputUrl(url) }
  const credentials = credentialsIn(url)
  const urlProblem = credentials
    ? `its ${field} for ${credentials} carries credentials (user:password@), which are never sent or shown`
    : `its ${field} is not a well-formed http(s) URL`
  const refused = { ...facts, url: undefined, urlProblem, urlRefused: true }
  if (known.urlRefused) return refused
  log.warning(
    credentials
      ? `Deployment "${d.name}" has a ${field} for ${credentials} that carries credentials (user:password@): the url output is left empty, and they are never sent or shown.`
      : `Deployment "${d.name}" has a ${field} that is not a well-formed http(s) URL: the url output is left empty.`,
    'URL not used'
  )
  return refused
}

// What a URL's path, query and fragment keep; anything else (`$`, a backtick, quotes, `;`...) is
// percent-encoded: the same resource, with nothing for a `run:` line or a dotenv reader to expand.
const URL_KEPT = /[^A-Za-z0-9\-._/:@+,%=?&#]/g

/** The `url` output: normalised by `new URL`, then encoded past URL_KEPT; a bare origin kept. */
export function outputUrl(text: string): string {
  const u = new URL(text)
  const tail = `${u.pathname}${u.search}${u.hash}`.replace(
    URL_KEPT,
    c => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
  )
  const out = `${u.origin}${tail}`
  return out === `${text}/` ? text : out
}

/** The host of a URL that carries user:password@, or undefined. */
function credentialsIn(text: string): string | undefined {
  const u = URL.parse(text)
  return u && (u.username || u.password) ? u.host.replace(/[^\x21-\x7e]/g, '?') : undefined
}

/** The `url` output is the server's text: a plain http(s) URL, no controls or command markers. */
function isWellFormedUrl(text: string): boolean {
  if (text.length > 2000 || /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text)) return false
  if (text.includes('##[') || /^[^:]*::/.test(text)) return false
  const u = URL.parse(text)
  return !!u && (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password
}

/** A write a cancel cuts off has an unknown outcome, which the error carries (`writing`). */
export async function writing<T>(
  deps: FlowDeps,
  kind: Writing,
  write: () => Promise<T>
): Promise<T> {
  try {
    return await write()
  } catch (err) {
    throw deps.signal?.aborted ? told(err, { writing: kind }) : err
  }
}
