/**
 * A form field holding a JSON value, edited as YAML or JSON text in CodeMirror. The text is
 * the field's own state; the parent gets the parsed value (and whether the text parses).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { CodeEditor } from '@renderer/components/code-editor';
import { isPlainObject, parseText, sameJson, toText, type TextFormat } from './text';

export interface StructuredFieldProps {
  label: string;
  value: unknown;
  onChange: (value: unknown, valid: boolean) => void;
  format: TextFormat;
  hint?: string;
  /** Server messages about this field. */
  errors?: string[];
  /** Checks the parsed value's shape; returns a message when it is wrong. */
  check?: (value: unknown) => string | null;
  minLines?: number;
  readOnly?: boolean;
  testId?: string;
}

export function StructuredField(props: StructuredFieldProps): React.JSX.Element {
  const id = useId();
  const [text, setText] = useState(() => toText(props.value, props.format));
  const [syntax, setSyntax] = useState<string | null>(null);
  const lastValue = useRef<unknown>(props.value);
  const { value, format } = props;
  // A value changed from outside (a reset, a load, another view) replaces the text.
  useEffect(() => {
    if (!sameJson(value, lastValue.current)) {
      lastValue.current = value;
      setText(toText(value, format));
      setSyntax(null);
    }
  }, [value, format]);
  const [shownFormat, setShownFormat] = useState(format);
  if (shownFormat !== format) {
    setShownFormat(format);
    if (syntax === null) setText(toText(value, format));
  }
  const errors = [...(syntax ? [syntax] : []), ...(props.errors ?? [])];
  const describedBy = [props.hint ? `${id}-hint` : '', errors.length ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <span className="field-label" id={`${id}-label`}>
        {props.label} <span className="muted format-tag">{format.toUpperCase()}</span>
      </span>
      <CodeEditor
        value={text}
        language={format}
        label={props.label}
        invalid={errors.length > 0}
        {...(describedBy ? { describedBy } : {})}
        {...(props.minLines ? { minLines: props.minLines } : {})}
        {...(props.readOnly ? { readOnly: true } : {})}
        {...(props.testId ? { testId: props.testId } : {})}
        onChange={(next) => {
          setText(next);
          const parsed = parseText(next, format);
          if (!parsed.ok) {
            setSyntax(`Syntax: ${parsed.message}`);
            props.onChange(lastValue.current, false);
            return;
          }
          const problem = props.check?.(parsed.value) ?? null;
          setSyntax(problem);
          lastValue.current = parsed.value;
          props.onChange(parsed.value, problem === null);
        }}
      />
      {props.hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      {errors.length ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {errors.join(' · ')}
        </span>
      ) : null}
    </div>
  );
}

/** A structured field whose value must be a mapping: `onChange` gets only mappings. */
export function MappingField(
  props: Omit<StructuredFieldProps, 'check' | 'onChange'> & {
    /** Shown when the parsed value is not a mapping. */
    notMapping: string;
    onChange: (value: Record<string, unknown>) => void;
    /** Whether the text parses to a mapping, after every edit. */
    onValidity: (valid: boolean) => void;
  },
): React.JSX.Element {
  const { notMapping, onChange, onValidity, ...field } = props;
  return (
    <StructuredField
      {...field}
      check={(v) => (isPlainObject(v) ? null : notMapping)}
      onChange={(v, ok) => {
        onValidity(ok);
        if (ok && isPlainObject(v)) onChange(v);
      }}
    />
  );
}
