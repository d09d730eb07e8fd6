"""Mutation testing of the modules that decide games, with mutmut 3 (the `mutation` extra).

mutmut puts small plausible bugs (``<`` for ``<=``, ``and`` for ``or``, a changed constant, a
dropped argument) into the modules that ``[tool.mutmut] only_mutate`` in pyproject.toml names,
one at a time, and reruns the tests that reach the mutated function: it records which tests
reach which function in one run of the test selection (``pytest_add_cli_args_test_selection``),
so every mutant runs a few tests, fastest first, stopping at the first failure, under the
``mutation`` hypothesis profile (few, derandomized examples; tests/conftest.py).

Usage, from the repository root (mutmut writes its copy of the tree to ./mutants, ignored by git)::

    pip install -e '.[mutation]'
    python benchmarks/mutation.py run                       # mutants not yet checked (niced, 2 workers)
    python benchmarks/mutation.py run 'trickrules.rules.conditions*'   # (re)check one module's mutants
    python benchmarks/mutation.py report                    # score of the last run, survivors' diffs
    python benchmarks/mutation.py report --all-equivalent   # ... and the equivalent ones
    python benchmarks/mutation.py check 'trickrules.spec.compile_round.*passing*' --tests tests/test_defaults.py
                                                            # does this test kill these mutants?

``run`` without names checks the mutants that have no verdict yet (mutmut keeps verdicts in
./mutants; a changed function's mutants lose theirs); with names it rechecks those. Tests added
since the first run are recorded on the next. Delete ./mutants to start over.

Each function's tests are cut to its fastest ones within ``--budget`` seconds (15 by default, as
measured while recording, which runs slower than a plain pytest run): the engine's core is
reached by most of the suite, and a surviving mutant would otherwise cost minutes. A mutant
only a left-out slow test would kill counts as surviving: the score is a lower bound.

Equivalent mutants (no game can tell them apart from the original) are listed in
benchmarks/mutation-equivalent.yaml, each by module, function and the mutated line's text
before and after (not by mutmut's mutant number, which shifts when the function changes), with
a reason. They are left out of the score's denominator and shown as equivalent; an entry that
matches no mutant is reported as stale.

Score = killed / (mutants - equivalent), where killed counts mutants that made a test fail or
time out (an endless loop is caught), and mutants that no test reaches count as survivors.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "benchmarks" / "mutation-equivalent.yaml"
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
UNTRIED = (None, 0, 5, 33, 35)
"""mutmut's exit codes of a mutant no test has killed: not checked, survived, no tests, suspicious."""
FOCUS = {
    "trickrules.spec.compile": (
        "test_compile_keys.py", "test_compile_counters_restrictions_rounds.py", "test_compile_contracts_and_options.py", "test_compile_deal_conditions_ranking.py",
        "test_messages.py", "test_defaults.py", "test_language2.py", "test_compile_bid_phase.py", "test_shipped_rulesets.py",
        "test_compile_auction_step.py", "test_definitions.py",
    ),
    "trickrules.spec.checks": ("test_schema_messages.py", "test_messages.py"),
    "trickrules.rules.scoring": ("test_scoring_edges.py", "test_score_round_outside_a_game.py", "test_scoring.py", "test_team_values.py"),
    "trickrules.rules.cards": ("test_card_names.py", "test_rank_names_by_suit.py", "test_card_conditions.py", "test_rule_module_edges.py"),
    "trickrules.rules.expressions": ("test_expression_edges.py", "test_expressions.py", "test_rule_module_edges.py"),
    "trickrules.rules.measures": ("test_melds.py", "test_meld_sequences.py", "test_held_measures.py", "test_card_conditions.py", "test_rule_module_edges.py"),
    "trickrules.rules.rewards": ("test_rewards.py", "test_reward_rules.py", "test_partners.py", "test_trick_names.py", "test_trick_number.py", "test_card_conditions.py",
                                 "test_rule_module_edges.py", "test_examples.py"),
    "trickrules.rules.whole_trick": ("test_whole_trick.py", "test_trick_names.py", "test_card_conditions.py", "test_rule_module_edges.py"),
    "trickrules.rules.ranking": ("test_ranking.py", "test_ranking_steps.py", "test_rank_order.py", "test_trick_number.py", "test_rule_module_edges.py"),
    "trickrules.rules.follow": ("test_follow.py", "test_follow_in_trick.py", "test_special_cards.py", "test_card_conditions.py", "test_rule_module_edges.py"),
    "trickrules.rules.ruleset": ("test_shipped_rulesets.py", "test_defaults.py", "test_card_conditions.py", "test_rule_module_edges.py"),
    "trickrules.rules.": ("test_card_conditions.py", "test_rule_module_edges.py"),
    # a kind of phase also says what the rest shows of it: its rulebook text, log words, figures
    # and counts, and tensor segments (test_phase_texts.py records them all; the rulebook and
    # tensor files test them in the documents and the layout)
    "trickrules.engine.phases.auction": (
        "test_state_details.py", "test_phase_edges.py", "test_refusals.py", "test_auction.py", "test_phase_texts.py", "test_rulebook.py",
    ),
    "trickrules.engine.phases.call": (
        "test_state_details.py", "test_phase_edges.py", "test_refusals.py", "test_called_partners_and_heading.py", "test_phase_texts.py",
        "test_rulebook.py",
    ),
    "trickrules.engine.phases.": (
        "test_state_details.py", "test_state_events_and_defaults.py", "test_phase_edges.py", "test_refusals.py",
        "test_rulebook.py", "test_rulebook_declaring.py", "test_tensors.py", "test_phase_texts.py", "test_phase_kind_defaults.py",
        "test_game_info.py", "test_cloning.py", "test_phase_rules.py", "test_two_stage_deal.py",
    ),
    "trickrules.engine.state": (
        "test_state_details.py", "test_state_events_and_defaults.py", "test_phase_edges.py", "test_refusals.py", "test_open_hand.py",
        "test_auction.py",
    ),
    "trickrules.engine.": ("test_state_details.py", "test_state_events_and_defaults.py", "test_phase_edges.py", "test_refusals.py"),
}
"""Each module's own test files (in tests/), by the start of its functions' names: those of its
tests that reach a function are always kept for it, before and beside the budget (the first
matching prefix counts). They are unit tests of the module's edges, quick and to the point; the
budget then adds the most targeted of the others."""
UNFORKABLE = ("tests/test_ray_backend.py",)
"""Tests left out of every mutant's run: a Ray cluster started in mutmut's forked child hangs
(and no CPU time passes, so mutmut's timeout never ends it)."""


