// The tar format the archive is written in: POSIX ustar headers, with a pax extended header
// (typeflag `x`, named `././@PaxHeader` as Python's tarfile names it) before a member whose name is
// longer than 100 bytes or not ASCII, or whose size does not fit 11 octal digits. Every field that
// could differ between machines is fixed: mtime (FIXED_MTIME), uid/gid 0, empty user and group
// names, mode 0644 (0755 when the file is executable). GNU tar, bsdtar, Python's tarfile and
// node-tar read it.
const BLOCK = 512
const RECORD = 10240

/** 2000-01-01T00:00:00Z: after 1980, which zip-based wheel builds need of a file's time. */
export const FIXED_MTIME = 946_684_800

/** The largest size the ustar field holds (11 octal digits). */
const MAX_USTAR_SIZE = 0o77777777777

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0'
}

interface HeaderFields {
  name: string
  mode: number
  size: number
  typeflag: string
}

/** One 512-byte ustar header. `name` must be ASCII and at most 100 bytes. */
function ustarHeader(f: HeaderFields): Buffer {
  const h = Buffer.alloc(BLOCK)
  h.write(f.name, 0, 100, 'latin1')
  h.write(octal(f.mode, 8), 100, 'latin1')
  h.write(octal(0, 8), 108, 'latin1') // uid
  h.write(octal(0, 8), 116, 'latin1') // gid
  h.write(octal(f.size, 12), 124, 'latin1')
  h.write(octal(FIXED_MTIME, 12), 136, 'latin1')
  h.write('        ', 148, 'latin1') // the checksum counts as spaces
  h.write(f.typeflag, 156, 'latin1')
  h.write('ustar\u000000', 257, 'latin1')
  h.write(octal(0, 8), 329, 'latin1') // devmajor
  h.write(octal(0, 8), 337, 'latin1') // devminor
  let sum = 0
  for (const byte of h) sum += byte
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1')
  return h
}

/** A pax record `"<len> <key>=<value>\n"`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`
  const bodyBytes = Buffer.byteLength(body)
  let len = bodyBytes + 1
  while (String(len).length + bodyBytes !== len) len = String(len).length + bodyBytes
  return Buffer.from(`${len}${body}`)
}

/** One block of zeros, shared: padding is a view of it, not a new Buffer per member. */
const ZEROS = Buffer.alloc(BLOCK)

/** The zeros that fill the last block of a member of `size` bytes: a shared view, never written. */
export function padding(size: number): Buffer {
  const rest = size % BLOCK
  return ZEROS.subarray(0, rest === 0 ? 0 : BLOCK - rest)
}

/** The header (with its pax header when one is needed) of a regular file member. */
export function fileHeader(name: string, size: number, executable: boolean): Buffer {
  const mode = executable ? 0o755 : 0o644
  const records: Buffer[] = []
  const nameBytes = Buffer.byteLength(name)
  const ascii = /^[\x20-\x7e]*$/.test(name)
  if (nameBytes > 100 || !ascii) records.push(paxRecord('path', name))
  if (size > MAX_USTAR_SIZE) records.push(paxRecord('size', String(size)))
  const header = ustarHeader({
    name: name.replace(/[^\x20-\x7e]/g, '_').slice(0, 100),
    mode,
    size: size > MAX_USTAR_SIZE ? 0 : size,
    typeflag: '0'
  })
  if (records.length === 0) return header
  const pax = Buffer.concat(records)
  const paxHeader = ustarHeader({
    name: '././@PaxHeader',
    mode: 0o644,
    size: pax.length,
    typeflag: 'x'
  })
  return Buffer.concat([paxHeader, pax, padding(pax.length), header])
}

/** The end of an archive: two zero blocks, then zeros to a whole record as GNU and Python write. */
export function endOfArchive(bytesWritten: number): Buffer {
  const end = bytesWritten + 2 * BLOCK
  const rest = end % RECORD
  return Buffer.alloc(2 * BLOCK + (rest === 0 ? 0 : RECORD - rest))
}
