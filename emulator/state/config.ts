// Runtime settings of the emulator, changeable in-process or through POST /_emulator/config.
import { z } from 'zod'
import { RateLimit } from '../http/rate-limit.ts'
import {
  DEFAULT_FAILURE_RULES,
  DEFAULT_STAGE_DURATIONS_MS,
  MAX_SPEED,
  type FailureRule,
  type StageDurationsMs
} from './lifecycle.ts'

const ms = z.number().nonnegative()

export const StageDurationsInput = z
  .object({
    CREATING: ms,
    QUEUED: ms,
    AWAITING_BUILD: ms,
    BUILDING: ms,
    AWAITING_DEPLOY: ms,
    DEPLOYING: ms,
    DATABASE: ms,
    DELETE: ms,
    DRAIN: ms
  })
  .partial()
  .strict()

export const FailureRuleInput = z
  .object({
    ref: z.string().optional(),
    image: z.string().optional(),
    fail: z.enum(['CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED'])
  })
  .refine(r => r.ref !== undefined || r.image !== undefined, 'a rule needs `ref` or `image`')

export const ConfigInput = z
  .object({
    /** Lifecycle speed factor: 10 = ten times faster than the stage durations. */
    speed: z.number().positive().max(MAX_SPEED).optional(),
    /** Merged into the current durations (ms at speed 1). */
    stageDurationsMs: StageDurationsInput.optional(),
    /** Replace the failure rules (first match wins). */
    failureRules: z.array(FailureRuleInput).optional(),
    /** Per-API-key limit; null switches it off. */
    rateLimit: RateLimit.nullable().optional(),
    /**
     * `"<repo_url>@<ref>"` -> SHA, from now on (builds already started keep their SHA); null:
     * builds from now on report no commit.
     */
    repoCommits: z.record(z.string(), z.string().nullable()).optional(),
    /**
     * Reads answer the legacy words (`dev_zero` for Serverless, `prod` for Dedicated), as
     * organizations on previous pricing see them (docs/emulator.md, "Deployment types and sizes").
     */
    legacyTypeReads: z.boolean().optional(),
    /**
     * A deployment id: while it exists (being deleted too), every create of its tenant answers 409
     * "A deployment already exists for this agent environment"; null stops it (docs/emulator.md,
     * "Agent environments", unconfirmed).
     */
    agentEnvironmentHeldBy: z.guid().nullable().optional()
  })
  .strict()
export type ConfigInput = z.input<typeof ConfigInput>

export interface EmulatorConfig {
  speed: number
  stageDurationsMs: StageDurationsMs
  failureRules: FailureRule[]
  rateLimit: RateLimit | null
  legacyTypeReads: boolean
  agentEnvironmentHeldBy: string | null
}

export function defaultConfig(): EmulatorConfig {
  return {
    speed: 1,
    stageDurationsMs: { ...DEFAULT_STAGE_DURATIONS_MS },
    failureRules: DEFAULT_FAILURE_RULES.map(r => ({ ...r })),
    rateLimit: null,
    legacyTypeReads: false,
    agentEnvironmentHeldBy: null
  }
}
