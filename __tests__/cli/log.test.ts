// The CLI's log on stderr: redacted, a line per change off a terminal, one status line redrawn in
// place on one.
import { Redactor } from '../../src/control-plane/redact.ts'
import { CliLog } from '../../src/cli/log.ts'

const KEY = 'lsv2_pt_0123456789abcdef0123456789abcdef_0123456789'

function stream(isTTY: boolean) {
  const s = { isTTY, columns: 60, text: '', write: (t: string) => (s.text += t) }
  return s
}

function clock() {
  const c = { ms: 0, now: () => c.ms }
  return c
}

test('off a terminal: plain lines, a line per stage, nothing redrawn, every line redacted', async () => {
  const out = stream(false)
  const log = new CliLog({ stream: out, redactor: new Redactor([KEY]), now: clock().now })
  log.start()
  log.mask('s3cr3t-value')
  await log.group('Find the deployment', async () => {
    log.info(`sent X-Api-Key ${KEY}`)
    log.warning('value s3cr3t-value seen', 'Leak?')
  })
  log.error('failed', 'Deploy failed')
  log.notice('fyi')
  log.stop()
  expect(out.text).toBe(
    '▸ Find the deployment\n' +
      'sent X-Api-Key ***\n' +
      'warning: Leak?: value *** seen\n' +
      'error: Deploy failed: failed\n' +
      'notice: fyi\n'
  )
})

test('a title is not said twice when the line starts with it', () => {
  const out = stream(false)
  const log = new CliLog({ stream: out, redactor: new Redactor([]), now: clock().now })
  log.error('Promotion refused: revision r-1 did not pass the smoke cases.', 'Promotion refused')
  log.warning('Drift: a deploy would change one setting.', 'Drift')
  expect(out.text).toBe(
    'error: Promotion refused: revision r-1 did not pass the smoke cases.\n' +
      'warning: Drift: a deploy would change one setting.\n'
  )
})

test('on a terminal: the status line (stage, elapsed) sits under the log and goes at the end', async () => {
  const out = stream(true)
  const c = clock()
  const log = new CliLog({ stream: out, redactor: new Redactor([KEY]), now: c.now })
  log.start()
  expect(out.text).toBe('\r\u001b[2K… Working · 0s')
  c.ms = 65_000
  await log.group('Wait for revision r1', async () => {
    expect(log.statusLine()).toBe('… Wait for revision r1 · 1m05s')
    log.info('BUILDING after 12s')
  })
  log.stop()
  // Each log line first clears the status line, and the status line comes back after it.
  // The end: cleared, nothing left on the line.
  expect(out.text.split('\r\u001b[2K')).toEqual([
    '',
    '… Working · 0s',
    '▸ Wait for revision r1\n',
    '… Wait for revision r1 · 1m05s',
    'BUILDING after 12s\n',
    '… Wait for revision r1 · 1m05s',
    '… Working · 1m05s',
    ''
  ])
})

test('on a terminal the status line never wraps, and is redacted too', () => {
  const out = stream(true)
  const log = new CliLog({ stream: out, redactor: new Redactor([KEY]), now: clock().now })
  void log.group(`stage ${KEY} ${'x'.repeat(100)}`, () => new Promise(() => undefined))
  expect(log.statusLine().length).toBeLessThanOrEqual(59)
  expect(log.statusLine()).not.toContain(KEY.slice(0, 20))
})

test('a terminal that says no width is taken as 80 columns', () => {
  const out = { isTTY: true, columns: 0, text: '', write: (t: string) => (out.text += t) }
  const log = new CliLog({ stream: out, redactor: new Redactor(), now: clock().now })
  expect(log.statusLine()).toBe('… Working · 0s')
})
