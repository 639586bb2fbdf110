// A small reader of the gzip tarballs a remote build uploads (ustar, with the PAX and GNU long
// names that tar writers use for long paths). It reads members into memory views; it never writes
// to disk. A member that names an absolute path or a `..` segment makes the whole archive invalid,
// as an unpacker that refuses path traversal does; links are listed apart and never followed.
import { gunzipSync } from 'node:zlib'

/** The most a tarball may unpack to; a bigger one fails its build (a gzip bomb stays small). */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024

export interface Unpacked {
  /** Regular files by normalised path (`a/b.json`, no leading `./`). */
  files: Map<string, Buffer>
  /** Symlinks and hardlinks by path: present in the archive, but not files to read. */
  links: Set<string>
}

const BLOCK = 512

export class TarballError extends Error {}

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length)
  const end = field.indexOf(0)
  return field.subarray(0, end < 0 ? field.length : end).toString('utf8')
}

/** An octal field, or a base-256 one (the high bit set) for sizes over 8 GiB. */
function numeric(block: Buffer, start: number, length: number): number {
  const field = block.subarray(start, start + length)
  if (field[0]! & 0x80) {
    let n = field[0]! & 0x7f
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i]!
    return n
  }
  const digits = text(block, start, length).trim()
  if (digits === '') return 0
  if (!/^[0-7]+$/.test(digits)) throw new TarballError(`not a tar archive: bad number '${digits}'`)
  return parseInt(digits, 8)
}

function checksumOk(block: Buffer): boolean {
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!
  return sum === numeric(block, 148, 8)
}

/** PAX records `<len> <key>=<value>\n`; only `path` and `linkpath` matter here. */
function paxPath(data: Buffer): string | undefined {
  let path: string | undefined
  let i = 0
  while (i < data.length) {
    const space = data.indexOf(0x20, i)
    if (space < 0) break
    const length = Number(data.subarray(i, space).toString('utf8'))
    if (!Number.isInteger(length) || length <= 0) break
    const record = data.subarray(space + 1, i + length - 1).toString('utf8')
    const eq = record.indexOf('=')
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1)
    i += length
  }
  return path
}

/** `./a//b` -> `a/b`; throws for an absolute path or a `..` segment. */
export function memberPath(raw: string): string {
  if (raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw)) {
    throw new TarballError(`member '${raw}' has an absolute path`)
  }
  const parts = raw.split(/[\\/]+/).filter(p => p !== '' && p !== '.')
  if (parts.includes('..')) throw new TarballError(`member '${raw}' leaves the archive root (..)`)
  return parts.join('/')
}

/** Unpacks a gzip tarball in memory; throws TarballError when it is not one or is unsafe. */
export function unpackTarball(gzipped: Buffer): Unpacked {
  let tar: Buffer
  try {
    tar = gunzipSync(gzipped, { maxOutputLength: MAX_UNPACKED_BYTES })
  } catch (error) {
    const code = (error as { code?: string }).code
    throw new TarballError(
      code === 'ERR_BUFFER_TOO_LARGE'
        ? `it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MiB`
        : `not a gzip stream (${(error as Error).message})`
    )
  }
  if (tar.length < BLOCK) throw new TarballError('not a tar archive (shorter than one header)')
  const out: Unpacked = { files: new Map(), links: new Set() }
  let longName: string | undefined
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK)
    if (header.every(b => b === 0)) return out
    if (!checksumOk(header)) throw new TarballError(`not a tar archive (bad header at byte ${at})`)
    const size = numeric(header, 124, 12)
    const type = String.fromCharCode(header[156]!)
    const data = tar.subarray(at + BLOCK, at + BLOCK + size)
    if (data.length < size) throw new TarballError('the archive is truncated')
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK
    if (type === 'x') longName = paxPath(data) ?? longName
    else if (type === 'L') longName = data.toString('utf8').replace(/\0+$/, '')
    if (type === 'x' || type === 'L' || type === 'g' || type === 'K') continue
    const prefix = text(header, 257, 6).startsWith('ustar') ? text(header, 345, 155) : ''
    const name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100))
    longName = undefined
    const path = memberPath(name)
    if (type === '0' || type === '\0' || type === '7') out.files.set(path, data)
    else if (type === '1' || type === '2') out.links.add(path)
  }
  // No end-of-archive blocks: accepted, as GNU tar accepts it (with a warning).
  return out
}
