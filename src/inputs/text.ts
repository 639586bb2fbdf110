// Line helpers shared by the checks of multi-line inputs.

export const lines = (text: string): string[] => text.split(/\r\n|\n|\r/)

/** `line L, column C` of a character offset. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset)
  const line = lines(before).length
  const column = offset - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'))
  return `line ${line}, column ${column}`
}
