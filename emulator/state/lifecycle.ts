// Time-driven lifecycle of revisions and deployments. Statuses are computed lazily from the
// creation time and the current (virtual) time: no timers, so nothing keeps the process alive and
// an injected clock makes tests deterministic.
import type { DeploymentRecord, FailureStatus, RevisionRecord, Store } from './store.ts'

/** The in-progress stages of a revision, in order; DEPLOYED follows the last. */
export const STAGES = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING'
] as const
export type Stage = (typeof STAGES)[number]

export interface StageDurationsMs {
  CREATING: number
  QUEUED: number
  AWAITING_BUILD: number
  BUILDING: number
  AWAITING_DEPLOY: number
  DEPLOYING: number
  /** How long a new deployment stays AWAITING_DATABASE before READY. */
  DATABASE: number
  /** How long a deleted deployment shows AWAITING_DELETE before reads answer 404. */
  DELETE: number
  /**
   * How long after a revision is DEPLOYED the previous one still answers `/info` (it drains; about
   * 180 s in the real service, short here so that tests and demos see it without waiting).
   */
  DRAIN: number
}

/** About 3 s from creation to DEPLOYED at speed 1; the database is ready when it is deployed. */
export const DEFAULT_STAGE_DURATIONS_MS: StageDurationsMs = {
  CREATING: 200,
  QUEUED: 300,
  AWAITING_BUILD: 300,
  BUILDING: 1000,
  AWAITING_DEPLOY: 200,
  DEPLOYING: 1000,
  DATABASE: 3000,
  DELETE: 1000,
  DRAIN: 2000
}

/** A revision whose `repo_ref` or `image_uri` matches `pattern` (glob, `*` = any text) fails. */
export interface FailureRule {
  ref?: string
  image?: string
  fail: FailureStatus
}

export const DEFAULT_FAILURE_RULES: FailureRule[] = [
  { ref: '*fail-create*', fail: 'CREATE_FAILED' },
  { ref: '*fail-build*', fail: 'BUILD_FAILED' },
  { ref: '*fail-deploy*', fail: 'DEPLOY_FAILED' },
  { image: '*fail-create*', fail: 'CREATE_FAILED' },
  { image: '*fail-build*', fail: 'BUILD_FAILED' },
  { image: '*fail-deploy*', fail: 'DEPLOY_FAILED' }
]

/** The stage at whose end a failure status appears. */
export const FAILS_AFTER: Record<FailureStatus, Stage> = {
  CREATE_FAILED: 'CREATING',
  BUILD_FAILED: 'BUILDING',
  DEPLOY_FAILED: 'DEPLOYING'
}

/** Virtual start and end of each stage of a revision whose first stage starts at `start`. */
export function stageWindows(
  d: StageDurationsMs,
  start: number
): Record<Stage, { start: number; end: number }> {
  const out = {} as Record<Stage, { start: number; end: number }>
  let t = start
  for (const stage of STAGES) {
    out[stage] = { start: t, end: t + d[stage] }
    t += d[stage]
  }
  return out
}

/** How long a revision takes from creation to DEPLOYED. */
export const totalDuration = (d: StageDurationsMs) => STAGES.reduce((sum, s) => sum + d[s], 0)

export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')
  return new RegExp(`^${escaped}$`)
}

export function failureFor(
  rules: readonly FailureRule[],
  ref: string | null | undefined,
  image: string | null | undefined
): FailureStatus | null {
  for (const rule of rules) {
    if (rule.ref !== undefined && ref != null && globToRegExp(rule.ref).test(ref)) return rule.fail
    if (rule.image !== undefined && image != null && globToRegExp(rule.image).test(image)) {
      return rule.fail
    }
  }
  return null
}

/** The fastest the lifecycle may run: a revision in 3 µs; faster only overflows the clock. */
export const MAX_SPEED = 1_000_000

const SPEED_RULE = `give a finite number greater than 0, at most ${MAX_SPEED}`

/** A speed factor the clock can keep: finite, above 0, at most MAX_SPEED. */
export const isSpeed = (speed: number) => Number.isFinite(speed) && speed > 0 && speed <= MAX_SPEED

/**
 * Virtual time: real time scaled by the speed factor. Changing the speed re-anchors, so statuses
 * never jump backwards and timestamps can be mapped back to real time.
 */
export class VirtualClock {
  private segments: Array<{ real: number; virt: number; speed: number }>
  private readonly realNow: () => number

  constructor(realNow: () => number, speed: number) {
    if (!isSpeed(speed)) throw new Error(`invalid speed ${speed}: ${SPEED_RULE}`)
    this.realNow = realNow
    const t = realNow()
    this.segments = [{ real: t, virt: t, speed }]
  }

  get speed(): number {
    return this.last().speed
  }

