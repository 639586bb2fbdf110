// Where the health gate sends the API key, through the bundle: the deployment's custom_url is the
// server's text and names hosts that are not this machine's (TLS servers on loopback under those
// names, see e2e/tls-agent.ts). The key goes to a vouched host only: loopback, the custom-url
// input's host, health-check-hosts, and in the langsmith dialect the one host the control plane
// reported for this deployment (`<name>-<hash>.<region>.langgraph.app`), never another
// *.langgraph.app. Look-alikes and userinfo get nothing, or a probe without the key. (Each
// pattern's matching, IP literals too: control-plane/vouched-hosts.test.ts; the vouched hosts that
// get the key, and a hostile host answering 2xx: e2e/trust.test.ts.)
import { afterAll, beforeAll } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { uniqueName } from '../e2e/harness.ts'
import { seedWithUrl, startTlsAgents, type TlsAgents } from '../e2e/tls-agent.ts'
import { deployInputs, errorText, reliabilityCase, withEmulator } from './support.ts'

const GROUP = GROUPS.keyRouting
const NAMES = [
  'agent.example.com',
  'evil-example.com',
  'example.com.evil.net',
  'agent.evil.example',
  'agent-1.us.langgraph.app',
  // Each case's deployment has a name of its own: its service host is under this one.
  '*.us.langgraph.app',
  'langgraph.app.evil.net',
  '10.0.0.5'
]

let agents: TlsAgents
beforeAll(async () => {
  agents = await startTlsAgents(NAMES)
})
afterAll(async () => {
  await agents.close()
})

interface Spec {
  title: string
  /** The server's custom_url (or made from the deployment's name), the name appended as its path. */
  url: string | ((name: string) => string)
  inputs?: Record<string, string>
  /** Whether the key may reach the server. */
  key: boolean
  /** The server answers 200 without the key too (the run is healthy then). */
  open?: boolean
}

const SPECS: Spec[] = [
  {
    title: 'evil-example.com is not *.example.com: probed without the key',
    url: 'https://evil-example.com',
    inputs: { 'health-check-hosts': '*.example.com' },
    key: false
  },
  {
    title: 'example.com.evil.net is neither example.com nor *.example.com: no key',
    url: 'https://example.com.evil.net',
    inputs: { 'health-check-hosts': 'example.com, *.example.com' },
    key: false,
    open: true
  },
  {
    title: 'langsmith dialect: langgraph.app.evil.net is not *.langgraph.app: no key',
    url: 'https://langgraph.app.evil.net',
    inputs: { 'api-dialect': 'langsmith' },
    key: false
  }
]

for (const spec of SPECS)
  reliabilityCase(GROUP, spec.title, c =>
    withEmulator(
      spec.inputs?.['api-dialect'] === 'langsmith' ? { dialect: 'langsmith' } : {},
      async emu => {
        const name = uniqueName('key')
        const url = typeof spec.url === 'string' ? spec.url : spec.url(name)
        seedWithUrl(emu, name, `${url}/${name}`)
        if (spec.open) agents.open(name)
        const key = emu.credentials().apiKey
        const r = await c.run({
          inputs: deployInputs(c, emu, name, {
            'health-check': 'true',
            'health-check-window': '0',
            ...spec.inputs
          }),
          env: agents.env
        })
        const probes = agents.probesOf(name)
        c.note(`${probes.length} probes, ${probes.filter(p => p.key).length} with the key`)
        c.check(probes.length >= 1, `no probe reached the server: ${errorText(r)}`)
        if (spec.key) {
          c.check(
            probes.every(p => p.key === key),
            'a probe of a vouched host lacked the key'
          )
          c.check(r.code === 0 && r.outputs.health === 'healthy', `exit ${r.code}: ${errorText(r)}`)
        } else {
          c.check(
            probes.every(p => p.key === undefined),
            'the key reached a host not vouched for'
          )
          const expected = spec.open ? 0 : 1
          c.check(r.code === expected, `exit ${r.code}, not ${expected}: ${errorText(r)}`)
          if (!spec.open)
            c.check(
              /not vouched for.*health-check-hosts/.test(errorText(r)),
              `the error does not name health-check-hosts: ${errorText(r)}`
            )
        }
      }
    )
  )

reliabilityCase(GROUP, 'userinfo in custom_url: no probe at all, the credentials nowhere', c =>
  withEmulator({}, async emu => {
    const name = uniqueName('key')
    seedWithUrl(emu, name, `https://agent.example.com:pw-0123456789@agent.evil.example/${name}`)
    c.secrets.push('pw-0123456789')
    const r = await c.run({
      inputs: deployInputs(c, emu, name, {
        'health-check': 'true',
        'health-check-hosts': '*.example.com'
      }),
      env: agents.env
    })
    c.check(agents.probesOf(name).length === 0, 'a probe was sent')
    c.check(r.code === 1, `exit ${r.code}`)
    c.check(
      /carries credentials \(user:password@\), which are never sent or shown/.test(errorText(r)),
      `the error says: ${errorText(r)}`
    )
  })
)
