// The JSON shapes the emulator answers with, computed from the records at the current time.
import type { SourceConfig } from '../../src/control-plane/schema.ts'
import type { Context } from './context.ts'
import { activeRevisionId, deploymentStatus, repoCommitSha, revisionState } from './lifecycle.ts'
import type { DeploymentRecord, RevisionRecord } from './store.ts'
import { kindOf } from '../../src/control-plane/vocabulary.ts'
import type { Kind } from '../../src/interface/journal.ts'

const SOURCE_CONFIG_KEYS = [
  'integration_id',
  'repo_url',
  'deployment_type',
  'build_on_push',
  'custom_url',
  'resource_spec',
  'listener_id',
  'listener_config',
  'install_command',
  'build_command',
  'template_id'
] as const

const iso = (ms: number) => new Date(ms).toISOString()

/** The legacy word a read answers for each type (config `legacyTypeReads`). */
const LEGACY_WORD: Record<Kind, string> = { serverless: 'dev_zero', dedicated: 'prod' }

/** A deployment's type as a read answers it: its own word, or the legacy one when scripted. */
export function typeAsRead(ctx: Context, dep: DeploymentRecord): string | null {
  const kind = kindOf(dep.deployment_type)
  return ctx.legacyTypeReads && kind ? LEGACY_WORD[kind] : dep.deployment_type
}

const FAILED = new Set(['CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED'])

/** Why a revision failed, as the service says it: a script's words, else its failure's own. */
function statusMessage(rev: RevisionRecord, status: string): string {
  if (rev.status_message) return rev.status_message
  if (rev.build_error) return rev.build_error.message
  if (status === 'CREATE_FAILED') return 'The revision could not be created from its source.'
  if (status === 'BUILD_FAILED') return 'The image build failed; see the build logs.'
  return 'The agent server did not become ready; see the deploy logs.'
}

export function sourceConfigView(config: SourceConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of SOURCE_CONFIG_KEYS) out[key] = config[key] ?? null
  return out
}

export function revisionView(ctx: Context, rev: RevisionRecord) {
  const state = revisionState(ctx.store, rev, ctx.durations, ctx.clock.now())
  const c = rev.source_revision_config
  return {
    id: rev.id,
    created_at: iso(rev.created_ms),
    updated_at: iso(
      rev.seeded ? rev.created_ms : Math.max(rev.created_ms, ctx.clock.toReal(state.changed_v))
    ),
    status: state.status,
    status_message: FAILED.has(state.status) ? statusMessage(rev, state.status) : null,
    source: rev.source,
    source_revision_config: {
      repo_ref: c.repo_ref ?? null,
      graph_config_path: c.graph_config_path ?? null,
      image_uri: c.image_uri ?? null,
      source_tarball_path: c.source_tarball_path ?? null,
      repo_commit_sha: repoCommitSha(ctx.store, rev, state)
    }
  }
}

export function deploymentView(ctx: Context, dep: DeploymentRecord) {
  const v = ctx.clock.now()
  const latest = ctx.store.latestRevision(dep)
  const latestView = latest ? revisionView(ctx, latest) : null
  return {
    name: dep.name,
    source: dep.source,
    source_config: {
      ...sourceConfigView(dep.source_config),
      deployment_type: typeAsRead(ctx, dep),
      custom_url: ctx.customUrl?.(dep) ?? dep.source_config.custom_url ?? null
    },
    source_revision_config: latestView?.source_revision_config ?? {
      repo_ref: null,
      graph_config_path: null,
      image_uri: null,
      source_tarball_path: null,
      repo_commit_sha: null
    },
    secrets: dep.secrets.map(s => ({ name: s.name, value: s.value })),
    id: dep.id,
    tenant_id: dep.tenant_id,
    created_at: iso(dep.created_ms),
    updated_at: iso(dep.updated_ms),
    status: deploymentStatus(dep, ctx.durations, v),
    latest_revision_id: latest?.id ?? null,
    active_revision_id: activeRevisionId(ctx.store, dep, ctx.durations, v),
    secret_references: dep.secret_references,
    image_version: dep.image_version,
    display_name: dep.display_name,
    // Where the agent server answers (the service's newer field), and the tiers.
    url: ctx.customUrl?.(dep) ?? dep.source_config.custom_url ?? null,
    deployment_tier: dep.compute_tier,
    database_tier: dep.database_tier,
    agent: agentOf(ctx, dep)
  }
}

/** The agent environment a read shows: its own, or one for the deployment told to hold it. */
function agentOf(ctx: Context, dep: DeploymentRecord) {
  if (dep.agent) return { ...dep.agent }
  if (ctx.agentEnvironmentHeldBy !== dep.id) return null
  return { agent_id: dep.id, environment: 'development' }
}