  real(): number {
    return this.realNow()
  }

  now(): number {
    return this.toVirtual(this.realNow())
  }

  setSpeed(speed: number): void {
    if (!isSpeed(speed)) throw new Error(`invalid speed ${speed}: ${SPEED_RULE}`)
    const real = this.realNow()
    this.segments.push({ real, virt: this.toVirtual(real), speed })
  }

  private last() {
    return this.segments[this.segments.length - 1]!
  }

  private toVirtual(real: number): number {
    const s = this.last()
    return s.virt + (real - s.real) * s.speed
  }

  /** Real time at which virtual time `v` was (or will be, at the current speed) reached. */
  toReal(v: number): number {
    let seg = this.segments[0]!
    for (const s of this.segments) if (s.virt <= v) seg = s
    return seg.real + (v - seg.virt) / seg.speed
  }
}

export interface RevisionState {
  status: string
  /** Virtual time of the last status change. */
  changed_v: number
  /** Virtual time the build started, once it has. */
  build_started_v: number | null
  /** Virtual time the revision became DEPLOYED, if it has. */
  deployed_v: number | null
}

export const TERMINAL = new Set<string>([
  'DEPLOYED',
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'SKIPPED'
])

/** The status a revision would have at `v` if nothing superseded it. */
function naturalState(rev: RevisionRecord, d: StageDurationsMs, v: number): RevisionState {
  if (rev.seeded) {
    return {
      status: 'DEPLOYED',
      changed_v: rev.created_v,
      build_started_v: rev.created_v,
      deployed_v: rev.created_v
    }
  }
  let t = rev.created_v
  let buildStarted: number | null = null
  for (const stage of STAGES) {
    if (stage === 'BUILDING') buildStarted = t
    const end = t + d[stage]
    if (v < end) {
      return {
        status: stage,
        changed_v: t,
        build_started_v: buildStarted !== null && v >= buildStarted ? buildStarted : null,
        deployed_v: null
      }
    }
    if (rev.fails_with !== null && FAILS_AFTER[rev.fails_with] === stage) {
      return {
        status: rev.fails_with,
        changed_v: end,
        build_started_v: buildStarted,
        deployed_v: null
      }
    }
    t = end
  }
  return { status: 'DEPLOYED', changed_v: t, build_started_v: buildStarted, deployed_v: t }
}

/** The status of a revision at virtual time `v`, SKIPPED if a newer one came before it finished. */
export function revisionState(
  store: Store,
  rev: RevisionRecord,
  d: StageDurationsMs,
  v: number
): RevisionState {
  const dep = store.deployments.get(rev.deployment_id)
  const index = dep ? dep.revision_ids.indexOf(rev.id) : -1
  const nextId = dep && index >= 0 ? dep.revision_ids[index + 1] : undefined
  const next = nextId === undefined ? undefined : store.revisions.get(nextId)
  if (next && next.created_v <= v) {
    const atSuperseded = naturalState(rev, d, next.created_v)
    if (!TERMINAL.has(atSuperseded.status)) {
      return { ...atSuperseded, status: 'SKIPPED', changed_v: next.created_v, deployed_v: null }
    }
  }
  return naturalState(rev, d, v)
}

/** The most recently deployed revision at `v`, or null. */
export function activeRevisionId(
  store: Store,
  dep: DeploymentRecord,
  d: StageDurationsMs,
  v: number
): string | null {
  let best: { id: string; at: number } | null = null
  for (const id of dep.revision_ids) {
    const rev = store.revisions.get(id)
    if (!rev) continue
    const s = revisionState(store, rev, d, v)
    if (s.deployed_v !== null && (best === null || s.deployed_v >= best.at)) {
      best = { id, at: s.deployed_v }
    }
  }
  return best?.id ?? null
}

/** A deleted deployment is gone (404) once it has shown AWAITING_DELETE for `DELETE` ms. */
export function isGone(dep: DeploymentRecord, d: StageDurationsMs, v: number): boolean {
  return dep.deleted_v !== null && v >= dep.deleted_v + d.DELETE
}

export function deploymentStatus(dep: DeploymentRecord, d: StageDurationsMs, v: number): string {
  if (dep.deleted_v !== null) return 'AWAITING_DELETE'
  if (dep.seeded) return 'READY'
  return v < dep.created_v + d.DATABASE ? 'AWAITING_DATABASE' : 'READY'
}

/** The commit a codehost revision built, once its build has started; null before. */
export function repoCommitSha(
  store: Store,
  rev: RevisionRecord,
  state: RevisionState
): string | null {
  const ref = rev.source_revision_config.repo_ref
  if (rev.source !== 'codehost' || !ref || !rev.repo_url) return null
  if (state.build_started_v === null) return null
  return store.commitAt(rev.repo_url, ref, state.build_started_v)
}
