// What the action does on its own, among other runs and against a control plane that lies. Races
// of two runs on one deployment (rollback vs a newer deploy, delete vs deploy, pull-request
// comments created at once), ordered by a gate that holds one request until the other run has
// acted; and answers that lie (`##[` in every text the server supplies). A deployment answer about
// another id and a redeploy without a revision of its own: commands/deploy/command.failure.test.ts.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { startFakeGitHub } from '../../scripts/fake-github.ts'
import type { Emulator } from '../../emulator/server.ts'
import { failureLogRead, withGateProxy as withProxy } from '../e2e/gate.ts'
import { pullRequest, uniqueName, redeploys } from '../e2e/harness.ts'
import {
  debugEnv,
  deployInputs,
  deploymentsNamed,
  errorText,
  inBothLogModes,
  lane,
  reliabilityCase,
  warningLines,
  withEmulator,
  type Case
} from './support.ts'

/** The failed revision's log read (not the wait's reads of the build log). */
const LOG_PATH = failureLogRead

/** A deployment with one DEPLOYED revision, made by a first run of the bundle. */
async function firstDeploy(c: Case, emu: Emulator, name: string): Promise<string> {
  const r = await c.run({ inputs: deployInputs(c, emu, name) })
  c.check(r.code === 0, `the first deploy ended ${r.code}: ${errorText(r).slice(0, 200)}`)
  return r.outputs['deployment-id'] ?? ''
}

describe(GROUPS.race, () => {
  const two = lane(2)

  inBothLogModes(
    GROUPS.race,
    'rollback vs a newer deploy: the failed run holds back, the newer revision is DEPLOYED',
    (c, debug) =>
      withEmulator({}, emu =>
        withProxy(emu, async proxy => {
          const name = uniqueName('rb-race')
          await firstDeploy(c, emu, name)
          // Run A's failure log is held until run B (another workflow) has deployed.
          const logs = proxy.gate(LOG_PATH)
          const b = logs.reached.then(async () => {
            const r = await c.run({ inputs: deployInputs(c, emu, name), env: debugEnv(debug) })
            logs.open()
            return r
          })
          const a = await c.run({
            inputs: deployInputs(c, emu, name, {
              ref: 'fail-build',
              'on-failure': 'rollback',
              'base-url': proxy.url
            }),
            env: debugEnv(debug)
          })
          const rb = await b
          c.check(rb.code === 0, `run B ended ${rb.code}: ${errorText(rb).slice(0, 200)}`)
          c.check(redeploys(emu).length === 0, `${redeploys(emu).length} redeploys`)
          c.check(a.code === 1, `run A ended ${a.code}`)
          c.check(
            /Not rolled back: revision \S+ came after this run's revision/.test(errorText(a)),
            `run A: ${errorText(a).slice(0, 300)}`
          )
          const [d] = deploymentsNamed(emu, name)
          c.check(
            d?.active_revision_id === rb.outputs['revision-id'],
            `active ${d?.active_revision_id}, run B's ${rb.outputs['revision-id']}`
          )
          c.check(!a.outputs['rollback-revision-id'], 'run A reports a rollback revision')
        })
      ),
    { lane: two }
  )

  inBothLogModes(
    GROUPS.race,
    'delete vs deploy: the deploy reports the deployment deleted, the delete deletes',
    (c, debug) =>
      withEmulator({ speed: 0.05 }, async emu => {
        const name = uniqueName('del-race')
        let del: ReturnType<Case['run']> | undefined
        const inputs = deployInputs(c, emu, name)
        const { 'integration-id': _deployOnly, secrets: _secrets, ...common } = inputs
        const deploy = await c.run({
          inputs,
          env: debugEnv(debug),
          onStdout: {
            when: /::group::Wait for revision/,
            run: async () => {
              del = c.run({
                inputs: { ...common, command: 'delete', wait: 'false' },
                env: debugEnv(debug)
              })
              await del
              emu.setSpeed(1000)
            }
          }
        })
        const removed = await del!
        c.check(removed.code === 0, `the delete ended ${removed.code}`)
        c.check(removed.outputs.deleted === 'true', `deleted=${removed.outputs.deleted}`)
        c.check(deploy.code === 1, `the deploy ended ${deploy.code}`)
        c.check(
          /was deleted while this run waited/.test(errorText(deploy)),
          `the deploy said: ${errorText(deploy).slice(0, 300)}`
        )
      }),
    { lane: two }
  )

  reliabilityCase(
    GROUPS.race,
    'pull-request comments created at once by four runs: one comment stays',
    c =>
      withEmulator({}, async emu => {
        const gh = await startFakeGitHub()
        try {
          const name = uniqueName('pr-race')
          await firstDeploy(c, emu, name)
          gh.holdCreates(4)
          const inputs = deployInputs(c, emu, name, { 'pr-comment': 'true' })
          const runs = await Promise.all(
            [1, 2, 3, 4].map(() =>
              c.run({ inputs, event: pullRequest(31), env: { GITHUB_API_URL: gh.url } })
            )
          )
          c.check(
            runs.every(r => r.code === 0),
            `exits ${runs.map(r => r.code).join()}`
          )
          c.check(gh.comments(31).length === 1, `${gh.comments(31).length} comments`)
          const aboutComment = runs.flatMap(r => warningLines(r).filter(w => /comment/i.test(w)))
          c.check(aboutComment.length === 0, `warnings: ${aboutComment.join(' | ').slice(0, 300)}`)
          // The runs that did not keep their own comment say so.
          c.check(
            runs.some(r => /another run posted the comment/.test(r.stdout)),
            'no run says another run posted the comment'
          )
        } finally {
          await gh.close()
        }
      }),
    { lane: two }
  )
})

