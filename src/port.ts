// The one door through which a run meets the place it runs in. The flow (src/run.ts and below)
// never asks where that is: the GitHub Action (src/action/, through @actions/core) and the CLI
// (src/cli/) each implement this port, and nothing else differs between them.
import type { EventDefaults, GitLabContext } from './runner/event.ts'
import type { GitHubContext } from './runner/context.ts'
import type { Say } from './interface/naming.ts'

export interface RunPort {
  /** An input's raw value by its action.yml name (`deployment-id`); '' when not given. */
  input(name: string): string
  /** How messages name an input as the user set it: made once by the door (interface/naming.ts). */
  say: Say
  /** What the triggering event or CI implies: the default ref, commit, repository, pull request. */
  event: EventDefaults
  /** A value never to be shown. The action hands it to the runner; the CLI only redacts. */
  mask(value: string): void
  /**
   * The log. Each door passes every line, annotation, title and group name through `logSafe`
   * (src/inert.ts), so text that the run did not write can be interpolated as it is here.
   */
  info(line: string): void
  /** Present only when debug output is on. */
  debug?: (line: string) => void
  warning(line: string, title?: string): void
  notice(line: string, title?: string): void
  error(line: string, title?: string): void
  group<T>(name: string, fn: () => Promise<T>): Promise<T>
  /**
   * The job summary in Markdown, where the door keeps one. Markup is the run's own: every text it
   * did not write goes in through `mdText`/`mdCode` (src/inert.ts), in src/report.ts.
   */
  summary?: (markdown: string) => Promise<void>
  /**
   * The workflow run, as the door read it once (src/runner/context.ts): where the GitHub
   * deployment and the pull request comment go. Absent outside GitHub Actions: neither is made.
   */
  github?: GitHubContext
  /** The GitLab pipeline the CLI runs in (the sweep reads merge requests there); absent elsewhere. */
  gitlab?: GitLabContext
  /** Aborted when the run must stop (a cancel, SIGINT). */
  signal: AbortSignal
}

/**
 * How a run ended, for the door to turn into its exit: 0 done (deployed, also by the newer revision
 * that superseded it; deleted, nothing to delete), 1 not done (failed, superseded by one that did
 * not deploy, unhealthy, timed out, an API error), 2 invalid inputs
 * (nothing sent), 3 drift (`command: check`), 130 interrupted.
 */
export type ExitCode = 0 | 1 | 2 | 3 | 130

export interface RunResult {
  exitCode: ExitCode
  /** Every declared output, '' where it has no value: the door writes them, as they are. */
  outputs: Record<string, string>
}
