/**
 * Testing Library waits 1 s by default for what a rendered component shows (findBy…,
 * waitFor). Two test files run at once, beside the sandbox's worker building packages: a
 * render that takes 300 ms on an idle machine then takes over a second, and a correct
 * component fails. The wait is a bound on a hang, not a measure of speed (bench/ measures
 * that), so it is 10 s.
 */
// Only the files that ask for happy-dom have a document (the test project has no DOM types).
if ('document' in globalThis) {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}

export {};
