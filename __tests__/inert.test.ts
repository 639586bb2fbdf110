// Text the run did not write, made inert (src/inert.ts): for the job log in each door, and for
// the summary and the pull request comment.
import { expect, test } from '@jest/globals'
import { logSafe, mdCode, mdFenced, mdText, mdUrl, sanitizeServerText } from '../src/inert.ts'
import { CliLog } from '../src/cli/log.ts'
import { Redactor } from '../src/control-plane/redact.ts'
import { HOSTILE, steeredLog, steeredMarkdown } from './builders/hostile-workspace.ts'

test('logSafe: no line the runner obeys, no escape, whatever was interpolated', () => {
  expect(logSafe(`graph "${HOSTILE}": it has an assistant.`)).not.toMatch(/\u001b/)
  expect(steeredLog(logSafe(`graph "${HOSTILE}"`))).toEqual([])
  expect(logSafe('a\n::error title=x::y')).toBe('a\n: :error title=x::y')
  expect(logSafe('a\r::add-mask::DEPLOYED')).toBe('a\n: :add-mask::DEPLOYED')
  expect(logSafe('a\r\n  ::stop-commands::t')).toBe('a\n  : :stop-commands::t')
  expect(logSafe('x ##[error]y')).toBe('x # #[error]y')
  expect(logSafe('a\u0085b\u2028c\u202ed\u001b]8;;https://e\u0007link\u001b]8;;\u0007')).toBe(
    'a b c dlink'
  )
})

test('logSafe: the run’s own lines pass unchanged, line breaks kept', () => {
  for (const line of [
    'Revision 6d6e7283-8f26-46be-94ec-0489e107e6e4 is DEPLOYED.',
    'GET http://[::1]:8080/ok: 200',
    'secrets.ALPHA: *** -> (removed)',
    'first line\n  second line'
  ])
    expect(logSafe(line)).toBe(line)
})

test('the CLI’s log filters every line, also when it runs in a CI job', () => {
  let out = ''
  const log = new CliLog({
    stream: { write: t => (out += t) },
    redactor: new Redactor(),
    now: () => 0
  })
  log.info(`Smoke case "${HOSTILE}": passed.`)
  log.error(`the dependency './${HOSTILE}' does not exist.`, `Title ${HOSTILE}`)
  void log.group(`Stage ${HOSTILE}`, async () => undefined)
  expect(steeredLog(out)).toEqual([])
})

test('sanitizeServerText: one line, capped, as before', () => {
  expect(sanitizeServerText('a\n::error::x\u001b[31m', 100)).toBe('a : :error: :x')
  expect(sanitizeServerText('x'.repeat(12), 10)).toBe('xxxxxxxxxx… (2 more characters)')
})

test('mdText: no tag, link, image, code, math, cell or mention of its own; one line', () => {
  const md = mdText(`${HOSTILE} \`code\` | $x$ @octocat www.evil.example`)
  expect(steeredMarkdown(md)).toEqual([])
  expect(md).not.toMatch(/[<>`|[\]$\n\r]/)
  expect(md).not.toContain('https://')
  expect(md).toContain('&lt;img src=x onerror=alert(1)&gt;&#91;link&#93;')
  expect(md).toContain('@\u200boctocat')
  // What Markdown does not act on reads as it was.
  expect(mdText('{"q":"ping"} the output does not contain "pong". ***')).toBe(
    '{"q":"ping"} the output does not contain "pong". ***'
  )
})

test('mdCode, mdFenced, mdUrl: nothing ends the span or the block', () => {
  expect(mdCode('a`b|c\nd')).toBe("`a'b¦c d`")
  expect(mdCode('a|b', 200, '\\|')).toBe('`a\\|b`')
  expect(mdFenced(['x', '```', '\u001b[31mred'])).toBe('````\nx\n```\nred\n````')
  expect(mdUrl('https://agent.example.com/a?b=1')).toBe('https://agent.example.com/a?b=1')
  expect(mdUrl('javascript:alert(1)')).toBe('`javascript:alert(1)`')
  expect(mdUrl('https://x.example/<img>')).toBe('`https://x.example/<img>`')
})
