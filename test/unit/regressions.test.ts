/**
 * The app's regression analysis against the server's own: the cases of Debusine 0.16's
 * tests (server/workflows/tests/), each named after the test it comes from, given the same
 * inputs and expected to give the same verdicts; then inputs no server should send.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MAX_ROWS,
  MAX_VERDICTS,
  NAME_MAX,
  SUMMARY_MAX,
  analyseRegressions,
  compareQaResults,
  pairByArchitecture,
  regressionSummaryLine,
  summarizeRegressionStatuses,
  type QaComparisonInput,
  type QaResult,
  type RegressionAnalysis,
  type RegressionStatus,
} from '../../src/shared/results/regressions';

type Result = 'success' | 'failure' | 'temporary failure' | 'error' | 'skipped' | '';

function done(result: Result | null): { status: string; result: string } {
  return { status: 'completed', result: result ?? '' };
}

/** A debian:autopkgtest artifact's data, made by a work request that ended with `result`. */
function autopkgtest(
  architecture: string,
  tests: Record<string, string>,
  result: Result = 'success',
  status = 'completed',
): QaResult {
  return {
    workRequest: { status, result },
    data: {
      architecture,
      results: Object.fromEntries(Object.entries(tests).map(([k, v]) => [k, { status: v }])),
      cmdline: 'unused',
      source_package: { name: 'hello', version: '1.0-1' },
      distribution: 'sid',
    },
  };
}

function lintian(
  architecture: string,
  counts: Record<string, number>,
  tags: string[],
  result: Result = 'success',
): QaResult {
  return {
    workRequest: done(result),
    data: { architecture, summary: { tags_count_by_severity: counts, tags_found: tags } },
  };
}

function plain(architecture: string, result: Result): QaResult {
  return { workRequest: done(result), data: { architecture } };
}

function verdicts(analysis: RegressionAnalysis): Record<string, RegressionStatus> {
  return Object.fromEntries(analysis.verdicts.map((v) => [v.architecture, v.status]));
}

/** The rows of the fine-grained comparison, by item, as the server's `details` has them. */
function details(analysis: RegressionAnalysis, architecture: string): Record<string, string> {
  return Object.fromEntries(
    analysis.rows
      .filter((r) => r.architecture === architecture && r.item !== null)
      .map((r) => [r.item, r.status]),
  );
}

describe('compareQaResults, as the server compare_qa_results (test_regression_tracking.py)', () => {
  // test_regression_tracking.py, RegressionTrackingWorkflowTestMixin.test_compare_qa_results:
  // (reference status, result, new status, result, expected).
  const S = 'completed';
  const cases: [string | null, Result | null, string | null, Result | null, RegressionStatus][] = [
    [null, null, null, null, 'no-result'],
    [null, null, S, 'success', 'no-result'],
    [S, 'success', null, null, 'no-result'],
    [S, 'success', S, 'success', 'stable'],
    [S, 'success', S, 'failure', 'regression'],
    [S, 'success', S, 'temporary failure', 'regression'],
    [S, 'success', S, 'error', 'regression'],
    [S, 'success', S, 'skipped', 'stable'],
    [S, 'failure', S, 'success', 'improvement'],
    [S, 'failure', S, 'failure', 'stable'],
    [S, 'failure', S, 'temporary failure', 'stable'],
    [S, 'failure', S, 'error', 'error'],
    [S, 'failure', S, 'skipped', 'improvement'],
    [S, 'temporary failure', S, 'success', 'improvement'],
    [S, 'temporary failure', S, 'failure', 'stable'],
    [S, 'temporary failure', S, 'temporary failure', 'stable'],
    [S, 'temporary failure', S, 'error', 'error'],
    [S, 'temporary failure', S, 'skipped', 'improvement'],
    [S, 'error', S, 'success', 'improvement'],
    [S, 'error', S, 'error', 'stable'],
    [S, 'error', S, 'failure', 'error'],
    [S, 'error', S, 'temporary failure', 'error'],
    [S, 'error', S, 'skipped', 'improvement'],
    [S, 'skipped', S, 'success', 'stable'],
    [S, 'skipped', S, 'failure', 'regression'],
    [S, 'skipped', S, 'temporary failure', 'regression'],
    [S, 'skipped', S, 'error', 'regression'],
    [S, 'skipped', S, 'skipped', 'stable'],
    ['aborted', null, S, 'success', 'error'],
    [S, 'success', 'aborted', null, 'error'],
  ];
  for (const [rs, rr, ns, nr, expected] of cases) {
    const show = (s: string | null, r: Result | null) => (s === null ? 'none' : `${s}/${r ?? ''}`);
    it(`test_compare_qa_results: ${show(rs, rr)} then ${show(ns, nr)} is ${expected}`, () => {
      const reference = rs === null ? null : { status: rs, result: rr ?? '' };
      const next = ns === null ? null : { status: ns, result: nr ?? '' };
      expect(compareQaResults(reference, next)).toBe(expected);
    });
  }

  it('a work request that has not ended is an error, as the server says of anything else', () => {
    expect(compareQaResults(done('success'), { status: 'running', result: '' })).toBe('error');
    expect(compareQaResults({ status: 'pending', result: '' }, done('success'))).toBe('error');
  });

  it('a status or result the server cannot have is no result, not a guess', () => {
    expect(compareQaResults(done('success'), { status: 'completed', result: 'exploded' })).toBe(
      'no-result',
    );
    expect(compareQaResults({ status: 'finished', result: 'success' }, done('success'))).toBe(
      'no-result',
    );
    expect(compareQaResults({ status: 7, result: null }, done('failure'))).toBe('no-result');
    expect(compareQaResults({}, {})).toBe('no-result');
  });
});

