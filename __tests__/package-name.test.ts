// The package as the docs name it: every `control-plane-deploy@<version>` that README.md, docs/
// and examples/ tell users to run is the version in package.json (a release raises both), so is
// each GitHub release tarball they name, and `npx --yes` runs only an exact version, never a
// range that may change under the user.
import { expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string
  version: string
  repository: { url: string }
  homepage: string
  bugs: { url: string }
  dependencies?: Record<string, string>
}
const REPO = 'github.com/control-plane-deploy/control-plane-deploy'
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter(f => f.endsWith('.md'))
    .map(f => `docs/${f}`),
  ...readdirSync(join(ROOT, 'examples')).map(f => `examples/${f}`)
]

/** `file: spec` for each npm package spec of ours (not the action's `owner/repo@v1`). */
function specs(): string[] {
  return DOCS.flatMap(file =>
    [
      ...readFileSync(join(ROOT, file), 'utf8').matchAll(
        /(?<![\w/-])control-plane-deploy@(\S+?)(?=[\s`'")]|$)/g
      )
    ].map(m => `${file}: ${m[1]}`)
  )
}

test('the docs and examples name the package at the version of package.json', () => {
  const all = specs()
  expect(all.length).toBeGreaterThan(3)
  expect(all.filter(s => !s.endsWith(`: ${pkg.version}`))).toEqual([])
})

test('npx --yes only ever runs an exact version of this package', () => {
  const unpinned = DOCS.flatMap(file =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .filter(line => /npx (--yes|-y) /.test(line) && line.includes('control-plane-deploy'))
      .filter(line => !/control-plane-deploy(@|-)\d+\.\d+\.\d+([\s`]|\.tgz|$)/.test(line))
      .map(line => `${file}: ${line.trim()}`)
  )
  expect(unpinned).toEqual([])
})

test('each GitHub release tarball the docs name is the one of package.json’s version', () => {
  const urls = DOCS.flatMap(file =>
    [
      ...readFileSync(join(ROOT, file), 'utf8').matchAll(
        /https:\/\/github\.com\/[^\s`'")]+\/releases\/download\/[^\s`'")]+/g
      )
    ].map(m => m[0])
  )
  expect(urls.length).toBeGreaterThan(2)
  const release = `https://${REPO}/releases/download/v${pkg.version}/control-plane-deploy-${pkg.version}.tgz`
  // `<tag>` and `X.Y.Z` placeholders aside, every URL is this version's.
  expect(urls.filter(u => !/<|X\.Y\.Z/.test(u) && u !== release)).toEqual([])
})

test('package.json says where the package comes from, and needs nothing at run time', () => {
  const repo = REPO
  expect(pkg.name).toBe('control-plane-deploy')
  expect(pkg.repository.url).toBe(`git+https://${repo}.git`)
  expect(pkg.homepage).toBe(`https://${repo}#readme`)
  expect(pkg.bugs.url).toBe(`https://${repo}/issues`)
  expect(pkg.dependencies ?? {}).toEqual({})
})
