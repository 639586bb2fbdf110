// The deployment's page in the service's web app, as the vendor's CLIs link it. Only the hosted
// service's web app is known (`<region>.api.host...` -> `https://<region>.smith.langchain.com`);
// for any other host there is no link, never a guess.
import type { Dialect } from '../../control-plane/dialect.ts'

const API_HOST = 'api.host.langchain.com'
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** The web app that belongs to an API base URL; undefined when none is known. */
export function webAppOf(baseUrl: string): string | undefined {
  const host = URL.parse(baseUrl)?.hostname.toLowerCase().replace(/\.$/, '')
  if (host === undefined) return undefined
  if (host === API_HOST) return 'https://smith.langchain.com'
  if (!host.endsWith(`.${API_HOST}`)) return undefined
  const prefix = host.slice(0, -`.${API_HOST}`.length)
  return LABEL.test(prefix) ? `https://${prefix}.smith.langchain.com` : undefined
}

export interface StatusUrlFacts {
  baseUrl: string
  dialect: Dialect
  /** The deployment's own `tenant_id`, else the `tenant-id` input. */
  tenantId: string | undefined
  deploymentId: string | undefined
}

/** The deployment's page, or undefined where none is known. */
export function statusUrlOf(f: StatusUrlFacts): string | undefined {
  if (f.dialect !== 'langsmith' || !f.tenantId || !f.deploymentId) return undefined
  const app = webAppOf(f.baseUrl)
  if (app === undefined) return undefined
  return `${app}/o/${encodeURIComponent(f.tenantId)}/host/deployments/${encodeURIComponent(f.deploymentId)}`
}
