// In-memory state of the emulator: tenants, forge integrations, listeners, deployments and
// revisions, seeded from a JSON fixture. No database process: everything lives in this object.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import {
  DeploymentType,
  Secret,
  SecretReference,
  Source,
  SourceConfig,
  SourceRevisionConfigRequest,
  Uuid
} from '../../src/control-plane/schema.ts'
import {
  COMPUTE_TIERS,
  DATABASE_TIERS,
  kindOf,
  tierOf
} from '../../src/control-plane/vocabulary.ts'
import { normalizeRepoUrl, resolveInClone, stableCommit } from './commits.ts'

/** The graphs of a revision built from anything but an upload, unless the fixture names others. */
export const DEFAULT_GRAPHS: readonly string[] = ['agent']

/** Where in the build log an upload's failure shows: after fetching it, or after reading the config. */
export type BuildStep = 'fetch' | 'config'

// ---------------------------------------------------------------------------------------------
// Fixture format (documented in docs/emulator.md)

export const FixtureTenant = z.object({
  id: Uuid,
  name: z.string().optional(),
  api_keys: z.array(z.string().min(1)).min(1),
  /** Whether the tenant may manage listeners (self-hosted enterprise plans). */
  listeners_allowed: z.boolean().default(false),
  /** Self-hosted tenants may only use `external_docker`; cloud tenants the four other sources. */
  self_hosted: z.boolean().default(false)
})

export const FixtureRepository = z.object({
  id: z.number().int(),
  name: z.string(),
  owner: z.string(),
  url: z.string(),
  default_branch: z.string().default('main')
})

export const FixtureIntegration = z.object({
  id: Uuid,
  tenant_id: Uuid,
  repositories: z.array(FixtureRepository).default([])
})

export const FixtureListener = z.object({ id: Uuid, tenant_id: Uuid })

/** A pre-existing deployment; its single revision is DEPLOYED and the deployment READY. */
export const FixtureDeployment = z.object({
  id: Uuid.optional(),
  tenant_id: Uuid,
  name: z.string(),
  source: Source,
  source_config: SourceConfig.default({}),
  source_revision_config: SourceRevisionConfigRequest.default({}),
  secrets: z.array(Secret).default([]),
  secret_references: z.array(SecretReference).nullish(),
  image_version: z.string().nullish(),
  remote_reconciled: z.boolean().optional(),
  tag_value_ids: z.array(z.string()).default([]),
  deployment_type: DeploymentType.default('prod'),
  /** Its tiers; by default the smallest of its type (no database tier for Serverless). */
  compute_tier: z.enum(COMPUTE_TIERS).optional(),
  database_tier: z.enum(DATABASE_TIERS).optional(),
  display_name: z.string().min(1).nullish(),
  /** The agent environment it is bound to (agent-based workspaces, beta); reads show it. */
  agent: z.object({ agent_id: z.string(), environment: z.string() }).nullish(),
  /** The graphs its builds serve (an upload's revision takes its config's instead). */
  graphs: z.array(z.string().min(1)).default([...DEFAULT_GRAPHS]),
  /** When it was created and last changed (ISO dates; default: when the fixture is loaded). */
  created_at: z.iso.datetime({ offset: true }).optional(),
  updated_at: z.iso.datetime({ offset: true }).optional()
})

export const Fixture = z.object({
  tenants: z.array(FixtureTenant).min(1),
  integrations: z.array(FixtureIntegration).default([]),
  listeners: z.array(FixtureListener).default([]),
  deployments: z.array(FixtureDeployment).default([]),
  /** `"<repo_url>@<ref>"` -> commit SHA that a build of that ref reports. */
  repo_commits: z.record(z.string(), z.string()).default({})
})
export type Fixture = z.input<typeof Fixture>
export type ParsedFixture = z.output<typeof Fixture>

// ---------------------------------------------------------------------------------------------
// Records

export type TenantRecord = z.output<typeof FixtureTenant>
export type IntegrationRecord = z.output<typeof FixtureIntegration>
export type ListenerRecord = z.output<typeof FixtureListener>

