// What a deploy with this run's inputs would change: the dry run's plan, taken as it is. A secret
// whose value the service does not return cannot be compared: only its name counts then.
import type { Deployment } from '../../control-plane/schema.ts'
import type { Say } from '../../interface/naming.ts'
import type { DeployOptions } from '../deploy/options.ts'
import { namedMaterial } from '../deploy/steps/material.ts'
import { stopped, type Stop } from '../../interface/ending.ts'
import { describePlan, planUpdate, type PlannedMaterial } from '../deploy/steps/plan.ts'
import type { Change } from '../deploy/steps/tiers.ts'

export interface Planned {
  /** The plan's lines for each change, as the dry run prints them. */
  lines: string[]
  /** Secrets whose values were not compared (the service hides them). */
  unread: string[]
}

/** The changes a deploy of `material` (the inputs' by default) would make, or its refusal. */
export function plannedChanges(
  o: DeployOptions,
  current: Deployment,
  say: Say,
  material: PlannedMaterial = namedMaterial(o)
): Planned | Stop {
  const plan = planUpdate(o, current, material, say)
  if (stopped(plan)) return plan
  if (plan.kind !== 'update') return { lines: describePlan(plan), unread: [] }
  const hidden = new Set(
    current.secrets.filter(s => s.value === null || s.value === undefined).map(s => s.name)
  )
  const unread: string[] = []
  const compared = (c: Change) => {
    const name = c.field.startsWith('secrets.') ? c.field.slice('secrets.'.length) : undefined
    // Set again over a value the service did not show: not known to differ.
    if (name === undefined || !hidden.has(name) || c.from === undefined || c.from !== c.to)
      return true
    unread.push(name)
    return false
  }
  const changes = plan.changes.filter(compared)
  if (!changes.length && !plan.removedSecrets.length) return { lines: [], unread }
  // The plan's lines without its head and its "then ...": each one setting that differs.
  const lines = describePlan({ ...plan, changes })
    .slice(1)
    .filter(l => !/^\s*then /.test(l))
  return { lines, unread }
}
