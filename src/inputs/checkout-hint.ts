// Why a file that the run reads from the workspace (`smoke-test`) may be missing: a workflow that
// never checked the repository out has an empty workspace, and "no such file" alone does not say
// that. Said only when the workspace is no checkout (no `.git`) and the file is not there.
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'

/** A sentence to add to "no such file" when the workspace is empty or not a checkout, else ''. */
export function checkoutHint(workspace: string | undefined, file: string): string {
  const dir = resolve(workspace ?? '.')
  if (existsSync(resolve(dir, file)) || existsSync(resolve(dir, '.git'))) return ''
  const empty = isEmpty(dir)
  return empty
    ? ` The workspace (${dir}) is empty: the file comes from a checkout of the repository, so ` +
        'check it out before this step (`actions/checkout` in a GitHub workflow).'
    : ` The workspace (${dir}) is no git checkout: if the file is in the repository, check it ` +
        'out before this step (`actions/checkout` in a GitHub workflow).'
}

/** A folder with nothing in it, or none at all. */
function isEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0
  } catch {
    return true
  }
}
