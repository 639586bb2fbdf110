// What users read and paste: the README's generated parts are current with action.yml and
// examples/, it fits in 20 KB, its yaml only uses inputs that exist, every link of the docs leads
// somewhere, the action has one published name, and third-party actions are pinned to a commit.
import { describe, expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { parse as parseYaml } from 'yaml'
import {
  commonInputs,
  forText,
  inputsTable,
  INPUTS_DOC,
  outputsTable,
  renderInputsDoc,
  renderReadme,
  repositorySources,
  type ActionMetadata
} from '../scripts/readme.ts'
import { filesIn, readRepoFile, ROOT } from './builders/repo.ts'

const read = readRepoFile

const README = read('README.md')
const EXAMPLES = filesIn('examples', /\.ya?ml$/)
const WORKFLOWS = filesIn('.github/workflows', /\.ya?ml$/)
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  'CHANGELOG.md',
  ...filesIn('docs', /\.md$/)
]
const PUBLISHED = 'control-plane-deploy/control-plane-deploy'
const action = parseYaml(read('action.yml')) as ActionMetadata

/** The first column (`name`) of each row of a generated table, in order. */
const namesIn = (table: string) => [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map(m => m[1])

describe('README', () => {
  test('is at most 20,000 bytes', () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(20_000)
  })

  test('its tables and example blocks are current: `npm run readme` would change nothing', () => {
    // Out of date? `npm run readme` rewrites them from action.yml and examples/.
    expect(README).toBe(renderReadme(README, repositorySources(ROOT)))
  })

  test('its table names the common inputs, in order; docs/inputs.md every input and output', () => {
    const sources = repositorySources(ROOT)
    const inputs = README.slice(
      README.indexOf('<!-- inputs:start -->'),
      README.indexOf('<!-- inputs:end -->')
    )
    expect(namesIn(inputs)).toEqual(commonInputs(sources))
    // A first run needs the workspace (an organization-scoped key) and chooses the type at create.
    expect(namesIn(inputs)).toEqual(
      expect.arrayContaining(['api-key', 'tenant-id', 'name', 'ref', 'deployment-type'])
    )
    const reference = read(INPUTS_DOC)
    expect(reference).toBe(renderInputsDoc(sources))
    const outputsAt = reference.indexOf('## Outputs')
    expect(namesIn(reference.slice(0, outputsAt))).toEqual(Object.keys(action.inputs))
    expect(namesIn(reference.slice(outputsAt))).toEqual(Object.keys(action.outputs))
    expect(reference).toContain(
      '| `integration-id` |  | deploy, check; source `codehost`; required to create `codehost` |'
    )
  })

  test('every `with:` key in its yaml is an input of action.yml', () => {
    const keys: string[] = []
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit)
      if (node === null || typeof node !== 'object') return
      const step = node as { uses?: unknown; with?: Record<string, unknown> }
      if (typeof step.uses === 'string' && step.uses.startsWith(`${PUBLISHED}@`))
        keys.push(...Object.keys(step.with ?? {}))
      Object.values(node).forEach(visit)
    }
    for (const [, yaml] of README.matchAll(/```yaml\n([\s\S]*?)```/g)) visit(parseYaml(yaml!))
    expect(keys.length).toBeGreaterThan(0)
    expect(keys.filter(k => !(k in action.inputs))).toEqual([])
  })

  test('shows or links every example file', () => {
    const missing = EXAMPLES.filter(
      path => !README.includes(`<!-- ${path} -->`) && !README.includes(`](${path})`)
    )
    expect(missing).toEqual([])
  })
})

