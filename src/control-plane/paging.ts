// Reading a limit/offset list to its end (no total: a short page is the last), with a bound: broken
// paging ends in a clear error, not in thousands of requests until the deadline.
import { EndlessListError, type RequestContext } from './errors.ts'

/** 20,000 entries, far more than a workspace holds (hundreds), read in seconds at 0.1 s a page. */
export const MAX_PAGES = 200

export interface Page<T> {
  resources: T[]
  /** The offset of the next page, as the service says. */
  offset: number
  /** Entries the page held but the model skipped (schema.ts): they count as the page's. */
  skipped?: readonly { id: string }[]
}

/** Every entry of a paged list, in order, each once; `what` names the list in the error. */
export async function* readAllPages<T extends { id: string }>(
  read: (offset: number) => Promise<Page<T>>,
  pageSize: number,
  ctx: RequestContext,
  what: string
): AsyncGenerator<T> {
  const seen = new Set<string>()
  let offset = 0
  for (let pages = 1; ; pages++) {
    const endless = (why: string) => new EndlessListError(ctx, what, pages, pageSize, why)
    const page = await read(offset)
    // An entry may move to the next page while we read: given once. A full page of entries already
    // given means the offset did not advance.
    const skipped = page.skipped ?? []
    const received = page.resources.length + skipped.length
    const fresh = page.resources.filter(r => !seen.has(r.id))
    const progress = fresh.length > 0 || skipped.some(r => !seen.has(r.id))
    if (received >= pageSize && !progress)
      throw endless(`page ${pages} held only ${what}s already read: the offset did not advance`)
    for (const r of [...fresh, ...skipped]) seen.add(r.id)
    yield* fresh
    if (received < pageSize) return
    if (pages >= MAX_PAGES)
      throw endless(
        `more than ${(MAX_PAGES * pageSize).toLocaleString('en-US')} ${what}s, the most this action reads`
      )
    // A service that echoes the requested offset would loop for ever: step past the page.
    offset = page.offset > offset ? page.offset : offset + received
  }
}
