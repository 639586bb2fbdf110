// Two names of one commit: a full SHA and a short one (the service may report either) are the same
// commit when one begins with the other.
export function sameCommit(a: string, b: string): boolean {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  return x.startsWith(y) || y.startsWith(x)
}
