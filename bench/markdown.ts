// Markdown tables, padded so that they also read well in a terminal.

export type Cell = string | number

export function table(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cells = [headers, ...rows].map(r => r.map(c => String(c)))
  const widths = headers.map((_, i) => Math.max(3, ...cells.map(r => (r[i] ?? '').length)))
  const line = (r: readonly string[]) =>
    `| ${widths.map((w, i) => (r[i] ?? '').padEnd(w)).join(' | ')} |`
  const rule = `| ${widths.map(w => '-'.repeat(w)).join(' | ')} |`
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join('\n')
}

/** A report section: a heading, optional text, then the blocks (tables or paragraphs). */
export interface Section {
  title: string
  blocks: string[]
}

export function render(section: Section): string {
  return [`## ${section.title}`, ...section.blocks].join('\n\n')
}
