// Where the health probes go: the deployment's custom_url with the health path appended. The
// probes carry the api-key, so only a URL whose traffic cannot be read on the way is accepted:
// https, or plain http to this machine (a loopback address). Checked before any connection.
import { isLoopbackHost } from '../control-plane/base-url.ts'

export type ProbeTarget = { url: URL } | { problem: string }

/**
 * The probe URL for `customUrl` and `path` (which starts with `/` and may carry a query), or why
 * it may not be probed. The path is appended to the URL's own path, never resolved against it,
 * so it cannot name another host.
 */
export function probeTarget(customUrl: string | null | undefined, path: string): ProbeTarget {
  if (!customUrl)
    return {
      problem:
        'the deployment has no source_config.custom_url, so there is no agent server address to probe'
    }
  let base: URL
  try {
    base = new URL(customUrl)
  } catch {
    return { problem: `its custom_url "${customUrl}" is not a URL` }
  }
  if (base.username || base.password)
    return { problem: `its custom_url for ${base.host} carries credentials, which are not sent` }
  if (base.protocol === 'http:' && !isLoopbackHost(base.hostname))
    return {
      problem: `its custom_url ${base.origin} is plain http to another machine: the api-key is sent only over https or to a loopback address`
    }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    return { problem: `its custom_url ${base.origin} is not an http(s) URL` }
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`
  let url: URL
  try {
    url = new URL(`${prefix}${path}`)
  } catch {
    return { problem: `${prefix}${path} is not a URL` }
  }
  // Guards the rule above against any parsing surprise: the key goes to that origin only.
  if (url.origin !== base.origin) return { problem: `${path} leaves ${base.origin}` }
  return { url }
}
