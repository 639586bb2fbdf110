// The source archive of an upload deploy (`source: internal_source`): the workspace's LangGraph
// project as a deterministic gzip'd tar, written to a temporary file while it is hashed, so that
// its size and digest are known before any request and it is never held in memory.
//
//   const archive = await buildArchive({ workspace: '/w', graphConfigPath: 'langgraph.json' })
//   archive.configPath  // `langgraph_config_path` for the PATCH
//   archive.file        // the .tar.gz on disk; archive.size bytes; archive.digest 'sha256:<hex>'
//   archive.files       // the member names, sorted; archive.warnings: strings to log
//   ... PUT it (put.ts) ...
//   await archive.cleanup()
//
// Which files: root.ts (the root, the config's path) and file-set.ts (the LangGraph CLI's rules).
// The bytes: tar.ts (fixed owners, times and modes) and gzip.ts (no timestamp). Refused with an
// ArchiveError before any request: the config missing or outside the workspace, the config left
// out by an ignore file, an archive over MAX_ARCHIVE_BYTES (the build stops as soon as it passes).
// Over WARN_ARCHIVE_BYTES a warning (the service's limits, as both LangGraph CLIs have them).
// Cancelled by `signal` (an AbortError), it leaves nothing behind. Same files, same bytes, on any
// machine with the same Node.js: the deflate bytes are those of the zlib Node carries.
import { createHash } from 'node:crypto'
import { constants, mkdtemp, open, rm, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Transform } from 'node:stream'
import { createDeflateRaw } from 'node:zlib'
import { ArchiveError } from './errors.ts'
import { selectFiles, type FileEntry, type SkippedEntry } from './file-set.ts'
import { GZIP_HEADER, GzipTrailer } from './gzip.ts'
import { ReusedBuffers } from './reused-buffers.ts'
import { resolveArchiveRoot, type RootOptions } from './root.ts'
import { endOfArchive, fileHeader, padding } from './tar.ts'

/** 200 MiB: the upload URL's content-length range; larger archives are refused. */
export const MAX_ARCHIVE_BYTES = 200 * 1024 * 1024
/** 50 MiB: larger archives are sent with a warning. */
export const WARN_ARCHIVE_BYTES = 50 * 1024 * 1024
/** The gzip level: zlib's default, as `tar -czf` and the CLIs use. */
const LEVEL = 6
/** The most of one file read at once. */
const CHUNK = 256 * 1024

export interface ArchiveOptions extends RootOptions {
  /** Where the temporary directory goes; the system's by default. */
  tempDir?: string
  signal?: AbortSignal
}

export interface BuiltArchive {
  /** The .tar.gz file, in a temporary directory that cleanup() removes. */
  file: string
  /** Its size in bytes. */
  size: number
  /** `sha256:<hex>` of its bytes: the `source-digest` output. */
  digest: string
  /** The member names, sorted (the archive's order). */
  files: string[]
  /** Left out though no ignore rule named them: symlinks, repeated hard links, special files. */
  skipped: SkippedEntry[]
  /** The absolute root the archive was taken from. */
  root: string
  /** The config's path inside the archive: `langgraph_config_path`. */
  configPath: string
  /** Lines for the log (the size warning). */
  warnings: string[]
  cleanup(): Promise<void>
}