describe('summarizeRegressionStatuses, as the server summarize_regression_analysis_statuses (test_regression_tracking.py)', () => {
  // test_regression_tracking.py, test_summarize_regression_analysis_statuses.
  const cases: [RegressionStatus[], RegressionStatus][] = [
    [['regression', 'error', 'improvement', 'stable', 'no-result'], 'regression'],
    [['error', 'improvement', 'stable', 'no-result'], 'error'],
    [['improvement', 'stable', 'no-result'], 'improvement'],
    [['stable', 'no-result'], 'stable'],
    [['no-result'], 'no-result'],
    [[], 'no-result'],
  ];
  for (const [statuses, expected] of cases) {
    it(`test_summarize_regression_analysis_statuses: {${statuses.join(', ')}} is ${expected}`, () => {
      expect(summarizeRegressionStatuses(statuses)).toBe(expected);
    });
  }
});

describe('autopkgtest, as the server AutopkgtestWorkflow callback_regression_analysis (test_autopkgtest.py)', () => {
  // test_autopkgtest.py, test_callback_regression_analysis: the reference and new results
  // per architecture, and the work requests' results the test gives them.
  const reference = [
    autopkgtest('amd64', { upstream: 'PASS', old: 'PASS' }, 'success'),
    autopkgtest('arm64', { upstream: 'PASS' }, 'success'),
    autopkgtest('i386', { upstream: 'FAIL' }, 'failure'),
    autopkgtest('riscv64', { upstream: 'FAIL', performance: 'FAIL' }, 'failure'),
    autopkgtest('s390x', { upstream: 'FAIL' }, 'failure'),
  ];
  const next = [
    autopkgtest('amd64', { upstream: 'PASS' }, 'success'),
    autopkgtest('arm64', { upstream: 'FAIL' }, 'failure'),
    autopkgtest('i386', { upstream: 'PASS' }, 'success'),
    autopkgtest('ppc64el', { new: 'PASS' }, 'success'),
    autopkgtest('riscv64', { upstream: 'FAIL', performance: 'PASS' }, 'failure'),
    autopkgtest('s390x', { upstream: 'PASS', new: 'FAIL' }, 'failure'),
  ];

  it('test_callback_regression_analysis: each architecture as the server records it', () => {
    const analysis = analyseRegressions(pairByArchitecture('autopkgtest', reference, next));
    expect(verdicts(analysis)).toEqual({
      amd64: 'stable',
      arm64: 'regression',
      i386: 'improvement',
      ppc64el: 'no-result',
      riscv64: 'improvement',
      s390x: 'regression',
    });
    expect(details(analysis, 'amd64')).toEqual({ upstream: 'stable', old: 'stable' });
    expect(details(analysis, 'arm64')).toEqual({ upstream: 'regression' });
    expect(details(analysis, 'i386')).toEqual({ upstream: 'improvement' });
    expect(details(analysis, 'ppc64el')).toEqual({ new: 'stable' });
    expect(details(analysis, 'riscv64')).toEqual({
      upstream: 'stable',
      performance: 'improvement',
    });
    expect(details(analysis, 's390x')).toEqual({ upstream: 'improvement', new: 'regression' });
    expect(analysis.overall).toBe('regression');
  });

  it('test_callback_regression_analysis: only amd64 while the other new tasks run', () => {
    // The other references are not in the QA results collection yet (the caller leaves them
    // out), and their new tasks have not ended: the server finds no new result for them.
    const running = next.map((r) =>
      r === next[0] ? r : { ...r, workRequest: { status: 'running', result: '' } },
    );
    const analysis = analyseRegressions(
      pairByArchitecture('autopkgtest', reference.slice(0, 1), running),
    );
    expect(verdicts(analysis)).toEqual({ amd64: 'stable' });
    expect(analysis.overall).toBe('stable');
  });

  it('the fine-grained rules for each pair of test statuses', () => {
    const all = ['PASS', 'FAIL', 'FLAKY', 'SKIP', 'none'] as const;
    const expected: Record<string, RegressionStatus> = {
      'PASS FAIL': 'regression',
      'SKIP FAIL': 'regression',
      'none FAIL': 'regression',
      'FAIL PASS': 'improvement',
      'FAIL SKIP': 'improvement',
      'FAIL none': 'improvement',
      'FLAKY PASS': 'improvement',
      'FLAKY SKIP': 'improvement',
      'FLAKY none': 'improvement',
    };
    for (const r of all) {
      for (const n of all) {
        if (r === 'none' && n === 'none') continue;
        const ref = autopkgtest('amd64', r === 'none' ? {} : { t: r });
        const neu = autopkgtest('amd64', n === 'none' ? {} : { t: n });
        const analysis = analyseRegressions([
          { check: 'autopkgtest', architecture: 'amd64', reference: ref, new: neu },
        ]);
        expect(details(analysis, 'amd64').t, `${r} then ${n}`).toBe(
          expected[`${r} ${n}`] ?? 'stable',
        );
      }
    }
  });

  it('a regression in the work requests is told by the tests that regressed', () => {
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', { greets: 'PASS' }, 'success')],
        [autopkgtest('amd64', { greets: 'FAIL' }, 'failure')],
      ),
    );
    expect(analysis.overall).toBe('regression');
    expect(analysis.regressionCount).toBe(1);
    expect(regressionSummaryLine({ name: 'hello', version: '2.10-4' }, analysis)).toBe(
      'hello 2.10-4: 1 regression (autopkgtest greets, amd64: pass → fail)',
    );
  });

  it('a test that failed in the reference too is said so, and not called a regression', () => {
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', { greets: 'FAIL', other: 'PASS' }, 'failure')],
        [autopkgtest('amd64', { greets: 'FAIL', other: 'PASS' }, 'failure')],
      ),
    );
    expect(analysis.overall).toBe('stable');
    expect(analysis.rows.find((r) => r.item === 'greets')?.failedBefore).toBe(true);
    expect(regressionSummaryLine({ name: 'hello', version: '2.10-4' }, analysis)).toBe(
      'hello 2.10-4: no regression; autopkgtest greets, amd64 already failed before',
    );
  });

  it('an aborted new task is an error, as the server compares it', () => {
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', { greets: 'PASS' })],
        [autopkgtest('amd64', {}, '', 'aborted')],
      ),
    );
    expect(analysis.overall).toBe('error');
    expect(regressionSummaryLine({ name: 'hello', version: '2.10-4' }, analysis)).toBe(
      'hello 2.10-4: regression analysis failed (autopkgtest, amd64: success → aborted)',
    );
  });
});

