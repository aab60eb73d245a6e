"""The library of csbench's scripts: compare.py, findings.py, history.py, plot.py, table.py and
tune_plot.py are thin command lines over it, and no module here imports one of them.  Nothing
here prints or exits: functions return what the command lines print (strings, lines, results)
and raise what they turn into exit statuses (runs.InputError, errors.CommandError).

    layout      where the scripts sit: a source tree or an installed one, and their defaults
    runs        reading runs (JSON, .json.xz): bad input, device keys, each benchmark's point
                (family, variant, axes, clock) and its samples, a run's provenance (the
                overrides that make it an experiment, its manifests)
    stats       statistics as pure functions of numbers: spreads, U tests, corrections, the
                verdict rule of one benchmark
    verdicts    one run against its baseline: a verdict per benchmark, corrected over a call
    baselines   stored baselines: finding a run's, recording, merging and joining them
    formatting  text output: compare.py's report, table.py's tables, findings.py's tables
    claims      findings.py's rules and their verdicts on each device
    charts      plot.py's charts of throughput (matplotlib)
    roofline    plot.py's roofline charts against a run's measured ceilings
    history     history.py's database (SQLite): its schema, adding runs, the steps between
                consecutive runs of a device
    report      history.py's report: a static HTML site of the database (matplotlib)
    tune_plot   tune_plot.py's charts of a search's results (bench --tune-out, matplotlib)
    errors      what a command line reports as it stops: a line and an exit status

Nothing here parses a benchmark's name except runs.point_from_name, the reader of files
written before each entry carried its point.
"""
