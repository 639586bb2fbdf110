// Workspaces full of preview deployments, for the sweep's and the check's end-to-end tests and the
// benchmark: the demo fixture's tenant with codehost deployments of acme/agent-server, each named
// and dated as asked (`updated_at` for the sweep's age rule).
import { demoFixture, type Fixture } from '../emulator/server.ts'

export interface PreviewSpec {
  name: string
  /** ISO date of its last change; default: when the fixture is loaded. */
  updatedAt?: string
  secrets?: Record<string, string>
}

/** `n` days before now, as an ISO date. */
export function daysAgo(n: number): string {
  return new Date(Date.now() - n * 24 * 3600_000).toISOString()
}

/** The demo fixture plus these deployments, each READY with one DEPLOYED revision of `main`. */
export function previewsFixture(specs: readonly PreviewSpec[]): Fixture {
  const base = demoFixture()
  const tenant = base.tenants[0]!.id
  const integration = base.integrations![0]!.id
  const deployments = specs.map(s => ({
    tenant_id: tenant,
    name: s.name,
    source: 'codehost' as const,
    source_config: {
      integration_id: integration,
      repo_url: 'https://github.com/acme/agent-server'
    },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: Object.entries(s.secrets ?? {}).map(([name, value]) => ({ name, value })),
    ...(s.updatedAt ? { updated_at: s.updatedAt } : {})
  }))
  return { ...base, deployments: [...(base.deployments ?? []), ...deployments] }
}

/**
 * A large workspace: `total` deployments that all share `prefix` (so the listing reads them
 * all, page after page), of which `matching` are named `<prefix>-app-pr-<n>` and a month old; the
 * others `<prefix>-<n>`, changed now. With `sweep-names: <prefix>-*pr-{pr}` and
 * `sweep-max-age: 7d`, the sweep deletes exactly the `matching` ones.
 */
export function largeWorkspace(prefix: string, total: number, matching: number): Fixture {
  const specs: PreviewSpec[] = []
  for (let i = 1; i <= total; i++) {
    specs.push(
      i <= matching
        ? { name: `${prefix}-app-pr-${i}`, updatedAt: daysAgo(30) }
        : { name: `${prefix}-${i}` }
    )
  }
  return previewsFixture(specs)
}
