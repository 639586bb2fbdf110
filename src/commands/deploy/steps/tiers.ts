// The deployment's type and size: asked against reported, as plan changes, refusals before any
// write and a resize's body. A size is the type's tier (`medium` on Serverless is `SERVERLESS_M`).
import type {
  Deployment,
  DeploymentType,
  ResourceTiersRequest
} from '../../../control-plane/schema.ts'
import { sanitizeServerText } from '../../../inert.ts'
import {
  DEFAULT_DEPLOYMENT_TYPE,
  kindOf,
  sizeOfTier,
  tierOf
} from '../../../control-plane/vocabulary.ts'
import type { Size } from '../../../interface/journal.ts'
import type { Say } from '../../../interface/naming.ts'
import type { DeployOptions } from '../options.ts'
import { stop, type Stop } from '../../../interface/ending.ts'

/** A change of the plan: old -> new, `from` undefined when new or not reported. */
export interface Change {
  field: string
  from: string | undefined
  to: string
}

type TierOptions = Partial<Pick<DeployOptions, 'size' | 'databaseSize' | 'deploymentType'>>

/** The type a create asks for, else the vendor CLI's `serverless` (the service's: undocumented). */
export function createdType(o: Pick<TierOptions, 'deploymentType'>): DeploymentType {
  return o.deploymentType ?? DEFAULT_DEPLOYMENT_TYPE
}

/** What the service reports of a tier, as the plan shows it; undefined when it reports none. */
function shownTier(tier: string | null | undefined): string | undefined {
  if (!tier) return undefined
  const size = sizeOfTier(tier)
  const text = sanitizeServerText(tier, 100)
  return size ? `${size} (${text})` : text
}

/** The tier changes asked for: on an update, each that differs from the reported (or none). */
export function tierChanges(o: TierOptions, current: Deployment | undefined): Change[] {
  const kind = kindOf(current ? current.source_config.deployment_type : createdType(o))
  const changes: Change[] = []
  const add = (field: string, size: Size | undefined, reported: string | null | undefined) => {
    if (size === undefined) return
    // `medium (SERVERLESS_M)`, or the size alone when the type is unknown.
    const to = kind ? `${size} (${tierOf(kind, size)})` : size
    const from = shownTier(reported)
    if (from !== to) changes.push({ field, from, to })
  }
  add('size', o.size, current?.deployment_tier)
  add('database-size', o.databaseSize, current?.database_tier)
  return changes
}

/** The type cannot change (a legacy word of a type is it); Serverless has no database size. */
export function refuseTypeChange(o: TierOptions, current: Deployment, say: Say): Stop | undefined {
  const theirs = current.source_config.deployment_type
  const kind = kindOf(theirs)
  const asked = kindOf(o.deploymentType)
  const who = `Deployment "${current.name}" (${current.id})`
  if (o.deploymentType !== undefined && theirs) {
    const same = asked && kind ? asked === kind : o.deploymentType === theirs
    if (!same) {
      const read = kind && kind !== theirs ? ` (read as ${sanitizeServerText(theirs, 100)})` : ''
      return stop(
        `${who} is ${kind ?? sanitizeServerText(theirs, 100)}${read}, but ${say.set('deployment-type', o.deploymentType)} asks for ${asked ?? o.deploymentType}: a deployment's type cannot change after create. Nothing was written.`,
        `Set ${say.set('deployment-type', kind ?? theirs)} (or leave it out) to keep this deployment; for another type, create a new deployment under another name and move to it.`,
        'The deployment type cannot change'
      )
    }
  }
  if (o.databaseSize !== undefined && kind === 'serverless')
    return databaseOnServerless(current, say, 'Nothing was written.')
  return undefined
}

/** A database size asked of a Serverless deployment, which shares its database. */
function databaseOnServerless(d: Deployment, say: Say, written: string): Stop {
  return stop(
    `Deployment "${d.name}" (${d.id}) is Serverless, which shares its database: ${say('database-size')} applies only to a Dedicated deployment. ${written}`,
    `Leave ${say('database-size')} out; for a database of its own, create a Dedicated deployment under another name.`,
    'No database size on Serverless'
  )
}

/** What a resize of `d` sends, and which tiers it sends only because `d` does not report them. */
export interface Resize {
  body: ResourceTiersRequest
  /** `size`, `database-size`: sent because the service does not report the current tier. */
  unreported: ('size' | 'database-size')[]
  /** `compute_tier SERVERLESS_S -> SERVERLESS_M`, for the log. */
  described: string[]
}

/** The resize `d` needs for the asked sizes, or undefined when its tiers already are those. */
export function resizeOf(o: TierOptions, d: Deployment, say: Say): Resize | Stop | undefined {
  if (o.size === undefined && o.databaseSize === undefined) return undefined
  const kind = kindOf(d.source_config.deployment_type) ?? kindOf(o.deploymentType)
  if (!kind) {
    return stop(
      `Deployment "${d.name}" (${d.id}) reports no deployment type that this run knows (${sanitizeServerText(d.source_config.deployment_type ?? 'none', 100)}), so ${say('size')} cannot be turned into its tier.`,
      `Set the size in the web app, or leave ${say('size')} and ${say('database-size')} out.`,
      'Type not known'
    )
  }
  // A create without a type may have been made Serverless by the service's default.
  if (o.databaseSize !== undefined && kind === 'serverless')
    return databaseOnServerless(d, say, 'No resize was sent.')
  const r: Resize = { body: {}, unreported: [], described: [] }
  const ask = (
    input: 'size' | 'database-size',
    field: 'compute_tier' | 'database_tier',
    size: Size | undefined,
    reported: string | null | undefined
  ) => {
    if (size === undefined) return
    const tier = tierOf(input === 'database-size' ? 'dedicated' : kind, size)
    if (reported && reported.toUpperCase() === tier) return
    r.body[field] = tier as never
    if (!reported) r.unreported.push(input)
    r.described.push(
      `${field} ${reported ? sanitizeServerText(reported, 100) : '(not reported)'} -> ${tier}`
    )
  }
  ask('size', 'compute_tier', o.size, d.deployment_tier)
  ask('database-size', 'database_tier', o.databaseSize, d.database_tier)
  return r.described.length ? r : undefined
}
