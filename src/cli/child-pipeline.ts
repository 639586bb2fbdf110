// `plan --child-pipeline FILE`: the plan's matrix as a GitLab child pipeline, one deploy job per
// agent (GitLab's dynamic child pipelines are how a GitLab pipeline fans out); with nothing to
// deploy, one job that says so, as GitLab refuses an empty pipeline. Each job runs the CLI that
// the parent's `DEPLOY_CLI` variable names (a trigger job forwards the parent's variables).
interface Entry {
  agent: string
  environment: string
  name: string
}

/** A word for a POSIX shell: single-quoted unless it is plain. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}

/** JSON is YAML: every value and key written as a JSON string, whatever it holds. */
const str = (text: string) => JSON.stringify(text)

export function childPipeline(matrix: string, manifest: string, environment: string): string {
  const include = (JSON.parse(matrix) as { include: Entry[] }).include
  const out = [
    '# Written by `control-plane-deploy plan --child-pipeline`: one deploy job per agent to deploy.',
    'default:',
    '  image: node:24-slim',
    ''
  ]
  if (!include.length) {
    out.push(
      `${str(`nothing to deploy to ${environment}`)}:`,
      '  script:',
      `    - ${str(`echo ${shellWord(`control-plane-deploy plan: no agent needs a deploy to ${environment}`)}`)}`
    )
  }
  for (const e of include) {
    const line = `npx --yes "$DEPLOY_CLI" deploy --manifest ${shellWord(manifest)} --agent ${shellWord(e.agent)} --environment ${shellWord(e.environment)}`
    out.push(
      `${str(`deploy ${e.agent} ${e.environment}`)}:`,
      // One deploy of a deployment at a time, the newest waiting.
      `  resource_group: ${str(e.name)}`,
      '  script:',
      `    - ${str(line)}`,
      ''
    )
  }
  return out.join('\n').trimEnd() + '\n'
}
