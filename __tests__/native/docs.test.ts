// What users read and paste: the README shows the example files verbatim, its inputs and outputs
// tables match action.yml, the action has one published name everywhere, third-party actions are
// pinned to a commit, and the files a user expects of a project are there.
import { describe, expect, test } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const ymlIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .map(f => `${dir}/${f}`)

const README = read('README.md')
const EXAMPLES = ymlIn('examples')
const WORKFLOWS = ymlIn('.github/workflows')
const PUBLISHED = 'control-plane-deploy/control-plane-deploy'

const action = parseYaml(read('action.yml')) as {
  inputs: Record<string, { required?: boolean; default?: string }>
  outputs: Record<string, unknown>
}

/** The README's section under `## heading`, up to the next one. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`)
  expect(start).toBeGreaterThan(-1)
  const end = README.indexOf('\n## ', start + 1)
  return README.slice(start, end < 0 ? undefined : end)
}

/** The `| \`name\` | cell | ... |` rows of the README section with this heading. */
function tableRows(heading: string): Map<string, string[]> {
  const rows = new Map<string, string[]>()
  for (const line of section(heading).split('\n')) {
    const m = /^\| `([a-z0-9-]+)` *\|(.*)\|$/.exec(line)
    if (m)
      rows.set(
        m[1]!,
        m[2]!.split(/(?<!\\)\|/).map(c => c.trim())
      )
  }
  return rows
}

