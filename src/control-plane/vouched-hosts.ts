// Which hosts the health probes may send the API key to. A host is compared as the URL parser
// reads it (lowercase, IDNA to punycode, IPv4 forms to dotted quads) with one trailing dot
// dropped, so two spellings of one name are one host. `*.example.com` matches names below
// example.com at any depth, never example.com itself nor `evil-example.com`. An entry with a
// port matches that port only; without one, any port of that host. A `*.` pattern must stay inside
// one registrable domain (public-suffixes.ts: `*.github.io` is refused). Loopback is vouched for only
// by LOOPBACK, which the health gate adds when `base-url` is itself a loopback address. In the
// langsmith dialect, deploymentHost() vouches for the one host the service gives the deployment.
import { domainToUnicode } from 'node:url'
import { isIP } from 'node:net'
import { isLoopbackHost } from './base-url.ts'
import { broaderThanOneDomain } from './public-suffixes.ts'

export interface HostPattern {
  /** Lowercase ASCII (punycode), without a trailing dot; IPv6 in brackets. */
  host: string
  /** `*.host`: the names below host, not host itself. */
  wildcard: boolean
  /** Only this port ('443'), or any port when undefined. */
  port?: string
  /** As written, for messages. */
  text: string
  /** Any loopback address (LOOPBACK), whatever `host` says. */
  loopback?: true
}

/**
 * Any loopback address: vouched for only when the control plane itself is on this machine
 * (`base-url` is loopback). A remote control plane's answer naming `127.0.0.1:<port>` would
 * otherwise pick a runner port to send the key to.
 */
export const LOOPBACK: HostPattern = {
  host: 'localhost',
  wildcard: false,
  loopback: true,
  text: 'a loopback address, as base-url is'
}

/** A deployment as the control plane reported it: its name, and its agent server's URL. */
export interface ReportedDeployment {
  name: string | null | undefined
  url: string | null | undefined
}

/** `<name>-<hash>.<region>.langgraph.app`: where the service hosts a deployment's agent server. */
const SERVICE_HOST = /^([a-z0-9-]+)-([a-z0-9]+)\.([a-z0-9-]+)\.langgraph\.app$/

/**
 * The deployment's own agent server host, when the reported URL has the service's shape (its name
 * in it): that host alone, never another `*.langgraph.app`, whose server may be anyone's.
 */
export function deploymentHost(d: ReportedDeployment): HostPattern | undefined {
  const url = URL.parse(d.url ?? '')
  if (!d.name || !url) return undefined
  if (url.protocol !== 'https:' || url.username || url.password) return undefined
  const host = url.hostname.replace(/\.$/, '')
  const m = SERVICE_HOST.exec(host)
  if (!m || m[1] !== d.name.toLowerCase()) return undefined
  return {
    host,
    wildcard: false,
    port: url.port || '443',
    text: `${host}, the agent server host the control plane reported for deployment "${d.name}"`
  }
}

const ENTRY = /^(\*\.)?(\[[0-9a-fA-F:.]+\]|[^\s/\\@?#:[\]*%]+)(?::(\d{1,5}))?$/u

/** One entry of `health-check-hosts`, or why it is not one. */
export function parseHostPattern(entry: string): HostPattern | { problem: string } {
  // Anything but printable ASCII is shown escaped: the message cannot hide what was written.
  const quoted = JSON.stringify(entry).replace(
    /[^\x20-\x7e]/g,
    c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry))
    return { problem: `${quoted} is a URL: write its host only (agent.example.com)` }
  const m = ENTRY.exec(entry)
  if (!m)
    return {
      problem: `${quoted} is not a host name, *.domain pattern or IP address (with an optional :port)`
    }
  const [, star, written = '', port] = m
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535 || port.startsWith('0')))
    return { problem: `${quoted} has a port out of range (1 to 65535)` }
  const hostname = URL.parse(`https://${written}/`)?.hostname
  if (hostname === undefined) return { problem: `${quoted} is not a valid host name` }
  // Written as it is read: no fullwidth letters, invisible characters or short IPv4 forms that the
  // parser would quietly turn into another name.
  const ascii = [...written].every(c => c.charCodeAt(0) < 0x80)
  const asRead = ascii ? hostname : domainToUnicode(hostname)
  if (asRead !== written.normalize('NFC').toLowerCase())
    return {
      problem: `${quoted} reads as ${JSON.stringify(hostname)}: write the host as it is meant`
    }
  const host = hostname.replace(/\.$/, '')
  if (host.split('.').some(label => label === ''))
    return { problem: `${quoted} has an empty label` }
  if (star) {
    if (isIP(host.replace(/^\[|\]$/g, '')))
      return { problem: `${quoted}: a * pattern needs a domain name, not an IP address` }
    if (!host.includes('.'))
      return { problem: `${quoted} would match a whole top-level domain: name a domain under it` }
    const broad = broaderThanOneDomain(host)
    if (broad)
      return {
        problem: `${quoted} would match hosts of many owners (${broad}, on the Public Suffix List): name the agent server's host, or *.<a domain of your own>`
      }
  }
  return { host, wildcard: Boolean(star), ...(port ? { port } : {}), text: entry }
}

/** `health-check-hosts`: entries separated by commas or line breaks; empty entries ignored. */
export function parseHostPatterns(value: string): HostPattern[] | { problems: string[] } {
  const patterns: HostPattern[] = []
  const problems: string[] = []
  for (const raw of value.split(/[,\n\r]+/)) {
    const entry = raw.trim()
    if (!entry) continue
    const p = parseHostPattern(entry)
    if ('problem' in p) problems.push(p.problem)
    else patterns.push(p)
  }
  return problems.length ? { problems } : patterns
}

/** The host and port of a URL as patterns compare them. */
function hostOf(url: URL): { host: string; port: string } {
  const port =
    url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '')
  return { host: url.hostname.replace(/\.$/, ''), port }
}

/** Whether `url`'s host is one the pattern vouches for. */
export function matchesHost(p: HostPattern, url: URL): boolean {
  if (p.loopback) return isLoopbackHost(url.hostname)
  const { host, port } = hostOf(url)
  if (p.port !== undefined && p.port !== port) return false
  if (!p.wildcard) return host === p.host
  return host.length > p.host.length + 1 && host.endsWith(`.${p.host}`)
}

/** The exact host (and port) of a URL given as an input: only that origin's host. */
export function exactHost(urlText: string): HostPattern | undefined {
  const url = URL.parse(urlText)
  if (!url) return undefined
  const { host, port } = hostOf(url)
  return { host, wildcard: false, port, text: url.host }
}
