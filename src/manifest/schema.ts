// The manifest's JSON Schema, made from action.yml's inputs (through action-yml.ts): an environment's
// keys are the inputs a deployment's settings take, every other input is listed as not allowed
// there. `npm run readme` publishes it as schema/manifest.schema.json, for editors; the run checks
// a manifest by this same object, so the file and the check cannot differ.
import { DEPLOYMENT_TYPES, REVISION_SOURCES, SOURCES } from '../control-plane/vocabulary.ts'
import { DIALECTS } from '../control-plane/dialect.ts'
import { ACTION_INPUTS } from '../interface/action-yml.ts'
import { SIZES } from '../interface/journal.ts'
import { DOCUMENT_INPUTS, INPUT_NAMES, type InputName } from '../interface/names.ts'

/** Inputs an environment may not set, and why: where to reach the service, secrets, the run's own. */
export const NOT_IN_MANIFEST = {
  'api-key': 'a credential: a CI secret, never a file',
  'tenant-id': 'where the key reaches: the run sets it once for every agent',
  'base-url': 'where the key reaches: the run sets it once for every agent',
  secrets: 'secret values belong in CI secrets, never in a file of the repository',
  'github-token': 'a credential: a CI secret, never a file',
  command: "the run's own choice, not the agent's",
  manifest: "the run's own choice, not the agent's",
  agent: "the run's own choice, not the agent's",
  environment: 'the key of the environment itself'
} as const satisfies Partial<Record<InputName, string>>

/** Where the package publishes the schema, and its `$id` (the file on the default branch). */
export const MANIFEST_SCHEMA_PATH = 'schema/manifest.schema.json'
const SCHEMA_ID = `https://raw.githubusercontent.com/control-plane-deploy/control-plane-deploy/main/${MANIFEST_SCHEMA_PATH}`

/** Inputs whose value is one of a few words: the schema lists them, so editors complete them. */
const WORDS: Partial<Record<InputName, readonly string[]>> = {
  source: [...SOURCES, 'github'],
  'revision-source': REVISION_SOURCES,
  'deployment-type': DEPLOYMENT_TYPES,
  size: SIZES,
  'database-size': SIZES,
  'on-failure': ['fail', 'rollback'],
  'api-dialect': ['auto', ...DIALECTS]
}

/** The inputs an environment may set, in action.yml's order. */
export const MANIFEST_INPUTS: readonly InputName[] = INPUT_NAMES.filter(
  name => !(name in NOT_IN_MANIFEST)
)

type Json = Record<string, unknown>

/** One input's value as the schema describes it (the input's own check is the last word). */
function valueSchema(name: InputName): Json {
  const meta = ACTION_INPUTS[name] as { description: string; default?: string }
  const description = meta.description
  const words = WORDS[name]
  if (words) return { description, enum: [...words] }
  if (meta.default === 'true' || meta.default === 'false')
    return { description, type: ['boolean', 'string'], enum: [true, false, 'true', 'false'] }
  if ((DOCUMENT_INPUTS as readonly string[]).includes(name))
    return { description, type: ['object', 'array', 'string'] }
  return { description, type: ['string', 'number'] }
}

/** The manifest's schema (JSON Schema 2020-12). */
export function manifestSchema(): Json {
  const settings: Json = {}
  for (const name of MANIFEST_INPUTS) settings[name] = valueSchema(name)
  const key = '^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$'
  const environment = {
    type: 'object',
    description:
      "One environment of the agent: its keys are the action's inputs, as a workflow sets them.",
    properties: settings,
    additionalProperties: false,
    anyOf: [{ required: ['name'] }, { required: ['deployment-id'] }]
  }
  const agent = {
    type: 'object',
    properties: {
      config: {
        type: 'string',
        minLength: 1,
        description:
          "The agent's langgraph.json, from the manifest's folder: its graph-config-path, and what names the agent's files."
      },
      paths: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description:
          "More files whose change redeploys the agent: globs from the manifest's folder (`shared/prompts/**`)."
      },
      environments: {
        type: 'object',
        propertyNames: { pattern: key },
        additionalProperties: environment,
        minProperties: 1
      }
    },
    required: ['config', 'environments'],
    additionalProperties: false
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_ID,
    title: 'control-plane-deploy manifest',
    description:
      'Agents, each with its config and its environments (docs/manifest.md). Not allowed in an environment: ' +
      Object.keys(NOT_IN_MANIFEST).join(', ') +
      '.',
    type: 'object',
    properties: {
      agents: {
        type: 'object',
        propertyNames: { pattern: key },
        additionalProperties: agent,
        minProperties: 1
      }
    },
    required: ['agents'],
    additionalProperties: false
  }
}
