"""Answers as exact bits, for the tests that hold two routes of the engine to the same answer bit for bit."""
from __future__ import annotations

import dataclasses

import numpy as np


def float_bits(x) -> np.ndarray:
    """The float64 numbers of x as their 64-bit patterns: equal exactly when every number is the same bits (-0.0
    differs from 0.0; a NaN equals itself)."""
    return np.ascontiguousarray(np.asarray(x, np.float64)).view(np.uint64)


def contact_fields(contact) -> list:
    """Every field of a Contact, in its declared order: floats and arrays as the hex of their float64 bits, the rest
    (status, containment, flags, counts) by repr.  Two answers are the same bit for bit exactly when these lists
    are equal, and a failing comparison names the field."""
    out = []
    for field in dataclasses.fields(contact):
        value = getattr(contact, field.name)
        if isinstance(value, (float, np.floating, np.ndarray)):
            out.append((field.name, float_bits(value).tobytes().hex()))
        else:
            out.append((field.name, repr(value)))
    return out


def assert_same_answer(got, want, where=None) -> None:
    """Two answers the same bit for bit, every Contact field (`contact_fields`); a failure names the field and
    `where`."""
    for (name, a), (_, b) in zip(contact_fields(got), contact_fields(want)):
        assert a == b, (where, name)
