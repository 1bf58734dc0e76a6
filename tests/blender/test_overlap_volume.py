"""The pair check's overlap volume through the real operator (Exact mode): two cubes overlapping by a known box,
one inside the other, apart, an open mesh, and Hull mode (not measured); the volume is analytic from the float32
data Blender stores, the mirror carries -1 when there is none, the readout row names the share and the overlay
has the region to draw."""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import check_pair, cube, mesh_object, result


def check(a, b, mode="EXACT"):
    bpy.context.scene.collision_inspector.mode = mode
    assert check_pair(a, b) == {"FINISHED"}
    return result()


def _overlap_1d(ca, ha, cb, hb):
    return max(0.0, min(ca + ha, cb + hb) - max(ca - ha, cb - hb))


@pytest.mark.parametrize("location, half_b", [((1.5, 0.25, -0.5), 1.0), ((0.2, 0.1, 0.0), 0.5),
                                              ((3.5, 0.0, 0.0), 1.0)])
def test_exact_pair_check_measures_the_overlap(addon_modules, location, half_b):
    a = cube("A", 1.0)
    b = cube("B", half_b, location=location)
    r = check(a, b)
    loc = [float(np.float32(x)) for x in location]
    truth = np.prod([_overlap_1d(0.0, 1.0, c, half_b) for c in loc])
    assert r.overlap_volume == pytest.approx(truth, rel=1e-6, abs=1e-9)  # the mirror is float32
    record = addon_modules.store.active_record()
    assert abs(record.overlap_volume - truth) <= 1e-9 * truth + 1e-12 * 3.5 ** 3
    assert record.volume_a == pytest.approx(8.0) and record.volume_b == pytest.approx(8 * half_b ** 3)
    row = {r.label: r.value for r in addon_modules.text.readout_rows(record)}["Overlap"]
    drawn = addon_modules.overlay.build_draw_data(record).region
    assert (len(drawn) > 0) == (truth > 0)
    if truth > 0:
        share = 100 * truth / min(8.0, 8 * half_b ** 3)
        assert row.endswith(f"{share:.3g} % of B" if half_b < 1.0 else f"{share:.3g} % of A")


def test_no_overlap_measured_outside_exact_mode_or_for_an_open_mesh(addon_modules):
    a = cube("A", 1.0)
    b = cube("B", 1.0, location=(1.0, 0.0, 0.0))
    assert check(a, b, mode="HULL").overlap_volume == -1.0
    assert addon_modules.store.active_record().overlap_volume is None
    half = 0.5
    verts = [(x, y, z) for x in (-half, half) for y in (-half, half) for z in (-half, half)]
    lidless = mesh_object("Lidless", verts, ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4)),
                          location=(0.5, 0.0, 0.0))
    assert check(a, lidless).overlap_volume == -1.0
    record = addon_modules.store.active_record()
    row = {r.label: r.value for r in addon_modules.text.readout_rows(record)}["Overlap"]
    assert row == "none: Lidless is open (no inside)"
