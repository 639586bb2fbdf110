// Which paths of one included directory the archive leaves out, as the LangGraph CLI decides it
// (langgraph_cli/_ignore.py, and its port in @langchain/langgraph-cli's deploy-ignore.mjs):
//   - always `__pycache__/ .git/ .venv/ venv/ node_modules/ .tox/ .mypy_cache/`, at any depth;
//   - then the lines of the directory's own `.dockerignore`, then of its `.gitignore`, read with
//     gitignore semantics (the JS CLI uses the same `ignore` package). Only the ignore files at the
//     top of the directory count: both CLIs read no nested ones, and neither do we.
// A path under an ignored directory stays out even when a later `!` line names it (git's rule).
//
//   const rules = await readIgnoreRules('/abs/dir')
//   rules.ignores('src/app.py', false)   // a file, relative to the directory, `/`-separated
//   rules.ignores('build', true)         // a directory
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import ignore from 'ignore'

/** The directories every archive leaves out, whatever the ignore files say. */
export const ALWAYS_EXCLUDED_DIRS = [
  '__pycache__',
  '.git',
  '.venv',
  'venv',
  'node_modules',
  '.tox',
  '.mypy_cache'
] as const

/** The ignore files read at the top of each included directory, in the CLI's order. */
export const IGNORE_FILES = ['.dockerignore', '.gitignore'] as const

export interface IgnoreRules {
  /** Whether `rel` (relative to the directory, `/`-separated, no leading `./`) is left out. */
  ignores(rel: string, isDirectory: boolean): boolean
}

/** The lines of an ignore file that is a regular file; none otherwise (as the CLIs read them). */
async function lines(file: string): Promise<string[]> {
  try {
    if (!(await stat(file)).isFile()) return []
    return (await readFile(file, 'utf8')).split(/\r?\n/)
  } catch {
    return []
  }
}

/** The rules of directory `dir` (absolute). */
export async function readIgnoreRules(dir: string): Promise<IgnoreRules> {
  const matcher = ignore().add(ALWAYS_EXCLUDED_DIRS.map(name => `${name}/`))
  for (const name of IGNORE_FILES) matcher.add(await lines(join(dir, name)))
  return {
    ignores(rel, isDirectory) {
      if (rel === '' || rel === '.') return false
      return matcher.ignores(isDirectory ? `${rel}/` : rel)
    }
  }
}
