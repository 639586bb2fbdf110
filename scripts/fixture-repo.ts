// A git checkout made at run time, for the emulator's `--repo DIR` (repoDir): the demo's
// workspace, committed on `main`, so that a build of main reports the very commit that was pushed.
import { execFileSync } from 'node:child_process'

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Demo',
  GIT_AUTHOR_EMAIL: 'demo@example.com',
  GIT_COMMITTER_NAME: 'Demo',
  GIT_COMMITTER_EMAIL: 'demo@example.com'
}

/** Runs git in `dir` with a fixed identity and no user or system configuration. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      ...IDENTITY
    }
  }).trim()
}

/** Makes `dir` (with its files) a repository whose `main` holds them in one commit: its SHA. */
export function commitFixtureRepo(dir: string, message = 'The demo agent'): string {
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', message)
  return git(dir, 'rev-parse', 'HEAD')
}