describe('the README generator', () => {
  const sample: ActionMetadata = {
    inputs: {
      'api-key': { description: 'The key.', required: true },
      wait: { description: 'Wait | or not:\n  refs/tags/<tag>, *_FAILED.', default: 'true' },
      ref: { description: 'A ref.' }
    },
    outputs: { created: { description: 'true when created.' } }
  }
  const rows = {
    'api-key': { commands: ['deploy', 'delete', 'check'], common: true },
    wait: { commands: ['deploy', 'delete', 'check'] },
    ref: {
      commands: ['deploy', 'check'],
      sources: ['codehost'],
      createNeeds: ['codehost'],
      common: true
    }
  } as const

  test('writes one row per input: name, default or required, description as one cell', () => {
    expect(inputsTable(sample)).toContain(
      [
        '| input | default | description |',
        '| --- | --- | --- |',
        '| `api-key` | **required** | The key. |',
        '| `wait` | `true` | Wait \\| or not: refs/tags/\\<tag>, \\*_FAILED. |',
        '| `ref` |  | A ref. |'
      ].join('\n')
    )
    expect(outputsTable(sample)).toContain('| `created` | true when created. |')
  })

  test('replaces only what lies between the markers, and refuses a README without them', () => {
    const sources = { action: sample, rows, readFile: () => '' }
    const readme = ['intro', '<!-- inputs:start -->', 'stale', '<!-- inputs:end -->', 'end'].join(
      '\n'
    )
    const rendered = renderReadme(readme, sources)
    expect(rendered).not.toContain('stale')
    expect(rendered).toMatch(/^intro\n<!-- inputs:start -->\n[\s\S]*`api-key`[\s\S]*\nend$/)
    // Only the common inputs: the rest are in docs/inputs.md.
    expect(namesIn(rendered)).toEqual(['api-key', 'ref'])
    expect(renderReadme(rendered, sources)).toBe(rendered)
    expect(() => renderReadme('no markers', sources)).toThrow(/inputs:start/)
  })

  test('the reference says what each input is for, from its row', () => {
    const doc = renderInputsDoc({ action: sample, rows, readFile: () => '' })
    expect(doc).toContain('| `wait` | `true` | deploy, delete, check |')
    expect(doc).toContain(
      '| `ref` |  | deploy, check; source `codehost`; required to create `codehost` | A ref. |'
    )
    expect(doc).toContain('| `created` | true when created. |')
    expect(
      forText({ commands: ['deploy', 'check'], sources: ['a', 'b'], revisionSources: ['b'] })
    ).toBe('deploy, check; source `a`, `b` (or `revision-source` `b`)')
    expect(() => renderInputsDoc({ action: sample, rows: {}, readFile: () => '' })).toThrow(
      /no row for input api-key/
    )
  })
})

describe('links', () => {
  /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
  const anchor = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
  const anchorsOf = (path: string) =>
    new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map(m => anchor(m[1]!)))

  test.each(DOCS)('%s: every relative link leads to a file (and heading) that exists', doc => {
    const text = read(doc).replace(/```[\s\S]*?```/g, '')
    const broken: string[] = []
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue
      const [file, hash] = target!.split('#')
      const path = file ? normalize(join(dirname(doc), file)) : doc
      if (!existsSync(join(ROOT, path))) broken.push(target!)
      else if (hash && path.endsWith('.md') && !anchorsOf(path).has(hash)) broken.push(target!)
    }
    expect(broken).toEqual([])
  })
})

describe('one published name', () => {
  test('the README, the examples and CONTRIBUTING use it, and no other', () => {
    const texts = ['README.md', 'CONTRIBUTING.md', ...EXAMPLES].map(p => [p, read(p)] as const)
    for (const [path, text] of texts) {
      for (const m of text.matchAll(/([\w.-]+\/control-plane-deploy)@/g))
        expect({ path, name: m[1] }).toEqual({ path, name: PUBLISHED })
    }
    expect(README).toContain(`${PUBLISHED}@v1`)
  })
})

