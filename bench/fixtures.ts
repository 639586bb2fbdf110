// Big fixtures for the scale runs, built from the demo fixture's first tenant and integration.
import { randomUUID } from 'node:crypto'
import { demoFixture, type Fixture } from '../src/emulator/server.ts'

const AGENT_SERVER = {
  name: 'agent-server',
  owner: 'acme',
  url: 'https://github.com/acme/agent-server',
  default_branch: 'main'
}

function base(): { fixture: Fixture; tenantId: string; integrationId: string } {
  const fixture = demoFixture()
  fixture.deployments = []
  const tenantId = fixture.tenants[0]!.id
  const integrationId = fixture.integrations!.find(i => i.tenant_id === tenantId)!.id
  return { fixture, tenantId, integrationId }
}

/**
 * `total` deployments in the first tenant, of which `matching` have names containing `target`
 * (`<target>-pr-<i>`, `x-<target>-<i>`, `<target><i>`), spread through the list; the one named
 * exactly `target` is the last of them, so every page has to be read.
 */
export function manyDeployments(total: number, matching: number, target: string): Fixture {
  const { fixture, tenantId, integrationId } = base()
  const every = Math.floor(total / matching)
  const names: string[] = []
  let m = 0
  for (let i = 0; i < total; i++) {
    if (i % every === every - 1 && m < matching) {
      m++
      const kind = m % 3
      names.push(
        m === matching
          ? target
          : kind === 0
            ? `${target}-pr-${m}`
            : kind === 1
              ? `x-${target}-${m}`
              : `${target}${m}`
      )
    } else names.push(`svc-${i}`)
  }
  fixture.deployments = names.map(name => ({
    id: randomUUID(),
    tenant_id: tenantId,
    name,
    source: 'codehost' as const,
    source_config: { integration_id: integrationId, repo_url: AGENT_SERVER.url },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [],
    deployment_type: 'dev' as const
  }))
  return fixture
}

/** The first integration lists `total` repositories; acme/agent-server is the last one. */
export function manyRepositories(total: number): Fixture {
  const { fixture } = base()
  const repos = []
  for (let i = 1; i < total; i++) {
    const owner = `org-${i % 97}`
    const name = `service-${i}`
    repos.push({
      id: 900_000_000 + i,
      name,
      owner,
      url: `https://github.com/${owner}/${name}`,
      default_branch: i % 5 === 0 ? 'develop' : 'main'
    })
  }
  repos.push({ id: 734120001, ...AGENT_SERVER })
  fixture.integrations![0]!.repositories = repos
  return fixture
}
