// A workspace whose own texts try to steer the job log and the summary (issue 33, defect 1): a
// graph id, a smoke case's name and graph, a folder (file) name and a dependency name that each
// carry workflow commands on lines of their own, the runner's older `##[` form, terminal escapes
// (an OSC 8 link, a screen clear) and HTML and Markdown that would act in the summary or the PR
// comment. Shared by the action's end-to-end tests, the packed CLI's and the reliability suite.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What each injection carries, to find it wherever it lands. */
export const INJECTED = 'cpd-injected'

/** Each way a text could steer a log or a page. */
export const INJECTIONS: Record<string, string> = {
  'an ::error command': `\n::error title=${INJECTED}::${INJECTED}`,
  'an ::add-mask:: after a carriage return': '\r::add-mask::DEPLOYED',
  'a ::stop-commands:: after blanks': `\n  ::stop-commands::${INJECTED}`,
  'an ##[error] command': `##[error]${INJECTED}`,
  'terminal escapes (an OSC 8 link, a screen clear)': `\u001b]8;;https://evil.example/${INJECTED}\u0007click\u001b]8;;\u0007\u001b[2J`,
  'HTML and a Markdown link': `</details><img src=x onerror=alert(1)>[link](https://evil.example/${INJECTED})`
}

/** All of them in one text. */
export const HOSTILE = `agent ${Object.values(INJECTIONS).join(' ')} end`

/** A folder's name as graph-config-path may name it (one line, no control character). */
export const HOSTILE_FOLDER = `agent ##[error]${INJECTED} <img src=x onerror=alert(1)>`

/** A file name's share of them: the commands and an escape, within a name's 255 bytes. */
export const HOSTILE_FILE_NAME = `agent \n::error title=${INJECTED}::${INJECTED}\r::add-mask::DEPLOYED ##[error]${INJECTED} \u001b[2J<img src=x onerror=alert(1)>`

export interface HostileWorkspace {
  dir: string
  /** The graph config's path, relative to `dir`: its folder's name is hostile. */
  configPath: string
  /** The smoke-test file, relative to `dir`: one case, hostile name and graph. */
  smokePath: string
  graph: string
}

/**
 * A workspace of one Python graph whose id, folder, smoke case and (with `missingDependency`) a
 * dependency that does not exist carry `text`; with `failingCase`, the case expects what no
 * output holds.
 */
export function hostileWorkspace(
  o: { text?: string; missingDependency?: boolean; failingCase?: boolean } = {}
): HostileWorkspace {
  const text = o.text ?? HOSTILE
  const dir = mkdtempSync(join(tmpdir(), 'cpd-hostile-ws-'))
  const folder = HOSTILE_FOLDER
  mkdirSync(join(dir, folder))
  const dependencies = o.missingDependency ? ['.', `./dep ${HOSTILE_FILE_NAME}`] : ['.']
  const config = { graphs: { [text]: './agent.py:graph' }, dependencies, python_version: '3.12' }
  writeFileSync(join(dir, folder, 'langgraph.json'), JSON.stringify(config))
  writeFileSync(join(dir, folder, 'agent.py'), 'graph = None\n')
  const expect = o.failingCase ? { expect: { contains: 'never in the output' } } : {}
  const cases = [{ name: `case ${text}`, graph: text, input: { q: 'ping' }, ...expect }]
  writeFileSync(join(dir, 'smoke.json'), JSON.stringify(cases))
  return { dir, configPath: `${folder}/langgraph.json`, smokePath: 'smoke.json', graph: text }
}

/**
 * What in a job log (the action's stdout, the CLI's stderr) a hostile text made of it: a line the
 * runner would obey (`::name` at its start after blanks, carrying the injection, or any
 * `::stop-commands::` or `::add-mask::DEPLOYED`), an `##[` anywhere, a terminal escape. The
 * runner reads a lone `\r` as a line's end, so it is one here too.
 */
export function steeredLog(log: string): string[] {
  const found: string[] = []
  for (const line of log.split(/\r\n|\r|\n/)) {
    // A command's name and properties: what the run writes (`::error title=Graph not served::`)
    // may quote the text after them, but only an injection names itself there.
    const command = /^::([^:]*)::/.exec(line.trimStart())?.[1]
    if (command?.includes(INJECTED)) found.push(line)
    else if (command === 'stop-commands' || /^\s*::add-mask::DEPLOYED/.test(line)) found.push(line)
    else if (line.includes('##[')) found.push(line)
  }
  if (log.includes('\u001b')) found.push('an escape character (ESC)')
  return found
}

/**
 * What in a summary or a PR comment a hostile text made act: a tag, a link, an escape. Fenced
 * blocks and code spans show their text as it is, so what is inside them does not count.
 */
export function steeredMarkdown(page: string): string[] {
  const found: string[] = []
  const markdown = page.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1\s*$/gm, '').replace(/`[^`\n]*`/g, '')
  const count = (re: RegExp) => markdown.match(re)?.length ?? 0
  if (markdown.includes('<img')) found.push('an <img> tag')
  if (count(/<\/details>/g) > count(/<details>/g)) found.push('a </details> of its own')
  if (markdown.includes(`](https://evil.example/${INJECTED})`)) found.push('a Markdown link')
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(markdown)) found.push('a control character')
  return found
}
