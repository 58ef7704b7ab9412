"""Every kernel against its twin on the arguments of real calls, in a child process (tests/structure/test_kernels.py).

`python tests/structure/kernel_calls.py OUT` replaces every kernel of every module of gridbot.kernels by a spy that
keeps copies of the arguments of some of its calls (the first and the last of each solve, see Spy) and calls it, then
solves small levels of every game: a fresh process, so each solver loads and warms its kernels here too; a few
kernels that small solves do not reach are called directly.
Each call kept is then run again as plain Python all the way down
(`twins`: a kernel's twin, whose calls of other kernels go to their twins), keeping the calls it makes of other
kernels, so that a kernel called only from other kernels has calls kept as well. Last, every call kept is run by
the compiled kernel and by its twin, each on its own copy of the arguments, and the results and every argument
after the call are compared; a kernel made with `allocates=True` is also compiled without reference counts,
which must fail (else it would not need them). OUT gets JSON: {kernel name: {calls, problems}}.

A spy stands where the kernel stood in its module, so compiled code that numba compiles meanwhile must still see
the kernel: numba types a spy as the kernel it wraps. The checks run here, not in the test process, because the
arguments of real calls (the RoboZZle loop records, trails of thousands of rows) are too big to pass back.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import pkgutil
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from types import FunctionType, ModuleType, SimpleNamespace
from typing import Any

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher
from numba.extending import typeof_impl

import gridbot
import gridbot.kernels
from gridbot.kernels import made

PER_KERNEL = 16  # calls kept per kernel
KEEP_BYTES = 8 << 20  # a call with more bytes of arrays is not kept (a Carrots store can take a gigabyte)
# the twins of these modules run on lists and bytes in their solver (torch cave's plain searches of small caves):
# they are compared on lists
ON_LISTS = ("gridbot.kernels.torch_cave",)


@dataclass
class Verdict:
    """What the checks found of one kernel: the calls compared, and each difference or fault (none: it passes)."""

    calls: int = 0
    problems: list[str] = field(default_factory=list)


def kernel_modules() -> list[ModuleType]:
    """Every module of gridbot.kernels, imported."""
    names = [m.name for m in pkgutil.walk_packages(gridbot.kernels.__path__, "gridbot.kernels.")]
    return [gridbot.kernels, *(importlib.import_module(name) for name in sorted(names))]


def name_of(kernel: Any) -> str:
    """A kernel's name in the tests: the module of its source and its name there."""
    return f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}"


class Spy:
    """Stands for a kernel (or for its twin, `run`): keeps copies of the arguments of some calls, then calls it.

    Of each step (a solve; a run of a twin), it keeps the 1st, 2nd and 4th calls, and with `last` the last one
    too (a search's last call goes deepest), up to PER_KERNEL in all, those of at most KEEP_BYTES of arrays."""

    def __init__(self, kernel: Dispatcher, kept: list[tuple], run: Callable | None = None, last: bool = False) -> None:
        self.kernel = kernel
        self.kept = kept
        self.run = kernel if run is None else run
        self.last = last
        self.count = 0
        self.latest: tuple | None = None

    def __call__(self, *args: Any) -> Any:
        self.count += 1
        small = sum(a.nbytes for a in args if isinstance(a, np.ndarray)) <= KEEP_BYTES
        if small and self.count in (1, 2, 4) and len(self.kept) < PER_KERNEL:
            self.kept.append(copy.deepcopy(args))
        elif small and self.last:
            self.latest = copy.deepcopy(args)
        return self.run(*args)

    def next_step(self) -> None:
        """The step is over: keep its last call, and count the next one's from 1."""
        if self.latest is not None and len(self.kept) < PER_KERNEL:
            self.kept.append(self.latest)
        self.count, self.latest = 0, None

    def __getattr__(self, name: str) -> Any:  # py_func, signatures, ...: the kernel's
        return getattr(self.kernel, name)


@typeof_impl.register(Spy)
def _typeof_spy(value: Spy, context: Any) -> Any:
    return typeof_impl(value.kernel, context)


def places(modules: list[ModuleType]) -> Iterator[tuple[Any, str, Dispatcher]]:
    """(namespace, attribute, kernel) for every place a kernel stands: a module's globals, or a namespace of
    compiled functions a module keeps (torch cave's)."""
    for module in modules:
        for attr, value in list(vars(module).items()):
            if isinstance(value, SimpleNamespace):
                for inner, fn in list(vars(value).items()):
                    if isinstance(fn, Dispatcher | Spy):
                        yield value, inner, fn.kernel if isinstance(fn, Spy) else fn
            elif isinstance(value, Dispatcher | Spy):
                yield module, attr, value.kernel if isinstance(value, Spy) else value