export interface DeploymentRecord {
  id: string
  tenant_id: string
  name: string
  source: Source
  source_config: SourceConfig
  secrets: Secret[]
  secret_references: SecretReference[] | null
  image_version: string | null
  remote_reconciled: boolean
  tag_value_ids: string[]
  deployment_type: string | null
  /** `SERVERLESS_S` ... `DEDICATED_L` (null for a self-hosted source), and Dedicated's database tier. */
  compute_tier: string | null
  database_tier: string | null
  /** Set by PATCH only; null until then. */
  display_name: string | null
  /** Real (clock) time in ms. */
  created_ms: number
  updated_ms: number
  /** Virtual (speed-scaled) time of creation; drives AWAITING_DATABASE -> READY. */
  created_v: number
  /** When seeded from a fixture the deployment is READY from the start. */
  seeded: boolean
  /** Revision ids, oldest first. */
  revision_ids: string[]
  /** Virtual time of the DELETE, or null. */
  deleted_v: number | null
  /** Deleted without its tracing project, which keeps the name taken. */
  keeps_tracing_project: boolean
  /** The agent environment it is bound to, or null (reads answer `agent: null`). */
  agent?: { agent_id: string; environment: string } | null
  /** The graphs a build of its source serves, when the source is not an upload. */
  graphs: string[]
}

/** A tarball slot handed out by `upload-url`: the object path a PATCH may then name. */
export interface UploadRecord {
  object_path: string
  /** The secret part of the upload URL (as a signed URL carries its signature). */
  token: string
  deployment_id: string
  /** Bytes received by the PUT; null until the tarball has been uploaded. */
  bytes: number | null
  /** The tarball as uploaded; null before the PUT, or once dropped to keep memory bounded. */
  data: Buffer | null
  /** The headers of each PUT received, for tests: what reached the upload host. */
  put_headers?: Record<string, string>[]
}

/** The newest uploads' bytes kept in all; older ones are dropped (their builds find no object). */
export const MAX_KEPT_UPLOAD_BYTES = 512 * 1024 * 1024
/** Upload slots kept; the oldest are forgotten first. */
export const MAX_UPLOAD_SLOTS = 10_000

export type FailureStatus = 'CREATE_FAILED' | 'BUILD_FAILED' | 'DEPLOY_FAILED'

export type LogLevel = 'INFO' | 'WARNING' | 'ERROR'
export interface ScriptedLine {
  message: string
  level: LogLevel
}

/** Log lines scripted for a revision, and which of its two logs they go into. */
export interface RevisionScript {
  log: 'build' | 'deploy'
  lines: ScriptedLine[]
}

/** An outcome scripted for the next revision (of one deployment, or of any). */
export interface PendingScript {
  deployment_id: string | null
  outcome: FailureStatus | 'DEPLOYED'
  /** Null: the default log of that outcome. */
  script: RevisionScript | null
  /** The failure's `status_message`; null: its own. */
  status_message: string | null
}

/** What the build installs with, as the config and the files say (the build log speaks of it). */
export interface Toolchain {
  /** `python` (pip), or `node` for a LangGraph.js project (`node_version`, .ts/.js graphs). */
  runtime: 'python' | 'node'
  /** The config's `python_version` or `node_version`, when it sets one. */
  version: string | null
  /** What installs the dependencies when the deployment names no install command. */
  install: string
}

export interface RevisionRecord {
  id: string
  deployment_id: string
  source: string
  source_revision_config: SourceRevisionConfigRequest
  repo_url: string | null
  created_ms: number
  /** Virtual time of creation; the status is computed from it. */
  created_v: number
  /** Chosen by the failure rules when the revision is created. */
  fails_with: FailureStatus | null
  /** Fixture revisions are DEPLOYED from the start. */
  seeded: boolean
  /** Scripted log lines (admin `scripts`), or null for the default log. */
  script: RevisionScript | null
  /** What a failed revision's `status_message` says (a script's, else its failure's own). */
  status_message?: string | null
  /** The graphs this revision serves once deployed (an upload's: its config's `graphs` keys). */
  graphs: string[]
  /** Why the build of an uploaded source fails, and after which step; null when it does not. */
  build_error: { step: BuildStep; message: string } | null
  /** An upload's members as the build unpacked them, sorted (state() shows them). */
  source_files?: string[]
  /** An upload's runtime and install command, from its config; else Python and pip. */
  toolchain?: Toolchain
}

