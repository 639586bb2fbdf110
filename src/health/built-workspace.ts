// Whether the workspace's graph config describes what this run deployed, so that the graphs check
// may hold the agent server to it: an upload, or a codehost revision built from the commit the
// workspace holds. Anything else skips the check, said why: a good deploy never fails on a graph.
import type { Options } from '../inputs/options.ts'
import { readWorkspaceGit } from '../upload/workspace-git.ts'

export type BuiltFrom = Pick<
  Options,
  'source' | 'revisionSource' | 'repositoryExplicit' | 'expectedSha'
>

const short = (sha: string) => sha.slice(0, 12)
const sameCommit = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** Why the graphs are not checked against the workspace, or undefined when they are. */
export async function graphsSkippedBecause(
  o: BuiltFrom,
  /** An upload's archive (`source`), else the commit the revision built. */
  state: { source?: object | undefined; repoCommitSha: string | undefined },
  workspace: string
): Promise<string | undefined> {
  if (state.source !== undefined) return undefined
  const codehost =
    o.source === 'codehost' || (o.revisionSource === 'codehost' && o.source !== 'external_docker')
  if (!codehost)
    return `source ${o.revisionSource ?? o.source ?? 'unknown'} deploys an image, not the workspace, so its config says nothing of the graphs served`
  const built = state.repoCommitSha
  if (!built)
    return 'the revision does not say which commit it built, so the workspace cannot be matched to it'
  const head = (await readWorkspaceGit(workspace)).commit
  if (head !== undefined)
    return sameCommit(head, built)
      ? undefined
      : `the revision built commit ${short(built)}, and the workspace holds ${short(head)}: its config may name other graphs`
  if (!o.repositoryExplicit && o.expectedSha !== undefined && sameCommit(o.expectedSha, built))
    return undefined
  return `the workspace is not a git checkout of commit ${short(built)}, which the revision built`
}
