// The CLI's side of the port (src/port.ts): no runner (only the action's door speaks its protocol),
// and the GitHub side only when the CLI itself runs inside GitHub Actions.
import type { EventDefaults, GitLabContext } from '../runner/event.ts'
import type { GitHubContext } from '../runner/context.ts'
import type { Say } from '../interface/naming.ts'
import type { RunPort } from '../port.ts'
import type { CliLog } from './log.ts'

export interface CliPortOptions {
  /** Every input by its action.yml name, as flags.ts read them. */
  inputs: Record<string, string>
  /** How messages name an input: its flag or its variable, as given (cli/naming.ts). */
  say: Say
  event: EventDefaults
  log: CliLog
  /** The workflow run, when the CLI runs inside GitHub Actions. */
  github: GitHubContext | undefined
  /** The GitLab pipeline, when the CLI runs in one (ci.ts). */
  gitlab?: GitLabContext | undefined
  signal: AbortSignal
  debug: boolean
}

export function cliPort(o: CliPortOptions): RunPort {
  const { log } = o
  return {
    // Trimmed at both ends, as the runner's inputs are.
    input: name => (o.inputs[name] ?? '').trim(),
    say: o.say,
    event: o.event,
    mask: value => log.mask(value),
    info: line => log.info(line),
    ...(o.debug ? { debug: (line: string) => log.info(`debug: ${line}`) } : {}),
    warning: (line, title) => log.warning(line, title),
    notice: (line, title) => log.notice(line, title),
    error: (line, title) => log.error(line, title),
    group: (name, fn) => log.group(name, fn),
    ...(o.github ? { github: o.github } : {}),
    ...(o.gitlab ? { gitlab: o.gitlab } : {}),
    signal: o.signal
  }
}