describe('lintian, as the server LintianWorkflow callback_regression_analysis (test_lintian.py)', () => {
  // test_lintian.py, test_callback_regression_analysis.
  const reference = [
    lintian('all', { warning: 1, error: 0 }, ['warning-1'], 'success'),
    lintian('amd64', { warning: 0, error: 0 }, [], 'success'),
    lintian('i386', { warning: 2, error: 1 }, ['warning-1', 'warning-2', 'error-1'], 'failure'),
    lintian('s390x', { warning: 1, error: 1 }, ['warning-1', 'error-1'], 'failure'),
  ];
  const next = [
    lintian('all', { warning: 1, error: 0 }, ['warning-1'], 'success'),
    lintian('amd64', { warning: 0, error: 0 }, [], 'success'),
    lintian('i386', { warning: 1, error: 2 }, ['warning-1', 'error-1', 'error-2'], 'failure'),
    lintian('ppc64el', { warning: 1, error: 0 }, ['warning-1'], 'success'),
    lintian('s390x', { warning: 1, error: 0 }, ['warning-1'], 'success'),
  ];

  it('test_callback_regression_analysis: each architecture as the server records it', () => {
    const analysis = analyseRegressions(pairByArchitecture('lintian', reference, next));
    expect(verdicts(analysis)).toEqual({
      all: 'stable',
      amd64: 'stable',
      i386: 'regression',
      ppc64el: 'no-result',
      s390x: 'improvement',
    });
    // The server's added_tags and removed_tags.
    const tags = (arch: string, side: 'reference' | 'new') =>
      analysis.rows
        .filter((r) => r.architecture === arch && r.item !== null && r[side] === 'found')
        .filter((r) => r[side === 'new' ? 'reference' : 'new'] === 'none')
        .map((r) => r.item);
    expect(tags('i386', 'new')).toEqual(['error-2']);
    expect(tags('i386', 'reference')).toEqual(['warning-2']);
    expect(tags('ppc64el', 'new')).toEqual(['warning-1']);
    expect(tags('s390x', 'reference')).toEqual(['error-1']);
    expect(tags('all', 'new')).toEqual([]);
    const i386 = analysis.rows.filter((r) => r.architecture === 'i386' && r.item === null);
    expect(i386).toContainEqual(
      expect.objectContaining({ reference: '1 error', new: '2 errors', status: 'regression' }),
    );
    expect(regressionSummaryLine({ name: 'hello', version: '1.0-1' }, analysis)).toBe(
      'hello 1.0-1: 1 regression (lintian, i386: 1 error → 2 errors)',
    );
  });

  it('severities other than warning and error do not count, as the server counts them', () => {
    const analysis = analyseRegressions(
      pairByArchitecture(
        'lintian',
        [lintian('amd64', { info: 0, pedantic: 1 }, [])],
        [lintian('amd64', { info: 30, pedantic: 0 }, ['x'])],
      ),
    );
    expect(analysis.overall).toBe('stable');
  });

  it('missing counts are 0, as the server reads them', () => {
    const analysis = analyseRegressions(
      pairByArchitecture(
        'lintian',
        [{ workRequest: done('success'), data: { architecture: 'amd64', summary: {} } }],
        [lintian('amd64', { warning: 1 }, ['w'])],
      ),
    );
    expect(analysis.overall).toBe('regression');
  });
});

