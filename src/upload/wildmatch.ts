// The lines of an ignore file as rules, in two readings: the LangGraph CLI's and git's (written
// from the documented behaviour of pathspec 1.1.1's `gitwildmatch`, the CLI's matcher, and of
// git; checked against both):
//   - 'cli': how the Python LangGraph CLI reads the `.dockerignore` and `.gitignore` at the top of
//     an included directory. A rule matches a path and everything below it (`src/` matches
//     `src/a/b.py`), a directory is tested as `dir/`, and the last rule that matches decides. So an
//     allowlist (`*` then `!src/`) keeps the whole `src/` tree, where git would keep `src/` alone.
//   - 'git': git's reading of a nested `.gitignore`: a rule matches the path itself (a directory
//     only when the rule ends with `/`); one without a `/` but at its end matches at any depth;
//     the walk never enters an ignored directory, so nothing below it can come back.
// Both are case-sensitive. Lines are split as Python splits them (also at `\v`, `\f`, U+2028 ...)
// and lose trailing whitespace unless it ends in `\ `; `#` starts a comment; `!` negates; `\`
// escapes; `*` `?` `[...]` never match `/`; `**` spans folders. A UTF-8 byte-order mark at the
// start of a file is dropped, as git drops it (the Python CLI keeps it as part of the first rule,
// which then matches nothing). A rule that cannot be read (an open `[`, a lone `\` at its end, a
// lone `!`) is left out of the rules, as git leaves it; the CLI stops with an error there.
//
//   const rules = parseRules('*.log\n!keep.log\n', '.gitignore', 'cli')
//   decide(rules, 'app.log', false)  // the rule `*.log` (line 1): ignored
//   decide(rules, 'keep.log', false) // undefined: the last match is a negation
export type Reading = 'cli' | 'git'

export interface Rule {
  /** `!`: a match keeps the path. */
  negated: boolean
  /** For the log: the line as written, and where (`src/.gitignore line 3`). */
  text: string
  where: string
  matches(path: string, isDirectory: boolean): boolean
}

/** Python's line boundaries (str.splitlines), after universal newlines. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/u
/** Python's whitespace (str.rstrip): not U+FEFF, which JavaScript's `\s` holds. */
const TRAILING_SPACE =
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u
const BOM = '\ufeff'
/** Any character but a newline: Python's `.`. */
const ANY = '[^\\n]'

function escapeRegex(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/u.test(c) ? `\\${c}` : c
}

/** A bracket expression from `[` at `start - 1`: its class and the index after it; undefined: no `]`. */
function bracket(seg: string[], start: number): { cls: string; next: number } | undefined {
  let j = start
  if (seg[j] === '!' || seg[j] === '^') j++
  if (seg[j] === ']') j++
  while (j < seg.length && seg[j] !== ']') j++
  if (j >= seg.length) return undefined
  let i = start
  let cls = '['
  if (seg[i] === '!' || seg[i] === '^') {
    cls += '^'
    i++
  }
  for (const c of seg.slice(i, j)) cls += c === '-' ? c : /[\\\]^[]/u.test(c) ? `\\${c}` : c
  return { cls: `${cls}]`, next: j + 1 }
}

/** One path segment's glob as a regex; undefined when it cannot be read. */
function globSegment(seg: string): string | undefined {
  let out = ''
  const chars = [...seg]
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === '\\') {
      if (i + 1 >= chars.length) return undefined
      out += escapeRegex(chars[++i]!)
    } else if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else if (c === '[') {
      const b = bracket(chars, i + 1)
      if (!b) return undefined
      out += b.cls
      i = b.next - 1
    } else out += escapeRegex(c)
  }
  return out
}

/** Segments with `**` runs collapsed. */
function collapse(segs: string[]): string[] {
  return segs.filter((s, i) => !(s === '**' && segs[i - 1] === '**'))
}