/** A new deployment's tiers: the smallest of its type; none for a self-hosted one. */
export function defaultTiers(
  type: string | null,
  source: string
): { compute_tier: string | null; database_tier: string | null } {
  const kind = kindOf(type)
  if (source === 'external_docker' || !kind) return { compute_tier: null, database_tier: null }
  return {
    compute_tier: tierOf(kind, 'small'),
    database_tier: kind === 'dedicated' ? tierOf(kind, 'small') : null
  }
}

export function commitKey(repoUrl: string, ref: string): string {
  return `${repoUrl}@${ref}`
}

export { normalizeRepoUrl }

export class Store {
  tenants = new Map<string, TenantRecord>()
  integrations = new Map<string, IntegrationRecord>()
  listeners = new Map<string, ListenerRecord>()
  deployments = new Map<string, DeploymentRecord>()
  revisions = new Map<string, RevisionRecord>()
  /** Upload slots by object path. */
  uploads = new Map<string, UploadRecord>()
  /** The most upload bytes kept in all (a test may lower it). */
  keptUploadBytes = MAX_KEPT_UPLOAD_BYTES
  /**
   * History of `repo_commits` changes: a build reports the SHA that the ref pointed to when the
   * build started, so a change made after the build started does not alter what it reports.
   */
  private commitHistory = new Map<string, Array<{ at_v: number; sha: string | null }>>()
  /** Outcomes scripted for revisions not created yet, oldest first. */
  pendingScripts: PendingScript[] = []
  /** A local clone whose refs say what a codehost build checks out (`--repo DIR`). */
  repoDir: string | undefined
  /** The commits builds resolved without a pin, by repository, ref and build start. */
  private resolved = new Map<string, string>()

  /** Replaces the whole state with the fixture's. */
  load(fixture: ParsedFixture, nowMs: number, nowV: number): void {
    this.tenants.clear()
    this.integrations.clear()
    this.listeners.clear()
    this.deployments.clear()
    this.revisions.clear()
    this.uploads.clear()
    this.commitHistory.clear()
    this.resolved.clear()
    this.pendingScripts = []
    // Ids are kept lowercase so that lookups are case-insensitive, as uuids are.
    const lc = (id: string) => id.toLowerCase()
    for (const t of fixture.tenants) this.tenants.set(lc(t.id), { ...t, id: lc(t.id) })
    for (const i of fixture.integrations) {
      this.integrations.set(lc(i.id), { ...i, id: lc(i.id), tenant_id: lc(i.tenant_id) })
    }
    for (const l of fixture.listeners) {
      this.listeners.set(lc(l.id), { id: lc(l.id), tenant_id: lc(l.tenant_id) })
    }
    for (const [key, sha] of Object.entries(fixture.repo_commits)) {
      this.commitHistory.set(key, [{ at_v: -Infinity, sha }])
    }
    for (const d of fixture.deployments) {
      // An old deployment (the sweep's age rule): its revision is as old as its last change.
      const updatedMs = d.updated_at ? Date.parse(d.updated_at) : nowMs
      const createdMs = d.created_at ? Date.parse(d.created_at) : Math.min(nowMs, updatedMs)
      const dep: DeploymentRecord = {
        id: lc(d.id ?? randomUUID()),
        tenant_id: lc(d.tenant_id),
        name: d.name,
        source: d.source,
        source_config: d.source_config,
        secrets: d.secrets,
        secret_references: d.secret_references ?? null,
        image_version: d.image_version ?? null,
        remote_reconciled: d.remote_reconciled ?? d.source === 'external_docker',
        tag_value_ids: d.tag_value_ids,
        deployment_type: d.deployment_type,
        ...defaultTiers(d.deployment_type, d.source),
        ...(d.compute_tier ? { compute_tier: d.compute_tier } : {}),
        ...(d.database_tier ? { database_tier: d.database_tier } : {}),
        display_name: d.display_name ?? null,
        created_ms: createdMs,
        updated_ms: updatedMs,
        created_v: nowV,
        seeded: true,
        revision_ids: [],
        deleted_v: null,
        keeps_tracing_project: false,
        agent: d.agent ?? null,
        graphs: d.graphs
      }
      this.deployments.set(dep.id, dep)
      this.addRevision(dep, {
        source: d.source,
        source_revision_config: d.source_revision_config,
        created_ms: updatedMs,
        created_v: nowV,
        fails_with: null,
        seeded: true,
        script: null,
        graphs: d.graphs,
        build_error: null
      })
    }
  }