describe('piuparts and blhc, compared by their work requests only', () => {
  // test_piuparts.py and test_blhc.py, test_callback_regression_analysis: amd64's tasks both
  // succeed, then the others end with these results.
  for (const check of ['piuparts', 'blhc'] as const) {
    it(`test_${check}.py test_callback_regression_analysis: each architecture as the server records it`, () => {
      const analysis = analyseRegressions(
        pairByArchitecture(
          check,
          [
            plain('amd64', 'success'),
            plain('arm64', 'success'),
            plain('i386', 'failure'),
            plain('s390x', 'failure'),
          ],
          [
            plain('amd64', 'success'),
            plain('arm64', 'failure'),
            plain('i386', 'failure'),
            plain('ppc64el', 'success'),
            plain('s390x', 'success'),
          ],
        ),
      );
      expect(verdicts(analysis)).toEqual({
        amd64: 'stable',
        arm64: 'regression',
        i386: 'stable',
        ppc64el: 'no-result',
        s390x: 'improvement',
      });
      expect(analysis.rows.filter((r) => r.item !== null)).toEqual([]);
      expect(analysis.rows.find((r) => r.architecture === 'i386')?.failedBefore).toBe(true);
      expect(analysis.rows.find((r) => r.architecture === 'ppc64el')).toMatchObject({
        reference: 'none',
        new: 'success',
        status: 'no-result',
      });
    });
  }

  it('test_piuparts.py test_callback_regression_analysis_build_architecture: amd64 is stable', () => {
    const data = { architecture: 'amd64', binary_packages: { hello: '1.0-1' } };
    const analysis = analyseRegressions(
      pairByArchitecture(
        'piuparts',
        [{ workRequest: done('success'), data }],
        [{ workRequest: done('success'), data }],
      ),
    );
    expect(verdicts(analysis)).toEqual({ amd64: 'stable' });
  });

  it('a failure the reference had too is not a regression', () => {
    const analysis = analyseRegressions(
      pairByArchitecture('blhc', [plain('amd64', 'failure')], [plain('amd64', 'failure')]),
    );
    expect(regressionSummaryLine({ name: 'hello', version: '2.10-4' }, analysis)).toBe(
      'hello 2.10-4: no regression; blhc, amd64 already failed before',
    );
  });
});

