import { exportTable } from './csv';
import type { ExportDocument } from './export-model';
import { tsvField } from './exchange-text';

/**
 * The CSV's table, tab-separated with one line per item, for tools that read a line as a record
 * (grep, awk, cut, a shell loop): a line break or tab in a file name or note becomes a space, as
 * IANA's text/tab-separated-values has no quoting to carry them. Nothing is quoted, so a reader
 * takes every byte between tabs as the field (Python: csv with delimiter="\t", quoting=QUOTE_NONE).
 */
export function writeTsv(doc: ExportDocument): string {
  return exportTable(doc).map((r) => r.map(tsvField).join('\t')).join('\n') + '\n';
}