describe(GROUPS.hostile, () => {
  const two = lane(2)

  reliabilityCase(
    GROUPS.hostile,
    '##[ in every text the server supplies: names, secrets, URLs, commits, logs, details',
    c =>
      withEmulator({}, emu =>
        withProxy(emu, async proxy => {
          const name = uniqueName('legacy')
          const id = await firstDeploy(c, emu, name)
          const forge = (s: string) => `##[add-mask]${s} ##[error]${s} ##[stop-commands]${s}`
          proxy.rewrite(
            x => x.path.startsWith('/v2/deployments'),
            (_status, body) => {
              const d = body as Record<string, unknown> & {
                source_config?: Record<string, unknown>
                source_revision_config?: Record<string, unknown>
                secrets?: { name: string }[]
              }
              if (!d || typeof d !== 'object') return body
              if (typeof d.name === 'string') d.name = forge('name')
              if (typeof d.url === 'string') d.url = forge('url')
              if (d.source_config) {
                d.source_config.custom_url = forge('url')
                d.source_config.repo_url = forge('repo')
              }
              if (d.source_revision_config?.repo_commit_sha)
                d.source_revision_config.repo_commit_sha = forge('sha')
              if (Array.isArray(d.secrets)) d.secrets = [{ name: forge('SECRET') }]
              return d
            }
          )
          emu.script({ outcome: 'BUILD_FAILED', logLines: [forge('log')] })
          emu.addFaults({
            kind: 'detail',
            status: 400,
            method: 'POST',
            path: '**/redeploy',
            detail: forge('detail')
          })
          const r = await c.run({
            inputs: deployInputs(c, emu, '', {
              'deployment-id': id,
              'on-failure': 'rollback',
              'base-url': proxy.url
            })
          })
          const lines = (r.stdout + r.stderr).split('\n').filter(l => l.includes('##['))
          c.check(lines.length === 0, `##[ reached the log: ${lines.slice(0, 3).join(' | ')}`)
          c.check(!r.outputs.url, `url output ${r.outputs.url}`)
          c.check(
            warningLines(r).filter(w => w.includes('the url output is left empty')).length === 1,
            'the url was not refused with one warning'
          )
          c.check(r.code === 1, `exit ${r.code}`)
        })
      ),
    { lane: two }
  )
})