describe('the QA workflow, as the server QAWorkflow callback_regression_analysis (test_qa.py)', () => {
  // test_qa.py: the reference has autopkgtest {upstream: PASS} and a clean lintian, both
  // successful, on amd64.
  const reference = {
    autopkgtest: autopkgtest('amd64', { upstream: 'PASS' }),
    lintian: lintian('amd64', {}, []),
  };
  const pending = { status: 'pending', result: '' };
  function qa(newAutopkgtest: QaResult | null, newLintian: QaResult | null): QaComparisonInput[] {
    return [
      {
        check: 'autopkgtest',
        architecture: 'amd64',
        reference: reference.autopkgtest,
        new: newAutopkgtest,
      },
      { check: 'lintian', architecture: 'amd64', reference: reference.lintian, new: newLintian },
    ];
  }

  it('test_callback_regression_analysis_success: no result, then stable', () => {
    let analysis = analyseRegressions(
      qa({ ...autopkgtest('amd64', {}), workRequest: pending }, null),
    );
    expect(analysis.overall).toBe('no-result');
    expect(verdicts(analysis)).toEqual({ amd64: 'no-result' });
    expect(details(analysis, 'amd64')).toEqual({ upstream: 'stable' });

    analysis = analyseRegressions(qa(autopkgtest('amd64', { upstream: 'PASS' }), null));
    expect(analysis.overall).toBe('stable');

    analysis = analyseRegressions(
      qa(autopkgtest('amd64', { upstream: 'PASS' }), lintian('amd64', {}, [])),
    );
    expect(analysis.overall).toBe('stable');
    expect(analysis.verdicts.map((v) => v.status)).toEqual(['stable', 'stable']);
    expect(regressionSummaryLine({ name: 'hello', version: '1.0-2' }, analysis)).toBe(
      'hello 1.0-2: no regression',
    );
  });

  it('test_callback_regression_analysis_failure: autopkgtest then lintian regress', () => {
    let analysis = analyseRegressions(qa(autopkgtest('amd64', { upstream: 'FAIL' }), null));
    expect(analysis.overall).toBe('regression');
    expect(analysis.verdicts.map((v) => [v.check, v.status])).toEqual([
      ['autopkgtest', 'regression'],
      ['lintian', 'no-result'],
    ]);

    analysis = analyseRegressions(
      qa(autopkgtest('amd64', { upstream: 'FAIL' }), lintian('amd64', { error: 1 }, ['test'])),
    );
    expect(analysis.verdicts.map((v) => [v.check, v.status])).toEqual([
      ['autopkgtest', 'regression'],
      ['lintian', 'regression'],
    ]);
    expect(analysis.rows).toContainEqual(
      expect.objectContaining({ check: 'lintian', item: 'test', reference: 'none', new: 'found' }),
    );
    expect(regressionSummaryLine({ name: 'hello', version: '1.0-2' }, analysis)).toBe(
      'hello 1.0-2: 2 regressions (autopkgtest upstream, amd64: pass → fail; ' +
        'lintian, amd64: 0 errors → 1 error)',
    );
  });
});