def twins(modules: list[ModuleType], wrap: Callable[[str, Callable], Callable] | None = None) -> dict[str, Callable]:
    """Every kernel's twin as plain Python all the way down, by name: its source (`py_func`) run with globals in
    which every kernel is its twin (as NUMBA_DISABLE_JIT=1 would run it, in this process). Only so do twins agree
    with compiled code on every type: a compiled kernel called from Python boxes a uint64 above 2**63 as an int,
    which no kernel takes back. `wrap(name, twin)` may stand for each twin in the others' globals."""
    kernels = {name_of(kernel): kernel for _, _, kernel in places(modules)}
    globals_of: dict[str, dict[str, Any]] = {}
    made_here: dict[str, Callable] = {}
    for name, kernel in kernels.items():
        fn = kernel.py_func
        scope = globals_of.setdefault(fn.__module__, dict(vars(sys.modules[fn.__module__])))
        made_here[name] = FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    called = {name: fn if wrap is None else wrap(name, fn) for name, fn in made_here.items()}
    for scope in globals_of.values():
        for attr, value in list(scope.items()):
            if isinstance(value, Dispatcher | Spy):
                scope[attr] = called[name_of(value)]
    return made_here


def solve(game: str, level: Any, **options: Any) -> Any:
    """Solve `level` in this process with those of the options its solver takes, one worker: by the front
    `gridbot.solve(level)`, which re-checks the answer."""
    front = importlib.import_module("gridbot.solve")
    module = importlib.import_module(f"gridbot.solve.{game}")
    run = front if callable(front) else module.solve
    taken = inspect.signature(module.solve).parameters
    return run(level, **{k: v for k, v in {"workers": 1, **options}.items() if k in taken})


def workload() -> Iterator[None]:
    """Small solves of every game, each going through its kernels (the warm-ups too: this is a fresh process),
    one step at a time; then direct calls of the kernels they do not reach."""
    load = gridbot.load
    for name in ("carrots:3", "carrots:5"):  # a small store: calls of a few megabytes
        yield solve("carrots", load(name), memory_budget=16 << 20)
    unique = importlib.import_module("gridbot.solve.carrots.unique")
    clock = importlib.import_module("gridbot.deadline").Clock(None)
    parse = importlib.import_module("gridbot.games.carrots").parse_program
    # one order proven (every search kernel to its end), another found (a search kernel's witness); a small store
    for name, text in (("carrots:2", "LOOP{F F R}"), ("carrots:5", "LOOP{F LOOP(5){F L}}")):
        yield unique.other_behaviour(load(name), parse(text).tokens, parse(text), clock, memory_budget=8 << 20)
    pellet = importlib.import_module("gridbot.games.pellet")
    boards = [  # the first two need the exhaustive search, with the memo and forced-edge propagation
        pellet.Level.parse("....S..\n...##..\n..#....\n......#\n.......\n...##..\n......."),
        pellet.Level.parse("..S....\n.#.....\n....#..\n#...##.\n#......\n..#.#..\n..#...."),
        load("pellet:tunnel"),
        pellet.Level.parse("S....\n.....\n....."),  # a rectangle: the construction
    ]
    for board in boards:
        yield solve("pellet", board)
        yield importlib.import_module("gridbot.solve.pellet").baseline(board)  # the plain search (mode 2)
    yield importlib.import_module("gridbot.generate.pellet").random_level(6, 5, 3)  # a Hamiltonian path: backbite
    yield solve("torch_cave", load("torch_cave:prob16_sample"), jit=True)
    for name in ("lightbot:3", "lightbot:4", "lightbot:2"):
        yield solve("lightbot", load(name))
    lightbot = importlib.import_module("gridbot.games.lightbot")
    yield solve("lightbot", lightbot.Level.parse("0201\n1013\n0201\n\n*..*\n>...\n*..*"))  # its own mirror image
    yield importlib.import_module("gridbot.solve.lightbot_paths").from_paths(load("lightbot:2"))
    yield solve("robos_escape", load("robos_escape:3"))
    yield solve("robozzle", load("robozzle:16"), beam=False)  # its warm-up runs the beam and the annealer too
    yield direct_calls()


