/**
 * A JSON or YAML editor (CodeMirror 6) with syntax checking. CodeMirror is large, so it is
 * loaded on first use (dynamic imports, a chunk of its own): the first paint never waits
 * for it, and a plain read-only <pre> stands in while it loads.
 */
import type { Compartment } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import './code-editor.css';

export type CodeLanguage = 'json' | 'yaml';

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  language: CodeLanguage;
  /** The accessible name of the editing area. */
  label: string;
  readOnly?: boolean;
  /** Marks the editor invalid (a syntax or server error is shown beside it). */
  invalid?: boolean;
  /** Ids of elements describing the editor (its error, its hint). */
  describedBy?: string;
  /** Minimum height in lines (defaults to 6). */
  minLines?: number;
  testId?: string;
}

type Modules = Awaited<ReturnType<typeof loadModules>>;

let modules: Promise<Modules> | undefined;

async function loadModules() {
  const [view, state, language, lint, autocomplete, json, yaml, yamlParser, highlight, commands] =
    await Promise.all([
      import('@codemirror/view'),
      import('@codemirror/state'),
      import('@codemirror/language'),
      import('@codemirror/lint'),
      import('@codemirror/autocomplete'),
      import('@codemirror/lang-json'),
      import('@codemirror/lang-yaml'),
      import('yaml'),
      import('@lezer/highlight'),
      import('@codemirror/commands'),
    ]);
  return { view, state, language, lint, autocomplete, json, yaml, yamlParser, highlight, commands };
}

function load(): Promise<Modules> {
  modules ??= loadModules();
  return modules;
}

/** Colours come from the app's tokens (code-editor.css), so both themes read well. */
function highlightStyle(m: Modules) {
  const t = m.highlight.tags;
  return m.language.HighlightStyle.define([
    { tag: [t.propertyName, t.definition(t.propertyName)], color: 'var(--cm-key)' },
    { tag: [t.string, t.special(t.string)], color: 'var(--cm-string)' },
    { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--cm-atom)' },
    { tag: [t.comment, t.meta], color: 'var(--cm-comment)', fontStyle: 'italic' },
    { tag: [t.keyword, t.typeName, t.labelName], color: 'var(--cm-keyword)' },
    { tag: [t.punctuation, t.separator, t.brace, t.squareBracket], color: 'var(--fg-muted)' },
    { tag: t.invalid, color: 'var(--danger)' },
  ]);
}

function yamlLinter(m: Modules) {
  return m.lint.linter((view) => {
    const text = view.state.doc.toString();
    const doc = m.yamlParser.parseDocument(text, { prettyErrors: false });
    const length = view.state.doc.length;
    return [...doc.errors, ...doc.warnings].map((error) => ({
      from: Math.min(error.pos[0], length),
      to: Math.min(Math.max(error.pos[1], error.pos[0]), length),
      severity: doc.errors.includes(error) ? ('error' as const) : ('warning' as const),
      message: error.message.split('\n')[0] ?? error.message,
    }));
  });
}

/** The parts that follow props without re-creating the editor (kept in a compartment). */
function attributes(m: Modules, props: CodeEditorProps) {
  const { view: v } = m;
  return [
    m.state.EditorState.readOnly.of(props.readOnly === true),
    v.EditorView.editable.of(props.readOnly !== true),
    v.EditorView.contentAttributes.of({
      'aria-label': props.label,
      'aria-multiline': 'true',
      ...(props.readOnly ? { 'aria-readonly': 'true' } : {}),
      ...(props.describedBy ? { 'aria-describedby': props.describedBy } : {}),
      ...(props.invalid ? { 'aria-invalid': 'true' } : {}),
    }),
  ];
}

function extensions(m: Modules, language: CodeLanguage, onDoc: (text: string) => void) {
  const { view: v, language: l } = m;
  const languageSupport =
    language === 'json'
      ? [m.json.json(), m.lint.linter(m.json.jsonParseLinter())]
      : [m.yaml.yaml(), yamlLinter(m)];
  return [
    v.lineNumbers(),
    v.highlightActiveLineGutter(),
    v.drawSelection(),
    v.highlightActiveLine(),
    l.indentOnInput(),
    l.bracketMatching(),
    l.foldGutter(),
    l.syntaxHighlighting(highlightStyle(m)),
    m.autocomplete.closeBrackets(),
    // Undo/redo and the standard editing keys. Tab is left to move focus (accessibility).
    m.commands.history(),
    v.keymap.of([
      ...m.autocomplete.closeBracketsKeymap,
      ...m.commands.defaultKeymap,
      ...m.commands.historyKeymap,
      ...l.foldKeymap,
    ]),
    m.lint.lintGutter(),
    l.indentUnit.of('  '),
    m.state.EditorState.tabSize.of(2),
    v.EditorView.lineWrapping,
    ...languageSupport,
    v.EditorView.updateListener.of((update) => {
      if (update.docChanged) onDoc(update.state.doc.toString());
    }),
  ];
}

export function CodeEditor(props: CodeEditorProps): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const [loaded, setLoaded] = useState<Modules | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // The latest callback, without re-creating the editor when the parent re-renders.
  const onChange = useRef(props.onChange);
  useEffect(() => {
    onChange.current = props.onChange;
  });

  useEffect(() => {
    let live = true;
    load().then(
      (m) => {
        if (live) setLoaded(m);
      },
      (error: unknown) => {
        if (live) setFailed(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const { language, readOnly, invalid, describedBy, label } = props;
  const compartment = useRef<Compartment | null>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  useEffect(() => {
    const parent = host.current;
    if (!loaded || !parent) return;
    const attrs = new loaded.state.Compartment();
    compartment.current = attrs;
    const created = new loaded.view.EditorView({
      parent,
      state: loaded.state.EditorState.create({
        doc: latest.current.value,
        extensions: [
          extensions(loaded, language, (text) => {
            onChange.current?.(text);
          }),
          attrs.of(attributes(loaded, latest.current)),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, [loaded, language]);

  useEffect(() => {
    const current = view.current;
    if (!loaded || !current || !compartment.current) return;
    current.dispatch({
      effects: compartment.current.reconfigure(
        attributes(loaded, { language, readOnly, invalid, describedBy, label, value: '' }),
      ),
    });
  }, [loaded, language, readOnly, invalid, describedBy, label]);

  useEffect(() => {
    const current = view.current;
    if (!current) return;
    const text = current.state.doc.toString();
    if (text !== props.value) {
      current.dispatch({ changes: { from: 0, to: text.length, insert: props.value } });
    }
  }, [props.value]);

  const style = { '--cm-min-lines': String(props.minLines ?? 6) } as React.CSSProperties;
  return (
    <div
      className={`code-editor${invalid ? ' invalid' : ''}`}
      style={style}
      data-testid={props.testId}
      data-language={language}
    >
      {loaded ? null : (
        <pre className="code-editor-fallback" aria-label={label} aria-busy="true">
          {failed ? `The editor could not load: ${failed}\n\n` : ''}
          {props.value}
        </pre>
      )}
      <div ref={host} className="code-editor-host" hidden={!loaded} />
    </div>
  );
}