describe("the server's own code, run on every case (fixtures/regression-verdicts.py)", () => {
  const table = JSON.parse(
    readFileSync(new URL('fixtures/regression-verdicts.json', import.meta.url), 'utf8'),
  ) as {
    coarse: [string, string, string, string, string][];
    fine: [unknown, unknown, string][];
    lintian: [Record<string, number>, Record<string, number>, string][];
  };

  it('compare_qa_results: every status and result against every other, as the server says', () => {
    expect(table.coarse).toHaveLength(900);
    const differ = table.coarse.filter(
      ([rs, rr, ns, nr, want]) =>
        compareQaResults({ status: rs, result: rr }, { status: ns, result: nr }) !== want,
    );
    expect(differ).toEqual([]);
  });

  it('autopkgtest compare_qa_results_fine_grained: every kind of test entry, as the server says', () => {
    expect(table.fine.length).toBeGreaterThan(50);
    const wr = done('success');
    const differ = table.fine.filter(([ref, neu, want]) => {
      const analysis = analyseRegressions([
        {
          check: 'autopkgtest',
          architecture: 'amd64',
          reference: { workRequest: wr, data: { results: { t: ref } } },
          new: { workRequest: wr, data: { results: { t: neu } } },
        },
      ]);
      return details(analysis, 'amd64').t !== want;
    });
    expect(differ).toEqual([]);
  });

  it('lintian compare_qa_results_fine_grained: warning and error counts, as the server says', () => {
    expect(table.lintian).toHaveLength(256);
    const differ = table.lintian.filter(([ref, neu, want]) => {
      const analysis = analyseRegressions(
        pairByArchitecture('lintian', [lintian('amd64', ref, [])], [lintian('amd64', neu, [])]),
      );
      return analysis.overall !== want;
    });
    expect(differ).toEqual([]);
  });
});

