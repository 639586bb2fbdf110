// What a deploy reads of the inputs (every option but those of the other commands alone), and what
// the deploy's and the delete's shared ending reads.
import type { Options } from '../../inputs/options.ts'

export type DeployOptions = Omit<
  Options,
  | 'sweepNames'
  | 'sweepClosed'
  | 'sweepMaxAge'
  | 'sweepMaxCount'
  | 'failOnDrift'
  | 'deleteTracingProject'
>

/** What the deploy's and the delete's ending reads of the inputs (the GitHub side, the report). */
export type FlowOptions = Pick<
  Options,
  | 'name'
  | 'target'
  | 'baseUrl'
  | 'apiDialect'
  | 'tenantId'
  | 'dryRun'
  | 'githubToken'
  | 'prComment'
  | 'environment'
  | 'environmentUrl'
  | 'expectedSha'
> & { deleteTracingProject?: boolean | undefined }
