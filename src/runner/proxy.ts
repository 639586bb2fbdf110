// The runner's proxy variables, read once by a door (lower case first, as the runner's tools read
// them); below the doors, requests take this value and read no variable.
export interface ProxyVariables {
  httpsProxy?: string
  httpProxy?: string
  noProxy?: string
}

/** The proxy variables of `env`; undefined when none is set. */
export function proxyVariables(env: NodeJS.ProcessEnv): ProxyVariables | undefined {
  const pick = (name: string) => env[name] || env[name.toUpperCase()] || undefined
  const vars: ProxyVariables = {
    httpsProxy: pick('https_proxy'),
    httpProxy: pick('http_proxy'),
    noProxy: pick('no_proxy')
  }
  for (const key of Object.keys(vars) as (keyof ProxyVariables)[])
    if (vars[key] === undefined) delete vars[key]
  return Object.keys(vars).length > 0 ? vars : undefined
}