describe('reverse dependencies and the line for a notification', () => {
  it("a reverse dependency's regression names the package it tests", () => {
    const analysis = analyseRegressions([
      {
        check: 'autopkgtest',
        subject: 'hello',
        architecture: 'amd64',
        reference: autopkgtest('amd64', { greets: 'PASS' }),
        new: autopkgtest('amd64', { greets: 'PASS' }),
      },
      {
        check: 'autopkgtest',
        subject: 'hello-user',
        architecture: 'amd64',
        reference: autopkgtest('amd64', { uses: 'PASS' }),
        new: autopkgtest('amd64', { uses: 'FAIL' }, 'failure'),
      },
    ]);
    expect(analysis.verdicts.map((v) => [v.subject, v.status])).toEqual([
      ['hello', 'stable'],
      ['hello-user', 'regression'],
    ]);
    expect(regressionSummaryLine({ name: 'hello', version: '2.10-4' }, analysis)).toBe(
      'hello 2.10-4: 1 regression (autopkgtest uses of hello-user, amd64: pass → fail)',
    );
  });

  it('an improvement is said with what still fails as before', () => {
    // test_autopkgtest.py's riscv64: one test fixed, one failing as before.
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('riscv64', { upstream: 'FAIL', performance: 'FAIL' }, 'failure')],
        [autopkgtest('riscv64', { upstream: 'FAIL', performance: 'PASS' }, 'failure')],
      ),
    );
    expect(regressionSummaryLine({ name: 'hello', version: '1.0-2' }, analysis)).toBe(
      'hello 1.0-2: no regression; 1 improvement; autopkgtest upstream, riscv64 already failed before',
    );
  });

  it('a flaky test that now fails is not a regression for the server, and is said as before', () => {
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', { greets: 'FLAKY' }, 'success')],
        [autopkgtest('amd64', { greets: 'FAIL' }, 'failure')],
      ),
    );
    // The work requests regressed (success then failure): the server's verdict is theirs.
    expect(analysis.overall).toBe('regression');
    expect(regressionSummaryLine({ name: 'hello', version: '1.0-2' }, analysis)).toBe(
      'hello 1.0-2: 1 regression (autopkgtest, amd64: success → failure)',
    );
  });

  it('nothing yet, and more regressions than the line names', () => {
    expect(regressionSummaryLine({ name: 'hello', version: '1' }, analyseRegressions([]))).toBe(
      'hello 1: no regression analysis yet',
    );
    const tests = { a: 'PASS', b: 'PASS', c: 'PASS', d: 'PASS', e: 'PASS' };
    const failing = { a: 'FAIL', b: 'FAIL', c: 'FAIL', d: 'FAIL', e: 'FAIL' };
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', tests)],
        [autopkgtest('amd64', failing, 'failure')],
      ),
    );
    expect(regressionSummaryLine({ name: 'hello', version: '1' }, analysis)).toBe(
      'hello 1: 5 regressions (autopkgtest a, amd64: pass → fail; autopkgtest b, amd64: ' +
        'pass → fail; autopkgtest c, amd64: pass → fail; and 2 more)',
    );
  });
});