  addRevision(
    dep: DeploymentRecord,
    r: Omit<RevisionRecord, 'id' | 'deployment_id' | 'repo_url'>
  ): RevisionRecord {
    const rev: RevisionRecord = {
      ...r,
      id: randomUUID(),
      deployment_id: dep.id,
      repo_url: dep.source_config.repo_url ?? null
    }
    this.revisions.set(rev.id, rev)
    dep.revision_ids.push(rev.id)
    return rev
  }

  /** A new upload slot; past MAX_UPLOAD_SLOTS the oldest is forgotten. */
  addUpload(upload: UploadRecord): void {
    this.uploads.set(upload.object_path, upload)
    for (const path of this.uploads.keys()) {
      if (this.uploads.size <= MAX_UPLOAD_SLOTS) break
      this.uploads.delete(path)
    }
  }

  /** Keeps an upload's bytes; the oldest others are dropped past `keptUploadBytes` in all. */
  keepUpload(upload: UploadRecord, data: Buffer): void {
    upload.data = data
    upload.bytes = data.length
    let total = 0
    for (const u of this.uploads.values()) total += u.data?.length ?? 0
    for (const u of this.uploads.values()) {
      if (total <= this.keptUploadBytes) break
      if (u === upload || !u.data) continue
      total -= u.data.length
      u.data = null
    }
  }

  /** Records that `"<repo_url>@<ref>"` points to `sha` from virtual time `atV` on. */
  /** From `atV` on, builds of the ref report `sha`; null: no commit (the ref is not known then). */
  setCommit(key: string, sha: string | null, atV: number): void {
    const history = this.commitHistory.get(key) ?? []
    history.push({ at_v: atV, sha })
    this.commitHistory.set(key, history)
  }

  /**
   * The SHA a build of `repoUrl@ref` started at virtual time `atV` reports: a pin of the fixture
   * or `repoCommits` first (null where one says no commit); else the ref resolved in the local
   * clone (`repoDir`) when it names a commit there; else a stable commit per repository and ref.
   * Resolved once per build, so that a clone moved on later does not change what it built.
   */
  commitAt(repoUrl: string, ref: string, atV: number): string | null {
    const history = this.commitHistory.get(commitKey(repoUrl, ref))
    const pins = (history ?? []).filter(h => h.at_v <= atV)
    if (pins.length) return pins.at(-1)!.sha
    const key = `${commitKey(repoUrl, ref)}@${atV}`
    let sha = this.resolved.get(key)
    if (sha === undefined) {
      sha = (this.repoDir && resolveInClone(this.repoDir, ref)) || stableCommit(repoUrl, ref)
      this.resolved.set(key, sha)
    }
    return sha
  }

  /** The oldest pending script for a new revision of this deployment, removed from the queue. */
  takeScript(deploymentId: string): PendingScript | null {
    const i = this.pendingScripts.findIndex(
      p => p.deployment_id === null || p.deployment_id === deploymentId
    )
    return i < 0 ? null : this.pendingScripts.splice(i, 1)[0]!
  }

  tenantsForKey(apiKey: string): TenantRecord[] {
    return [...this.tenants.values()].filter(t => t.api_keys.includes(apiKey))
  }

  deploymentsOf(tenantId: string): DeploymentRecord[] {
    // Map order is creation order: a stable order for pagination.
    return [...this.deployments.values()].filter(d => d.tenant_id === tenantId)
  }

  latestRevision(dep: DeploymentRecord): RevisionRecord | undefined {
    const id = dep.revision_ids[dep.revision_ids.length - 1]
    return id === undefined ? undefined : this.revisions.get(id)
  }
}
