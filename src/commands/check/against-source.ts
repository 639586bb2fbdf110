// A promotion's target against its source (`promote-from`): what the target's active revision runs
// against the promotion's material: the same `revision_source`, then the commit built or the image;
// an upload always differs (the control plane keeps no digest of an archive). `command: check` and
// a dry-run promotion say these alike: one comparison of one material.
import { sanitizeServerText } from '../../inert.ts'
import type { Deployment, Revision } from '../../control-plane/schema.ts'
import type { FlowDeps } from '../deploy/deps.ts'
import type { PromotedMaterial } from '../deploy/steps/material.ts'
import { one, revisionsState, type Difference } from './own-state.ts'

const shown = (text: string) => sanitizeServerText(text, 200)

/** `"staging" (promote-from) revision <id>`. */
function sourceName(m: PromotedMaterial, deps: Pick<FlowDeps, 'say'>): string {
  return `"${m.source.deployment.name}" (${deps.say('promote-from')}) revision ${m.source.revision.id}`
}

/** The active revision, as far as the comparison reads it. */
export type ActiveRevision = Pick<Revision, 'id' | 'source' | 'source_revision_config'>

/** What the target runs against the material; undefined when the same (or no active revision). */
export function materialDifference(
  target: Deployment,
  active: ActiveRevision | undefined,
  m: PromotedMaterial,
  deps: Pick<FlowDeps, 'say'>
): Difference | undefined {
  if (target.active_revision_id === null) return undefined
  const from = sourceName(m, deps)
  const material = (text: string) => one('material', text)
  if (m.of.kind === 'upload')
    return material(
      `"${target.name}" runs an upload, which cannot be compared with ${from}: the control plane keeps no digest of an uploaded archive, so a promotion uploads the workspace again.`
    )
  const ours = active?.source_revision_config ?? {}
  const revision = target.active_revision_id
  // Either side unreported: not known to differ.
  const built = m.source.revision.source
  if (active?.source && built && active.source !== built)
    return material(
      `"${target.name}" runs a revision built from ${shown(active.source)} (revision ${revision}), but ${from} runs ${m.promotion.what}, built from ${shown(built)}.`
    )
  const sha = m.of.expectedSha
  if (sha !== undefined) {
    const commit = ours.repo_commit_sha
    if (!commit)
      return material(
        `"${target.name}" reports no commit for its active revision ${revision}: it cannot be shown to run commit ${shown(sha)} of ${from}.`
      )
    if (commit.toLowerCase() === sha.toLowerCase()) return undefined
    return material(
      `"${target.name}" runs commit ${shown(commit)} (revision ${revision}), but ${from} runs commit ${shown(sha)}.`
    )
  }
  const image = m.of.imageUri ?? ''
  if (ours.image_uri === image) return undefined
  const runs = ours.image_uri ? `image ${shown(ours.image_uri)}` : 'no image it reports'
  return material(
    `"${target.name}" runs ${runs} (revision ${revision}), but ${from} runs image ${shown(image)}.`
  )
}

/** A dry-run promotion: what it would change in what runs, as `command: check` reads it. */
export async function previewPromotion(
  deps: FlowDeps,
  target: Deployment,
  m: PromotedMaterial
): Promise<void> {
  const read = await revisionsState(deps.client, target, true)
  const d = materialDifference(target, read.active, m, deps)
  const all = d ? [...read.differences, d] : read.differences
  if (!all.length) {
    deps.log.info(
      `"${target.name}" already runs what the promotion deploys (${m.promotion.what} of ${sourceName(m, deps)}): it would change no material.`
    )
    return
  }
  for (const x of all) deps.log.info(`The promotion would change what runs: ${x.text}`)
}
