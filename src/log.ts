// How a run speaks to the job log: the entry layer maps it onto the runner; the deploy and the
// health checks below it write through it.
export interface FlowLog {
  info(line: string): void
  warning(line: string, title?: string): void
  /** A fact worth an annotation that is not a problem (nothing to delete, say). */
  notice(line: string, title?: string): void
  group<T>(name: string, fn: () => Promise<T>): Promise<T>
}