def direct_calls() -> None:
    """Kernels that the small solves above do not reach, called with arrays as their callers make them: the
    Carrots powers of a loop and a fingerprint clash (the store's hash keeps them rare), the Light-Bot win check
    with several X left and with a null space past 20 dimensions, a Pellet Eater search with the memo and
    forced-edge propagation on, the share of a Robo's Escape subtree, the RoboZZle board copies of a loop record
    and two of its cuts."""
    rng = np.random.default_rng(7)
    carrots = importlib.import_module("gridbot.kernels.carrots")
    k, states, words = 3, 12, 2
    ends = rng.integers(0, states, size=(k, states)).astype(np.int32)
    vis = rng.integers(0, 2**63, size=(k, states, words), dtype=np.uint64)
    r1 = rng.integers(1, 2**63, size=states, dtype=np.uint64)
    r2 = rng.integers(1, 2**63, size=(states, words), dtype=np.uint64)
    limit = 4 * states * states + 4
    out = np.empty((limit, states), np.int32), np.empty((limit, states, words), np.uint64), np.empty(limit, np.uint64)
    carrots.loop_powers(ends, vis, 1, r1, r2, *out)
    carrots._collide(np.zeros((4, 4), np.int64), np.zeros(4, np.uint64), 1, 2, 0, 3, 1, np.uint64(2**63 + 5))
    unique = importlib.import_module("gridbot.kernels.carrots_unique")  # the maps of a store that grows
    keys, rows = np.zeros(16, np.uint64), np.full(16, -1, np.int64)
    keys[[3, 4, 9]], rows[[3, 4, 9]] = (np.uint64(19), np.uint64(3), np.uint64(2**63 + 9)), (0, 1, 2)
    unique.rehash(keys, rows, np.zeros(32, np.uint64), np.full(32, -1, np.int64))
    lightbot = importlib.import_module("gridbot.kernels.lightbot")
    for lights, lens in ((3, (4, 2, 2)), (1, (12, 8, 8))):
        full = (1 << lights) - 1
        vec = np.zeros(lightbot.N_GAPS, np.int64)
        for p in range(3):
            for g in range(lens[p] + 1):
                vec[p * lightbot.GAPS_PER_BODY + g] = rng.integers(1, full + 1)
        wlen, lim = np.array(lens, np.int64), np.array([12, 8, 8], np.int64)
        lightbot.win_gaps(vec, wlen, lim, 3, full, np.zeros(lightbot.WORK_SHAPE, np.int64))
        lightbot.win_blink(
            lightbot.GAPS_PER_BODY + 1, 0, vec, wlen, lim, 4, full, np.zeros(lightbot.WORK_SHAPE, np.int64)
        )
    # main's last commands over closed procedures (f1: J J F, f2: F L): can three more stand on every light?
    mv, light, full, start, facing = lightbot.board_arrays(gridbot.load("lightbot:3"))
    wb, wlen = np.zeros((3, 12), np.int64), np.array([2, 3, 2], np.int64)
    wb[0, :2], wb[1, :3], wb[2, :2] = (0, 4), (1, 1, 0), (0, 2)
    mac, sc = np.zeros((lightbot.M_ROWS, 4 * len(light)), np.int64), np.zeros(lightbot.N_SCALARS, np.int64)
    closed = np.array([0, 1, 1], np.int64)
    lightbot.cuts._reaches_all(start * 4 + facing, full, 3, lightbot.state_table(mv), light, True, wb, wlen, closed,
                               mac, sc)  # fmt: skip
    for guess in (0, lightbot.GUESS_LOOP):
        lightbot.cuts._closing_fails(1, wlen, guess)
    solver = importlib.import_module("gridbot.solve.pellet")
    clock = importlib.import_module("gridbot.deadline").Clock(None)
    level = importlib.import_module("gridbot.games.pellet").Level.parse
    for text in ("....S..\n...##..\n..#....\n......#\n.......\n...##..\n.......", "S...\n.##.\n....\n#.##"):
        solver.search(solver.Board(level(text)), clock)  # the second has one dead end: forced edges
    robos_escape = importlib.import_module("gridbot.kernels.robos_escape")
    frames = rng.integers(-1, robos_escape.SLOT_OPTIONS, size=(8, robos_escape.N_FRAME)).astype(np.int64)
    robos_escape.split_owner(frames, 3, 2)
    robozzle = importlib.import_module("gridbot.kernels.robozzle.machine")
    record = np.zeros(robozzle.N_RECORD, np.int64)
    colour = rng.integers(-1, 3, size=robozzle.SNAP_TILES).astype(np.int64)
    robozzle._keep_colours(record, colour)
    robozzle._same_colours(record, colour)
    # the RoboZZle cuts of a program too short for its length and of a helper called once (F1: F2 L F1 | F2: F F)
    rz = importlib.import_module("gridbot.kernels.robozzle")
    slots, nd, closed = np.array([5, 3, 2, 0, 0], np.int64), np.array([3, 2, 0, 0, 0], np.int64), np.ones(5, np.int64)
    op, cs = np.full((rz.MAX_FUNCTIONS, rz.MAX_SLOTS), rz.UNKNOWN, np.int64), np.zeros((10, rz.MAX_SLOTS), np.int64)
    op[0, :3], op[1, :2], cs[:2, :3] = (rz.OP_CALL + 1, rz.OP_L, rz.OP_CALL), rz.OP_F, rz.NO_COND
    sc = np.zeros(rz.N_SCALARS, np.int64)
    sc[rz.S_USED], sc[rz.S_LEAST] = 5, 6
    rz.exact._short(sc, slots, nd, closed)
    rz.exact._inlined(slots, op, cs, nd)