@dataclass(frozen=True)
class Mutant:
    name: str  # mutmut's name, e.g. trickrules.rules.conditions.x_card_holds__mutmut_3
    status: str
    module: str
    function: str  # Class.method or function
    original: str  # the changed lines before and after, stripped and joined with " / "
    mutated: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.module, self.function, self.original, self.mutated)


def trim_tests(budget: float) -> None:
    """Keep, for every function, its most targeted tests up to `budget` seconds in all.

    mutmut reruns every test that reaches a mutated function; for the engine's core that is
    most of the suite, minutes for each surviving mutant. A test that reaches few functions
    (a unit test of this one) tells more about a mutant per second than one that plays whole
    games through everything, so tests are taken by how many functions they reach, then by
    duration: the most targeted test of every test file first, then the second of each, ...
    (a file of targeted tests is not crowded out by many quick tests of one other file), up
    to the budget. The tests of the module's own files in `FOCUS` come before all of them and
    are always kept. A mutant only the dropped tests would kill counts as surviving, so the
    score is a lower bound for the whole selection.
    """
    from mutmut.state import state

    durations = state().duration_by_test
    by_function = state().tests_by_mangled_function_name
    reach: Counter[str] = Counter(test for tests in by_function.values() for test in tests)

    def order(test: str) -> tuple[int, float, str]:
        return reach[test], durations.get(test, 0.0), test

    for function, tests in by_function.items():
        tests.difference_update([t for t in tests if t.startswith(UNFORKABLE)])
        focus = focus_files(function)
        kept = {t for t in tests if t.split("::")[0] in focus}
        by_file: dict[str, list[str]] = {}
        for test in sorted(tests - kept, key=order):
            by_file.setdefault(test.split("::")[0], []).append(test)
        rounds = [sorted((f[i] for f in by_file.values() if i < len(f)), key=order)
                  for i in range(max((len(f) for f in by_file.values()), default=0))]
        total = 0.0
        for test in (t for r in rounds for t in r):
            total += durations.get(test, 0.0)
            if kept and total > budget:
                break
            kept.add(test)
        tests.intersection_update(kept)


