// Which Host headers the emulator answers: loopback names only (and those its starter allowed), so
// that a page whose DNS name is re-bound to 127.0.0.1 cannot read `/_emulator/credentials` or drive
// the API from a browser (DNS rebinding).
import { isLoopbackHost } from '../../src/control-plane/base-url.ts'
import type { Reply } from '../http/io.ts'

/** A Host header: a name or an address, an optional port; nothing else. */
const HOST_SYNTAX = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/

/** The host name of a Host header (lowercase, IPv6 without brackets), or null when malformed. */
function hostnameOf(header: string): string | null {
  if (!HOST_SYNTAX.test(header)) return null
  try {
    return new URL(`http://${header}/`).hostname.toLowerCase()
  } catch {
    return null
  }
}

/** Normalises `--allow-host` values as Host headers name them. */
export function allowedHostnames(hosts: readonly string[] = []): Set<string> {
  const out = new Set<string>()
  for (const h of hosts) {
    const name = hostnameOf(h.includes(':') && !h.startsWith('[') ? `[${h}]` : h)
    if (name === null)
      throw new Error(`invalid allowed host '${h}': give a host name or an address`)
    out.add(name)
  }
  return out
}

/** 421 naming the Host and the way to allow it, or null when the Host may be answered. */
export function refuseHost(header: string | undefined, allowed: ReadonlySet<string>): Reply | null {
  const name = header === undefined ? null : hostnameOf(header)
  if (name !== null && (isLoopbackHost(name) || allowed.has(name))) return null
  const shown = header === undefined ? 'no Host header' : `Host '${header.slice(0, 100)}'`
  return {
    status: 421,
    body: {
      detail: `The emulator answers only requests addressed to a loopback host (localhost, 127.0.0.0/8, [::1]): ${shown} is refused, as a DNS-rebinding page would send it. Start the emulator with --allow-host <name> (allowedHosts) to answer another name.`
    }
  }
}

/** A Content-Type header's media type, lower case, without parameters. */
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase()

/**
 * 403 for an admin request that a web page could have sent (the admin API has no key), or null.
 * A browser sends a cross-site "simple" request (a form, `fetch(..., {mode: 'no-cors'})`) without
 * asking first, but only with a form's or text's content type: so every admin request that is not
 * a GET must be `Content-Type: application/json`, which a page can send only after a preflight the
 * emulator never answers. And what a browser says of the request's origin must be the emulator
 * itself: `Sec-Fetch-Site` `same-origin` or `none` (typed in), an `Origin` on the Host it asked.
 */
export function refuseCrossSite(
  method: string,
  headers: Record<string, string | string[] | undefined>
): Reply | null {
  const refuse = (why: string): Reply => ({
    status: 403,
    body: {
      detail: `The admin API refuses ${why}, as a web page could send it. Send Content-Type: application/json, from a script (curl, fetch in Node), not a browser page.`
    }
  })
  const site = headers['sec-fetch-site']
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none')
    return refuse(`a ${site.slice(0, 40)} request (Sec-Fetch-Site)`)
  const origin = headers.origin
  if (typeof origin === 'string' && !sameOrigin(origin, headers.host))
    return refuse(`a request from another origin (Origin: ${origin.slice(0, 100)})`)
  if (
    method !== 'GET' &&
    method !== 'HEAD' &&
    mediaType(headers['content-type'] as string | undefined) !== 'application/json'
  )
    return refuse(`a ${method} without Content-Type: application/json`)
  return null
}

/** Whether an Origin header names the host (and port) that the request was addressed to. */
function sameOrigin(origin: string, host: string | string[] | undefined): boolean {
  if (typeof host !== 'string') return false
  try {
    return new URL(origin).host === new URL(`http://${host}/`).host
  } catch {
    return false
  }
}
