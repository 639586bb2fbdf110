// The smoke-test file: YAML or JSON cases read whole before any request; a bad file is one error
// naming the input as the user set it, the file, the case and what is expected.
import { describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseSmokeCases, readSmokeCases } from '../../src/inputs/smoke-cases.ts'

async function parse(text: string, label = 'smoke-test') {
  const errors: string[] = []
  const cases = await parseSmokeCases(text, label, 'smoke.yaml', m => void errors.push(m))
  return { cases, errors }
}

describe('smoke-test file', () => {
  it('YAML cases with defaults: expect {} and a 60 s timeout; durations or seconds', async () => {
    const { cases, errors } = await parse(`
- name: echo
  graph: agent
  input: {messages: [{role: user, content: hi}]}
- name: answer
  graph: agent
  input: {q: 1}
  expect: {status: success, contains: "42", path: "answer[0].value", equals: 42}
  timeout: 2m
- {name: quick, graph: agent, input: null, timeout: 5}
`)
    expect(errors).toEqual([])
    expect(cases).toEqual([
      {
        name: 'echo',
        graph: 'agent',
        input: { messages: [{ role: 'user', content: 'hi' }] },
        expect: {},
        timeoutMs: 60_000
      },
      {
        name: 'answer',
        graph: 'agent',
        input: { q: 1 },
        expect: { status: 'success', contains: '42', path: 'answer[0].value', equals: 42 },
        timeoutMs: 120_000
      },
      { name: 'quick', graph: 'agent', input: null, expect: {}, timeoutMs: 5_000 }
    ])
  })

  it('JSON works alike', async () => {
    const { cases } = await parse(
      '[{"name": "a", "graph": "g", "input": {"x": 1}, "expect": {"equals": {"x": 1}}}]'
    )
    expect(cases?.[0]?.expect).toEqual({ equals: { x: 1 } })
  })

  it.each([
    ['not YAML', 'a: [', /`smoke-test` \(smoke\.yaml\) is not valid YAML or JSON at line/],
    ['not a list', 'name: a', /must be a list of \{name, graph, input, expect\?/],
    ['an empty list', '[]', /at least one case/],
    ['no input', '[{name: a, graph: g}]', /case 1 \(line 1, column 2\): `input` is required/],
    [
      'no graph',
      '[{name: a, input: 1}]',
      /case 1 \(line 1, column 2\): `graph` must be a graph id/
    ],
    [
      'an unknown key',
      '[{name: a, graph: g, input: 1, expected: {}}]',
      /case 1 \(line 1, column 2\): a key that is none of name, graph, input, expect, timeout$/
    ],
    [
      'a bad status',
      '[{name: a, graph: g, input: 1, expect: {status: ok}}]',
      /`expect.status` must be success or error/
    ],
    [
      'a bad path',
      '[{name: a, graph: g, input: 1, expect: {path: "a..b"}}]',
      /`expect.path` must be a path/
    ],
    [
      'a bad timeout',
      '[{name: a, graph: g, input: 1, timeout: soon}]',
      /`timeout` must be a duration such as 60s/
    ],
    [
      'a zero timeout',
      '[{name: a, graph: g, input: 1, timeout: 0}]',
      /`timeout` must be a duration/
    ],
    [
      'a name twice',
      '[{name: a, graph: g, input: 1}, {name: a, graph: g, input: 2}]',
      /case 2 \(line 1, column 33\): its `name` is that of case 1; each case needs its own$/
    ],
    [
      'a key twice',
      '- name: a\n  name: b\n  graph: g\n  input: 1',
      /has a key twice \(line 2, column 3\)$/
    ]
  ])('%s is one error naming the input and the file', async (_what, text, message) => {
    const { cases, errors } = await parse(text)
    expect(cases).toBeUndefined()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(message)
    expect(errors[0]).toMatch(/^`smoke-test` \(smoke\.yaml\)/)
  })

  it('an error names the place and what is expected, never the text found there', async () => {
    const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz'
    const texts = [
      `- {name: a, graph: g, input: 1, ${token}: 1}`,
      `- {name: a, graph: g, input: 1, timeout: ${token}}`,
      `- {name: a, graph: g, input: 1, expect: {${token}: 1}}`,
      `- {name: ${token}, graph: g, input: 1}\n- {name: ${token}, graph: g, input: 2}`,
      `- name: a\n  ${token}: 1\n  ${token}: 2\n  graph: g\n  input: 1`,
      `- {name: a, graph: g, input: 1, expect: {status: ${token}}}`,
      `- {name: a, graph: g, input: 1}\n- ${token}: [`
    ]
    for (const text of texts) {
      const { cases, errors } = await parse(text)
      expect({ text, cases, n: errors.length }).toEqual({ text, cases: undefined, n: 1 })
      expect(errors[0]).not.toContain(token.slice(0, 8))
      expect(errors[0]).toMatch(/line \d+/)
    }
  })

  it('the input is named as the user set it (a CLI flag)', async () => {
    expect((await parse('{}', '--smoke-test')).errors[0]).toMatch(
      /^`--smoke-test` \(smoke\.yaml\) must be a list/
    )
  })

  it('a file that cannot be read is one error saying what is expected', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'smoke-'))
    try {
      const errors: string[] = []
      const fail = (m: string) => void errors.push(m)
      expect(await readSmokeCases(dir, 'none.yaml', 'smoke-test', fail)).toBeUndefined()
      expect(errors).toEqual([
        '`smoke-test` (none.yaml) could not be read: there is no such file; expected a YAML or JSON file of smoke cases inside the workspace'
      ])
      await writeFile(join(dir, 'ok.json'), '[{"name": "a", "graph": "g", "input": 1}]')
      expect(await readSmokeCases(dir, 'ok.json', 'smoke-test', fail)).toHaveLength(1)
      // A link out of the workspace (the process's environment, a device) or a folder: not read.
      await symlink('/proc/self/environ', join(dir, 'environ.yaml'))
      await symlink('/dev/zero', join(dir, 'zero.yaml'))
      await mkdir(join(dir, 'dir.yaml'))
      errors.length = 0
      for (const file of ['environ.yaml', 'zero.yaml', 'dir.yaml'])
        expect(await readSmokeCases(dir, file, 'smoke-test', fail)).toBeUndefined()
      expect(errors).toEqual([
        expect.stringMatching(
          /\(environ\.yaml\) could not be read: it leads outside the workspace/
        ),
        expect.stringMatching(/\(zero\.yaml\) could not be read: it leads outside the workspace/),
        expect.stringMatching(/\(dir\.yaml\) could not be read: it is a directory/)
      ])
    } finally {
      await rm(dir, { recursive: true })
    }
  })
})
