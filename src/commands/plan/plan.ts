// The plan: for each agent of the manifest that has the environment, deploy or skip, and why. Two
// reads per deployment (its lookup, its active revision), nothing written. Deploy: no deployment,
// no active revision, a file of the agent or its manifest entry changed since the commit the
// active revision built, a promotion whose source runs other material; unknown (no commit to
// compare, a commit not in the checkout): deploy, saying so.
import type { ControlPlaneClient } from '../../control-plane/client.ts'
import type { Deployment, Revision } from '../../control-plane/schema.ts'
import { UUID_PATTERN } from '../../control-plane/vocabulary.ts'
import { sanitizeServerText } from '../../inert.ts'
import type { Options } from '../../inputs/options.ts'
import { stopped } from '../../interface/ending.ts'
import type { Say } from '../../interface/naming.ts'
import { changedSinceCommit, type Compared, type Since } from '../../manifest/changed.ts'
import type { Settings } from '../../manifest/read.ts'
import { deploymentById, findDeploymentByName } from '../deploy/steps/find-deployment.ts'

export type PlanOptions = Pick<Options, 'manifest' | 'agent' | 'environment'>

/** One agent's verdict, with what it was judged by. */
export interface PlanRow {
  agent: string
  environment: string
  /** The deployment's name (or its id, when the entry names it by id). */
  name: string
  deploymentId?: string | undefined
  /** The commit its active revision built, when it reports one. */
  commit?: string | undefined
  deploy: boolean
  why: string
}

export interface PlanDeps {
  client: ControlPlaneClient
  say: Say
}

/** How many agents are read at once: a 50-agent plan in a few round trips, no burst. */
const AT_ONCE = 4

/** Every agent's row, in the manifest's order; the agent input alone when it is set. */
export async function plan(o: PlanOptions, c: Compared, deps: PlanDeps): Promise<PlanRow[]> {
  const env = o.environment!
  const keys = Object.keys(c.manifest.agents).filter(
    k => (o.agent === undefined || k === o.agent) && c.manifest.agents[k]!.environments[env]
  )
  const rows: PlanRow[] = new Array<PlanRow>(keys.length)
  let next = 0
  const worker = async () => {
    while (next < keys.length) {
      const i = next++
      rows[i] = await planAgent(c, keys[i]!, env, deps)
    }
  }
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, keys.length) }, worker))
  return rows
}

/** A deployment and its active revision, as two reads; a missing one says so. */
type Read =
  | { missing: string }
  | { unclear: string }
  | { deployment: Deployment; active: Revision | undefined }

async function readDeployment(settings: Settings, deps: PlanDeps): Promise<Read> {
  const id = settings['deployment-id']
  const name = settings.name
  const d =
    typeof id === 'string'
      ? await deploymentById(deps.client, id.toLowerCase())
      : await findDeploymentByName(deps.client, String(name), deps.say)
  if (d !== undefined && stopped(d)) return { unclear: d.failure.message }
  if (!d)
    return {
      missing: `no deployment ${typeof id === 'string' ? `has id ${id}` : `is named "${String(name)}"`}`
    }
  const active = d.active_revision_id
    ? await deps.client.getRevision(d.id, d.active_revision_id)
    : undefined
  return { deployment: d, active }
}

const short = (sha: string) => sha.slice(0, 12)
const shown = (text: string) => sanitizeServerText(text, 200)

/** One agent's verdict. */
async function planAgent(
  c: Compared,
  agent: string,
  environment: string,
  deps: PlanDeps
): Promise<PlanRow> {
  const envs = c.manifest.agents[agent]!.environments
  const settings = envs[environment]!
  const name = String(settings.name ?? settings['deployment-id'])
  const row = { agent, environment, name }
  const read = await readDeployment(settings, deps)
  if ('missing' in read)
    return { ...row, deploy: true, why: `${read.missing}: a deploy creates it` }
  // The deploy refuses it too, and says how to choose.
  if ('unclear' in read) return { ...row, deploy: true, why: `unknown: ${read.unclear}` }
  const d = read.deployment
  const commit = read.active?.source_revision_config?.repo_commit_sha ?? undefined
  const known = { ...row, deploymentId: d.id, commit }
  if (!read.active) return { ...known, deploy: true, why: 'it has no active revision' }
  const from = settings['promote-from']
  if (typeof from === 'string') {
    // Another environment of the agent, or a deployment by its name or id.
    const byId = UUID_PATTERN.test(from)
    const source = envs[from] ?? (byId ? { 'deployment-id': from } : { name: from })
    return {
      ...known,
      ...(await promotion(c, { agent, environment, commit }, read.active, source, deps))
    }
  }
  if (!commit)
    return {
      ...known,
      deploy: true,
      why: `unknown: its active revision ${read.active.id} reports no commit (${read.active.source === 'internal_source' ? 'an upload has no base to compare' : 'nothing to compare'})`
    }
  return { ...known, ...verdict(await changedSinceCommit(c, agent, environment, commit), commit) }
}

function verdict(since: Since, commit: string): { deploy: boolean; why: string } {
  if ('unknown' in since) return { deploy: true, why: `unknown: ${since.unknown}` }
  if (since.changed.length) return { deploy: true, why: since.changed.join('; ') }
  return { deploy: false, why: `nothing it depends on changed since ${short(commit)}` }
}

/** What a revision runs, as a promotion compares it. */
function materialOf(r: Revision): string | undefined {
  const c = r.source_revision_config
  if (r.source === 'internal_source') return undefined
  if (c?.repo_commit_sha) return `commit ${c.repo_commit_sha.toLowerCase()}`
  if (c?.image_uri) return `image ${c.image_uri}`
  return undefined
}

/** A promotion's target: deploy when its source's active material is not what it runs. */
async function promotion(
  c: Compared,
  target: { agent: string; environment: string; commit: string | undefined },
  active: Revision,
  source: Settings,
  deps: PlanDeps
): Promise<{ deploy: boolean; why: string }> {
  const read = await readDeployment(source, deps)
  const from = `its source "${String(source.name ?? source['deployment-id'])}"`
  if ('missing' in read) return { deploy: false, why: `nothing to promote: ${read.missing}` }
  if ('unclear' in read) return { deploy: true, why: `unknown: ${read.unclear}` }
  if (!read.active)
    return { deploy: false, why: `nothing to promote: ${from} has no active revision` }
  const theirs = materialOf(read.active)
  const ours = materialOf(active)
  if (theirs === undefined || ours === undefined)
    return {
      deploy: true,
      why: `unknown: ${from} or this deployment runs an upload or reports no material`
    }
  // The entry of the target, as the target's commit had it, still counts.
  const entry = target.commit
    ? await changedSinceCommit(c, target.agent, target.environment, target.commit)
    : undefined
  const entryChanged =
    entry && 'changed' in entry ? entry.changed.filter(x => x.startsWith('its manifest entry')) : []
  if (theirs !== ours)
    return {
      deploy: true,
      why: [`${from} runs ${shown(theirs)}, this runs ${shown(ours)}`, ...entryChanged].join('; ')
    }
  if (entryChanged.length) return { deploy: true, why: entryChanged.join('; ') }
  return { deploy: false, why: `it runs what ${from} runs (${shown(ours)})` }
}
