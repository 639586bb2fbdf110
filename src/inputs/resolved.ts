// What the inputs mean together, derived once (the target, the sources, the repository, ref and
// commit): the rules check it and `toOptions` builds on it, so the two cannot differ.
import type { Source } from '../control-plane/schema.ts'
import type { EventDefaults } from '../runner/event.ts'
import type { InputName } from '../interface/names.ts'
import type { Fields } from './table.ts'

export interface Resolved {
  /** A target by id: `deployment-id` was set (even when it failed its check). */
  byId: boolean
  source: Source | undefined
  revisionSource: Source | undefined
  /** The repository is built: `source: codehost`, or `revision-source: codehost` on a cloud source. */
  usesCodehost: boolean
  /** The run uploads the workspace: decided here alone (uploadsWorkspace). */
  uploads: boolean
  /** `owner/name`: the input, else the workflow's when the repository is built. */
  repository: string | undefined
  /** The ref to deploy: the input, else the event's when the repository is built. */
  ref: string | undefined
  /** Where `ref` comes from; a `ref` input that failed its check stands for no ref at all. */
  refOrigin: 'input' | 'event' | undefined
  /** The event's commit, expected only when the event's ref is the one deployed. */
  expectedSha: string | undefined
  /** Where the repository is, when the door knows it is not GitHub (EventDefaults.codeHost). */
  codeHost: string | undefined
}

export function resolve(f: Fields, failed: ReadonlySet<InputName>, event: EventDefaults): Resolved {
  const byId = f['deployment-id'] !== undefined || failed.has('deployment-id')
  const source = f.source
  const revisionSource = f['revision-source']
  const usesCodehost =
    source === 'codehost' || (revisionSource === 'codehost' && source !== 'external_docker')
  // A promotion deploys its source's ref: the event's is not this run's.
  const promotes = f['promote-from'] !== undefined || failed.has('promote-from')
  const refOrigin =
    f.ref !== undefined
      ? 'input'
      : usesCodehost && !promotes && !failed.has('ref') && event.ref !== undefined
        ? 'event'
        : undefined
  const ref = refOrigin === 'input' ? f.ref : refOrigin === 'event' ? event.ref : undefined
  return {
    byId,
    source,
    revisionSource,
    usesCodehost,
    uploads: uploadsWorkspace(source, revisionSource),
    repository: f.repository ?? (usesCodehost ? event.repository : undefined),
    ref,
    refOrigin,
    expectedSha:
      usesCodehost && ref !== undefined && ref === event.ref ? event.expectedSha : undefined,
    codeHost: event.codeHost
  }
}

/** Whether a run uploads the workspace (`internal_source`, as source or revision source). */
export function uploadsWorkspace(
  source: string | undefined,
  revisionSource: string | undefined
): boolean {
  return (
    source === 'internal_source' ||
    (revisionSource === 'internal_source' && source !== 'external_docker')
  )
}