describe('README', () => {
  test('shows every example file verbatim, after a marker naming it', () => {
    const shown = [
      ...README.matchAll(/<!-- (examples\/[\w.-]+\.ya?ml) -->\n\n```yaml\n([\s\S]*?)```/g)
    ]
    for (const [, path, body] of shown) {
      // Out of date? `node __tests__/native/tools/sync-readme.ts` copies the files in.
      expect({ path, body }).toEqual({ path, body: read(path!) })
    }
    expect(shown.map(m => m[1]).sort()).toEqual(EXAMPLES)
  })

  test('has the sections users look for', () => {
    for (const heading of [
      'Try it locally',
      'Examples',
      'Inputs',
      'Outputs',
      'What a run looks like',
      'GitHub deployments',
      'Concurrency: one deploy at a time',
      'Security',
      'Troubleshooting',
      'Local emulator',
      'Reliability',
      'Performance'
    ]) {
      expect(README).toContain(`\n## ${heading}\n`)
    }
    expect(README).toContain('npm ci && npm run demo')
    expect(README).toContain('npm ci && npm test')
    for (const link of ['docs/emulator.md', 'docs/reliability.md', 'bench/RESULTS.md'])
      expect(README).toContain(`](${link})`)
    const troubleshooting = section('Troubleshooting')
    for (const symptom of [
      'HTTP 401',
      'HTTP 403',
      'forge integration',
      'Timed out',
      'BUILD_FAILED'
    ])
      expect(troubleshooting).toContain(symptom)
  })

  test('the inputs table lists every input of action.yml, with its default', () => {
    const rows = tableRows('Inputs')
    expect([...rows.keys()]).toEqual(Object.keys(action.inputs))
    for (const [name, input] of Object.entries(action.inputs)) {
      const cell = rows.get(name)![0]!
      if (input.default !== undefined)
        expect({ name, cell }).toEqual({ name, cell: `\`${input.default}\`` })
      else if (input.required) expect(cell).toBe('required')
      else expect(cell).not.toBe('')
    }
  })

  test('the outputs table lists every output of action.yml', () => {
    expect([...tableRows('Outputs').keys()]).toEqual(Object.keys(action.outputs))
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
  const uses = [...WORKFLOWS, ...EXAMPLES].flatMap(path =>
    read(path)
      .split('\n')
      .map(line => /^\s*(?:-\s+)?uses:\s*(.+)$/.exec(line)?.[1]?.trim())
      .filter((u): u is string => u !== undefined)
      .map(u => ({ path, uses: u }))
  )

  test('third-party actions are pinned to a full commit SHA, the version in a comment', () => {
    const thirdParty = uses.filter(u => u.uses !== './' && !u.uses.startsWith(`${PUBLISHED}@`))
    expect(thirdParty.length).toBeGreaterThan(0)
    for (const u of thirdParty)
      expect(u).toEqual({
        path: u.path,
        uses: expect.stringMatching(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/)
      })
  })

  test('CI runs the checks on Node 24, checks dist/, and self-tests uses: ./ in a matrix of two', () => {
    const ci = parseYaml(read('.github/workflows/ci.yml')) as {
      on: Record<string, unknown>
      jobs: Record<
        string,
        {
          strategy?: { matrix?: { include?: unknown[] } }
          steps: { uses?: string; run?: string; with?: Record<string, unknown> }[]
        }
      >
    }
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']))
    const runs = Object.values(ci.jobs).flatMap(j => j.steps.map(s => s.run ?? ''))
    for (const command of [
      'npm ci',
      'npm run typecheck',
      'npm run lint',
      'npm test',
      'npm run build'
    ])
      expect(runs).toContain(command)
    for (const job of Object.values(ci.jobs)) {
      const node = job.steps.find(s => s.uses?.startsWith('actions/setup-node@'))
      expect(node?.with?.['node-version']).toBe(24)
    }
    const upload = ci.jobs['check-dist']!.steps.find(s =>
      s.uses?.startsWith('actions/upload-artifact@')
    )
    expect(upload?.with?.path).toBe('dist/')
    const self = ci.jobs['self-test']!
    expect(self.strategy?.matrix?.include).toHaveLength(2)
    expect(self.steps.filter(s => s.uses === './').length).toBeGreaterThanOrEqual(1)
    expect(self.steps.some(s => s.run?.includes('npm run --silent emulator'))).toBe(true)
  })

  test('the release workflow moves the major tag when a release is published', () => {
    const release = parseYaml(read('.github/workflows/release.yml')) as {
      on: { release: { types: string[] } }
      permissions: Record<string, string>
    }
    expect(release.on.release.types).toEqual(['published'])
    expect(release.permissions.contents).toBe('write')
    expect(read('.github/workflows/release.yml')).toContain(
      'git push --force origin "refs/tags/$major"'
    )
  })

  test('dependabot updates npm packages and GitHub Actions', () => {
    const config = parseYaml(read('.github/dependabot.yml')) as {
      version: number
      updates: { 'package-ecosystem': string; directory: string }[]
    }
    expect(config.version).toBe(2)
    expect(config.updates.map(u => u['package-ecosystem']).sort()).toEqual([
      'github-actions',
      'npm'
    ])
  })
})

describe('project files', () => {
  test('LICENSE is MIT, as package.json says', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n/)
    expect(JSON.parse(read('package.json')).license).toBe('MIT')
  })

  test('CHANGELOG follows Keep a Changelog with semver sections', () => {
    const changelog = read('CHANGELOG.md')
    expect(changelog).toContain('keepachangelog.com')
    expect(changelog).toContain('semver.org')
    expect(changelog).toMatch(/^## \[Unreleased\]$/m)
    for (const [heading] of changelog.matchAll(/^## .*$/gm))
      expect(heading).toMatch(/^## \[(Unreleased|\d+\.\d+\.\d+)\]( - \d{4}-\d{2}-\d{2})?$/)
  })

  test('SECURITY.md and CONTRIBUTING.md are there, and CONTRIBUTING covers the work', () => {
    expect(existsSync(join(ROOT, 'SECURITY.md'))).toBe(true)
    const contributing = read('CONTRIBUTING.md')
    for (const topic of [
      'npm ci',
      'npm run emulator',
      'npm test',
      'npm run build',
      'dist/',
      'Releasing',
      'node_modules/.bin/node'
    ])
      expect(contributing).toContain(topic)
  })
})
