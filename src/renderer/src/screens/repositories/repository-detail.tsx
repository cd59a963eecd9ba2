/**
 * One repository: its suites (and the form that adds one as `debusine archive suite create`
 * does), then for the selected suite what apt needs and the packages it holds, and the
 * viewer tokens of the repository.
 */
import { ArrowRightLeft, KeyRound, Package, Plus, Search, Terminal, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { CheckField } from '@renderer/components/check-field';
import { ConfirmDialog } from '@renderer/components/confirm-dialog';
import { CopyButton } from '@renderer/components/copy-button';
import { SaveTextButton } from '@renderer/components/save-text-button';
import { EmptyState } from '@renderer/components/empty-state';
import { LoadingState } from '@renderer/components/loading-state';
import { TableHead } from '@renderer/components/table-head';
import { TabPanel, Tabs } from '@renderer/components/tabs';
import { problemOf } from '@renderer/kit/errors/problem';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import {
  KEY_WAIT_MS,
  repositoryMutations,
  repositoryQueries,
} from '@renderer/queries/repositories';
import type {
  GrantedViewerToken,
  RepositoryEntry,
  RepositoryPackage,
  RepositorySuite,
} from '@shared/contract';

type SuiteTab = 'apt' | 'packages';

export function RepositoryDetail(props: {
  repository: RepositoryEntry;
  onForgotten: () => void;
}): React.JSX.Element {
  const { repository } = props;
  const workspace = repository.workspace;
  const suites = useServerQuery((scope) => repositoryQueries.suites(scope, workspace), {
    enabled: repository.state === 'ready',
  });
  const [suite, setSuite] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [tab, setTab] = useState<SuiteTab>('apt');
  const forget = useMutationOf(repositoryMutations.forget, { onSuccess: props.onForgotten });
  const list = suites.data ?? [];
  const current = list.find((s) => s.name === suite) ?? list[0];

  return (
    <>
      <div className="pane-header">
        <h2 className="mono" title={workspace}>
          {workspace}
        </h2>
        <div className="pane-actions">
          <button
            type="button"
            className="button small"
            onClick={() => {
              forget.mutate({ workspace });
            }}
            title="Forget it here; the repository stays on the server"
          >
            Forget
          </button>
        </div>
      </div>
      <div className="pane-body stack">
        {repository.state === 'creating' ? (
          <LoadingState label={`Being made by workflow ${String(repository.workflowId)}…`} />
        ) : repository.state === 'failed' || repository.state === 'gone' ? (
          <ProblemBanner
            keep={false}
            problem={{
              code: repository.state,
              title: repository.message ?? 'It was not made',
              detail: null,
              fields: {},
            }}
            heading={
              repository.state === 'gone'
                ? 'The repository is gone: Forget takes it off this list'
                : 'The repository was not made'
            }
          />
        ) : suites.isPending ? (
          <LoadingState label="Loading suites…" />
        ) : suites.isError ? (
          <ProblemBanner
            keep={false}
            problem={problemOf(suites.error)}
            heading="Could not read its suites"
          />
        ) : (
          <>
            <div className="section-head">
              <h3 className="section-title">Suites</h3>
              <button
                type="button"
                className="button small"
                aria-expanded={adding}
                onClick={() => {
                  setAdding(!adding);
                }}
              >
                <Plus size={14} aria-hidden="true" />
                New suite
              </button>
            </div>
            {adding ? (
              <NewSuite
                workspace={workspace}
                onAdded={(added) => {
                  setAdding(false);
                  setSuite(added.name);
                }}
              />
            ) : null}
            {list.length === 0 ? (
              <EmptyState icon={Package} title="No suites">
                A suite (say, sid or bookworm-backports) is what apt names; packages are published
                to one.
              </EmptyState>
            ) : (
              <SuiteTable suites={list} selected={current?.name ?? null} onSelect={setSuite} />
            )}
            {current ? (
              <>
                <Tabs<SuiteTab>
                  label={`Suite ${current.name}`}
                  idPrefix="repository-suite"
                  tabs={[
                    {
                      id: 'apt',
                      label: 'Install with apt',
                      icon: <Terminal size={14} aria-hidden="true" />,
                    },
                    {
                      id: 'packages',
                      label: 'Packages',
                      icon: <Package size={14} aria-hidden="true" />,
                    },
                  ]}
                  selected={tab}
                  onSelect={setTab}
                />
                <TabPanel idPrefix="repository-suite" selected={tab}>
                  {tab === 'apt' ? (
                    <AptSetupView workspace={workspace} suite={current.name} key={current.name} />
                  ) : (
                    <Packages workspace={workspace} suite={current.name} key={current.name} />
                  )}
                </TabPanel>
              </>
            ) : null}
            {list.some((x) => x.publishTemplate !== null) ? (
              <PublishWithDput workspace={workspace} />
            ) : null}
            <ViewerTokens workspace={workspace} />
          </>
        )}
      </div>
    </>
  );
}

function SuiteTable(props: {
  suites: RepositorySuite[];
  selected: string | null;
  onSelect: (name: string) => void;
}): React.JSX.Element {
  return (
    <table className="table list-table" aria-label="Suites">
      <TableHead
        widths={[140, null, null, 170]}
        columns={['Suite', 'Components', 'Architectures', 'Publish with']}
      />
      <tbody>
        {props.suites.map((s) => (
          <tr key={s.name} aria-selected={s.name === props.selected}>
            <td>
              <button
                type="button"
                className="row-button mono"
                aria-current={s.name === props.selected ? 'true' : undefined}
                onClick={() => {
                  props.onSelect(s.name);
                }}
              >
                {s.name}
              </button>
            </td>
            <td className="mono muted">{s.components.join(' ')}</td>
            <td className="mono muted">{s.architectures.join(' ')}</td>
            <td className="mono muted">{s.publishTemplate ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewSuite(props: {
  workspace: string;
  onAdded: (suite: RepositorySuite) => void;
}): React.JSX.Element {
  const id = useId();
  const [name, setName] = useState('');
  const [architectures, setArchitectures] = useState('amd64');
  const [components, setComponents] = useState('main');
  const [base, setBase] = useState('upload-to-unstable');
  const add = useMutationOf(repositoryMutations.addSuite, { onSuccess: props.onAdded });
  const words = (text: string): string[] => text.split(/[\s,]+/).filter((w) => w !== '');
  return (
    <form
      className="repository-form"
      aria-label="New suite"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate({
          workspace: props.workspace,
          suite: name.trim(),
          architectures: words(architectures),
          components: words(components),
          baseTemplate: base.trim() === '' ? null : base.trim(),
        });
      }}
    >
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>Suite</label>
          <input
            id={`${id}-name`}
            className="input mono"
            required
            placeholder="sid"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
            }}
          />
          <span className="field-hint">What apt&apos;s Suites: line names.</span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-arch`}>Architectures</label>
          <input
            id={`${id}-arch`}
            className="input mono"
            required
            value={architectures}
            onChange={(e) => {
              setArchitectures(e.target.value);
            }}
          />
          <span className="field-hint">Built and published for these (and all).</span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-components`}>Components</label>
          <input
            id={`${id}-components`}
            className="input mono"
            value={components}
            onChange={(e) => {
              setComponents(e.target.value);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-base`}>Publish like</label>
          <input
            id={`${id}-base`}
            className="input mono"
            value={base}
            onChange={(e) => {
              setBase(e.target.value);
            }}
          />
          <span className="field-hint">
            A debian_pipeline template: its build and QA, ending in this suite instead of the
            archive (publish-to-{name || 'suite'}). Empty: no template.
          </span>
        </div>
      </div>
      <ProblemBanner keep={false} problem={add.isError ? problemOf(add.error) : null} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={add.isPending}>
          {add.isPending ? 'Making…' : 'Make the suite'}
        </button>
      </div>
    </form>
  );
}

function AptSetupView(props: { workspace: string; suite: string }): React.JSX.Element {
  const [withSources, setWithSources] = useState(false);
  // The wait for a key is bounded: past it the page stops asking and says so, until the
  // user asks again (a key that never comes would otherwise be read forever).
  const [waitingSince, setWaitingSince] = useState(() => Date.now());
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    const timer = setTimeout(
      () => {
        setGaveUp(true);
      },
      Math.max(0, waitingSince + KEY_WAIT_MS - Date.now()),
    );
    return () => {
      clearTimeout(timer);
    };
  }, [waitingSince]);
  const setup = useServerQuery((scope) =>
    repositoryQueries.apt(scope, props.workspace, props.suite, withSources, !gaveUp),
  );
  if (setup.isPending) return <LoadingState label="Reading the archive’s key…" />;
  if (setup.isError) {
    // The address may be what is wrong: it can be changed from here too.
    return (
      <div className="stack apt-setup">
        <ProblemBanner
          problem={problemOf(setup.error)}
          heading="Could not say how to install"
          keep={false}
        />
        <ArchiveAddress url="" isDefault={false} />
      </div>
    );
  }
  const s = setup.data;
  return (
    <div className="stack apt-setup">
      <ArchiveAddress url={s.archiveUrl} isDefault={s.archiveUrlIsDefault} />
      {s.archiveProblem !== null ? (
        <ProblemBanner
          keep={false}
          heading="The archive does not answer"
          problem={{
            code: 'network',
            title: `${hostOf(s.archiveUrl)}: ${s.archiveProblem}. apt on this computer would meet the same; if the archive is served elsewhere, change its address above.`,
            detail: null,
            fields: {},
          }}
        />
      ) : null}
      {s.keyState === 'not-yet' ? (
        <KeyWait
          suite={props.suite}
          hasPackages={s.suiteHasPackages}
          gaveUp={gaveUp}
          checking={setup.isFetching}
          onCheckAgain={() => {
            setGaveUp(false);
            setWaitingSince(Date.now());
            void setup.refetch();
          }}
        />
      ) : s.keyState === 'mismatch' ? (
        <ProblemBanner
          keep={false}
          problem={{
            code: 'mismatch',
            title:
              'The server did not hand over the key it says the archive signs with: nothing here to trust.',
            detail: null,
            fields: {},
          }}
          heading="No key to trust"
        />
      ) : (
        <>
          <p>
            Signed with{' '}
            {s.keyFingerprints.map((f) => (
              <code key={f} className="fingerprint">
                {f.replace(/(.{4})/g, '$1 ').trim()}
              </code>
            ))}{' '}
            (computed here from the key). Save this as{' '}
            <code>/etc/apt/sources.list.d/{s.fileName}</code>:
          </p>
          <pre className="code-block" aria-label="APT source" tabIndex={0}>
            {s.sources}
          </pre>
          <div className="pane-actions">
            <CopyButton text={s.sources ?? ''} label="Copy" />
            <SaveTextButton name={s.fileName} text={s.sources ?? ''} />
            <label className="check">
              <input
                type="checkbox"
                checked={withSources}
                onChange={(e) => {
                  setWithSources(e.target.checked);
                }}
              />
              Source packages too (deb-src)
            </label>
          </div>
        </>
      )}
      {s.private === true ? (
        <p className="muted">
          This repository is private: apt logs in over HTTPS with a viewer token (below), from
          <code>/etc/apt/auth.conf.d/</code>.
        </p>
      ) : null}
      <p>Debug symbols, for gdb and friends:</p>
      <pre className="code-block" aria-label="Debug symbols" tabIndex={0}>
        {s.debuginfod}
      </pre>
      <div className="pane-actions">
        <CopyButton text={s.debuginfod} label="Copy" />
      </div>
    </div>
  );
}

/** The host of an archive address, for saying which host did not answer. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * A suite whose archive has no key yet. Before anything is published none is due: the first
 * publication makes it. After, it is late, which only the server's admins can mend (its
 * signing worker makes the key and signs the indexes).
 */
function KeyWait(props: {
  suite: string;
  hasPackages: boolean;
  gaveUp: boolean;
  checking: boolean;
  onCheckAgain: () => void;
}): React.JSX.Element {
  const minutes = String(KEY_WAIT_MS / 60_000);
  return (
    <div className="info-banner" role="status" aria-label="Signing key">
      <div className="stack">
        {props.hasPackages ? (
          <p>
            <strong>{props.suite}</strong> holds packages, yet the archive has no signing key: the
            server’s signing worker makes it when the suite is first published. If a publication
            ended minutes ago, that worker may be stopped: tell the server’s admins.
          </p>
        ) : (
          <p>
            Nothing is published to <strong>{props.suite}</strong> yet: the archive gets its signing
            key with its first publication (drop a <code>.changes</code> on Upload and choose it
            under Publish to).
          </p>
        )}
        <p className="muted">
          {props.gaveUp
            ? `Stopped checking after ${minutes} minutes.`
            : props.checking
              ? 'Checking…'
              : 'Checked again every few seconds.'}{' '}
          {props.gaveUp ? (
            <button type="button" className="link-button" onClick={props.onCheckAgain}>
              Check again
            </button>
          ) : null}
        </p>
      </div>
    </div>
  );
}

function ArchiveAddress(props: { url: string; isDefault: boolean }): React.JSX.Element {
  const id = useId();
  const [editing, setEditing] = useState(props.url === '');
  const [url, setUrl] = useState(props.url);
  const save = useMutationOf(repositoryMutations.setArchiveUrl, {
    onSuccess: () => {
      setEditing(false);
    },
  });
  if (!editing) {
    return (
      <p>
        Served at <code>{props.url}</code>
        {props.isDefault ? ' (the usual place; the server does not say)' : ''}.{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setEditing(true);
          }}
        >
          Change
        </button>
      </p>
    );
  }
  return (
    <form
      className="inline-form"
      aria-label="Archive address"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ url: url.trim() === '' ? null : url.trim() });
      }}
    >
      <label htmlFor={id} className="field-label">
        Archive of this server
      </label>
      <input
        id={id}
        className="input mono"
        value={url}
        onChange={(e) => {
          setUrl(e.target.value);
        }}
      />
      <button type="submit" className="button small primary">
        Save
      </button>
      <button
        type="button"
        className="button small"
        onClick={() => {
          save.mutate({ url: null });
        }}
      >
        Usual place
      </button>
      <ProblemBanner keep={false} problem={save.isError ? problemOf(save.error) : null} />
    </form>
  );
}

function Packages(props: { workspace: string; suite: string }): React.JSX.Element {
  const id = useId();
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const [copying, setCopying] = useState<RepositoryPackage | null>(null);
  const packages = useServerQuery((scope) =>
    repositoryQueries.packages(scope, props.workspace, props.suite, applied),
  );
  const remove = useMutationOf(repositoryMutations.removePackage, {
    onSettled: () => {
      setRemoving(null);
    },
  });
  return (
    <div className="stack">
      <form
        className="inline-form"
        aria-label="Search packages"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(search.trim());
        }}
      >
        <label htmlFor={id} className="visually-hidden">
          Package name starts with
        </label>
        <input
          id={id}
          className="input mono"
          placeholder="Package name starts with…"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
          }}
        />
        <button type="submit" className="button small">
          <Search size={14} aria-hidden="true" />
          Search
        </button>
      </form>
      <ProblemBanner keep={false} problem={remove.isError ? problemOf(remove.error) : null} />
      {packages.isPending ? (
        <LoadingState label="Loading packages…" />
      ) : packages.isError ? (
        <ProblemBanner
          keep={false}
          problem={problemOf(packages.error)}
          heading="Could not list packages"
        />
      ) : packages.data.length === 0 ? (
        <EmptyState icon={Package} title="Nothing published">
          {applied
            ? `No package of ${props.suite} starts with “${applied}”.`
            : `${props.suite} holds no packages yet.`}
        </EmptyState>
      ) : (
        <table className="table" aria-label={`Packages of ${props.suite}`}>
          <TableHead
            widths={[null, 160, 80, 90, 72]}
            columns={['Package', 'Version', 'Kind', 'Architecture', '']}
          />
          <tbody>
            {packages.data.map((p) => (
              <tr key={p.name}>
                <td className="mono">{p.package}</td>
                <td className="mono">{p.version}</td>
                <td className="muted">{p.kind}</td>
                <td className="mono muted">{p.architecture ?? '—'}</td>
                <td>
                  <div className="row-actions">
                    {p.kind === 'source' ? (
                      <button
                        type="button"
                        className="button small icon-only ghost"
                        aria-label={`Copy or move ${p.name}`}
                        title="Copy or move it, with its binaries, to another suite"
                        onClick={() => {
                          setCopying(p);
                        }}
                      >
                        <ArrowRightLeft size={14} aria-hidden="true" />
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className="button small icon-only ghost"
                      aria-label={`Remove ${p.name}`}
                      title={p.kind === 'source' ? 'Remove it and its binaries' : 'Remove it'}
                      onClick={() => {
                        setRemoving(p.name);
                      }}
                    >
                      <Trash2 size={14} aria-hidden="true" />
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {copying ? (
        <CopyPackage
          from={{ workspace: props.workspace, suite: props.suite }}
          pkg={copying}
          onClose={() => {
            setCopying(null);
          }}
        />
      ) : null}
      {removing !== null ? (
        <ConfirmDialog
          open
          title={`Remove ${removing}?`}
          confirmLabel="Remove"
          danger
          onConfirm={() => {
            remove.mutate({ workspace: props.workspace, suite: props.suite, name: removing });
          }}
          onCancel={() => {
            setRemoving(null);
          }}
        >
          It leaves {props.suite} (a source package takes its binaries with it), and the server
          signs the suite&apos;s indexes anew: apt stops offering it at its next update.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** Where a source package (and its binaries) is copied or moved, as the CLI's copy does. */
function CopyPackage(props: {
  from: { workspace: string; suite: string };
  pkg: RepositoryPackage;
  onClose: () => void;
}): React.JSX.Element {
  const id = useId();
  const targets = useServerQuery((scope) => repositoryQueries.targets(scope));
  const choices = (targets.data ?? []).filter(
    (t) => !(t.workspace === props.from.workspace && t.suite === props.from.suite),
  );
  const [chosen, setChosen] = useState('');
  const [move, setMove] = useState(false);
  const [unembargo, setUnembargo] = useState(false);
  const copy = useMutationOf(repositoryMutations.copyPackage);
  const target = choices.find((t) => `${t.workspace}/${t.suite}` === chosen) ?? choices[0];
  const what = `${props.pkg.package} ${props.pkg.version}`;
  return (
    <form
      className="stack copy-package"
      aria-label={`Copy or move ${what}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!target) return;
        copy.mutate({
          from: props.from,
          to: { workspace: target.workspace, suite: target.suite },
          source: props.pkg.package,
          version: props.pkg.version,
          move,
          unembargo,
        });
      }}
    >
      <h4 className="copy-title">
        {move ? 'Move' : 'Copy'} <span className="mono">{what}</span> and its binaries
      </h4>
      {targets.isPending ? (
        <LoadingState label="Loading your suites…" />
      ) : choices.length === 0 ? (
        <p className="muted">
          Your repositories have no other suite to {move ? 'move' : 'copy'} it to: make one first.
        </p>
      ) : (
        <>
          <div className="field field-inline">
            <label htmlFor={`${id}-to`}>To</label>
            <select
              id={`${id}-to`}
              className="select"
              value={target ? `${target.workspace}/${target.suite}` : ''}
              onChange={(e) => {
                setChosen(e.target.value);
              }}
            >
              {choices.map((t) => (
                <option key={`${t.workspace}/${t.suite}`} value={`${t.workspace}/${t.suite}`}>
                  {`${t.suite} in ${t.workspace}`}
                </option>
              ))}
            </select>
          </div>
          <CheckField className="check" checked={move} onCheckedChange={setMove}>
            Move: remove it from {props.from.suite} once it is in the other suite
          </CheckField>
          <CheckField className="check" checked={unembargo} onCheckedChange={setUnembargo}>
            It may go from a private repository to a public one (unembargo)
          </CheckField>
        </>
      )}
      {copy.data ? (
        <p className="info-banner" role="status">
          {move ? 'Moving' : 'Copying'}: workflow {copy.data.id}. You are told when{' '}
          {target?.suite ?? 'the suite'} publishes it.
        </p>
      ) : null}
      <ProblemBanner
        keep={false}
        problem={copy.isError ? problemOf(copy.error) : null}
        heading="Nothing was copied"
      />
      <div className="pane-actions">
        <button type="button" className="button small" onClick={props.onClose}>
          {copy.data ? 'Done' : 'Cancel'}
        </button>
        <button
          type="submit"
          className="button small primary"
          disabled={!target || copy.isPending || copy.data !== undefined}
        >
          {move ? 'Move' : 'Copy'}
        </button>
      </div>
    </form>
  );
}

/**
 * How to publish to the repository: from the Upload area's "Publish to", or with dput and
 * the profile the app writes for it (kept up to date as suites are added).
 */
function PublishWithDput(props: { workspace: string }): React.JSX.Element {
  const id = useId();
  const write = useMutationOf(repositoryMutations.dputProfile);
  const written = write.data;
  const command = written ? `dput ${written.name} hello_2.10-3_source.changes` : '';
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="section-title">
        Publish to it
      </h3>
      <p className="muted">
        Drop a <code>.changes</code> on the Upload area and pick a suite under “Publish to”. For
        dput, the app writes a dput-ng profile of this repository in your <code>~/.dput.d</code>, so
        that both publish the same way.
      </p>
      {written ? (
        <div className="info-banner" role="status" aria-label="dput-ng profile">
          <p>
            Written to <code>{written.file}</code>.{' '}
            {written.suites.length === 1
              ? `It publishes to ${written.suites[0] ?? ''}, whatever the .changes’ Distribution.`
              : `It publishes to the suite the .changes’ Distribution names: ${written.suites.join(', ')}.`}
          </p>
          <pre className="code-block" aria-label="dput command" tabIndex={0}>
            {command}
          </pre>
          <div className="pane-actions">
            <CopyButton text={command} label="Copy" />
          </div>
        </div>
      ) : null}
      {write.isError ? (
        <ProblemBanner
          keep={false}
          problem={problemOf(write.error)}
          heading="The dput-ng profile was not written"
        />
      ) : null}
      <div className="pane-actions">
        <button
          type="button"
          className="button small"
          disabled={write.isPending}
          onClick={() => {
            write.mutate({ workspace: props.workspace });
          }}
        >
          <Terminal size={14} aria-hidden="true" />
          {written ? 'Write it again' : 'Write the dput-ng profile'}
        </button>
      </div>
    </section>
  );
}

