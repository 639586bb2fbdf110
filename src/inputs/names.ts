// The names of the action's inputs and the raw text the runner passes for them.

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
  'github-token',
  'environment',
  'environment-url'
] as const
export type InputName = (typeof INPUT_NAMES)[number]
/** Inputs as the runner passes them: text, `''` when not set. */
export type RawInputs = Record<InputName, string>
