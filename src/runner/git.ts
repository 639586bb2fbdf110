// git in the workspace's checkout, read only: fixed arguments, no shell, `--no-optional-locks`
// (another step may be using the checkout, and reading must not take its index lock). A git that
// fails, is missing or refuses the directory gives undefined: its callers treat that as unknown.
import { execFile } from 'node:child_process'

/** git's stdout for `args` in `cwd`, or undefined when it failed or took longer than `timeoutMs`. */
export function readGit(
  cwd: string,
  args: string[],
  timeoutMs: number
): Promise<string | undefined> {
  return new Promise(resolve => {
    execFile(
      'git',
      ['--no-optional-locks', ...args],
      { cwd, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => resolve(err ? undefined : stdout)
    )
  })
}
