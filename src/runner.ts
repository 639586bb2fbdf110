// The runner's protocol, for the entry layer only: workflow commands on stdout, outputs appended
// to $GITHUB_OUTPUT, the job summary appended to $GITHUB_STEP_SUMMARY. It writes byte for byte
// what @actions/core writes (its command.js, file-command.js, core.js and summary.js), without
// loading @actions/core: that imports @actions/http-client for its OIDC client, and with it undici,
// which is most of the start-up time of a run that never calls it.
import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync } from 'node:fs'
import { access, appendFile, constants } from 'node:fs/promises'
import { EOL } from 'node:os'

export interface AnnotationProperties {
  title?: string
}

/** A command's data: `%`, CR and LF escaped. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** A command's property value: as data, and `:` and `,` too. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/**
 * `::name key=value,...::message`. As in @actions/core, properties without a value are left out,
 * but any key at all adds the space after the name.
 */
export function commandLine(
  name: string,
  properties: Record<string, string | undefined>,
  message: string
): string {
  const keys = Object.keys(properties)
  const props = Object.entries(properties)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${escapeProperty(v!)}`)
  return `::${name}${keys.length ? ` ${props.join(',')}` : ''}::${escapeData(message)}`
}

/** An annotation's properties as command properties (only `title` is used here). */
function annotation(properties: AnnotationProperties): Record<string, string | undefined> {
  return Object.keys(properties).length ? { title: properties.title } : {}
}

function issue(name: string, properties: Record<string, string | undefined>, message = ''): void {
  process.stdout.write(commandLine(name, properties, message) + EOL)
}

export function info(message: string): void {
  process.stdout.write(message + EOL)
}

export function debug(message: string): void {
  issue('debug', {}, message)
}

export function warning(message: string, properties: AnnotationProperties = {}): void {
  issue('warning', annotation(properties), message)
}

export function notice(message: string, properties: AnnotationProperties = {}): void {
  issue('notice', annotation(properties), message)
}

export function error(message: string, properties: AnnotationProperties = {}): void {
  issue('error', annotation(properties), message)
}

/** Marks the step failed: exit code 1 and the message as an error annotation. */
export function setFailed(message: string): void {
  process.exitCode = 1
  error(message)
}

/** Asks the runner to mask `secret` wherever it appears in the job log from now on. */
export function setSecret(secret: string): void {
  issue('add-mask', {}, secret)
}

export function isDebug(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.RUNNER_DEBUG === '1'
}

export async function group<T>(name: string, fn: () => Promise<T>): Promise<T> {
  issue('group', {}, name)
  try {
    return await fn()
  } finally {
    issue('endgroup', {})
  }
}

/**
 * `name<<delimiter` + value + `delimiter`, the multi-line form of the file commands, with a random
 * delimiter that neither the name nor the value may contain.
 */
export function keyValueMessage(name: string, value: string): string {
  const delimiter = `ghadelimiter_${randomUUID()}`
  if (name.includes(delimiter))
    throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`)
  if (value.includes(delimiter))
    throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`)
  return `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}`
}

/** A step output: appended to $GITHUB_OUTPUT, or the old `set-output` command without it. */
export function setOutput(name: string, value: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = env.GITHUB_OUTPUT || ''
  if (!file) {
    process.stdout.write(EOL)
    issue('set-output', { name }, value)
    return
  }
  if (!existsSync(file)) throw new Error(`Missing file at path: ${file}`)
  appendFileSync(file, `${keyValueMessage(name, value)}${EOL}`, { encoding: 'utf8' })
}

/** Appends markdown to the job summary ($GITHUB_STEP_SUMMARY). */
export async function appendSummary(
  markdown: string,
  env: NodeJS.ProcessEnv = process.env
): Promise<void> {
  const file = env.GITHUB_STEP_SUMMARY
  if (!file) {
    throw new Error(
      'Unable to find environment variable for $GITHUB_STEP_SUMMARY. Check if your runtime environment supports job summaries.'
    )
  }
  try {
    await access(file, constants.R_OK | constants.W_OK)
  } catch {
    throw new Error(
      `Unable to access summary file: '${file}'. Check if the file has correct read/write permissions.`
    )
  }
  await appendFile(file, markdown, { encoding: 'utf8' })
}
