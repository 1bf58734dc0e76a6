"""What a sweep record says about deformation, by hand: the frames whose contact happens only between two sampled
frames (the table's mark, and they survive the table's thinning), the "Deformation" row (a warning when only the
samples were seen), and the mirror's `deforming` / `deformation_followed`."""
from tests.addon_package import addon_module

motion = addon_module("results.motion")
record = addon_module("results.record")
S = addon_module("core").Status


def sweep(followed=True, objects=("Sheet",)):
    """Frames 1..60 all separated; between 30 and 31 a refined time 30.5 intersects; 45.25 is a key time
    sampled; a refined separated time 12.5."""
    samples = [record.SweepSample(frame=float(f), status=S.SEPARATED, distance=1.0) for f in range(1, 61)]
    samples += [record.SweepSample(frame=30.5, status=S.INTERSECTING, distance=-0.01),
                record.SweepSample(frame=30.4995, status=S.SEPARATED, distance=1e-6),
                record.SweepSample(frame=12.5, status=S.SEPARATED, distance=0.9),
                record.SweepSample(frame=45.25, status=S.SEPARATED, distance=0.8)]
    samples.sort(key=lambda s: s.frame)
    sampled = tuple(float(f) for f in range(1, 61)) + (45.25,)
    return record.SweepRecord(object_a="Slab", object_b="Sheet", samples=tuple(samples), first_contact_frame=30.4997,
                              deepest_frame=30.5, deepest_depth=0.01, closest_frame=30.4997, closest_distance=0.0,
                              extra={"sampled_frames": tuple(sorted(sampled)),
                                     "deformation": {"objects": objects, "followed": followed, "intervals": 3,
                                                     "largest_chord_error": 0.0}})


def test_between_samples_marks_only_the_frame_before_a_hidden_contact():
    assert motion.between_samples(sweep()) == {30.0}
    assert motion.table_frame_words(30.0, {30.0}) == "30 (contact after)"
    assert motion.table_frame_words(45.25, {30.0}) == "45.25"
    assert motion.between_samples(None) == set()


def test_thinned_table_keeps_the_marked_frame():
    frames = [row[0] for row in motion.sweep_table(sweep(), max_rows=10)]
    assert 30.0 in frames and 30.5 not in frames


def test_deformation_row_and_mirror():
    rows = {row.label: row for row in motion.sweep_rows(sweep())}
    assert rows["Deformation"].value == "Sheet: followed between samples"
    assert rows["Deformation"].kind is not addon_module("results.text").RowKind.WARNING
    warned = {row.label: row for row in motion.sweep_rows(sweep(followed=False))}["Deformation"]
    assert warned.value == "Sheet: samples only" and warned.kind.name == "WARNING"
    assert "Deformation" not in {row.label for row in motion.sweep_rows(sweep(objects=()))}
    values = motion.sweep_mirror_fields(sweep())
    assert values["deforming"] == "Sheet" and values["deformation_followed"]
    assert motion.sweep_mirror_fields(None)["deforming"] == ""
