// `POST /runs/multipart` as the official client sends it: form-data parts named `post.<id>` (the
// run), `post.<id>.<field>` (inputs, outputs, extra, error, events, serialized), the same for
// `patch.`, `feedback.<id>`, and `attachment.<id>.<name>` (kept by the service; dropped here).

export interface Part {
  name: string
  data: Buffer
}

/** The parts of a multipart/form-data body, or null when it is not one. */
export function parseMultipart(raw: Buffer, contentType: string | undefined): Part[] | null {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType ?? '')?.[2]
  if (!boundary || !/^multipart\/form-data/i.test(contentType ?? '')) return null
  const delimiter = Buffer.from(`--${boundary}`)
  const parts: Part[] = []
  let at = raw.indexOf(delimiter)
  while (at >= 0) {
    const start = at + delimiter.length
    if (raw.subarray(start, start + 2).toString() === '--') return parts
    const next = raw.indexOf(delimiter, start)
    if (next < 0) return null
    const part = raw.subarray(start + 2, next - 2)
    const split = part.indexOf('\r\n\r\n')
    if (split < 0) return null
    const headers = part.subarray(0, split).toString('utf8')
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1]
    if (name === undefined) return null
    parts.push({ name, data: part.subarray(split + 4) })
    at = next
  }
  return null
}

export interface Ingest {
  post: Record<string, unknown>[]
  patch: Record<string, unknown>[]
  feedback: Record<string, unknown>[]
}

/** The runs and feedback the parts carry, each run with its fields put back in; or an error. */
export function ingestOf(parts: Part[]): Ingest | { error: string } {
  const runs = { post: new Map<string, Record<string, unknown>>(), patch: new Map() }
  const feedback: Record<string, unknown>[] = []
  for (const { name, data } of parts) {
    const [kind = '', id = '', field] = name.split('.')
    if (kind === 'attachment') continue
    let value: unknown
    try {
      value = JSON.parse(data.toString('utf8'))
    } catch {
      return { error: `The part ${name} is not JSON.` }
    }
    if (kind === 'feedback') {
      feedback.push(value as Record<string, unknown>)
      continue
    }
    if (kind !== 'post' && kind !== 'patch') return { error: `Unknown part ${name}.` }
    const run = runs[kind].get(id) ?? { id }
    if (field === undefined) Object.assign(run, value)
    else run[field] = value
    runs[kind].set(id, run)
  }
  return { post: [...runs.post.values()], patch: [...runs.patch.values()], feedback }
}
