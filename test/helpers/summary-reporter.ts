import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with one plain `N passed, N failed` line that CI can read whatever the runner. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const module of testModules) {
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
      }
      if (tests === 0 && module.state() === 'failed') failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
