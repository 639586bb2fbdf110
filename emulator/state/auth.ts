// X-Api-Key / X-Tenant-Id -> the tenant a request acts for, or the 401/403 answer.
import type { IncomingHttpHeaders } from 'node:http'
import { detail, type Reply } from '../http/io.ts'
import type { Store, TenantRecord } from './store.ts'

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

export function authenticate(
  store: Store,
  headers: IncomingHttpHeaders
): { tenant: TenantRecord } | { reply: Reply } {
  const key = header(headers, 'x-api-key')?.trim()
  if (!key) return { reply: detail(401, 'Missing API key: send it in the X-Api-Key header.') }
  const tenants = store.tenantsForKey(key)
  if (tenants.length === 0) return { reply: detail(401, 'Invalid API key.') }
  const tenantId = header(headers, 'x-tenant-id')?.trim()
  if (!tenantId) {
    if (tenants.length > 1) {
      return {
        reply: detail(
          403,
          'This API key is scoped to an organization and requires workspace specification: send the workspace ID in the X-Tenant-Id header.'
        )
      }
    }
    return { tenant: tenants[0]! }
  }
  const tenant = tenants.find(t => t.id.toLowerCase() === tenantId.toLowerCase())
  if (!tenant) {
    return { reply: detail(403, `This API key does not have access to workspace '${tenantId}'.`) }
  }
  return { tenant }
}