describe('workflows', () => {
  test('third-party actions are pinned to a full commit SHA, the version in a comment', () => {
    const thirdParty = [...WORKFLOWS, ...EXAMPLES].flatMap(path =>
      read(path)
        .split('\n')
        .map(line => /^\s*(?:-\s+)?uses:\s*(.+)$/.exec(line)?.[1]?.trim())
        .filter((u): u is string => u !== undefined)
        .filter(u => u !== './' && !u.startsWith(`${PUBLISHED}@`))
        .map(u => ({ path, uses: u }))
    )
    expect(thirdParty.length).toBeGreaterThan(0)
    for (const u of thirdParty)
      expect(u).toEqual({
        path: u.path,
        uses: expect.stringMatching(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/)
      })
  })
})

describe('project files', () => {
  test('LICENSE is MIT, as package.json says', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n/)
    expect(JSON.parse(read('package.json')).license).toBe('MIT')
  })
})

describe('what is released', () => {
  const tags = execFileSync('git', ['tag', '--list', 'v*'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
  const { version } = JSON.parse(read('package.json')) as { version: string }
  const logged = [...read('CHANGELOG.md').matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map(m => m[1])
  const released = tags.length > 0 || logged.length > 0
  /** A page's section from `heading` to the next heading of its level. */
  const sectionOf = (text: string, heading: string) => {
    const at = text.indexOf(heading)
    expect(at).toBeGreaterThan(0)
    const end = text.indexOf(`\n${heading.split(' ')[0]} `, at + heading.length)
    return text.slice(at, end < 0 ? undefined : end)
  }

  test("the top of the README's Install says it, as the tags, CHANGELOG and package.json do", () => {
    const first = sectionOf(README, '## Install').split('\n\n')[1]!
    for (const tag of tags) expect(logged).toContain(tag.replace(/^v/, ''))
    if (!released) {
      expect(first).toMatch(/^\*\*Released: nothing yet\.\*\*/)
      for (const none of ['no tag', 'no npm package', 'no release asset'])
        expect(first).toContain(none)
      // The interim route builds the package package.json names, and every CI can take it.
      const install = sectionOf(README, '## Install')
      expect(install).toContain(`npm pack`)
      expect(install).toContain(`control-plane-deploy-${version}.tgz`)
      expect(install).toContain('DEPLOY_CLI')
    } else {
      expect(first).not.toMatch(/nothing yet/i)
      expect(logged).toContain(version)
      expect(first).toContain(`v${version}`)
    }
  })

  test('docs/cli.md, where the install is told in full, says the same first', () => {
    const first = sectionOf(read('docs/cli.md'), '## Installing').split('\n\n')[1]!
    if (!released) expect(first).toMatch(/^\*\*Released: nothing yet\.\*\*/)
    else expect(first).not.toMatch(/nothing yet/i)
  })

  test("the README sets out the CLI before the action's details", () => {
    const at = (h: string) => README.indexOf(`\n## ${h}`)
    expect(at('Install')).toBeGreaterThan(0)
    expect(at('Install')).toBeLessThan(at('The CLI'))
    expect(at('The CLI')).toBeLessThan(at('Examples'))
  })
})

describe('docs/promotion.md', () => {
  test('every ending of its table names a test that exists', () => {
    const doc = read('docs/promotion.md')
    const table = doc.slice(
      doc.indexOf('## How a promotion ends'),
      doc.indexOf('The GitHub examples run')
    )
    const rows = table.split('\n').filter(l => /^\| (?!Ending|-)/.test(l))
    expect(rows.length).toBeGreaterThanOrEqual(10)
    for (const row of rows) {
      const cell = row
        .replace(/\s*\|\s*$/, '')
        .split(' | ')
        .at(-1)!
        .trim()
      const file = /^`([^`]+)`:/.exec(cell)?.[1] ?? 'e2e/promote.test.ts'
      const source = read(`__tests__/${file}`)
      const names = [...cell.matchAll(/"([^"]+)"/g)]
        .map(m => m[1]!)
        .filter(n => !n.startsWith('...'))
      expect(names.length).toBeGreaterThan(0)
      for (const name of names)
        expect({ row, found: source.includes(name) }).toEqual({ row, found: true })
    }
  })
})
