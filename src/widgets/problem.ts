/**
 * One thing wrong with a widget bundle. `path` is a JSON pointer into widget.json when it starts with '/',
 * otherwise a folder-relative file path ('widget.json', 'index.html', 'tools/add.js').
 */
export interface WidgetProblem {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}
