// Which paths of one included directory the archive leaves out, and by which rule:
//   - always the folders `__pycache__/ .git/ .venv/ venv/ node_modules/ .tox/ .mypy_cache/`, at
//     any depth, whatever a `!` line says (the Python LangGraph CLI lets `!.git/` put them back,
//     and with them the token `actions/checkout` keeps in `.git/config`);
//   - the lines of the directory's own `.dockerignore`, then of its `.gitignore`, read as the
//     Python LangGraph CLI reads them (wildmatch.ts, 'cli'): an allowlist keeps what it keeps;
//   - then every `.gitignore` below the directory, read as git reads it (wildmatch.ts, 'git'): the
//     deepest one with a matching line decides. A path goes in only when both readings keep it:
//     a nested `!` line never brings back what the top files leave out.
// Ignore files above an included directory (and `.git/info/exclude`, the global excludes file)
// are not read, as the CLI reads none.
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { decide, lastMatch, parseRules, type Rule } from './wildmatch.ts'

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

const ALWAYS = new Set<string>(ALWAYS_EXCLUDED_DIRS)

/** The ignore files read at the top of each included directory, in the CLI's order. */
export const IGNORE_FILES = ['.dockerignore', '.gitignore'] as const

/** A nested `.gitignore`: its folder (relative to the included directory) and its rules. */
export interface NestedRules {
  base: string
  rules: Rule[]
}

/** Why a path is left out by the rules. */
export type RuleVerdict = { always: true } | { always: false; rule: Rule }

/** The text of an ignore file that is a regular file; '' otherwise (as the CLI reads them). */
async function text(file: string): Promise<string> {
  try {
    if (!(await stat(file)).isFile()) return ''
    return await readFile(file, 'utf8')
  } catch {
    return ''
  }
}

/** The rules of a nested `.gitignore` in `dir` (`base` from the top; `member` for the log). */
export async function readNestedRules(
  dir: string,
  base: string,
  member: string
): Promise<NestedRules | undefined> {
  const rules = parseRules(await text(join(dir, '.gitignore')), member, 'git')
  return rules.length ? { base, rules } : undefined
}

/** The deepest nested `.gitignore` with a line that matches `rel` decides. */
function nestedVerdict(nested: NestedRules[], rel: string, isDirectory: boolean) {
  for (let i = nested.length - 1; i >= 0; i--) {
    const level = nested[i]!
    if (!rel.startsWith(`${level.base}/`)) continue
    const rule = lastMatch(level.rules, rel.slice(level.base.length + 1), isDirectory)
    if (rule) return rule.negated ? undefined : rule
  }
  return undefined
}

export interface TopRules {
  /** Why `rel` is left out, or undefined; `nested`: its folders' `.gitignore`s, outermost first. */
  leftOutBy(rel: string, isDirectory: boolean, nested: NestedRules[]): RuleVerdict | undefined
}

/** The rules of included directory `dir` (absolute); `prefix` names its files for the log. */
export async function readTopRules(dir: string, prefix: string): Promise<TopRules> {
  const rules: Rule[] = []
  for (const name of IGNORE_FILES)
    rules.push(
      ...parseRules(await text(join(dir, name)), prefix ? `${prefix}/${name}` : name, 'cli')
    )
  return {
    leftOutBy(rel, isDirectory, nested) {
      const name = rel.slice(rel.lastIndexOf('/') + 1)
      if (isDirectory && ALWAYS.has(name)) return { always: true }
      const rule = decide(rules, rel, isDirectory) ?? nestedVerdict(nested, rel, isDirectory)
      return rule ? { always: false, rule } : undefined
    }
  }
}
