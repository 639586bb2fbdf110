// Where the health probes go: custom_url with the path appended, and whether they carry the key.
// The URL is the server's text, so the key goes only to a vouched host (vouched-hosts.ts), over
// https or to loopback, whose traffic cannot be read on the way. Checked before any connection.
import { isLoopbackHost, isLoopbackUrl } from '../control-plane/base-url.ts'
import {
  deploymentHost,
  exactHost,
  LOOPBACK,
  matchesHost,
  type HostPattern,
  type ReportedDeployment
} from '../control-plane/vouched-hosts.ts'
import type { Options } from '../inputs/options.ts'

export type ProbeTarget =
  | {
      url: URL
      /** What vouches for the host ('a loopback address', a pattern); undefined: no key. */
      vouchedBy: string | undefined
    }
  | { problem: string }

/** The probe URL, or why not: the path appended, never resolved, so it names no other host. */
export function probeTarget(
  customUrl: string | null | undefined,
  path: string,
  vouched: readonly HostPattern[] = []
): ProbeTarget {
  if (!customUrl)
    return {
      problem:
        'the deployment has no source_config.custom_url, so there is no agent server address to probe'
    }
  const base = URL.parse(customUrl)
  if (!base) return { problem: `its custom_url "${customUrl}" is not a URL` }
  if (base.username || base.password)
    return {
      problem: `its custom_url for ${base.host} carries credentials (user:password@), which are never sent or shown`
    }
  if (base.protocol === 'http:' && !isLoopbackHost(base.hostname))
    return {
      problem: `its custom_url ${base.origin} is plain http to another machine: the api-key is sent only over https or to a loopback address`
    }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    return { problem: `its custom_url ${base.origin} is not an http(s) URL` }
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`
  const url = URL.parse(`${prefix}${path}`)
  if (!url) return { problem: `${prefix}${path} is not a URL` }
  // Guards the rule above against any parsing surprise: the key goes to that origin only.
  if (url.origin !== base.origin) return { problem: `${path} leaves ${base.origin}` }
  return { url, vouchedBy: vouchedBy(url, vouched) }
}

/** What allows the key to go to `url`'s host, or undefined. */
export function vouchedBy(url: URL, vouched: readonly HostPattern[]): string | undefined {
  const plain = url.protocol !== 'https:'
  return vouched.find(p => (plain ? p.loopback === true : true) && matchesHost(p, url))?.text
}

/**
 * The hosts the probes may send the key to: custom-url's, health-check-hosts, in the langsmith
 * dialect the deployment's own, and loopback only when base-url is loopback (the emulator).
 */
export function vouchedHosts(
  o: Pick<Options, 'customUrl' | 'baseUrl' | 'healthCheckHosts' | 'apiDialect'>,
  deployment?: ReportedDeployment
): HostPattern[] {
  const own = o.customUrl ? exactHost(o.customUrl) : undefined
  const service =
    o.apiDialect === 'langsmith' && deployment ? deploymentHost(deployment) : undefined
  return [
    ...(isLoopbackUrl(o.baseUrl) ? [LOOPBACK] : []),
    ...(own ? [own] : []),
    ...(o.healthCheckHosts ?? []),
    ...(service ? [service] : [])
  ]
}