describe('hostile inputs', () => {
  const wrong: unknown[] = [
    null,
    undefined,
    42,
    'results',
    [],
    { results: null },
    { results: [1, 2] },
    { results: 'PASS' },
    { summary: null },
    { summary: { tags_count_by_severity: [] } },
    { summary: { tags_count_by_severity: { error: 'many' } } },
    { summary: { tags_found: 'tag' } },
    { summary: { tags_count_by_severity: null } },
    { summary: { tags_count_by_severity: { warning: null } } },
    { summary: { tags_found: null } },
  ];

  it('data of the wrong shape is an error for its architecture, never an exception', () => {
    for (const data of wrong) {
      for (const check of ['autopkgtest', 'lintian'] as const) {
        const analysis = analyseRegressions([
          {
            check,
            architecture: 'amd64',
            reference: { workRequest: done('success'), data },
            new: check === 'autopkgtest' ? autopkgtest('amd64', {}) : lintian('amd64', {}, []),
          },
        ]);
        expect(analysis.verdicts).toHaveLength(1);
        expect(analysis.overall, `${check} ${JSON.stringify(data)}`).toBe('error');
        expect(analysis.rows).toEqual([
          expect.objectContaining({
            reference: 'unreadable result',
            new: 'success',
            status: 'error',
          }),
        ]);
      }
    }
  });

  it('entries that match none of the server patterns are stable, as its match falls through', () => {
    const analysis = analyseRegressions([
      {
        check: 'autopkgtest',
        architecture: 'amd64',
        reference: {
          workRequest: done('success'),
          data: { results: { a: 'PASS', b: { status: 'pass' }, c: null, d: [] } },
        },
        new: {
          workRequest: done('success'),
          data: {
            results: { a: { status: 'FAIL' }, b: { status: 'FAIL' }, c: { status: 'FAIL' }, d: {} },
          },
        },
      },
    ]);
    // `c` was null: the server's pattern takes it for a missing test, so its failure regresses.
    expect(details(analysis, 'amd64')).toEqual({
      a: 'stable',
      b: 'stable',
      c: 'regression',
      d: 'stable',
    });
    expect(analysis.rows.find((r) => r.item === 'a')?.reference).toBe('unknown');
  });

  it('wrong types in the inputs themselves are left out, not thrown on', () => {
    const junk = [
      null,
      7,
      { check: 'autopkgtest' },
      { check: 5, architecture: 'amd64' },
      { check: 'debdiff', architecture: 'amd64', reference: plain('amd64', 'success') },
      { check: 'autopkgtest', architecture: 'amd64', reference: 'x', new: [] },
    ] as unknown as QaComparisonInput[];
    const analysis = analyseRegressions(junk);
    expect(analysis.verdicts).toEqual([]);
    expect(analysis.overall).toBe('no-result');
    expect(analyseRegressions(null as unknown as QaComparisonInput[]).overall).toBe('no-result');
    expect(
      pairByArchitecture('blhc', null as unknown as QaResult[], [null as unknown as QaResult]),
    ).toEqual([]);
    expect(regressionSummaryLine({ name: 5, version: null }, analysis)).toBe(
      'no regression analysis yet',
    );
  });

  it('a hundred thousand tests give a bounded list, the regression kept and counted', () => {
    const tests: Record<string, string> = {};
    for (let i = 0; i < 100_000; i++) tests[`t${String(i).padStart(6, '0')}`] = 'PASS';
    const failing = { ...tests, t099999: 'FAIL' };
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', tests)],
        [autopkgtest('amd64', failing)],
      ),
    );
    expect(analysis.overall).toBe('regression');
    expect(analysis.rows.length).toBeLessThanOrEqual(MAX_ROWS);
    expect(analysis.truncated).toBe(true);
    expect(analysis.rows).toContainEqual(
      expect.objectContaining({ item: 't099999', status: 'regression' }),
    );
    expect(analysis.regressionCount).toBe(1);
  });

  it('many regressions are counted whole, named a few, and the line stays bounded', () => {
    const long = 'x'.repeat(10_000);
    const ref: Record<string, string> = {};
    const neu: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) {
      ref[`${long}${i}`] = 'PASS';
      neu[`${long}${i}`] = 'FAIL';
    }
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', ref)],
        [autopkgtest('amd64', neu, 'failure')],
      ),
    );
    expect(analysis.regressionCount).toBe(1000);
    expect(analysis.rows.length).toBeLessThanOrEqual(MAX_ROWS);
    expect(analysis.regressions.length).toBeLessThanOrEqual(MAX_ROWS);
    for (const row of analysis.rows) expect(row.item?.length ?? 0).toBeLessThanOrEqual(NAME_MAX);
    const line = regressionSummaryLine({ name: 'hello', version: long }, analysis);
    expect(line.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(line.startsWith('hello ')).toBe(true);
  });

  it('test names such as __proto__ are names like any other', () => {
    const data = JSON.parse(
      '{"architecture":"amd64","results":{"__proto__":{"status":"FAIL"},"constructor":{"status":"PASS"}}}',
    ) as unknown;
    const analysis = analyseRegressions(
      pairByArchitecture(
        'autopkgtest',
        [autopkgtest('amd64', { constructor: 'PASS' })],
        [{ workRequest: done('failure'), data }],
      ),
    );
    expect(details(analysis, 'amd64')).toEqual({
      ['__proto__']: 'regression',
      constructor: 'stable',
    });
  });

  it('a thousand architectures are bounded too, and all of them decide the verdict', () => {
    const refs: QaResult[] = [];
    const news: QaResult[] = [];
    for (let i = 0; i < 1000; i++) {
      refs.push(plain(`arch${i}`, 'success'));
      news.push(plain(`arch${i}`, 'success'));
    }
    const inputs = pairByArchitecture('piuparts', refs, news);
    inputs.push({
      check: 'piuparts',
      architecture: 'zz-last',
      reference: plain('zz-last', 'success'),
      new: plain('zz-last', 'error'),
    });
    const analysis = analyseRegressions(inputs);
    expect(analysis.overall).toBe('regression');
    expect(analysis.verdicts.length).toBeLessThanOrEqual(MAX_VERDICTS);
    expect(analysis.truncated).toBe(true);
  });
});
