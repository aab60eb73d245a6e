"""Statistics as pure functions of numbers: robust spreads, process levels, the one-sided
Mann-Whitney U test and Holm's correction, and the verdict rule of one benchmark.

Nothing here reads a file or knows a benchmark: callers pass samples (throughputs, larger is
faster) and get numbers or verdict words back.  Without scipy or statsmodels the module still
imports, and the functions that need them raise errors.MissingModule (require_libraries).
"""

import math
import statistics

from .errors import MissingModule

try:
    from scipy.special import comb
    from scipy.stats import mannwhitneyu, median_abs_deviation
    from scipy.stats import t as t_dist
    from statsmodels.stats.multitest import multipletests
    MISSING = None
except ImportError as e:  # the module imports all the same; the functions that need it refuse
    MISSING = e.name

ALPHA = 0.05
CORRECTION = "holm"
MIN_UTEST_REPETITIONS = 4
MIN_NOISE_REPETITIONS = 3
# Up to this many samples a side (and without a value on both sides) the U test's p-value is exact;
# scipy's normal approximation overstates the smallest p-values of 9 against 9
# samples tenfold, enough to hide any regression behind the correction.
MAX_EXACT_UTEST = 50
# Fewer values than this have no quartiles (quartile_bounds gives the median as both bounds).
MIN_QUARTILE_VALUES = 3


def require_libraries():
    """MissingModule where scipy or statsmodels is missing: bad set-up, not a regression, so
    exit status 2 with the reason (the line compare.py has always printed), never 1."""
    if MISSING is not None:
        raise MissingModule(f"compare.py: {MISSING} is missing (Debian packages python3-scipy "
                            "and python3-statsmodels)", 2, MISSING)


def relative_spread(samples):
    """Scaled median absolute deviation over the median (a robust relative standard
    deviation), or None with fewer than MIN_NOISE_REPETITIONS samples.

    Robust on purpose: a repetition taken while the GPU was still raising its
    clocks can be several times slower than the others and must not make the
    benchmark look noisy.
    """
    require_libraries()
    if len(samples) < MIN_NOISE_REPETITIONS:
        return None
    return float(median_abs_deviation(samples, scale="normal")) / statistics.median(samples)


def process_medians(samples, processes):
    """The median of each known process's samples (processes: one label per sample, None
    where unknown)."""
    groups = {}
    for sample, process in zip(samples, processes):
        if process is not None:
            groups.setdefault(process, []).append(sample)
    return [statistics.median(g) for g in groups.values()]


def process_prediction_half_width_pct(samples, processes):
    """Half-width in percent of the 95% prediction interval of one new process's level
    from the processes of samples: the standard deviation of their medians, relative to the
    overall median, times t(0.975, R-1) * sqrt(1 + 1/R); None with fewer than two
    processes."""
    require_libraries()
    medians = process_medians(samples, processes)
    runs = len(medians)
    if runs < 2:
        return None
    spread = statistics.stdev(medians) / statistics.median(samples)
    return float(t_dist.ppf(0.975, runs - 1)) * math.sqrt(1 + 1 / runs) * spread * 100.0


def log_deviations(medians):
    """(sum of squared deviations, degrees of freedom) of the logarithms of one benchmark's
    process medians from their mean; None with fewer than two, or a median not above 0."""
    if len(medians) < 2 or min(medians) <= 0:
        return None
    logs = [math.log(m) for m in medians]
    mean = statistics.fmean(logs)
    return sum((x - mean) ** 2 for x in logs), len(logs) - 1


def pooled_spread(sum_of_squares, df):
    """The pooled standard deviation of deviations whose squares sum to sum_of_squares over
    df degrees of freedom."""
    return math.sqrt(sum_of_squares / df)


def class_process_bar(class_process, n_tests):
    """Half-width in percent of the prediction interval of a new process's level from its
    class's pooled spread (class_process: (s, df, R)), corrected for the n_tests benchmarks
    of the call (Bonferroni): t(1 - alpha/n_tests, df) * s * sqrt(1 + 1/R); None without a
    pooled spread."""
    require_libraries()
    if class_process is None or n_tests < 1:
        return None
    spread, df, runs = class_process
    quantile = float(t_dist.ppf(1.0 - ALPHA / n_tests, df))
    return quantile * math.sqrt(1 + 1 / runs) * spread * 100.0


def utest_pvalues(base, run):
    """(p_slower, p_faster): one-sided Mann-Whitney U p-values that the run's
    throughputs are lower, or higher, than the baseline's; (None, None) with
    fewer than MIN_UTEST_REPETITIONS samples on a side."""
    require_libraries()
    if min(len(base), len(run)) < MIN_UTEST_REPETITIONS:
        return None, None
    if len(set(base) | set(run)) == 1:
        return 1.0, 1.0  # all samples equal: nothing to tell apart
    # Ties within one side (a steady kernel's repetitions, equal to the timer's resolution) do
    # not change U, which counts pairs across the sides, so every way of breaking them gives
    # the same exact p-value; only a value on both sides makes U depend on the tie-break.
    exact = not set(base) & set(run) and max(len(base), len(run)) <= MAX_EXACT_UTEST
    method = "exact" if exact else "asymptotic"
    pvalues = [mannwhitneyu(run, base, alternative=alt, method=method).pvalue
               for alt in ("less", "greater")]
    return tuple(1.0 if math.isnan(p) else float(p) for p in pvalues)


def smallest_pvalue(n, m):
    """The smallest one-sided p-value of an exact U test of n against m samples
    (every sample of one side below every sample of the other)."""
    require_libraries()
    return 1.0 / comb(n + m, n, exact=True)


def holm_adjusted(pvalues):
    """Holm-corrected p-values (same order)."""
    require_libraries()
    if not pvalues:
        return []
    return [float(p) for p in multipletests(pvalues, alpha=ALPHA, method=CORRECTION)[1]]


def change_bar(noise, threshold_pct, noise_factor, process_bar=None):
    """The change in percent a benchmark must exceed: the threshold, K times its noise or
    the prediction interval of a new process's level, the largest."""
    return max(threshold_pct, noise_factor * noise * 100.0 if noise is not None else 0.0,
               process_bar or 0.0)


def classify(change_pct, noise, p_adjusted, threshold_pct, noise_factor, process_bar=None):
    """Verdict from a throughput change, its noise and its corrected p-value (None: no test)."""
    if abs(change_pct) <= threshold_pct:
        return "SAME"
    if abs(change_pct) <= change_bar(noise, threshold_pct, noise_factor, process_bar):
        return "UNSURE"  # beyond the threshold, but within this benchmark's noise
    if p_adjusted is None or p_adjusted >= ALPHA:
        return "UNSURE"  # no U test (too few repetitions), or not significant after correction
    return "SLOWER" if change_pct < 0 else "FASTER"


def geometric_mean(ratios):
    """The geometric mean of positive ratios."""
    return math.exp(statistics.fmean([math.log(r) for r in ratios]))


def quartile_bounds(values):
    """(median, lower bound, upper bound): the quartiles (inclusive method) widened to hold
    the median; the median itself as both bounds with fewer than MIN_QUARTILE_VALUES."""
    med = statistics.median(values)
    if len(values) >= MIN_QUARTILE_VALUES:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return med, min(q1, med), max(q3, med)
    return med, med, med
