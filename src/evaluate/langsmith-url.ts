// Where the LangSmith API is: `langsmith-api-url`, or the hosted one of the control plane's region
// (`eu.api.host...` -> `eu.api.smith...`); a self-hosted control plane needs it set. And the web
// app that belongs to it, which `evaluation-url` links.

export const US_API = 'https://api.smith.langchain.com'
export const EU_API = 'https://eu.api.smith.langchain.com'

const HOSTED_CONTROL_PLANE = /^(?:(eu)\.)?api\.host\.langchain\.com$/
const HOSTED_API = /^(?:(eu)\.)?api\.smith\.langchain\.com$/

/** The LangSmith API of a run: the input, else the region's; undefined when it cannot be known. */
export function langsmithApiOf(given: string | undefined, baseUrl: string): string | undefined {
  if (given !== undefined) return given.replace(/\/+$/, '')
  const host = URL.parse(baseUrl)?.hostname.toLowerCase().replace(/\.$/, '') ?? ''
  const m = HOSTED_CONTROL_PLANE.exec(host) ?? HOSTED_API.exec(host)
  if (!m) return undefined
  return m[1] === 'eu' ? EU_API : US_API
}

/** The web app of a LangSmith API: the hosted one's, else the API's own origin (self-hosted). */
export function webAppOfApi(apiUrl: string): string {
  const url = URL.parse(apiUrl)
  if (!url) return apiUrl
  const m = HOSTED_API.exec(url.hostname.toLowerCase().replace(/\.$/, ''))
  if (m) return m[1] === 'eu' ? 'https://eu.smith.langchain.com' : 'https://smith.langchain.com'
  return url.origin
}

/** The web app's page of an experiment: the dataset's comparison view with it selected. */
export function experimentUrl(
  apiUrl: string,
  e: { tenantId?: string | undefined; datasetId: string; experimentId: string }
): string {
  const org = e.tenantId ? `/o/${encodeURIComponent(e.tenantId)}` : ''
  return `${webAppOfApi(apiUrl)}${org}/datasets/${encodeURIComponent(e.datasetId)}/compare?selectedSessions=${encodeURIComponent(e.experimentId)}`
}