def same(a: Any, b: Any) -> bool:
    """Equal values: arrays (or lists standing for them) element by element, tuples item by item."""
    if isinstance(a, np.ndarray | list | bytearray | bytes) or isinstance(b, np.ndarray | list | bytearray | bytes):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def for_twin(name: str, args: tuple) -> tuple:
    """The arguments as the solver gives them to the twin: each array a list for a twin that runs on lists."""
    if name.rsplit(".", 1)[0] not in ON_LISTS:
        return args
    return tuple(a.tolist() if isinstance(a, np.ndarray) else a for a in args)


def compare(name: str, kernel: Dispatcher, twin: Callable, calls: list[tuple]) -> Verdict:
    """Each call run by the compiled kernel and by its twin, on copies: the results and the arguments after."""
    verdict = Verdict(calls=len(calls))
    for number, args in enumerate(calls):
        mine, theirs = copy.deepcopy(args), for_twin(name, copy.deepcopy(args))
        try:
            got = kernel(*mine)
            expected = twin(*theirs)
        except Exception as error:  # noqa: BLE001 - a fault is a verdict, reported by the test
            verdict.problems.append(f"call {number}: {type(error).__name__}: {error}")
            continue
        if not same(got, expected):
            verdict.problems.append(f"call {number}: compiled returned {got!r}, the twin {expected!r}")
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if not same(a, b):
                verdict.problems.append(f"call {number}: argument {i} differs after the call")
    return verdict


def needs_counts(kernel: Dispatcher) -> str | None:
    """None when the kernel fails to compile without reference counts (it allocates), else what to do."""
    if not kernel.signatures:
        return "never called compiled: cannot check that it allocates"
    try:
        njit(_nrt=False)(kernel.py_func).compile(kernel.signatures[0])
    except Exception:  # noqa: BLE001 - numba refuses an allocation without the counts: what is checked here
        return None
    return "compiles without reference counts: make it with kernel(...) without allocates=True"


def main() -> None:
    modules = kernel_modules()
    kept: dict[str, list[tuple]] = {}
    spies: dict[str, Spy] = {}
    for where, attr, kernel in places(modules):
        name = name_of(kernel)
        spy = spies.setdefault(name, Spy(kernel, kept.setdefault(name, []), last=True))
        setattr(where, attr, spy)
    for _ in workload():
        for spy in spies.values():
            spy.next_step()
    verdicts: dict[str, Verdict] = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):  # the twins' numpy scalars wrap as compiled code
        warnings.simplefilter("ignore")
        # each call kept, run as plain Python all the way down, keeps the calls it makes of other kernels
        inner: dict[str, list[tuple]] = {name: [] for name in kept}
        wrappers: dict[str, Spy] = {}

        def wrap(name: str, twin: Callable) -> Spy:
            wrappers[name] = Spy(spies[name].kernel, inner[name], twin)
            return wrappers[name]

        plain = twins(modules, wrap)
        for name, calls in kept.items():
            for args in calls:
                plain[name](*for_twin(name, copy.deepcopy(args)))
                for spy in wrappers.values():
                    spy.next_step()
        for name, calls in inner.items():
            kept[name] += calls[: PER_KERNEL - len(kept[name])]
        plain = twins(modules)
        for name, spy in spies.items():
            verdicts[name] = compare(name, spy.kernel, plain[name], kept[name])
            how = made(spy.kernel)
            if how is not None and how.allocates and kept[name]:
                problem = needs_counts(spy.kernel)
                if problem is not None:
                    verdicts[name].problems.append(problem)
    with open(sys.argv[1], "w") as out:
        json.dump({name: asdict(verdict) for name, verdict in verdicts.items()}, out, indent=1)


if __name__ == "__main__":
    main()