function mib(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`
}

/**
 * The tar bytes on their way to deflate, gathered into CHUNK-sized blocks of two reused buffers:
 * file data is read straight into them, headers copied in. Few large deflate calls instead of one
 * or more per file (a 30 KB file would otherwise be its own trip to zlib's thread).
 */
class TarBlocks {
  readonly #pair = new ReusedBuffers(CHUNK)
  readonly #deflate: Transform
  readonly #trailer: GzipTrailer
  #buf: Buffer | undefined
  #used = 0

  constructor(deflate: Transform, trailer: GzipTrailer) {
    this.#deflate = deflate
    this.#trailer = trailer
  }

  async #space(): Promise<Buffer> {
    if (!this.#buf) {
      this.#buf = await this.#pair.next()
      this.#used = 0
    }
    return this.#buf
  }

  #flushIfFull(): void {
    if (this.#used === this.#buf!.length) this.#flush()
  }

  #flush(): void {
    if (!this.#buf || this.#used === 0) return
    const view = this.#buf.subarray(0, this.#used)
    this.#trailer.update(view)
    this.#pair.write(view, (bytes, done) => this.#deflate.write(bytes, done))
    this.#buf = undefined
  }

  async copy(bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length;) {
      const buf = await this.#space()
      const n = bytes.copy(buf, this.#used, at)
      this.#used += n
      at += n
      this.#flushIfFull()
    }
  }

  /** Exactly `size` bytes of `fh`; a file that became shorter since its stat is an error. */
  async read(fh: FileHandle, size: number, name: string): Promise<void> {
    for (let left = size; left > 0;) {
      const buf = await this.#space()
      const want = Math.min(buf.length - this.#used, left)
      const { bytesRead } = await fh.read(buf, this.#used, want, null)
      if (bytesRead === 0) throw new ArchiveError(`${name} became shorter while it was archived.`)
      this.#used += bytesRead
      left -= bytesRead
      this.#flushIfFull()
    }
  }

  async end(): Promise<void> {
    this.#flush()
    await this.#pair.drain()
    this.#deflate.end()
  }
}

/** Writes the tar of `files` into `deflate`. */
async function writeTar(
  files: FileEntry[],
  deflate: Transform,
  trailer: GzipTrailer,
  signal?: AbortSignal
) {
  const out = new TarBlocks(deflate, trailer)
  let written = 0
  for (const f of files) {
    signal?.throwIfAborted()
    // O_NOFOLLOW: a file swapped for a symlink since the walk is refused, not followed.
    const fh = await open(f.path, constants.O_RDONLY | constants.O_NOFOLLOW)
    try {
      const info = await fh.stat()
      if (!info.isFile()) throw new ArchiveError(`${f.name} changed while it was archived.`)
      const header = fileHeader(f.name, info.size, (info.mode & 0o111) !== 0)
      await out.copy(header)
      await out.read(fh, info.size, f.name)
      const pad = padding(info.size)
      await out.copy(pad)
      written += header.length + info.size + pad.length
    } finally {
      await fh.close()
    }
  }
  await out.copy(endOfArchive(written))
  await out.end()
}

/** Writes the gzip bytes to `file`, hashing and counting them; refuses past the limit. */
async function writeGzip(deflate: Transform, trailer: GzipTrailer, file: string) {
  const out = await open(file, 'w')
  const result = { size: 0, hash: createHash('sha256') }
  const put = async (chunk: Buffer) => {
    result.size += chunk.length
    if (result.size > MAX_ARCHIVE_BYTES)
      throw new ArchiveError(
        `The source archive is larger than ${mib(MAX_ARCHIVE_BYTES)}, the upload limit: leave large files out with .dockerignore or .gitignore (model weights, data sets).`
      )
    result.hash.update(chunk)
    await out.write(chunk)
  }
  try {
    await put(GZIP_HEADER)
    for await (const chunk of deflate) await put(chunk as Buffer)
    await put(trailer.bytes())
  } finally {
    await out.close()
  }
  return result
}

/** The tar, deflated, framed as gzip, into `file`: both ends run at once, either one's error stops both. */
async function writeArchive(files: FileEntry[], file: string, signal?: AbortSignal) {
  const deflate = createDeflateRaw({ level: LEVEL, chunkSize: 128 * 1024 })
  const trailer = new GzipTrailer()
  // The first error is the cause; the other end then fails only because the stream was destroyed.
  let first: { err: unknown } | undefined
  const stop = (err: unknown) => {
    first ??= { err }
    deflate.destroy()
    throw err
  }
  const [, gzip] = await Promise.allSettled([
    writeTar(files, deflate, trailer, signal).catch(stop),
    writeGzip(deflate, trailer, file).catch(stop)
  ])
  if (first) throw first.err
  if (gzip.status === 'rejected') throw gzip.reason
  return gzip.value
}

/** Builds the archive of the workspace's project into a temporary file. */
export async function buildArchive(o: ArchiveOptions): Promise<BuiltArchive> {
  const where = await resolveArchiveRoot(o)
  const set = await selectFiles(where.included)
  const files = set.files.map(f => f.name)
  if (!files.includes(where.configPath))
    throw new ArchiveError(
      `${o.inputName ?? 'graph-config-path'}: '${o.graphConfigPath}' is left out of the archive by an ignore file (.dockerignore or .gitignore); the config must be in it.`
    )
  const dir = await mkdtemp(join(o.tempDir ?? tmpdir(), 'control-plane-deploy-upload-'))
  const cleanup = () => rm(dir, { recursive: true, force: true })
  const file = join(dir, 'source.tar.gz')
  let result: { size: number; hash: ReturnType<typeof createHash> }
  try {
    result = await writeArchive(set.files, file, o.signal)
  } catch (err) {
    await cleanup()
    throw err
  }
  const warnings =
    result.size > WARN_ARCHIVE_BYTES
      ? [
          `The source archive is ${mib(result.size)} (over ${mib(WARN_ARCHIVE_BYTES)}): consider leaving large files out with .dockerignore or .gitignore.`
        ]
      : []
  return {
    file,
    size: result.size,
    digest: `sha256:${result.hash.digest('hex')}`,
    files,
    skipped: set.skipped,
    root: where.root,
    configPath: where.configPath,
    warnings,
    cleanup
  }
}