/** The regex of normalised segments; `reading` sets how the last segment ends. */
function segmentsRegex(segs: string[], reading: Reading): string | undefined {
  let out = ''
  let needSlash = false
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!
    const last = i === segs.length - 1
    if (seg === '**') {
      if (i === 0) out += `^(?:${ANY}+/)?`
      else if (!last) {
        out += `(?:/${ANY}+)?`
        needSlash = true
      } else out += reading === 'cli' ? '/' : `/${ANY}+$`
      continue
    }
    const glob = seg === '*' && reading === 'cli' ? '[^/]+' : globSegment(seg)
    if (glob === undefined) return undefined
    out += `${i === 0 ? '^' : ''}${needSlash ? '/' : ''}${glob}`
    if (last) out += reading === 'cli' ? '(?:/|$)' : '$'
    needSlash = true
  }
  return out
}

/** The CLI's regex of a rule's body (no `!`); undefined: no rule. */
function cliRegex(body: string): string | undefined {
  let segs = body.split('/')
  const dirRule = segs.at(-1) === ''
  if (segs[0] === '') segs.shift()
  else if (segs.length === 1 || (segs.length === 2 && segs[1] === '')) {
    if (segs[0] !== '**') segs.unshift('**')
  }
  if (segs.length === 0) return undefined
  if (segs.at(-1) === '') segs[segs.length - 1] = '**'
  segs = collapse(segs)
  const shape = segs.join('/')
  // Whole-tree shapes, matched anywhere in the path as the CLI matches them.
  if (shape === '**') return dirRule ? '/' : ANY
  if (shape === '**/*') return ANY
  if (shape === '**/*/**') return '/'
  return segmentsRegex(segs, 'cli')
}

/** Git's regex of a rule's body (no `!`, no trailing `/`). */
function gitRegex(body: string): string | undefined {
  const anchored = body.includes('/')
  let segs = (body.startsWith('/') ? body.slice(1) : body).split('/')
  if (!anchored) segs.unshift('**')
  segs = collapse(segs)
  if (segs.length === 1 && segs[0] === '**') return ANY
  return segmentsRegex(segs, 'git')
}

/** One line as a rule; undefined for a blank line, a comment or a line that cannot be read. */
function parseLine(raw: string, where: string, reading: Reading, flags: string) {
  const line = raw.endsWith('\\ ') ? raw : raw.replace(TRAILING_SPACE, '')
  if (line === '' || line.startsWith('#') || line === '/') return undefined
  const negated = line.startsWith('!')
  let body = negated ? line.slice(1) : line
  const dirOnly = reading === 'git' && body.endsWith('/')
  if (dirOnly) body = body.slice(0, -1)
  if (body === '') return undefined
  const source = reading === 'cli' ? cliRegex(body) : gitRegex(body)
  if (source === undefined) return undefined
  let regex: RegExp
  try {
    regex = new RegExp(source, flags)
  } catch {
    return undefined
  }
  const rule: Rule = {
    negated,
    text: line,
    where,
    matches: (path, isDirectory) =>
      reading === 'cli'
        ? regex.test(isDirectory ? `${path}/` : path)
        : (!dirOnly || isDirectory) && regex.test(path)
  }
  return rule
}

/**
 * The rules of an ignore file's text. `where` names the file for the log (`.gitignore`): each rule
 * is said as `<where> line <n>`. `ignoreCase`: for the credential names alone.
 */
export function parseRules(
  text: string,
  where: string,
  reading: Reading,
  ignoreCase = false
): Rule[] {
  const body = text.startsWith(BOM) ? text.slice(1) : text
  const rules: Rule[] = []
  const flags = ignoreCase ? 'iu' : 'u'
  body.split(LINE_BREAK).forEach((line, i) => {
    const rule = parseLine(line, `${where} line ${i + 1}`, reading, flags)
    if (rule) rules.push(rule)
  })
  return rules
}

/**
 * The rule that decides `path` (relative to the rules' folder, `/`-separated): the last one that
 * matches. `undefined` when none matches; a negated rule when the path is kept.
 */
export function lastMatch(rules: Rule[], path: string, isDirectory: boolean): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--)
    if (rules[i]!.matches(path, isDirectory)) return rules[i]
  return undefined
}

/** The rule that leaves `path` out, or undefined when it is kept. */
export function decide(rules: Rule[], path: string, isDirectory: boolean): Rule | undefined {
  const rule = lastMatch(rules, path, isDirectory)
  return rule && !rule.negated ? rule : undefined
}
