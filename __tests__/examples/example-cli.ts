// How the CI examples run the CLI: `npx --yes "$DEPLOY_CLI" ...`, DEPLOY_CLI the packed package
// attached to the GitHub release of package.json's version (it exists with the release, before and
// without the npm registry).
import { readFileSync } from 'node:fs'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}

/** The release asset that the examples install, for package.json's version. */
export const RELEASE_TARBALL = `https://github.com/control-plane-deploy/control-plane-deploy/releases/download/v${pkg.version}/control-plane-deploy-${pkg.version}.tgz`

/** The script lines that run the CLI. */
export const cliLines = (script: string[]): string[] =>
  script.filter(line => line.startsWith('npx --yes "$DEPLOY_CLI" '))

/** A CLI line's words after the package: the CLI's argv. */
export const argvOf = (line: string): string[] => line.split(/\s+/).slice(3)
