// Gzip tarballs for the upload tests, written here byte by byte (ustar headers; a PAX header for a
// long path), so that the emulator's reader is checked against the format, not against itself.
import { gzipSync } from 'node:zlib'

export interface Member {
  path: string
  content?: string
  /** `0` file (default), `2` symlink, `5` directory. */
  type?: '0' | '2' | '5'
  linkTo?: string
}

function header(name: string, size: number, type: string, linkTo = ''): Buffer {
  const h = Buffer.alloc(512)
  const put = (value: string, at: number, length: number) => h.write(value, at, length, 'utf8')
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0')
  put(name, 0, 100)
  put(octal(0o644, 8), 100, 8)
  put(octal(0, 8), 108, 8)
  put(octal(0, 8), 116, 8)
  put(octal(size, 12), 124, 12)
  put(octal(0, 12), 136, 12)
  put('        ', 148, 8)
  put(type, 156, 1)
  put(linkTo, 157, 100)
  put('ustar\u000000', 257, 8)
  let sum = 0
  for (const b of h) sum += b
  put(`${octal(sum, 7)}\0`, 148, 8)
  return h
}

const padded = (data: Buffer) =>
  Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)])

function pax(path: string): Buffer {
  const body = (n: number) => `${n} path=${path}\n`
  let n = body(0).length
  while (body(n).length !== n) n = body(n).length
  const data = Buffer.from(body(n))
  return Buffer.concat([header('PaxHeader', data.length, 'x'), padded(data)])
}

/** A tar of the members (a path over 100 bytes gets a PAX header), gzipped. */
export function tarball(members: Member[]): Buffer {
  const blocks: Buffer[] = []
  for (const m of members) {
    const data = Buffer.from(m.content ?? '')
    const type = m.type ?? '0'
    if (Buffer.byteLength(m.path) > 100) blocks.push(pax(m.path))
    blocks.push(header(m.path.slice(0, 100), type === '0' ? data.length : 0, type, m.linkTo))
    if (type === '0') blocks.push(padded(data))
  }
  blocks.push(Buffer.alloc(1024))
  return gzipSync(Buffer.concat(blocks))
}

/** A LangGraph project whose config declares these graphs. */
export function project(graphs: string[], configPath = 'langgraph.json'): Buffer {
  const config = {
    dependencies: ['.'],
    graphs: Object.fromEntries(graphs.map(g => [g, `./agent.py:${g}`]))
  }
  return tarball([
    { path: configPath, content: JSON.stringify(config) },
    { path: 'agent.py', content: 'graph = None\n' }
  ])
}
