// Generated from action.yml by `npm run action-metadata`: edit action.yml, then run it
// (a test fails when this file is out of date). What the CLI's flags, --help and outputs come from.

export interface InputMetadata {
  name: string
  description: string
  default?: string
  required?: boolean
  boolean?: boolean
}
export interface OutputMetadata {
  name: string
  description: string
}

export const ACTION_DESCRIPTION: string =
  'Deploy an agent server through the Deployment Control Plane API: create or update the deployment, then wait until its new revision is DEPLOYED, failed, superseded or timed out.'

export const INPUTS: readonly InputMetadata[] = [
  {
    name: 'api-key',
    description:
      'Control plane API key, sent as X-Api-Key. Pass it from a secret; it is masked at once.',
    required: true
  },
  {
    name: 'tenant-id',
    description:
      'Workspace id (uuid), sent as X-Tenant-Id when set (needed with organization-scoped keys).'
  },
  {
    name: 'base-url',
    description:
      'Control plane base URL; may carry a path (https://host/api-host). https only, except localhost, 127.0.0.0/8 and [::1].',
    default: 'https://api.host.langchain.com'
  },
  {
    name: 'name',
    description:
      'Deployment name (lowercase letters, digits, hyphens; starts with a letter; at most 63). Found by exact name, created when missing. Required unless deployment-id is set.'
  },
  {
    name: 'deployment-id',
    description: 'Target this deployment by id instead of by name (no lookup, never creates).'
  },
  {
    name: 'source',
    description:
      "One of codehost, external_docker, internal_docker, internal_source, internal_template. Used on create; on update it must equal the deployment's source.",
    default: 'codehost'
  },
  {
    name: 'integration-id',
    description: 'Forge integration id (uuid). Needed to create a codehost deployment.'
  },
  {
    name: 'repository',
    description:
      "Repository (owner/name) to deploy, resolved through the forge repos endpoint. Defaults to the workflow's repository."
  },
  {
    name: 'ref',
    description:
      "Branch name or refs/tags/<tag> to deploy (repo_ref). Defaults from the event - the pushed branch or tag, the release tag, or the pull request's head branch."
  },
  {
    name: 'graph-config-path',
    description:
      'Path of the graph configuration file in the repository (source_revision_config.graph_config_path).',
    default: 'langgraph.json'
  },
  {
    name: 'image-uri',
    description:
      'Image to deploy (source_revision_config.image_uri) for external_docker and internal_docker.'
  },
  {
    name: 'secrets',
    description:
      'Deployment secrets as NAME=VALUE lines (blank lines and # comments ignored) or a JSON object {"NAME": "value"}. Every value is masked. Empty keeps the current secrets.'
  },
  {
    name: 'secret-references',
    description: 'YAML or JSON list of {name, secret_name, secret_key} (external_docker only).'
  },
  {
    name: 'resource-spec',
    description:
      'YAML or JSON object with the resource spec (replaces the current one as a whole on update).'
  },
  {
    name: 'build-on-push',
    description:
      'true or false for source_config.build_on_push (codehost; must not be true for a tag ref).',
    boolean: true
  },
  { name: 'custom-url', description: 'source_config.custom_url of the deployment.' },
  {
    name: 'listener-id',
    description: 'source_config.listener_id (uuid) of the self-hosted listener (external_docker).'
  },
  {
    name: 'k8s-namespace',
    description:
      'Kubernetes namespace for the listener (source_config.listener_config.k8s_namespace, external_docker).'
  },
  { name: 'install-command', description: 'source_config.install_command.' },
  { name: 'build-command', description: 'source_config.build_command.' },
  {
    name: 'revision-source',
    description: 'revision_source of the update - codehost, internal_docker or internal_source.'
  },
  {
    name: 'create',
    description: 'Create the deployment when no deployment has this name; false fails instead.',
    default: 'true',
    boolean: true
  },
  {
    name: 'wait',
    description: 'Poll the new revision until it is DEPLOYED, failed, superseded, or the timeout.',
    default: 'true',
    boolean: true
  },
  {
    name: 'timeout',
    description:
      'Longest wait for the revision - 90s, 15m, 1h, 1h30m or plain seconds (at most 6h).',
    default: '30m'
  },
  {
    name: 'poll-interval',
    description:
      'Longest pause between two polls (polling starts faster and backs off to this); at least 1s. Default 15s, or the timeout when shorter.'
  },
  {
    name: 'dry-run',
    description:
      'Resolve everything and print the plan (create or update, and what changes); write nothing.',
    default: 'false',
    boolean: true
  },
  {
    name: 'github-token',
    description:
      'Token for the GitHub REST API, used with environment (deployments write) and pr-comment (pull-requests write). Masked at once.'
  },
  {
    name: 'environment',
    description:
      "GitHub environment to record this deploy in - a GitHub deployment for the commit, in_progress while it runs, then success, failure, error or inactive (shown on the repository's Deployments page and in pull requests). Empty - no GitHub deployment."
  },
  {
    name: 'environment-url',
    description:
      "URL that the GitHub deployment shows for the environment; defaults to the deployment's custom-url."
  },
  {
    name: 'api-dialect',
    description:
      'Wire names to speak - interface, langsmith, or auto (langsmith for the hosted api.host.langchain.com and base URLs ending in /api-host).',
    default: 'auto'
  },
  {
    name: 'deployment-type',
    description:
      'dev_free, dev or prod (source_config.deployment_type) on create. It cannot change; a differing value on update is an error.'
  },
  {
    name: 'command',
    description:
      'deploy, or delete - delete the deployment of this exact name (or deployment-id); none of that name is a success.',
    default: 'deploy'
  },
  {
    name: 'delete-tracing-project',
    description:
      'With command delete - delete its tracing project too, which frees the name for re-creation.',
    default: 'false',
    boolean: true
  },
  {
    name: 'on-failure',
    description:
      'fail, or rollback - when the new revision fails, redeploy the revision active before this run and wait for it. The job still fails.',
    default: 'fail'
  },
  {
    name: 'failure-logs',
    description:
      "Lines of a failed revision's build or deploy log to show in the log and the job summary; 0 turns it off.",
    default: '50'
  },
  {
    name: 'pr-comment',
    description:
      'On pull_request events - one comment per deployment name, updated in place, with status, url, revision and commit. Needs github-token.',
    default: 'false',
    boolean: true
  }
]

export const OUTPUTS: readonly OutputMetadata[] = [
  { name: 'deployment-id', description: 'Id of the deployment created or updated.' },
  {
    name: 'revision-id',
    description: 'Id of the revision this run created (empty when it created none).'
  },
  {
    name: 'revision-status',
    description:
      'Last revision status seen - DEPLOYED, a failure status, SKIPPED, or the in-progress status at the timeout.'
  },
  { name: 'deployment-status', description: "The deployment's status at the end." },
  { name: 'created', description: 'true when this run created the deployment, else false.' },
  { name: 'url', description: "The deployment's source_config.custom_url, when it has one." },
  {
    name: 'repo-commit-sha',
    description: 'The commit the revision built, when the service reports it.'
  },
  {
    name: 'github-deployment-id',
    description: 'Id of the GitHub deployment this run created (only with environment), else empty.'
  },
  {
    name: 'deleted',
    description: 'true when this run deleted the deployment (command delete), else false.'
  },
  {
    name: 'rollback-revision-id',
    description:
      "The revision the rollback's redeploy started and followed to its end (empty when none)."
  },
  { name: 'rollback-status', description: 'Its last status - DEPLOYED when the rollback worked.' }
]
