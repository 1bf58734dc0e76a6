"""tests/tiers.py names only tests that exist, so a renamed or moved test cannot drop out of its tier unseen.

(A stale entry marks nothing: the test it meant would run in `make check` again, or a heavy tier lose a file.)
"""
from pathlib import Path

import pytest

from tests.tiers import TIERS, tiers_of

TESTS = Path(__file__).resolve().parents[1]
ENTRIES = [(marker, entry) for marker, entries in TIERS.items() for entry in entries]


@pytest.mark.parametrize("marker, entry", ENTRIES, ids=[entry for _, entry in ENTRIES])
def test_every_entry_names_a_file_and_a_test_that_exist(marker, entry):
    path, _, rest = entry.partition("::")
    target = TESTS / path
    assert target.exists(), f"tests/tiers.py ({marker}): {path} does not exist"
    name = rest.split("[")[0]
    if name and "*" not in name:
        assert f"def {name}(" in target.read_text(), f"tests/tiers.py ({marker}): no {name} in {path}"


def test_ids_match_by_prefix_and_star():
    assert tiers_of("blender/test_modes.py::test_x") == {"blender"}
    assert tiers_of("core/test_corpus.py::test_no_exceptions") == {"corpora"}
    assert tiers_of("core/test_hull.py::test_hull_matches_qhull[10000 on a sphere]") == {"slow"}
    assert tiers_of("core/test_hull.py::test_hull_matches_qhull[4 points]") == set()
    assert tiers_of("core/test_mesh_nearly_convex.py::test_any[uv sphere 64x32-identical]") == {"slow"}
    assert tiers_of("core/test_analytic.py::test_sphere_sphere[0]") == set()
