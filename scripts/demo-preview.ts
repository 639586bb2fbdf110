// `npm run demo:preview`: a pull request's preview, from opened to closed, on the local emulator
// and a local fake of the GitHub API (the pull request's comments). Three steps of the bundle run
// as the runner would: the pull request opens (`my-agent-pr-7` created), a commit is pushed to it
// (updated in place), it closes (`command: delete` with the tracing project); after each step the
// one comment on the pull request is printed as GitHub would store it.
import { startEmulator } from '../emulator/server.ts'
import { printStep, runStep } from './demo-run.ts'
import { startFakeGitHub } from './fake-github.ts'
import type { GitHubEvent } from './runner-env.ts'

const NUMBER = 7
const NAME = `my-agent-pr-${NUMBER}`
const BRANCH = 'add-search-tool'
const REPO = 'https://github.com/acme/agent-server'
// A placeholder: the fake GitHub API takes any token, and the bundle masks it like a real one.
const TOKEN = 'ghs_demoPreviewToken000000000000'

const emulator = await startEmulator({ port: 0 })
const github = await startFakeGitHub()
const { apiKey, tenantId, integrationId } = emulator.credentials()
console.log(`Emulator: ${emulator.url}; fake GitHub API: ${github.url}\n`)

const common = {
  'api-key': apiKey,
  'base-url': emulator.url,
  'tenant-id': tenantId,
  name: NAME,
  'pr-comment': 'true',
  'github-token': TOKEN,
  'poll-interval': '5s'
}
const deploy = { ...common, 'integration-id': integrationId ?? '' }
const remove = { ...common, command: 'delete', 'delete-tracing-project': 'true' }

/** A `pull_request` event of pull request 7, its head branch at `sha`. */
function pullRequest(action: string, sha: string): GitHubEvent {
  const repo = { full_name: 'acme/agent-server' }
  return {
    name: 'pull_request',
    ref: `refs/pull/${NUMBER}/merge`,
    refName: `${NUMBER}/merge`,
    headRef: BRANCH,
    sha,
    payload: {
      action,
      number: NUMBER,
      pull_request: {
        number: NUMBER,
        head: { ref: BRANCH, sha, repo },
        base: { ref: 'main', repo }
      },
      repository: repo
    }
  }
}

const steps = [
  {
    title: `Pull request #${NUMBER} opened: its preview ${NAME} is created`,
    sha: 'c0ffee1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b',
    action: 'opened',
    inputs: deploy
  },
  {
    title: `A commit pushed to ${BRANCH}: the same preview is updated`,
    sha: 'd15ea5e0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6',
    action: 'synchronize',
    inputs: deploy
  },
  {
    title: `Pull request #${NUMBER} closed: the preview and its tracing project are deleted`,
    sha: 'd15ea5e0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6',
    action: 'closed',
    inputs: remove
  }
]

let failed = false
try {
  for (const step of steps) {
    console.log(`━━━ ${step.title} ━━━`)
    // The branch's head on the control plane's side is the commit the event names.
    emulator.configure({ repoCommits: { [`${REPO}@${BRANCH}`]: step.sha } })
    const r = await runStep(step.inputs, pullRequest(step.action, step.sha), {
      GITHUB_API_URL: github.url
    })
    printStep(r)
    if (r.code !== 0) failed = true
    const comments = github.comments(NUMBER)
    console.log(
      `The pull request has ${comments.length} comment(s); the preview's comment now reads:\n`
    )
    console.log(indent(comments.at(-1)?.body ?? '(none)'))
    console.log()
  }
  const calls = github.requests.map(r => `${r.method} ${r.path}`)
  console.log(`The fake GitHub API received ${calls.length} requests:`)
  for (const c of calls) console.log(`  ${c}`)
} finally {
  await emulator.close()
  await github.close()
}
process.exitCode = failed ? 1 : 0

function indent(text: string): string {
  return text
    .split('\n')
    .map(l => `  │ ${l}`)
    .join('\n')
}
