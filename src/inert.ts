// Text the run did not write itself (a server's answers, the workspace's graph ids, smoke case
// names, dependency and file names, CI variables), made inert for each place it goes. One home:
// the job log's doors pass every line through `logSafe`, and the summary and the pull request
// comment interpolate such text only through `mdText`/`mdCode`.

/** A terminal's escape sequences: CSI (colours, cursor moves), OSC (titles, links) and the rest. */
export const ESCAPE_SEQUENCE =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g
// C0 and C1 controls, the Unicode line separators, and the bidirectional overrides that make a
// line read otherwise than it is.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g
const CONTROL_BUT_NEWLINE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Cuts text to `max` characters and says how much was left out; nothing else is changed. */
export function capText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text
}

/**
 * One line of text that the run did not write, safe in a job log: terminal escape codes removed,
 * line breaks and other control characters folded into one space (so nothing starts a line and
 * acts as a workflow command), `::` and `##[` broken up (the runner still reads the older
 * `##[name]` commands anywhere in a line), and the length capped.
 */
export function sanitizeServerText(text: string, max = 500): string {
  const out = text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CONTROL, ' ')
    .replace(/:(?=:)/g, ': ')
    .replace(/#(?=#\[)/g, '# ')
    .trim()
  return capText(out, max)
}

/**
 * What a door writes to the job log (a line, an annotation, its title, a group's name), whatever
 * was interpolated into it: no terminal escape codes or other control characters, and no line
 * that the runner reads as a workflow command (`::name::` at a line's start, `##[name]` anywhere).
 * Line breaks are kept (every line is checked alone); a lone `\r`, which the runner and a terminal
 * take as one, becomes a line break that shows. The run's own lines pass unchanged.
 */
export function logSafe(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .split(/\r\n|\r|\n/)
    .map(line =>
      line
        .replace(CONTROL, ' ')
        .replace(/^(\s*):(?=:)/, '$1: ')
        .replace(/#(?=#\[)/g, '# ')
    )
    .join('\n')
}

/** The text with escapes removed and every control character or line break as one space. */
function oneLine(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim()
}

// Markdown and HTML: each character that could start a tag, an entity, a link or an image, code,
// math or a table cell is written as an entity, which both Markdown and an HTML block show as the
// character; `://` and `www.` too, which GitHub would make a link of. Emphasis (`*`, `_`) only
// styles text, and stays: a redacted `***` reads as it is.
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }
const MARKUP = /[&<>`|[\]\\$]/g

/**
 * Text as inert Markdown (also inside an HTML block such as `<details>`): on one line, no escape
 * codes, no tag, link, image, code, math, cell break or entity of its own, no @mention that
 * notifies anyone; `max` characters at most.
 */
export function mdText(text: string, max = 1000): string {
  const line = oneLine(text)
  const cut = line.length > max ? `${line.slice(0, max)}…` : line
  return cut
    .replace(MARKUP, c => ENTITY[c] ?? `&#${c.charCodeAt(0)};`)
    .replace(/:(?=\/\/)/g, '&#58;')
    .replace(/\b(www)\./gi, '$1&#46;')
    .replace(/@(?=\w)/g, '@\u200b')
}

/** A URL as is (GitHub links it) when it is a plain http(s) URL; any other text as code. */
export function mdUrl(url: string): string {
  return SAFE_URL.test(url) ? url : mdCode(url)
}

/** An http(s) URL with nothing that Markdown or HTML could read as markup. */
export const SAFE_URL = /^https?:\/\/[^\s<>()[\]|`"'\\*$]+$/

/**
 * Text as inline code: one line, no backtick to end the span (shown as `'`), no pipe to split a
 * table's cell (shown as `pipe`: `¦`, or `\|` where a table reads it back as `|`). A code span
 * shows its content as it is.
 */
export function mdCode(text: string, max = 200, pipe = '¦'): string {
  const line = oneLine(text)
  const cut = line.length > max ? `${line.slice(0, max)}…` : line
  return `\`${cut.replace(/`/g, "'").replace(/\|/g, pipe)}\``
}

/**
 * Lines in a fenced block: no escape codes or control characters, and a fence longer than any run
 * of backticks inside, so that nothing in them ends the block.
 */
export function mdFenced(lines: string[], info = ''): string {
  const clean = lines.map(l => l.replace(ESCAPE_SEQUENCE, '').replace(CONTROL_BUT_NEWLINE, ' '))
  const longest = Math.max(
    2,
    ...clean.map(l => Math.max(0, ...[...l.matchAll(/`+/g)].map(m => m[0].length)))
  )
  const fence = '`'.repeat(longest + 1)
  return [`${fence}${info}`, ...clean, fence].join('\n')
}
