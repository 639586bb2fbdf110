// A promotion's target against its source (`promote-from`): what the target's active revision
// runs against what the source's active revision runs. Codehost: the commit built; an image: the
// image; an upload: never the same as far as anyone can tell (the control plane keeps no digest of
// an archive), so it always differs. `command: check` lists these as drift, and a dry-run
// promotion says them as what it would change: one comparison, so the two agree.
import { sanitizeServerText } from '../../control-plane/redact.ts'
import type { Deployment, Revision } from '../../control-plane/schema.ts'
import type { FlowDeps } from '../deploy/deps.ts'
import type { PromotionSource } from '../deploy/steps/promote.ts'
import { revisionsState, type Difference } from './own-state.ts'

const shown = (text: string) => sanitizeServerText(text, 200)

/** `"staging" (promote-from) revision <id>`. */
function sourceName(s: PromotionSource, deps: Pick<FlowDeps, 'say'>): string {
  return `"${s.deployment.name}" (${deps.say('promote-from')}) revision ${s.revision.id}`
}

/**
 * What the target's active revision runs against the source's; undefined when they are the same.
 * A target without an active revision is said by its own state (own-state.ts), not here.
 */
export function materialDifference(
  target: Deployment,
  active: Pick<Revision, 'id' | 'source_revision_config'> | undefined,
  s: PromotionSource,
  deps: Pick<FlowDeps, 'say'>
): Difference | undefined {
  if (target.active_revision_id === null) return undefined
  const from = sourceName(s, deps)
  const material = (text: string): Difference => ({ kind: 'material', text, details: [] })
  if (s.deployment.source === 'internal_source')
    return material(
      `"${target.name}" runs an upload, which cannot be compared with ${from}: the control plane keeps no digest of an uploaded archive, so a promotion uploads the workspace again.`
    )
  const theirs = s.revision.source_revision_config ?? {}
  const ours = active?.source_revision_config ?? {}
  const revision = target.active_revision_id
  if (s.deployment.source === 'codehost') {
    const sha = theirs.repo_commit_sha ?? ''
    const built = ours.repo_commit_sha
    if (!built)
      return material(
        `"${target.name}" reports no commit for its active revision ${revision}: it cannot be shown to run commit ${shown(sha)} of ${from}.`
      )
    if (built.toLowerCase() === sha.toLowerCase()) return undefined
    return material(
      `"${target.name}" runs commit ${shown(built)} (revision ${revision}), but ${from} runs commit ${shown(sha)}.`
    )
  }
  const image = theirs.image_uri ?? ''
  if (ours.image_uri === image) return undefined
  const runs = ours.image_uri ? `image ${shown(ours.image_uri)}` : 'no image it reports'
  return material(
    `"${target.name}" runs ${runs} (revision ${revision}), but ${from} runs image ${shown(image)}.`
  )
}

/**
 * A dry-run promotion: what it would change in what the target runs (its revisions' state and the
 * material), read as `command: check` reads it. At most two requests, nothing written.
 */
export async function previewPromotion(
  deps: FlowDeps,
  target: Deployment,
  s: PromotionSource,
  what: string
): Promise<void> {
  const read = await revisionsState(deps.client, target, true)
  const m = materialDifference(target, read.active, s, deps)
  const all = m ? [...read.differences, m] : read.differences
  if (!all.length) {
    deps.log.info(
      `"${target.name}" already runs what the promotion deploys (${what} of ${sourceName(s, deps)}): it would change no material.`
    )
    return
  }
  for (const d of all) deps.log.info(`The promotion would change what runs: ${d.text}`)
}
