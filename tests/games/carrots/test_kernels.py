"""Each Carrots kernel against its reference implementation (reference.py, beside), on random fragment tables."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, target
from hypothesis import strategies as st

from gridbot.kernels import carrots as kern

from . import reference as ref


@st.composite
def tables(draw):
    """A random table: k fragments over S states, marks in W words (as the solver lays them out)."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    k = draw(st.integers(1, 6))
    S = draw(st.integers(1, 12))
    W = draw(st.integers(1, 2))
    ends = rng.integers(0, S, size=(k, S)).astype(np.int32)
    bits = rng.integers(0, 2**63, size=(2, k, S, W), dtype=np.uint64)
    vis = bits[0] & bits[1]
    return rng, ends, vis


def hash_weights(rng, vis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    S, W = vis.shape[1:]
    return rng.integers(1, 2**63, size=S, dtype=np.uint64), rng.integers(1, 2**63, size=(S, W), dtype=np.uint64)


@settings(max_examples=200, deadline=None)
@given(tables())
def test_fingerprints_as_the_reference(data) -> None:
    rng, ends, vis = data
    r1, r2 = hash_weights(rng, vis)
    assert np.array_equal(kern.fingerprints(ends, vis, r1, r2), ref.fingerprints(ends, vis, r1, r2))


@settings(max_examples=200, deadline=None)
@given(tables())
def test_loop_powers_as_the_reference(data) -> None:
    rng, ends, vis = data
    r1, r2 = hash_weights(rng, vis)
    out_e, out_v, out_h = power_buffers(vis)
    for k in range(ends.shape[0]):
        n = kern.loop_powers(ends, vis, k, r1, r2, out_e, out_v, out_h)
        assert_powers(out_e, out_v, n, ref.loop_powers(ends, vis, k))


def power_buffers(vis: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Buffers (ends, marks, fingerprints) for every power of a random table's fragments (4 S^2 + 4 rows: ample)."""
    S, W = vis.shape[1:]
    limit = 4 * S * S + 4
    return np.empty((limit, S), np.int32), np.empty((limit, S, W), np.uint64), np.empty(limit, np.uint64)


def assert_powers(out_e: np.ndarray, out_v: np.ndarray, n: int, rows: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """The kernel's n powers in the buffers are the reference's rows."""
    assert n == len(rows)
    for i, (e, v) in enumerate(rows):
        assert np.array_equal(out_e[i], e) and np.array_equal(out_v[i], v)


@settings(max_examples=200, deadline=None)
@given(tables(), st.data())
def test_trajectory_and_loop_children_as_the_reference(data, more) -> None:
    rng, ends, vis = data
    S, W = vis.shape[1:]
    s0 = more.draw(st.integers(0, S - 1))
    base = rng.integers(0, 2**63, size=W, dtype=np.uint64)
    seen = np.full(S, -1, np.int64)
    out_s = np.empty(S + 2, np.int64)
    out_v = np.empty((S + 2, W), np.uint64)
    for k in range(ends.shape[0]):
        mu, lam = kern.trajectory(ends, vis, k, s0, seen, out_s, out_v)
        states, marks, mu2, lam2 = ref.trajectory(ends, vis, k, s0)
        assert (mu, lam) == (mu2, lam2)
        assert out_s[: mu + lam + 1].tolist() == states
        assert all(np.array_equal(out_v[i], m) for i, m in enumerate(marks))
        assert (seen == -1).all()
    done, body, count, state, marks = kern.loop_children(ends, vis, s0, base, seen, out_s, out_v, 2**40)
    reference = ref.loop_children(ends, vis, s0, base)
    assert done == ends.shape[0]
    assert [(int(b), int(c), int(s), m.tobytes()) for b, c, s, m in zip(body, count, state, marks, strict=True)] == [
        (b, c, s, m.tobytes()) for b, c, s, m in reference
    ]
    # with a cap on the outcomes per call, the calls' outputs (bodies shifted by where each call began) add up to
    # the same list, each call within the cap unless a single fragment alone exceeds it
    cap = more.draw(st.integers(0, 8))
    pieces: list[tuple[int, int, int, bytes]] = []
    lo = 0
    while lo < ends.shape[0]:
        done, body, count, state, marks = kern.loop_children(ends[lo:], vis[lo:], s0, base, seen, out_s, out_v, cap)
        assert done >= 1 and (len(body) <= cap or done == 1)
        pieces += [
            (int(b) + lo, int(c), int(s), m.tobytes()) for b, c, s, m in zip(body, count, state, marks, strict=True)
        ]
        lo += done
    assert pieces == [(b, c, s, m.tobytes()) for b, c, s, m in reference]


@settings(max_examples=200, deadline=None)
@given(tables(), tables(), st.data())
def test_pair_covers_and_first_cover_as_the_reference(first, second, more) -> None:
    rng, ye, yv = first
    _, ge, gv = second
    S = min(ye.shape[1], ge.shape[1])
    W = min(yv.shape[2], gv.shape[2])
    ye, yv = np.ascontiguousarray(ye[:, :S] % S), np.ascontiguousarray(yv[:, :S, :W])
    ge, gv = np.ascontiguousarray(ge[:, :S] % S), np.ascontiguousarray(gv[:, :S, :W])
    goal = np.full(W, np.uint64(0b111))  # few bits, so that covering happens often enough to test
    yv, gv = yv & goal, gv & goal
    base = rng.integers(0, 8, size=W, dtype=np.uint64)
    yks = np.repeat(np.arange(ye.shape[0]), ge.shape[0] + 1)
    gks = np.tile(np.arange(-1, ge.shape[0]), ye.shape[0])
    s0 = more.draw(st.integers(0, S - 1))
    seen = np.full(S, -1, np.int64)
    scratch = np.empty(S + 1, np.int64)
    got = kern.pair_covers(ye, yv, yks, ge, gv, gks, s0, base, goal, seen, scratch)
    assert np.array_equal(got, ref.pair_covers(ye, yv, yks, ge, gv, gks, s0, base, goal))
    states = rng.integers(0, S, size=5)
    marks = rng.integers(0, 8, size=(5, W), dtype=np.uint64)
    assert np.array_equal(kern.first_cover(yv, states, marks, goal), ref.first_cover(yv, states, marks, goal))
    target(float(got.sum()))  # steer towards tables where some pairs do cover


@settings(max_examples=100, deadline=None)
@given(tables(), st.integers(1, 3))
def test_power_rows_resumed_in_small_steps_list_the_same_powers(data, step: int) -> None:
    rng, ends, vis = data
    r1, r2 = hash_weights(rng, vis)
    out_e, out_v, out_h = power_buffers(vis)
    for k in range(ends.shape[0]):
        n, status = 0, 1
        while status == 1:
            n, status, used = kern.power_rows(ends, vis, k, r1, r2, out_e, out_v, out_h, n, step)
            assert 1 <= used <= step
        assert status == 0
        assert_powers(out_e, out_v, n, ref.loop_powers(ends, vis, k))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 10**6)), max_size=40), st.booleans())
def test_fingerprint_map_is_a_dict(entries, clustered: bool) -> None:
    """The open-addressing map of the store (also with keys that all probe the same slot) behaves as a dict."""
    keys = np.zeros(kern.map_slots(max(1, len(entries))), np.uint64)
    rows = np.full(len(keys), -1, np.int64)
    expected: dict[int, int] = {}
    for h, row in entries:
        h = h * len(keys) % 2**64 if clustered else h  # multiples of the length: all start at slot 0
        kern.map_put(keys, rows, np.uint64(h), row)
        expected[h] = row
    assert ref.map_entries(keys, rows) == expected
    bigger_keys = np.zeros(2 * len(keys), np.uint64)
    bigger_rows = np.full(len(bigger_keys), -1, np.int64)
    kern.map_move(keys, rows, bigger_keys, bigger_rows)
    for h, row in expected.items():
        assert kern.map_get(bigger_keys, bigger_rows, np.uint64(h)) == row
    assert kern.map_get(bigger_keys, bigger_rows, np.uint64(12345678901)) in (-1, expected.get(12345678901))
