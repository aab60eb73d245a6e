"""Tests of the statistics (scripts/csbench/stats.py): pure functions of numbers."""

import math
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))

from csbench import runs, stats, verdicts  # noqa: E402


class StatisticsTest(unittest.TestCase):

    def test_exact_utest_reaches_the_smallest_pvalue(self):
        base, run = [10.0 + i for i in range(9)], [1.0 + i for i in range(9)]
        p_slower, p_faster = stats.utest_pvalues(base, run)
        self.assertAlmostEqual(p_slower, 1 / 48620)
        self.assertAlmostEqual(stats.smallest_pvalue(9, 9), 1 / 48620)
        self.assertGreater(p_faster, 0.99)
        self.assertEqual(stats.utest_pvalues(base[:3], run), (None, None))

    def test_ties_within_a_side_keep_the_exact_test(self):
        # A steady kernel: its repetitions take two values a side (the timer's resolution), and
        # the sides are 10% apart. U is the same for every tie-break, so the p-value is the exact
        # one; the normal approximation would give 6 times more, 0.083 after Holm over 670.
        base, run = [1.0] * 5 + [1.001] * 4, [0.9] * 6 + [0.901] * 3
        p_slower, _ = stats.utest_pvalues(base, run)
        self.assertAlmostEqual(p_slower, stats.smallest_pvalue(9, 9))
        # A value on both sides makes U depend on the tie-break: no exact test.
        p_slower, _ = stats.utest_pvalues(base, run[:-1] + [1.0])
        self.assertGreater(p_slower, 5 * stats.smallest_pvalue(9, 9))

    def test_spread_ignores_a_warm_up_outlier(self):
        samples = [100.0, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3, 20.0]
        self.assertLess(stats.relative_spread(samples), 0.005)
        self.assertIsNone(stats.relative_spread([1.0, 2.0]))

    def test_classify(self):
        self.assertEqual(stats.classify(-4.0, 0.001, 1e-6, 5.0, 3.0), "SAME")
        self.assertEqual(stats.classify(-8.0, 0.03, 1e-6, 5.0, 3.0), "UNSURE")   # noise
        self.assertEqual(stats.classify(-8.0, 0.01, 0.2, 5.0, 3.0), "UNSURE")    # p
        self.assertEqual(stats.classify(-8.0, 0.01, None, 5.0, 3.0), "UNSURE")   # no test
        self.assertEqual(stats.classify(-8.0, 0.01, 1e-6, 5.0, 3.0), "SLOWER")
        self.assertEqual(stats.classify(+8.0, 0.01, 1e-6, 5.0, 3.0), "FASTER")


class ProcessLevelTest(unittest.TestCase):
    """How far a new process's level may lie from the baseline's processes."""

    def test_class_process_bar(self):
        # t(1 - 0.05/724, 1000) is about 3.83 (the normal quantile: 3.81).
        self.assertAlmostEqual(stats.class_process_bar((0.01, 1000, 3), 724),
                               3.83 * (4 / 3) ** 0.5, delta=0.02)
        # Few degrees of freedom make it wider: t(1 - 0.05/12, 4) is about 4.85 against the
        # normal quantile's 2.64 for 12 tests.
        self.assertAlmostEqual(stats.class_process_bar((0.01, 4, 3), 12),
                               4.85 * (4 / 3) ** 0.5, delta=0.02)
        self.assertIsNone(stats.class_process_bar(None, 724))

    def test_prediction_interval_of_three_processes(self):
        samples = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.9, 0.9]
        processes = [0, 0, 0, 1, 1, 1, 2, 2, 2]
        # Process medians (throughput) 1, 1, 0.9: standard deviation 0.0577; t(0.975, 2) = 4.303.
        self.assertAlmostEqual(stats.process_prediction_half_width_pct(samples, processes),
                               4.303 * (4 / 3) ** 0.5 * 5.774, delta=0.05)
        self.assertIsNone(stats.process_prediction_half_width_pct(samples, [None] * 9))
        self.assertIsNone(stats.process_prediction_half_width_pct(samples, [0] * 9))
        # A benchmark's throughputs (the inverse of its times without Gelem/s) give the same.
        result = runs.Result("x", times_ns=[1.0] * 9, processes=processes)
        result.times_ns = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1 / 0.9, 1 / 0.9, 1 / 0.9]
        self.assertAlmostEqual(verdicts.process_prediction_pct(result, False),
                               4.303 * (4 / 3) ** 0.5 * 5.774, delta=0.05)
        self.assertIsNone(verdicts.process_prediction_pct(runs.Result("y", times_ns=[1.0] * 9,
                                                                        processes=[None] * 9), False))

    def test_process_medians_skip_unknown_processes(self):
        self.assertEqual(stats.process_medians([1.0, 3.0, 2.0, 9.0, 5.0], [0, 0, 1, None, 1]),
                         [2.0, 3.5])

    def test_pooled_log_spread(self):
        # Two processes at e^0 and e^0.2: deviations +-0.1 from their mean, 1 degree of freedom.
        ss, df = stats.log_deviations([1.0, math.exp(0.2)])
        self.assertAlmostEqual(ss, 0.02)
        self.assertEqual(df, 1)
        self.assertAlmostEqual(stats.pooled_spread(ss + 0.06, df + 2), math.sqrt(0.08 / 3))
        self.assertIsNone(stats.log_deviations([1.0]))
        self.assertIsNone(stats.log_deviations([1.0, 0.0]))


class SummaryTest(unittest.TestCase):
    """What the reports summarize: geometric means, quartiles, the bar a change must pass."""

    def test_geometric_mean(self):
        self.assertAlmostEqual(stats.geometric_mean([0.5, 2.0]), 1.0)
        self.assertAlmostEqual(stats.geometric_mean([0.8] * 3), 0.8)

    def test_quartile_bounds(self):
        self.assertEqual(stats.quartile_bounds([1.0, 2.0, 3.0, 4.0, 5.0]), (3.0, 2.0, 4.0))
        # With two values the median stands for both bounds.
        self.assertEqual(stats.quartile_bounds([1.0, 3.0]), (2.0, 2.0, 2.0))
        # The bounds always hold the median.
        median, low, high = stats.quartile_bounds([1.0, 1.0, 1.0, 1.0, 10.0])
        self.assertLessEqual(low, median)
        self.assertLessEqual(median, high)

    def test_change_bar_is_the_largest_bar(self):
        self.assertEqual(stats.change_bar(0.01, 5.0, 3.0), 5.0)
        self.assertAlmostEqual(stats.change_bar(0.03, 5.0, 3.0), 9.0)
        self.assertEqual(stats.change_bar(None, 5.0, 3.0, process_bar=12.5), 12.5)

    def test_holm_adjusted(self):
        # Holm: the smallest p times 3, the next times 2 (never below the previous), the last.
        adjusted = stats.holm_adjusted([0.01, 0.04, 0.03])
        self.assertEqual([round(p, 6) for p in adjusted], [0.03, 0.06, 0.06])
        self.assertEqual(stats.holm_adjusted([]), [])

if __name__ == "__main__":
    unittest.main()
