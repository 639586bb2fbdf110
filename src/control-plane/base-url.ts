// Where the API key may be sent: https anywhere, plain http only to this machine (the emulator, an
// agent server on the runner). The control plane and the health probes share this rule.
import { isIP } from 'node:net'

/** Whether a URL's hostname names this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host === '::1') return true
  // WHATWG URL parsing already turned short and hex forms (127.1, 0x7f.1) into dotted quads.
  return isIP(host) === 4 && host.startsWith('127.')
}

/** Whether a URL (`base-url`) names this machine; false for anything that is not a URL. */
export function isLoopbackUrl(text: string): boolean {
  const url = URL.parse(text)
  return url !== null && isLoopbackHost(url.hostname)
}

/** Why a base URL may not carry the key, or undefined when it may. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  const url = URL.parse(baseUrl)
  if (!url) return 'the base URL is not a URL'
  if (url.username || url.password)
    return 'the base URL must not carry credentials (user:password@): the key goes in its own header'
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined
  return url.protocol === 'http:'
    ? `plain http is refused for ${url.hostname}: the API key would travel unencrypted (use https; http only for localhost, 127.0.0.0/8 and [::1])`
    : `the ${url.protocol} scheme is not supported (use https; http only for localhost, 127.0.0.0/8 and [::1])`
}
