"""The labels kept at one key cell, none dominating another (rule 2 of the package docstring)."""

from __future__ import annotations

import numpy as np


def _words(mask: int, words: int) -> np.ndarray:
    """A taken-torches mask as `words` little-endian 64-bit words. O(words)."""
    return np.frombuffer(mask.to_bytes(8 * words, "little"), "<u8")


class _Front:
    """The labels kept at one key cell: none dominates another (rule 2). O(size) per offer.

    Small fronts are plain lists; from `switch` labels on (never when `switch` is None),
    numpy arrays of the masks as `words` 64-bit words each do the pairwise
    test, which is the hot loop of the search on caves where many torches are
    close together.
    """

    __slots__ = (
        "torch_light",
        "switch",
        "words",
        "masks",
        "steps",
        "labels",
        "a_masks",
        "a_steps",
        "a_labels",
        "size",
    )

    def __init__(self, torch_light: int, switch: int | None, words: int = 1) -> None:
        self.torch_light = torch_light
        self.switch = switch
        self.words = words
        self.masks: list[int] = []
        self.steps: list[int] = []
        self.labels: list[int] = []
        self.a_masks: np.ndarray | None = None
        self.a_steps: np.ndarray | None = None
        self.a_labels: np.ndarray | None = None
        self.size = 0

    def offer(self, mask: int, steps: int, label: int) -> list[int] | None:
        """Add label (mask, steps) unless a kept label dominates it (then None); returns the labels it dominates."""
        if self.a_masks is not None:
            return self._offer_arrays(mask, steps, label)
        tl = self.torch_light
        masks, all_steps = self.masks, self.steps
        killed: list[int] = []
        for i in range(len(masks)):
            o_steps = all_steps[i]
            if o_steps <= steps and steps - o_steps >= tl * (mask & ~masks[i]).bit_count():
                return None
        for i in range(len(masks)):
            o_steps = all_steps[i]
            if steps <= o_steps and o_steps - steps >= tl * (masks[i] & ~mask).bit_count():
                killed.append(i)
        if killed:
            gone = set(killed)
            killed = [self.labels[i] for i in killed]
            keep = [i for i in range(len(masks)) if i not in gone]
            self.masks = [masks[i] for i in keep]
            self.steps = [all_steps[i] for i in keep]
            self.labels = [self.labels[i] for i in keep]
        self.masks.append(mask)
        self.steps.append(steps)
        self.labels.append(label)
        if self.switch is not None and len(self.masks) >= self.switch:
            self.size = len(self.masks)
            capacity = 4 * self.size
            self.a_masks = np.zeros((capacity, self.words) if self.words > 1 else capacity, np.uint64)
            self.a_steps = np.zeros(capacity, np.int64)
            self.a_labels = np.zeros(capacity, np.int64)
            for i, m in enumerate(self.masks):
                self.a_masks[i] = _words(m, self.words) if self.words > 1 else m
            self.a_steps[: self.size] = self.steps
            self.a_labels[: self.size] = self.labels
            self.masks, self.steps, self.labels = [], [], []
        return killed

    def _offer_arrays(self, mask: int, steps: int, label: int) -> list[int] | None:
        assert self.a_masks is not None and self.a_steps is not None and self.a_labels is not None
        size = self.size
        masks = self.a_masks[:size]
        all_steps = self.a_steps[:size]
        tl = self.torch_light
        wide = self.words > 1
        m = _words(mask, self.words) if wide else np.uint64(mask)
        slack = steps - all_steps  # >= 0: the kept label is no slower
        theirs = np.bitwise_count(m & ~masks)  # torches the new label has and a kept one has not
        if ((slack >= tl * (theirs.sum(axis=1) if wide else theirs)) & (slack >= 0)).any():
            return None
        mine = np.bitwise_count(masks & ~m)
        kill = (-slack >= tl * (mine.sum(axis=1) if wide else mine)) & (slack <= 0)
        killed: list[int] = []
        if kill.any():
            killed = self.a_labels[:size][kill].tolist()
            keep = ~kill
            size = int(keep.sum())
            self.a_masks[:size] = masks[keep]
            self.a_steps[:size] = all_steps[keep]
            self.a_labels[:size] = self.a_labels[: self.size][keep]
        if size == len(self.a_masks):
            self.a_masks = np.concatenate([self.a_masks, np.zeros_like(self.a_masks)])
            self.a_steps = np.concatenate([self.a_steps, np.zeros(size, np.int64)])
            self.a_labels = np.concatenate([self.a_labels, np.zeros(size, np.int64)])
        self.a_masks[size] = m
        self.a_steps[size] = steps
        self.a_labels[size] = label
        self.size = size + 1
        return killed
