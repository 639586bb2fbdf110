// Where the API key may be sent: https anywhere, plain http only to this machine (the emulator).

/** Hosts where plain `http:` is allowed: the local emulator, a test fake. */
const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname === '[::1]' ||
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)

/** Why a base URL may not carry the key, or undefined when it may. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return 'the base URL is not a URL'
  }
  if (url.username || url.password)
    return 'the base URL must not carry credentials (user:password@): the key goes in its own header'
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined
  return url.protocol === 'http:'
    ? `plain http is refused for ${url.hostname}: the API key would travel unencrypted (use https; http only for localhost, 127.0.0.0/8 and [::1])`
    : `the ${url.protocol} scheme is not supported (use https; http only for localhost, 127.0.0.0/8 and [::1])`
}
