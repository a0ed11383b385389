// Text from a file being imported (names, titles, table names) is printed to the operator's
// terminal. Control characters there are commands, not text: ESC starts sequences that move the
// cursor, rewrite the title or set the clipboard (OSC 52), and bidi controls make a line read
// differently from its bytes. They are removed from every line the import commands print.

/** C0 controls but tab and line feed, DEL, C1 controls, and the bidi embeddings and isolates. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** The line without terminal control and bidi characters (line feeds kept). */
export const terminalSafe = (line: string): string => line.replace(UNSAFE, '')

/** A value printed inside a line: additionally on one line. */
export const oneLine = (value: string): string => terminalSafe(value).replace(/[\n\t]+/g, ' ')