def focus_files(function: str) -> frozenset[str]:
    """The paths (as test ids start) of the test files `FOCUS` gives `function`'s module."""
    for prefix, files in FOCUS.items():
        if function.startswith(prefix):
            return frozenset(f"tests/{name}" for name in files)
    return frozenset()


def run(patterns: list[str], max_children: int, nice: int, budget: float, only: list[str]) -> int:
    """mutmut's `run`, in this process (niced), with the tests per function trimmed to `budget`."""
    os.chdir(ROOT)
    os.nice(nice)
    if (ROOT / "mutants").is_dir():  # mutmut copies the tests only when it makes ./mutants
        import shutil

        shutil.copytree(ROOT / "tests", ROOT / "mutants" / "tests", dirs_exist_ok=True)
    sys.argv = ["mutmut"]
    import mutmut.__main__ as mutmut_main

    collect = mutmut_main.collect_or_load_stats

    def collect_then_trim(*args: object, **kwargs: object) -> None:
        collect(*args, **kwargs)  # type: ignore[arg-type]
        trim_tests(budget)

    tests_for_names = mutmut_main.tests_for_mutant_names

    def tests_for(names: list[str]) -> set[str]:
        """The clean run before the mutants: with no names, the tests kept for some function
        (mutmut would run the whole selection)."""
        from mutmut.state import state

        if names:
            return tests_for_names(names)
        return set().union(*state().tests_by_mangled_function_name.values())

    collect_data = mutmut_main.collect_source_file_mutation_data

    def collect_only(*, mutant_names: list[str]) -> tuple[list, dict]:
        """The mutants to check: with --only, those of functions that match (cached verdicts kept)."""
        mutants, by_path = collect_data(mutant_names=mutant_names)
        if only:
            mutants = [m for m in mutants if any(fnmatch.fnmatch(m[1], pattern) for pattern in only)]
        return mutants, by_path

    mutmut_main.collect_source_file_mutation_data = collect_only  # type: ignore[assignment]
    mutmut_main.collect_or_load_stats = collect_then_trim  # type: ignore[assignment]
    mutmut_main.tests_for_mutant_names = tests_for  # type: ignore[assignment]
    start = time.monotonic()
    code = 0
    try:
        mutmut_main._run(patterns, max_children)
    except SystemExit as exit:
        code = int(exit.code or 0)
    print(f"\nmutmut run took {time.monotonic() - start:.0f} s (exit {code})")
    return code


def _changed_lines(diff: str) -> tuple[str, str]:
    before, after = [], []
    for line in diff.splitlines():
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("-"):
            before.append(line[1:].strip())
        elif line.startswith("+"):
            after.append(line[1:].strip())
    return " / ".join(before), " / ".join(after)


