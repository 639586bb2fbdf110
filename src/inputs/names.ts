// The names of the action's inputs, the raw text the runner passes for them, and the form of a
// secret's name.

/** Every input of the action, as users write them in workflow files. */
export const INPUT_NAMES = [
  'api-key',
  'tenant-id',
  'base-url',
  'name',
  'deployment-id',
  'source',
  'integration-id',
  'repository',
  'ref',
  'graph-config-path',
  'image-uri',
  'secrets',
  'secret-references',
  'resource-spec',
  'build-on-push',
  'custom-url',
  'listener-id',
  'k8s-namespace',
  'install-command',
  'build-command',
  'revision-source',
  'create',
  'wait',
  'timeout',
  'poll-interval',
  'dry-run',
  'failure-logs',
  'on-failure',
  'api-dialect',
  'deployment-type',
  'command',
  'delete-tracing-project',
  'pr-comment',
  'github-token',
  'environment',
  'environment-url',
  'health-check',
  'health-check-window'
] as const
export type InputName = (typeof INPUT_NAMES)[number]
/** Inputs as the runner passes them: text, `''` when not set. */
export type RawInputs = Record<InputName, string>

/** A secret's name (in `secrets` and `secret-references`): an environment variable name. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
