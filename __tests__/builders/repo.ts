// The repository's own files, for the tests that check them as users and GitHub see them.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')

/** A file of the repository, by its path from the root. */
export const readRepoFile = (path: string) => readFileSync(resolve(ROOT, path), 'utf8')

/** The files of `dir` whose names match, sorted, as paths from the root; none when `dir` is absent. */
export const filesIn = (dir: string, pattern: RegExp): string[] =>
  existsSync(join(ROOT, dir))
    ? readdirSync(join(ROOT, dir))
        .filter(f => pattern.test(f))
        .sort()
        .map(f => `${dir}/${f}`)
    : []