function ViewerTokens(props: { workspace: string }): React.JSX.Element {
  const id = useId();
  const tokens = useServerQuery((scope) => repositoryQueries.tokens(scope, props.workspace));
  const [username, setUsername] = useState('');
  const [comment, setComment] = useState('');
  const [granted, setGranted] = useState<GrantedViewerToken | null>(null);
  const grant = useMutationOf(repositoryMutations.grantToken, {
    onSuccess: (token) => {
      setGranted(token);
      setUsername('');
      setComment('');
    },
  });
  const revoke = useMutationOf(repositoryMutations.revokeToken);
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="section-title">
        Viewer tokens
      </h3>
      <p className="muted">
        A login for apt (or anyone you give it) that may read this repository and nothing else.
      </p>
      {granted ? (
        <div className="info-banner granted-token" role="status">
          <p>
            Token for <code>{granted.username}</code>. Its key is shown this once: put this line in
            <code> /etc/apt/auth.conf.d/{props.workspace}.conf</code> (mode 0600).
          </p>
          <pre className="code-block" aria-label="auth.conf line" tabIndex={0}>
            {granted.authConf}
          </pre>
          <div className="pane-actions">
            <CopyButton text={granted.authConf} label="Copy" />
            <SaveTextButton name={`${props.workspace}.conf`} text={granted.authConf} />
            <button
              type="button"
              className="button"
              onClick={() => {
                setGranted(null);
              }}
            >
              Done
            </button>
          </div>
        </div>
      ) : null}
      <form
        className="inline-form"
        aria-label="Grant a viewer token"
        onSubmit={(event) => {
          event.preventDefault();
          grant.mutate({ workspace: props.workspace, username: username.trim(), comment });
        }}
      >
        <label htmlFor={`${id}-user`} className="visually-hidden">
          Login name
        </label>
        <input
          id={`${id}-user`}
          className="input mono"
          placeholder="apt-laptop"
          required
          pattern="[A-Za-z0-9@.+_\-]{1,150}"
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
          }}
        />
        <label htmlFor={`${id}-comment`} className="visually-hidden">
          Comment
        </label>
        <input
          id={`${id}-comment`}
          className="input"
          placeholder="What it is for"
          value={comment}
          onChange={(e) => {
            setComment(e.target.value);
          }}
        />
        <button type="submit" className="button small" disabled={grant.isPending}>
          <KeyRound size={14} aria-hidden="true" />
          Grant
        </button>
      </form>
      <ProblemBanner keep={false} problem={grant.isError ? problemOf(grant.error) : null} />
      <ProblemBanner keep={false} problem={revoke.isError ? problemOf(revoke.error) : null} />
      {tokens.isError ? (
        <ProblemBanner
          keep={false}
          problem={problemOf(tokens.error)}
          heading="Could not list its tokens"
        />
      ) : (tokens.data ?? []).length > 0 ? (
        <table className="table" aria-label="Viewer tokens">
          <TableHead widths={[null, null, 90]} columns={['Login', 'Comment', '']} />
          <tbody>
            {(tokens.data ?? []).map((t) => (
              <tr key={t.tokenHash}>
                <td className="mono">{t.username ?? '—'}</td>
                <td className="muted">
                  {t.comment === null || t.comment === '' ? '—' : t.comment}
                </td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    onClick={() => {
                      revoke.mutate({ workspace: props.workspace, tokenHash: t.tokenHash });
                    }}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
