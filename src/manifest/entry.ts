// `manifest` + `agent` + `environment` -> the run's inputs: that entry's settings put in as if the
// workflow had set them, before the inputs are checked. A setting in both places is refused (one
// place for each); an input counts as set only when it differs from action.yml's default, which
// the runner passes whatever the workflow says.
import { dirname, posix } from 'node:path'
import { readInside } from '../inputs/smoke-cases.ts'
import type { InputProblem } from '../inputs/problems.ts'
import { INPUTS } from '../inputs/table.ts'
import { defaultOf, type InputName, type RawInputs } from '../interface/names.ts'
import type { Say } from '../interface/naming.ts'
import { parseManifest, problemLines, type Manifest, type Settings } from './read.ts'

export type ManifestInputs =
  | {
      raw: RawInputs
      manifest: Manifest | undefined
      /** Each input the entry set, and where: `agents.yaml line 7`. */
      from: ReadonlyMap<InputName, string>
    }
  | { problems: InputProblem[] }

/** The manifest read from the workspace and checked, or its problems (all, each with its line). */
export async function readManifest(
  workspace: string | undefined,
  file: string
): Promise<{ manifest: Manifest } | { problems: string[] }> {
  const read = await readInside(workspace ?? '.', file)
  if ('why' in read) return { problems: [`${file} could not be read: ${read.why}`] }
  const parsed = await parseManifest(read.text, file)
  if ('problems' in parsed) return { problems: problemLines(file, parsed.problems) }
  const missing = await missingConfigs(workspace ?? '.', parsed.manifest)
  return missing.length ? { problems: missing } : parsed
}

/** Each agent's config that is not a file in the workspace, named at its line. */
async function missingConfigs(workspace: string, m: Manifest): Promise<string[]> {
  const out: string[] = []
  for (const [key, a] of Object.entries(m.agents)) {
    const path = configPath(m, a.config)
    const read = await readInside(workspace, path)
    if ('why' in read)
      out.push(
        ...problemLines(m.file, [
          {
            line: m.lineOf(['agents', key, 'config']),
            where: `agents.${key}.config`,
            message: `${path} could not be read: ${read.why}`
          }
        ])
      )
  }
  return out
}

/** A path of the manifest (from its folder) as a path from the workspace. */
export function configPath(m: Pick<Manifest, 'file'>, path: string): string {
  return posix.normalize(posix.join(dirname(m.file).replace(/\\/g, '/'), path))
}

/** A setting's value as an input's text. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return String(value)
}

/** The run's inputs with the manifest's entry in them, or every problem of the manifest and its use. */
export async function manifestInputs(
  raw: RawInputs,
  workspace: string | undefined,
  { say, takes }: { say: Say; takes: (input: InputName) => boolean }
): Promise<ManifestInputs> {
  const none = { raw, manifest: undefined, from: new Map<InputName, string>() }
  // A command that takes no manifest (a sweep): its inputs' check refuses it as such.
  if (raw.manifest !== '' && !takes('manifest')) return none
  if (raw.manifest === '') {
    if (raw.agent === '') return none
    return problems(`${say('agent')} needs ${say('manifest')}: the file that names the agents`)
  }
  // The path's own check first: nothing outside the workspace is opened.
  let bad: string | undefined
  INPUTS.manifest.check(raw.manifest, message => void (bad ??= message))
  if (bad !== undefined) return problems(bad.replace('`manifest`', say('manifest')))
  const read = await readManifest(workspace, raw.manifest)
  if ('problems' in read) return { problems: read.problems.map(message => at(message)) }
  const m = read.manifest
  const command = raw.command || defaultOf('command')
  const agents = Object.keys(m.agents)
  const agentWords = `the agents of ${m.file} are ${agents.map(a => `\`${a}\``).join(', ')}`
  if (raw.agent !== '' && !m.agents[raw.agent])
    return problems(`${say('agent')} names no agent of ${m.file}: ${agentWords}`)
  if (command === 'plan') {
    const unplanned = planProblem(m, raw, say)
    return unplanned ? problems(unplanned) : { ...none, manifest: m }
  }
  if (raw.agent === '')
    return problems(`${say('agent')} is required with ${say('manifest')}: ${agentWords}`)
  const entry = m.agents[raw.agent]!
  const envs = Object.keys(entry.environments)
  if (!entry.environments[raw.environment])
    return problems(
      `${raw.environment === '' ? `${say('environment')} is required with ${say('agent')}` : `${say('environment')} names no environment of agent \`${raw.agent}\``}: its environments are ${envs.map(e => `\`${e}\``).join(', ')}`
    )
  // A command without `environment` (a delete: no GitHub deployment) used it to choose the entry.
  const chosen = takes('environment') ? raw : { ...raw, environment: '' }
  return applyEntry(chosen, m, { agent: raw.agent, environment: raw.environment }, { say, takes })
}

/** A plan of an environment no agent (or not the agent named) has: a typo, which would plan none. */
function planProblem(m: Manifest, raw: RawInputs, say: Say): string | undefined {
  const agents = Object.entries(m.agents).filter(([k]) => raw.agent === '' || k === raw.agent)
  const envs = new Set(agents.flatMap(([, a]) => Object.keys(a.environments)))
  if (raw.environment === '' || envs.has(raw.environment)) return undefined
  const whose = raw.agent === '' ? `any agent of ${m.file}` : `agent \`${raw.agent}\``
  return `${say('environment')} names no environment of ${whose}: the environments are ${[...envs].map(e => `\`${e}\``).join(', ')}`
}

const problems = (message: string): { problems: InputProblem[] } => ({
  problems: [{ input: 'manifest', message }]
})
const at = (message: string): InputProblem => ({ input: 'manifest', message })

/** One environment's settings as inputs, `config` as `graph-config-path`; each refused when also set. */
function applyEntry(
  raw: RawInputs,
  m: Manifest,
  { agent, environment }: { agent: string; environment: string },
  { say, takes }: { say: Say; takes: (input: InputName) => boolean }
): ManifestInputs {
  const entry = m.agents[agent]!
  const place = ['agents', agent, 'environments', environment]
  const settings: Settings = {
    'graph-config-path': configPath(m, entry.config),
    ...entry.environments[environment]
  }
  const out = { ...raw }
  const from = new Map<InputName, string>()
  const found: InputProblem[] = []
  for (const [key, value] of Object.entries(settings)) {
    const input = key as InputName
    // What this command does not take (a delete's deployment type) stays the deploy's.
    if (!takes(input)) continue
    const path = key === 'graph-config-path' ? ['agents', agent, 'config'] : [...place, key]
    const where = `${m.file} line ${m.lineOf(path) ?? '?'} (${path.join('.')})`
    const given = raw[input]
    if (given !== '' && given !== defaultOf(input)) {
      found.push(at(`${say(input)} is set both as an input and in ${where}: set it in one place`))
      continue
    }
    const text = key === 'promote-from' ? promotedFrom(m, agent, environment, value) : value
    if (typeof text === 'object' && text !== null && 'problem' in text) {
      found.push(at(`${where}: ${text.problem}`))
      continue
    }
    out[input] = asText(text)
    from.set(input, where)
  }
  return found.length ? { problems: found } : { raw: out, manifest: m, from }
}

/** `promote-from` naming another environment of the agent: that environment's deployment. */
function promotedFrom(m: Manifest, agent: string, environment: string, value: unknown): unknown {
  const envs = m.agents[agent]!.environments
  if (typeof value !== 'string' || !(value in envs)) return value
  if (value === environment) return { problem: 'an environment cannot be promoted from itself' }
  const source = envs[value]!
  return source.name ?? source['deployment-id']
}
