// What the tests of the CLI's dotenv file share: the emulator's wire answers as the client reads
// them, a revision made to answer a hostile status once the run names it, and the file read back
// by a shell as `set -a; . file` reads it.
import { execFileSync } from 'node:child_process'
import type { Emulator } from '../../emulator/server.ts'

/** The wire answer of `GET path` on `emu`, as the client reads it. */
export async function answer(emu: Emulator, path: string): Promise<Record<string, unknown>> {
  const { apiKey, tenantId } = emu.credentials()
  const res = await fetch(`${emu.url}${path}`, {
    headers: { 'X-Api-Key': apiKey, 'X-Tenant-Id': tenantId }
  })
  return (await res.json()) as Record<string, unknown>
}

/**
 * A handler of the run's stderr: once the run names its revision (`Revision <id>.`), that revision
 * answers `status` (a status no model has) from then on. `done()` settles when the fault is set.
 */
export function hostileRevision(emu: Emulator, deploymentId: string, status: string) {
  let faulted: Promise<void> | undefined
  const onStderr = (stderr: string) => {
    const revisionId = /\nRevision ([0-9a-f-]{36})\.\n/.exec(stderr)?.[1]
    if (revisionId === undefined || faulted) return
    const path = `/v2/deployments/${deploymentId}/revisions/${revisionId}`
    faulted = answer(emu, path).then(revision => {
      emu.addFaults({ kind: 'bad-schema', method: 'GET', path, body: { ...revision, status } })
    })
  }
  return { onStderr, done: () => faulted }
}

/** Each name of `names` as sh or bash reads it after `set -a; . file`, run in `cwd`; null when unset. */
export function sourced(
  shell: string,
  file: string,
  names: string[],
  cwd: string
): (string | null)[] {
  const script = `set -a; . '${file}'; exec node -e 'console.log(JSON.stringify(${JSON.stringify(names)}.map(n => process.env[n] ?? null)))'`
  return JSON.parse(
    execFileSync(shell, ['-c', script], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH } })
  ) as (string | null)[]
}