def mutant_names() -> list[str]:
    """The names of the last run's mutants (without their diffs, which take long to make)."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.utils.file_utils import walk_mutatable_files

    names: list[str] = []
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        names.extend(data.exit_code_by_key)
    return names


def load_mutants() -> list[Mutant]:
    """Every mutant of the last run, with its verdict and changed lines (mutmut's own records)."""
    os.chdir(ROOT)
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files
    from mutmut.utils.format_utils import orig_function_and_class_names_from_key

    mutants = []
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        module = ".".join(Path(path).with_suffix("").parts).removesuffix(".__init__")
        for name, code in data.exit_code_by_key.items():
            function, cls = orig_function_and_class_names_from_key(name)
            original, mutated = _changed_lines(get_diff_for_mutant(name, path=path))
            mutants.append(
                Mutant(name, status_by_exit_code[code], module, f"{cls}.{function}" if cls else function, original, mutated)
            )
    return mutants


def load_equivalent() -> list[dict[str, str]]:
    if not EQUIVALENT.exists():
        return []
    return yaml.safe_load(EQUIVALENT.read_text()) or []


def report(show_equivalent: bool, show_diffs: bool, only: list[str] | None = None) -> int:
    mutants = [m for m in load_mutants() if not only or any(fnmatch.fnmatch(m.name, p) for p in only)]
    checked = [m for m in mutants if m.status != "not checked"]
    entries = load_equivalent()
    equivalent_keys = {(e["module"], e["function"], e["original"], e["mutated"]): e for e in entries}
    matched: set[tuple[str, str, str, str]] = set()
    counts: Counter[str] = Counter()
    survivors = []
    for m in checked:
        if m.key in equivalent_keys:
            matched.add(m.key)
            counts["equivalent"] += 1
            if m.status in KILLED:  # listed as equivalent but a test tells it apart: the list is wrong
                print(f"listed as equivalent but killed: {m.name}")
            if show_equivalent:
                print(f"equivalent {m.name}: {m.original!r} -> {m.mutated!r}: {equivalent_keys[m.key]['reason']}")
        elif m.status in KILLED:
            counts["killed"] += 1
        else:
            counts["survived" if m.status == "survived" else m.status] += 1
            survivors.append(m)
    by_module: dict[str, Counter[str]] = {}
    for m in checked:
        verdict = "equivalent" if m.key in equivalent_keys else ("killed" if m.status in KILLED else "survived")
        by_module.setdefault(m.module, Counter())[verdict] += 1
    print(f"{'module':45} {'mutants':>7} {'killed':>7} {'surv.':>6} {'equiv.':>6} {'score':>7}")
    for module, c in sorted(by_module.items()):
        total = sum(c.values())
        denominator = total - c["equivalent"]
        score = 100 * c["killed"] / denominator if denominator else 100.0
        print(f"{module:45} {total:7} {c['killed']:7} {c['survived']:6} {c['equivalent']:6} {score:6.1f}%")
    for m in survivors:
        print(f"\n{m.status}: {m.name} ({m.function})")
        if show_diffs:
            print(f"    - {m.original}\n    + {m.mutated}")
    every = {m.key for m in mutants}
    stale = [e for k, e in equivalent_keys.items() if k not in every and any(m.module == k[0] for m in mutants)]
    for e in stale:
        print(f"\nstale equivalent entry (matches no mutant): {e['module']} {e['function']}: {e['original']!r}")
    denominator = len(checked) - counts["equivalent"]
    score = 100 * counts["killed"] / denominator if denominator else 100.0
    print(
        f"\n{len(checked)} mutants checked ({len(mutants) - len(checked)} not checked): {counts['killed']} killed, "
        f"{len(survivors)} not killed, {counts['equivalent']} equivalent; score {score:.1f}%"
    )
    return 0


def check(names: list[str], tests: list[str], record: bool = False, workers: int = 2, untried: bool = False) -> int:
    """Run `tests` against each mutant in `names` (globs over the last run's mutants), in ./mutants.

    A quick answer to "does my new test kill this mutant?" before a whole `run`: the test files
    are copied into ./mutants first, and each mutant gets one plain pytest run, stopping at the
    first failure (no time budget). Prints a verdict per mutant; exit 1 if any survived. With
    `record`, a mutant the tests kill is stored as killed in mutmut's verdicts, as a run with
    these tests as its selection would store it; a survivor keeps its verdict, or becomes
    "survived" if it had none. With `untried`,
    only the mutants no run or check has killed, and not listed as equivalent.
    """
    import shutil
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.utils.file_utils import walk_mutatable_files

    os.chdir(ROOT)
    data_by_name: dict[str, SourceFileMutationData] = {}
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        data_by_name.update(dict.fromkeys(data.exit_code_by_key, data))
    chosen = [
        name for name, data in data_by_name.items()
        if any(fnmatch.fnmatch(name, pattern) for pattern in names)
        and not (untried and data.exit_code_by_key[name] not in UNTRIED)
    ]
    if untried:  # nor those listed as equivalent: no test can kill them
        listed = {(e["module"], e["function"], e["original"], e["mutated"]) for e in load_equivalent()}
        equivalent = {m.name for m in load_mutants() if m.key in listed}
        chosen = [name for name in chosen if name not in equivalent]
    if not chosen:
        print("no mutant matches", file=sys.stderr)
        return 2
    for test in tests:
        source = Path(test.split("::")[0])
        if source.is_file():
            shutil.copy(source, ROOT / "mutants" / source)

    def one(name: str) -> int:
        env = dict(os.environ, MUTANT_UNDER_TEST=name)
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--hypothesis-profile=mutation", *tests]
        return subprocess.run(command, cwd=ROOT / "mutants", env=env, capture_output=True).returncode

    # the tests must pass without a mutant first: ./mutants holds the sources of the last run,
    # and a test of code changed since then would fail for every mutant and "kill" it
    if one("none") != 0:
        print("the tests fail without a mutant in ./mutants (sources changed since the last run?): "
              "start a run to bring ./mutants up to date", file=sys.stderr)
        return 2

    survived = 0
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for name, code in zip(chosen, pool.map(one, chosen)):
            verdict = {0: "survived", 1: "killed"}.get(code, f"pytest exit {code}")
            survived += code != 1
            print(f"{verdict:9} {name}", flush=True)
            data = data_by_name[name]
            if record and (code == 1 or (code == 0 and data.exit_code_by_key[name] is None)):
                # killed; or not checked before, now a survivor. Saved at once, so that an
                # interrupted check keeps what it found; only this file: a run may own the others
                data.exit_code_by_key[name] = code
                data.save()
    return 1 if survived else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run_parser = sub.add_parser("run", help="run mutmut (niced), then report")
    run_parser.add_argument("patterns", nargs="*", help="mutant name globs, e.g. 'trickrules.rules.conditions*'")
    run_parser.add_argument("--max-children", type=int, default=2)
    run_parser.add_argument("--survivors", action="store_true", help="recheck the mutants no run has killed, and check those not checked yet")
    run_parser.add_argument(
        "--only", action="append", default=[], metavar="GLOB",
        help="check only the unchecked mutants whose names match (repeatable), e.g. 'trickrules.rules.*'",
    )
    run_parser.add_argument("--nice", type=int, default=10)
    run_parser.add_argument(
        "--budget", type=float, default=15.0, help="seconds of tests per mutated function, fastest first (default 15)"
    )
    report_parser = sub.add_parser("report", help="score of the last run")
    report_parser.add_argument("--all-equivalent", action="store_true", help="list the equivalent mutants too")
    report_parser.add_argument("--only", action="append", default=[], metavar="GLOB", help="score only these mutants")
    for p in (run_parser, report_parser):
        p.add_argument("--no-diffs", action="store_true", help="survivors' names only")
    check_parser = sub.add_parser("check", help="run some tests against some mutants, without recording a verdict")
    check_parser.add_argument("names", nargs="+", help="mutant name globs")
    check_parser.add_argument("--tests", nargs="+", required=True, help="test files or ids, e.g. tests/test_defaults.py")
    check_parser.add_argument("--record", action="store_true", help="store the mutants these tests kill as killed")
    check_parser.add_argument("--untried", action="store_true", help="only mutants no run or check has killed, and not listed as equivalent")
    check_parser.add_argument("--workers", type=int, default=2, help="mutants checked at once (default 2)")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.names, args.tests, args.record, args.workers, args.untried)
    if args.command == "run":
        if args.survivors:  # recheck what no run has killed (and check the rest), e.g. after adding tests
            args.patterns += [
                m.name for m in load_mutants()
                if m.status not in KILLED and (not args.only or any(fnmatch.fnmatch(m.name, p) for p in args.only))
            ]
            if not args.patterns:
                return report(False, not args.no_diffs, args.only)
        run(args.patterns, args.max_children, args.nice, args.budget, args.only)
        return report(False, not args.no_diffs, args.only)
    return report(args.all_equivalent, not args.no_diffs, args.only)


if __name__ == "__main__":
    sys.exit(main())
